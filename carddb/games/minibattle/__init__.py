"""Pokemon Mini-Battle: its play helpers (``play.py`` with ``knockout.py`` and ``pokemon.py``, pure), each described by
its typed signature (its command ``carddb play minibattle ...`` and its form on the Play page come from it),
registered once under the ``carddb.games`` entry points."""

from carddb.core.play.registry import GamePlugin, PlayKey

#: The keys of its game.toml's [play] table (checked when the game is read; docs/game-definition.md).
PLAY_KEYS = {
    "opening_hand": PlayKey(int, "The cards of the opening hand."),
    "battling_max": PlayKey(int, "The Battling Pokemon a player may have."),
    "basics_per_turn": PlayKey(int, "The basic Pokemon played a turn."),
    "evolutions_per_turn": PlayKey(int, "The evolutions played a turn."),
    "paralysis_chance": PlayKey(int, "The chance (percent) a paralysed Pokemon cannot attack."),
    "confusion_chance": PlayKey(int, "The chance (percent) a confused Pokemon hurts itself."),
    "sleep_wake_chance": PlayKey(int, "The chance (percent) a sleeping Pokemon wakes up between turns."),
    "poison_damage": PlayKey(int, "The damage poison deals between turns."),
    "max_chance": PlayKey(int, "The highest chance (percent), 100."),
    "effect_chance_scope": PlayKey(str, "Which chances an effect changes: all or own-side."),
}

PLUGIN = GamePlugin(
    game="minibattle",
    play=PLAY_KEYS,
    helpers="carddb.games.minibattle.play",
    engine=("carddb.games.minibattle.knockout", "carddb.games.minibattle.pokemon"),
    summary="Pokemon Mini-Battle: an attack's exact odds, between turns, what may be played, the opening hand, "
            "knock-outs and victory.",
)
