"""``carddb play website``: Website TCG at the table (``carddb/games/website/play.py``). A site is written as its
base site and components joined by ``+``: ``"Neutral Base Card + Splash Page (Neutral) + Guestbook"``."""

from __future__ import annotations

import click

from carddb.cli.parsing import INTEGER, argument, option
from carddb.cli.play_common import game_group, json_option, run_helper
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
@argument("text", metavar='SITE', help=SITE_HELP)
@json_option
@click.pass_context
def site(ctx: click.Context, text: str, as_json: bool) -> None:
    """A site's components (one of each name, types matching, requirements met) and its IP/GP/CP totals."""
    run_helper(ctx, GAME, "site", _site(text), as_json)


@app.command("critics")
@argument("sites", nargs=-1, required=True, metavar='SITE...', help=SITE_HELP + ' Several sites: one each.')
@option("--short", type=INTEGER, default=0,
              help="How far short of each of IP, GP and CP may count as met (Kathleen-The Helper: 10).")
@json_option
@click.pass_context
def critics(
    ctx: click.Context,
    sites: tuple[str, ...],
    short: int,
    as_json: bool,
) -> None:
    """Which critics of the catalogue the sites win over (a critic looks at one site only)."""
    run_helper(ctx, GAME, "critics", {"sites": [_site(s) for s in sites], "short": short}, as_json)


@app.command("missing")
@argument("critic", help="The critic, e.g. Graphics Guru.")
@argument("sites", nargs=-1, required=True, metavar='SITE...', help=SITE_HELP)
@option("--short", type=INTEGER, default=0, help="How far short may count as met (Kathleen-The Helper: 10).")
@json_option
@click.pass_context
def missing(
    ctx: click.Context,
    critic: str,
    sites: tuple[str, ...],
    short: int,
    as_json: bool,
) -> None:
    """What a critic still needs: the IP, GP and CP each site falls short."""
    run_helper(ctx, GAME, "missing", {"critic": critic, "sites": [_site(s) for s in sites], "short": short}, as_json)


@app.command("win")
@option("--points", type=INTEGER, help="Your critic points.")
@option("--critic", "critics_won", multiple=True,
              help="A critic you have won over (repeat; its points are added).")
@option("--components", type=INTEGER, help="Components on all your base sites.")
@option("--deck", type=INTEGER, help="Cards in your deck at the start of your turn.")
@option("--opponent-points", type=INTEGER, help="Your opponent's critic points.")
@option("--opponent-critic", "opponent_critics", multiple=True, help="A critic your opponent won (repeat).")
@option("--opponent-components", type=INTEGER, help="Components on your opponent's base sites.")
@option("--opponent-deck", type=INTEGER, help="Cards in your opponent's deck at the start of their turn.")
@option("--turn-starts", default="", help="Whose turn is starting: you or opponent.")
@json_option
@click.pass_context
def win(
    ctx: click.Context,
    points: int,
    critics_won: tuple[str, ...],
    components: int,
    deck: int,
    opponent_points: int,
    opponent_critics: tuple[str, ...],
    opponent_components: int,
    opponent_deck: int,
    turn_starts: str,
    as_json: bool,
) -> None:
    """Whether a player has won: 100 critic points, an opponent without components, or without cards to draw."""
    run_helper(ctx, GAME, "win", {
        "points": points, "critics": critics_won or [], "components": components, "deck": deck,
        "opponent_points": opponent_points, "opponent_critics": opponent_critics or [],
        "opponent_components": opponent_components, "opponent_deck": opponent_deck, "turn_starts": turn_starts},
        as_json)


@app.command("setup")
@argument("base", help="The starting base site.")
@argument("top", nargs=-1, required=True, help="The top 5 cards of the deck.")
@json_option
@click.pass_context
def setup(
    ctx: click.Context,
    base: str,
    top: tuple[str, ...],
    as_json: bool,
) -> None:
    """Setup: attach the components among the top 5 cards that fit the base site, then draw 7."""
    run_helper(ctx, GAME, "setup", {"base": base, "top": top}, as_json)


@app.command("turn")
@option("--base-site", "base_sites", multiple=True, help="A base site played from the hand (repeat).")
@option("--searches", type=INTEGER, default=0, help="Deck or discard pile searches this turn.")
@option("--draws", type=INTEGER, default=1, help="Cards drawn in the draw step.")
@json_option
@click.pass_context
def turn(
    ctx: click.Context,
    base_sites: tuple[str, ...],
    searches: int,
    draws: int,
    as_json: bool,
) -> None:
    """A turn's limits: one draw, one base site from the hand, a shuffle after every search."""
    run_helper(ctx, GAME, "turn", {"base_sites": base_sites or [], "searches": searches, "draws": draws}, as_json)


# ------------------------------------------------------------------------ what stays in play (persistence.py)
NATASHAS_HELP = "Natasha-The Defender cards on the card, each on the one before (the FAQ's stack)."
PROGRAMMER_HELP = "Alan-The Programmer is in play for the card's player (their components cannot be removed)."


@app.command("favour")
@argument("critics", nargs=-1, required=True, metavar="CRITIC...", help="The critics you have won over.")
@option("--site", "sites", multiple=True, required=True, help=SITE_HELP + " Your site as it is now (repeat).")
@json_option
@click.pass_context
def favour(ctx: click.Context, critics: tuple[str, ...], sites: tuple[str, ...], as_json: bool) -> None:
    """Whether critics won over stay won when your sites' totals fall (they never lose favour)."""
    run_helper(ctx, GAME, "favour", {"critics": list(critics), "sites": [_site(s) for s in sites]}, as_json)


@app.command("remove")
@argument("removal", help="The removal card, e.g. Site Hacker or Spam Flood.")
@argument("targets", nargs=-1, metavar="CARD", help="The card in play to remove; none: what the removal may remove.")
@option("--natashas", type=INTEGER, default=0, help=NATASHAS_HELP)
@option("--programmer", is_flag=True, help=PROGRAMMER_HELP)
@json_option
@click.pass_context
def remove(ctx: click.Context, removal: str, targets: tuple[str, ...], natashas: int, programmer: bool,
           as_json: bool) -> None:
    """What a removal card may remove, and whether it removes a card in play."""
    run_helper(ctx, GAME, "remove", {"removal": removal, "targets": list(targets), "natashas": natashas,
                                     "programmer": programmer}, as_json)


@app.command("natasha")
@argument("target", help="The card in play the Natashas protect.")
@option("--natashas", type=INTEGER, default=1, help=NATASHAS_HELP)
@option("--programmer", is_flag=True, help=PROGRAMMER_HELP)
@option("--theirs", is_flag=True, help="You played the Natashas on your opponent's card.")
@json_option
@click.pass_context
def natasha(ctx: click.Context, target: str, natashas: int, programmer: bool, theirs: bool, as_json: bool) -> None:
    """Natashas stacked on a card: the removals it takes to remove it, top Natasha first."""
    run_helper(ctx, GAME, "natasha", {"target": target, "natashas": natashas, "programmer": programmer,
                                      "theirs": theirs}, as_json)
