"""Website TCG: its play helpers (``play.py``, pure), their commands (``commands.py``, ``carddb play website``) and the
forms of its Play page on the site (``forms.py``), registered once under the ``carddb.games`` entry points."""

from carddb.core.play.registry import GamePlugin

PLUGIN = GamePlugin(
    game="website",
    helpers="carddb.games.website.play",
    engine=("carddb.games.website.persistence", "carddb.games.website.sites"),
    commands="carddb.games.website.commands:app",
    forms="carddb.games.website.forms",
    summary="Website TCG: a site's totals, critics won, what a critic needs, winning, setup, a turn's limits, "
            "what stays in play (favour, removals, Natasha).",
)
