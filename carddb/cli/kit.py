"""``carddb kit``: a game's whole print-and-play kit, one PDF and its parts, checked after writing.

    carddb kit --game G --out DIR [--paper A4|Letter] [--deck FILE] [--booklet] [--stock S] [--sleeves S]
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import state
from carddb.cli.parsing import single, workspace_game

app = single()


@app.command("kit")
def kit(
    ctx: typer.Context,
    *,
    game_id: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game whose kit to make.")] = None,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="The folder to write <game>-kit.pdf and its parts into (made if missing).")],
    paper: Annotated[str, typer.Option("--paper", help="A4 or Letter.")] = "A4",
    deck: Annotated[Path | None, typer.Option(
        "--deck", help="A deck list to print and box instead of the game's sample decks.")] = None,
    booklet: Annotated[bool, typer.Option(
        "--booklet", help="The rulebook as a saddle-stitched booklet: A5 (half-Letter) pages imposed two to a "
        "side, printed double-sided on A4 (Letter), flipped on the short edge.")] = False,
    stock: Annotated[str, typer.Option(
        "--stock", help="What a printed card is, for the tuck box's depth: 80gsm, 120gsm, 160gsm, 210gsm, 250gsm, "
        "300gsm, backer (glued to a card), or a thickness in mm.")] = "160gsm",
    sleeves: Annotated[str, typer.Option(
        "--sleeves", help="none, penny, standard or premium: the tuck box holds sleeved cards.")] = "penny",
) -> None:
    """Make a game's print-and-play kit: cover, checklist, the rulebook typeset (or a booklet), quick-reference
    cards, the cards with backs, a tuck box sized to the deck and the game's pieces, each also a PDF of its own."""
    from carddb.kit.make import KIT_STEPS, KitOptions, kit_of_game

    st = state(ctx)
    options = KitOptions(paper=paper, booklet=booklet, stock=stock, sleeves=sleeves)
    with st.progress() as progress, progress.task(f"{game_id}: print-and-play kit", len(KIT_STEPS)) as task:
        result = kit_of_game(st.root, game_id, out, options, deck=deck, db=st.db, progress=lambda _step: task.advance())
    st.say(result.summary())
    for item in result.not_printed:
        typer.echo(f"not printed: {item}", err=True)
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
