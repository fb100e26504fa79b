"""Pokemon Mini-Battle: its play helpers (``play.py``, pure), their commands (``commands.py``, ``carddb play
minibattle``) and the forms of its Play page on the site (``forms.py``), registered once under the ``carddb.games``
entry points."""

from carddb.core.play.registry import GamePlugin

PLUGIN = GamePlugin(
    game="minibattle",
    helpers="carddb.games.minibattle.play",
    engine=("carddb.games.minibattle.knockout", "carddb.games.minibattle.pokemon"),
    commands="carddb.games.minibattle.commands:app",
    forms="carddb.games.minibattle.forms",
    summary="Pokemon Mini-Battle: an attack's exact odds, between turns, what may be played, the opening hand, "
            "knock-outs and victory.",
)
