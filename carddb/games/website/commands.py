"""``carddb play website``: Website TCG at the table (``carddb/games/website/play.py``). A site is written as its
base site and components joined by ``+``: ``"Neutral Base Card + Splash Page (Neutral) + Guestbook"``."""

from __future__ import annotations

from typing import Annotated

import typer

from carddb.cli.parsing import INTEGER
from carddb.cli.play_common import JsonFlag, game_group, run_helper
from carddb.errors import InputError

app = game_group()
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
    *,
    text: Annotated[str, typer.Argument(metavar='SITE', help=SITE_HELP)],
    as_json: JsonFlag = False,
) -> None:
    """A site's components (one of each name, types matching, requirements met) and its IP/GP/CP totals."""
    run_helper(ctx, GAME, "site", _site(text), as_json)


@app.command("critics")
def critics(
    ctx: typer.Context,
    *,
    sites: Annotated[list[str], typer.Argument(metavar='SITE...', help=SITE_HELP + ' Several sites: one each.')],
    short: Annotated[int, typer.Option(
        "--short", click_type=INTEGER, help="How far short of each of IP, GP and CP may count as met (Kathleen-The "
             "Helper: 10).")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Which critics of the catalogue the sites win over (a critic looks at one site only)."""
    run_helper(ctx, GAME, "critics", {"sites": [_site(s) for s in sites], "short": short}, as_json)


@app.command("missing")
def missing(
    ctx: typer.Context,
    *,
    critic: Annotated[str, typer.Argument(help="The critic, e.g. Graphics Guru.")],
    sites: Annotated[list[str], typer.Argument(metavar='SITE...', help=SITE_HELP)],
    short: Annotated[int, typer.Option(
        "--short", click_type=INTEGER, help="How far short may count as met (Kathleen-The Helper: 10).")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """What a critic still needs: the IP, GP and CP each site falls short."""
    run_helper(ctx, GAME, "missing", {"critic": critic, "sites": [_site(s) for s in sites], "short": short}, as_json)


@app.command("win")
def win(
    ctx: typer.Context,
    *,
    points: Annotated[int | None, typer.Option("--points", click_type=INTEGER, help="Your critic points.")] = None,
    critics_won: Annotated[list[str] | None, typer.Option(
        "--critic", help="A critic you have won over (repeat; its points are added).")] = None,
    components: Annotated[int | None, typer.Option(
        "--components", click_type=INTEGER, help="Components on all your base sites.")] = None,
    deck: Annotated[int | None, typer.Option(
        "--deck", click_type=INTEGER, help="Cards in your deck at the start of your turn.")] = None,
    opponent_points: Annotated[int | None, typer.Option(
        "--opponent-points", click_type=INTEGER, help="Your opponent's critic points.")] = None,
    opponent_critics: Annotated[list[str] | None, typer.Option(
        "--opponent-critic", help="A critic your opponent won (repeat).")] = None,
    opponent_components: Annotated[int | None, typer.Option(
        "--opponent-components", click_type=INTEGER, help="Components on your opponent's base sites.")] = None,
    opponent_deck: Annotated[int | None, typer.Option(
        "--opponent-deck", click_type=INTEGER, help="Cards in your opponent's deck at the start of "
                                                    "their turn.")] = None,
    turn_starts: Annotated[str, typer.Option("--turn-starts", help="Whose turn is starting: you or opponent.")] = "",
    as_json: JsonFlag = False,
) -> None:
    """Whether a player has won: 100 critic points, an opponent without components, or without cards to draw."""
    run_helper(ctx, GAME, "win", {
        "points": points, "critics": critics_won or [], "components": components, "deck": deck,
        "opponent_points": opponent_points, "opponent_critics": opponent_critics or [],
        "opponent_components": opponent_components, "opponent_deck": opponent_deck, "turn_starts": turn_starts},
        as_json)


# ------------------------------------------------------------------------ what stays in play (persistence.py)
NATASHAS_HELP = "Natasha-The Defender cards on the card, each on the one before (the FAQ's stack)."
PROGRAMMER_HELP = "Alan-The Programmer is in play for the card's player (their components cannot be removed)."


@app.command("favour")
def favour(
    ctx: typer.Context,
    *,
    critics: Annotated[list[str], typer.Argument(metavar="CRITIC...", help="The critics you have won over.")],
    sites: Annotated[list[str], typer.Option("--site", help=SITE_HELP + " Your site as it is now (repeat).")],
    as_json: JsonFlag = False,
) -> None:
    """Whether critics won over stay won when your sites' totals fall (they never lose favour)."""
    run_helper(ctx, GAME, "favour", {"critics": list(critics), "sites": [_site(s) for s in sites]}, as_json)


@app.command("remove")
def remove(
    ctx: typer.Context,
    *,
    removal: Annotated[str, typer.Argument(help="The removal card, e.g. Site Hacker or Spam Flood.")],
    targets: Annotated[list[str] | None, typer.Argument(
        metavar="CARD", help="The card in play to remove; none: what the removal may remove.")] = None,
    natashas: Annotated[int, typer.Option("--natashas", click_type=INTEGER, help=NATASHAS_HELP)] = 0,
    programmer: Annotated[bool, typer.Option("--programmer", help=PROGRAMMER_HELP)] = False,
    as_json: JsonFlag = False,
) -> None:
    """What a removal card may remove, and whether it removes a card in play."""
    run_helper(ctx, GAME, "remove", {"removal": removal, "targets": targets or [], "natashas": natashas,
                                     "programmer": programmer}, as_json)


@app.command("natasha")
def natasha(
    ctx: typer.Context,
    *,
    target: Annotated[str, typer.Argument(help="The card in play the Natashas protect.")],
    natashas: Annotated[int, typer.Option("--natashas", click_type=INTEGER, help=NATASHAS_HELP)] = 1,
    programmer: Annotated[bool, typer.Option("--programmer", help=PROGRAMMER_HELP)] = False,
    theirs: Annotated[bool, typer.Option("--theirs", help="You played the Natashas on your opponent's card.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Natashas stacked on a card: the removals it takes to remove it, top Natasha first."""
    run_helper(ctx, GAME, "natasha", {"target": target, "natashas": natashas, "programmer": programmer,
                                      "theirs": theirs}, as_json)
