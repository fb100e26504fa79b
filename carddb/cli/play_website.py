"""``carddb play website``: Website TCG at the table (``carddb/rules/website_play.py``). A site is written as its
base site and components joined by ``+``: ``"Neutral Base Card + Splash Page (Neutral) + Guestbook"``."""

from __future__ import annotations

import typer

from carddb.cli.play_common import JSON_OPTION, game_options, run_helper
from carddb.errors import InputError

app = typer.Typer(no_args_is_help=True, callback=game_options)
GAME = "website"
SITE_HELP = 'A site: its base site and components in play order, joined by +: "Neutral Base Card + Guestbook".'


def _site(text: str) -> dict[str, object]:
    parts = [p.strip() for p in text.split("+")]
    if not parts or not parts[0]:
        raise InputError(f"{text!r}: write a site as its base site and components joined by +")
    return {"base": parts[0], "components": [p for p in parts[1:] if p]}


@app.command("site")
def site(
    ctx: typer.Context,
    text: str = typer.Argument(..., metavar="SITE", help=SITE_HELP),
    as_json: bool = JSON_OPTION,
) -> None:
    """A site's components (one of each name, types matching, requirements met) and its IP/GP/CP totals."""
    run_helper(ctx, GAME, "site", _site(text), as_json)


@app.command("critics")
def critics(
    ctx: typer.Context,
    sites: list[str] = typer.Argument(..., metavar="SITE...", help=SITE_HELP + " Several sites: one each."),
    short: int = typer.Option(0, "--short", help="How far short of each of IP, GP and CP may count as met "
                                                 "(Kathleen-The Helper: 10)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Which critics of the catalogue the sites win over (a critic looks at one site only)."""
    run_helper(ctx, GAME, "critics", {"sites": [_site(s) for s in sites], "short": short}, as_json)


@app.command("missing")
def missing(
    ctx: typer.Context,
    critic: str = typer.Argument(..., help="The critic, e.g. Graphics Guru."),
    sites: list[str] = typer.Argument(..., metavar="SITE...", help=SITE_HELP),
    short: int = typer.Option(0, "--short", help="How far short may count as met (Kathleen-The Helper: 10)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """What a critic still needs: the IP, GP and CP each site falls short."""
    run_helper(ctx, GAME, "missing", {"critic": critic, "sites": [_site(s) for s in sites], "short": short}, as_json)


@app.command("win")
def win(
    ctx: typer.Context,
    points: int = typer.Option(None, "--points", help="Your critic points."),
    critics_won: list[str] = typer.Option(None, "--critic", help="A critic you have won over (repeat; its points "
                                                                 "are added)."),
    components: int = typer.Option(None, "--components", help="Components on all your base sites."),
    deck: int = typer.Option(None, "--deck", help="Cards in your deck at the start of your turn."),
    opponent_points: int = typer.Option(None, "--opponent-points", help="Your opponent's critic points."),
    opponent_critics: list[str] = typer.Option(None, "--opponent-critic", help="A critic your opponent won (repeat)."),
    opponent_components: int = typer.Option(None, "--opponent-components", help="Components on your opponent's "
                                                                                "base sites."),
    opponent_deck: int = typer.Option(None, "--opponent-deck", help="Cards in your opponent's deck at the start of "
                                                                    "their turn."),
    turn_starts: str = typer.Option("", "--turn-starts", help="Whose turn is starting: you or opponent."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Whether a player has won: 100 critic points, an opponent without components, or without cards to draw."""
    run_helper(ctx, GAME, "win", {
        "points": points, "critics": critics_won or [], "components": components, "deck": deck,
        "opponent_points": opponent_points, "opponent_critics": opponent_critics or [],
        "opponent_components": opponent_components, "opponent_deck": opponent_deck, "turn_starts": turn_starts},
        as_json)


@app.command("setup")
def setup(
    ctx: typer.Context,
    base: str = typer.Argument(..., help="The starting base site."),
    top: list[str] = typer.Argument(..., help="The top 5 cards of the deck."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Setup: attach the components among the top 5 cards that fit the base site, then draw 7."""
    run_helper(ctx, GAME, "setup", {"base": base, "top": top}, as_json)


@app.command("turn")
def turn(
    ctx: typer.Context,
    base_sites: list[str] = typer.Option(None, "--base-site", help="A base site played from the hand (repeat)."),
    searches: int = typer.Option(0, "--searches", help="Deck or discard pile searches this turn."),
    draws: int = typer.Option(1, "--draws", help="Cards drawn in the draw step."),
    as_json: bool = JSON_OPTION,
) -> None:
    """A turn's limits: one draw, one base site from the hand, a shuffle after every search."""
    run_helper(ctx, GAME, "turn", {"base_sites": base_sites or [], "searches": searches, "draws": draws}, as_json)
