"""Shmod: its play helpers (``play.py`` with ``battles.py`` and ``interactions.py``, pure), each described by its typed
signature (its command ``carddb play shmod ...`` and its form on the Play page come from it), registered once under
the ``carddb.games`` entry points."""

from carddb.core.play.registry import GamePlugin, PlayKey

#: The keys of its game.toml's [play] table (checked when the game is read; docs/game-definition.md).
PLAY_KEYS = {
    "life": PlayKey(int, "Each player's Life at the start."),
    "opening_hand": PlayKey(int, "The cards of the opening hand."),
    "battle_damage": PlayKey(int, "The Life a player loses to a monster attacked directly."),
    "charges_per_turn": PlayKey(int, "The mana charges a turn."),
    "equal_atk_def": PlayKey(str,
                             "An attack whose ATK equals the DEF: nothing, destroy-defender or attacker-takes-damage."),
    "mana_exempt": PlayKey("strings", "The TYPEs that need no mana of their own."),
    "mana_any_colour": PlayKey("strings", "The TYPEs whose mana pays any colour."),
    "attacks_per_monster": PlayKey(int, "The attacks a monster makes a Battle Phase."),
    "lose_at_life": PlayKey(int, "The Life at which a player loses."),
    "atk_floor": PlayKey(int, "The lowest ATK a change leaves."),
    "immunity_stops_battle": PlayKey(bool, "Whether an Immunity to Monsters also stops the battle table."),
    "equip_leaves_with_monster": PlayKey(bool, "Whether an Equip card leaves with its monster."),
    "field_replaced_by": PlayKey(str, "Who may replace a Field card: any-player or same-player."),
    "fusion_from": PlayKey("strings", "Where Fusion materials come from: hand, field."),
    "transformation_from": PlayKey("strings", "Where Transformation materials come from: hand, field."),
}

PLUGIN = GamePlugin(
    game="shmod",
    play=PLAY_KEYS,
    helpers="carddb.games.shmod.play",
    engine=("carddb.games.shmod.battles", "carddb.games.shmod.interactions"),
    summary="Shmod: battles, a Battle Phase and ATK changed in it, mana, a turn's limits, Immunity, how long cards "
            "stay, Fusion.",
)
