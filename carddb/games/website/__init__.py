"""Website TCG: its play helpers (``play.py`` and ``persistence.py`` over ``sites.py``, pure), each described by its
typed signature (its command ``carddb play website ...`` and its form on the Play page come from it), registered once
under the ``carddb.games`` entry points."""

from carddb.core.play.registry import GamePlugin, PlayKey

#: The keys of its game.toml's [play] table (checked when the game is read; docs/game-definition.md).
PLAY_KEYS = {
    "win_points": PlayKey(int, "The critic points that win."),
    "setup_cards": PlayKey(int, "The cards looked at to set up."),
    "hand_size": PlayKey(int, "The cards of a hand."),
    "base_sites_per_turn": PlayKey(int, "The base sites played a turn."),
    "draws_per_turn": PlayKey(int, "The cards drawn in the draw step."),
}

PLUGIN = GamePlugin(
    game="website",
    play=PLAY_KEYS,
    helpers="carddb.games.website.play",
    engine=("carddb.games.website.persistence", "carddb.games.website.sites"),
    summary="Website TCG: a site's totals, critics won, what a critic needs, winning, setup, a turn's limits, "
            "what stays in play (favour, removals, Natasha).",
)
