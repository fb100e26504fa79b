"""Shmod: its play helpers (``play.py`` with ``battles.py`` and ``interactions.py``, pure), their commands
(``commands.py``, ``carddb play shmod``) and the forms of its Play page on the site (``forms.py``), registered once
under the ``carddb.games`` entry points."""

from carddb.core.play.registry import GamePlugin

PLUGIN = GamePlugin(
    game="shmod",
    helpers="carddb.games.shmod.play",
    engine=("carddb.games.shmod.battles", "carddb.games.shmod.interactions"),
    commands="carddb.games.shmod.commands:app",
    forms="carddb.games.shmod.forms",
    summary="Shmod: battles, a Battle Phase and ATK changed in it, mana, a turn's limits, Immunity, how long cards "
            "stay, Fusion.",
)
