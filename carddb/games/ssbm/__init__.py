"""Super Smash Bros. Melee CCG: its play helpers (``play.py``, with the interrupt chains of ``chains.py`` and what
follows a KO in ``knockout.py``, all pure), their commands (``commands.py``, ``carddb play
ssbm``) and the forms of its Play page on the site (``forms.py``), registered once under the ``carddb.games`` entry
points."""

from carddb.core.play.registry import GamePlugin

PLUGIN = GamePlugin(
    game="ssbm",
    helpers="carddb.games.ssbm.play",
    engine=("carddb.games.ssbm.chains", "carddb.games.ssbm.knockout"),
    commands="carddb.games.ssbm.commands:app",
    forms="carddb.games.ssbm.forms",
    summary=("Super Smash Bros. Melee CCG: damage and combos, damage taken, KO and recovery, interrupt chains, "
             "after a KO, turn order, the play phase, discarding, match scores."),
)
