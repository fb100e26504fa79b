"""Super Smash Bros. Melee CCG: its play helpers (``play.py``, with the interrupt chains of ``chains.py`` and what
follows a KO in ``knockout.py``, all pure), registered once under the ``carddb.games`` entry points. Each helper's
typed signature in ``play.py`` is also its command (``carddb play ssbm ...``) and its form on the site's Play page."""

from carddb.core.play.registry import GamePlugin, PlayKey

#: The keys of its game.toml's [play] table (checked when the game is read; docs/game-definition.md).
PLAY_KEYS = {
    "combo_step": PlayKey(int, "The D each successive hit adds: 1 for +1D, +2D, ..."),
    "damage_flip": PlayKey(str, "The cards a hit flips: half (the rulebook's detail) or full (its turn summary)."),
    "recovery_stages": PlayKey("ints", "The most damage above ENDURANCE one and two recovery cards save: [30, 50]."),
    "ko_counts_attack_damage": PlayKey(bool, "Whether a KO counts the attack's own damage."),
    "not_in_play_phase": PlayKey("strings", "The card names that cannot be played in the play phase."),
    "uninterruptible_types": PlayKey("strings", "The card types that cannot be interrupted (Charge, Item)."),
    "uninterruptible_flags": PlayKey("strings", "The flags that make a card uninterruptible."),
    "discards_per_turn": PlayKey(int, "How many times a turn a card may be discarded to draw."),
    "draw_two_discards": PlayKey("strings", "The card names a discard draws two for (dodge and block cards)."),
    "time_points": PlayKey(dict, "TIME's points: { ko, knocked_out, self_destruct }."),
    "draw_stat": PlayKey(str, "The stat of the cards drawn a turn."),
    "hand_stat": PlayKey(str, "The stat of the starting hand."),
    "recovery_same_card_twice": PlayKey(bool, "Whether two cards of the same recovery icons (two Mario's Coin "
                                              "Jumps) may recover."),
    "stock": PlayKey(int, "The stock each player starts with."),
    "block_cards": PlayKey("strings", "The cards an unblockable card stops."),
    "recovery_beats_unreversible": PlayKey(bool, "Whether a recovery card interrupts an unreversible KO card."),
}

PLUGIN = GamePlugin(
    game="ssbm",
    play=PLAY_KEYS,
    helpers="carddb.games.ssbm.play",
    engine=("carddb.games.ssbm.chains", "carddb.games.ssbm.knockout"),
    summary=("Super Smash Bros. Melee CCG: damage and combos, damage taken, KO and recovery, interrupt chains, "
             "after a KO, turn order, the play phase, discarding, match scores."),
)
