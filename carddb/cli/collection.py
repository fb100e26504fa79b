"""``carddb collection``: a player's cards (add, remove, show, import); ``deck check --collection`` uses them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import State, print_table, state
from carddb.cli.parsing import group, integer, workspace_game
from carddb.core.limits import MAX_COPIES
from carddb.files.reading import read_deck_file

app = group(help="A player's cards: add, remove, show, import.")


@app.command("add")
def add(
    ctx: typer.Context,
    *,
    name: Annotated[str, typer.Argument(help="The collection (a player's name).")],
    card: Annotated[str, typer.Argument(help="The card, e.g. 'Splash Page (Neutral)'.")],
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the card belongs to.")] = None,
    count: Annotated[int, typer.Option(
        "--count", "-n", click_type=integer(1, MAX_COPIES), help="How many copies.")] = 1,
) -> None:
    """Add copies of a card to a collection (created on first use)."""
    from carddb.catalogue.collections import add_cards

    for key, total in add_cards(state(ctx).catalogue(), game, name, [(card, count)]).items():
        typer.echo(f"{name} now holds {total} {key}.")


@app.command("remove")
def remove(
    ctx: typer.Context,
    *,
    name: Annotated[str, typer.Argument(help="The collection (a player's name).")],
    card: Annotated[str, typer.Argument(help="The card, e.g. 'Splash Page (Neutral)'.")],
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the card belongs to.")] = None,
    count: Annotated[int, typer.Option(
        "--count", "-n", click_type=integer(1, MAX_COPIES), help="How many copies.")] = 1,
) -> None:
    """Remove copies of a card from a collection."""
    from carddb.catalogue.collections import add_cards

    for key, total in add_cards(state(ctx).catalogue(), game, name, [(card, -count)]).items():
        typer.echo(f"{name} now holds {total} {key}.")


@app.command("import")
def import_(
    ctx: typer.Context,
    *,
    name: Annotated[str, typer.Argument(help="The collection (a player's name; created on first use).")],
    file: Annotated[Path, typer.Argument(help="A card list in any deck format (4 Name per line, .dek, .dec).")],
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the cards belong to.")] = None,
) -> None:
    """Add every card of a list to a collection, all or nothing."""
    from carddb.catalogue.collections import import_collection

    added = import_collection(state(ctx).catalogue(), game, name, read_deck_file(file))
    # add_cards answers one total per card, so this counts different cards, not copies.
    typer.echo(f"Imported {len(added)} different card{'s' if len(added) != 1 else ''} into {name}.")


@app.command("show")
def show(
    ctx: typer.Context,
    *,
    name: Annotated[str, typer.Argument(help="The collection (a player's name).")],
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game whose cards to list.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the collection as JSON.")] = False,
) -> None:
    """List a collection's cards and counts."""
    owned = owned_in(state(ctx), name, game)
    if as_json:
        typer.echo(json.dumps({"collection": name, "game": game, "cards": owned}, ensure_ascii=False, indent=2))
        return
    print_table([[str(n), key] for key, n in sorted(owned.items())], ["Count", "Card"])
    typer.echo(f"{sum(owned.values())} cards, {len(owned)} different")


def owned_in(st: State, name: str, game: str) -> dict[str, int]:
    """Card key -> copies a collection holds, read without SQLAlchemy where the catalogue allows."""
    catalogue = st.reader()
    if hasattr(catalogue, "owned_counts"):
        return catalogue.owned_counts(name, game)
    from carddb.catalogue.collections import owned_counts

    return owned_counts(catalogue, name, game)
