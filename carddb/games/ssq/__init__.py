"""Super Smash Quest (Skirmish), a game without decks: a turn and initiative (``turn.py``), what happens around turns
(``fight.py``), the odds and items (``play.py``), movement in a turn (``movement.py``), the percentile moves
(``percentile.py``), lives, Game Over and the one Smash Power a turn (``lives.py``), all pure. Each helper is described
by its typed signature (``play.py``, and ``table.py`` for a turn and around it): its command ``carddb play ssq ...``
and its form come from it, as for every game; the site's page of a game without decks, the turn calculator, is its
helpers' forms."""

from carddb.core.play.registry import GamePlugin, PlayKey

#: The keys of its game.toml's [play] table (checked when the game is read; docs/game-definition.md).
PLAY_KEYS = {
    "items_held": PlayKey(int, "The items a fighter holds at once."),
    "items_not_counted": PlayKey("strings",
                                 "Names of items not counted (an item whose name is, starts or ends with one)."),
    "walk_rounding": PlayKey(str, "A walk of an odd Movement rounds down or up."),
    "percentile_moves": PlayKey(dict, "By move name: { divide_by = 10 } or { table = [{ from, item, power }, ...] }."),
    "game_over_coins_divisor": PlayKey(int, "A Game Over loses the coins divided by this (2: half)."),
    "game_over_coins_rounding": PlayKey(str, "A part coin of the loss rounds down or up."),
    "game_over_sessions_out": PlayKey(int, "The sessions sat out after the current one."),
    "lives_on_return": PlayKey(int, "The lives a fighter comes back with."),
}

PLUGIN = GamePlugin(
    game="ssq",
    play=PLAY_KEYS,
    helpers="carddb.games.ssq.play",
    engine=("carddb.games.ssq.turn", "carddb.games.ssq.fight", "carddb.games.ssq.table", "carddb.games.ssq.movement",
            "carddb.games.ssq.percentile", "carddb.games.ssq.lives"),
    summary=("Super Smash Quest: a turn, initiative, clashes, charging, Smash Points, recovery, hit odds, items, "
             "movement, percentile moves, lives."),
)
