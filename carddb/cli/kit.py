"""``carddb kit``: a game's whole print-and-play kit, one PDF and its parts, checked after writing.

    carddb kit --game G --out DIR [--paper A4|Letter] [--deck FILE] [--booklet] [--stock S] [--sleeves S]
"""

from __future__ import annotations

from pathlib import Path

import click

from carddb.cli.common import state
from carddb.cli.parsing import PATH, GameOption, command, option


@command("kit")
@option("--game", "-g", "game_id", cls=GameOption, required=True, help="The game whose kit to make.")
@option("--out", "-o", type=PATH, required=True,
        help="The folder to write <game>-kit.pdf and its parts into (made if missing).")
@option("--paper", default="A4", help="A4 or Letter.")
@option("--deck", type=PATH, help="A deck list to print and box instead of the game's sample decks.")
@option("--booklet", is_flag=True,
        help="The rulebook as a saddle-stitched booklet: A5 (half-Letter) pages imposed two to a side, printed "
             "double-sided on A4 (Letter), flipped on the short edge.")
@option("--stock", default="160gsm",
        help="What a printed card is, for the tuck box's depth: 80gsm, 120gsm, 160gsm, 210gsm, 250gsm, 300gsm, "
             "backer (glued to a card), or a thickness in mm.")
@option("--sleeves", default="penny", help="none, penny, standard or premium: the tuck box holds sleeved cards.")
@click.pass_context
def kit(ctx: click.Context, game_id: str, out: Path, paper: str, deck: Path | None, booklet: bool, stock: str,
        sleeves: str) -> None:
    """Make a game's print-and-play kit: cover, checklist, the rulebook typeset (or a booklet), quick-reference
    cards, the cards with backs, a tuck box sized to the deck and the game's pieces, each also a PDF of its own."""
    from carddb.kit.make import KIT_STEPS, KitOptions, kit_of_game

    st = state(ctx)
    options = KitOptions(paper=paper, booklet=booklet, stock=stock, sleeves=sleeves)
    with st.progress() as progress, progress.task(f"{game_id}: print-and-play kit", len(KIT_STEPS)) as task:
        result = kit_of_game(st.root, game_id, out, options, deck=deck, db=st.db, progress=lambda _step: task.advance())
    st.say(result.summary())
    for item in result.not_printed:
        click.echo(f"not printed: {item}", err=True)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
