"""Super Smash Quest (Skirmish), a game without decks: a turn and initiative (``turn.py``), what happens around turns
(``fight.py``), the odds and items helpers (``play.py``), movement in a turn (``movement.py``), the percentile
moves (``percentile.py``), lives, Game Over and the one Smash Power a turn (``lives.py``), all pure; the commands
of ``carddb ssq`` and ``carddb play ssq`` (``commands.py``); the turn calculator page that stands in for a deck
builder (``page.py``, ``forms.py``) and its entry points in the browser (``browser.py``)."""

from carddb.core.play.registry import GamePlugin

PLUGIN = GamePlugin(
    game="ssq",
    helpers="carddb.games.ssq.play",
    engine=("carddb.games.ssq.turn", "carddb.games.ssq.fight", "carddb.games.ssq.browser",
            "carddb.games.ssq.movement", "carddb.games.ssq.percentile", "carddb.games.ssq.lives"),
    commands="carddb.games.ssq.commands:app",
    turn_page="carddb.games.ssq.page:turn_page",
    summary=("Super Smash Quest: a turn, initiative, clashes, charging, Smash Points, recovery, hit odds, items, "
             "movement, percentile moves, lives."),
)
