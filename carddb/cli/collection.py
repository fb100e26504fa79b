"""``carddb collection``: a player's cards (add, remove, show, import); ``deck check --collection`` uses them."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carddb.cli.common import print_table, state
from carddb.files.reading import read_deck_file
from carddb.rules.limits import MAX_COPIES

app = typer.Typer(no_args_is_help=True)


@app.command("add")
def add(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The collection (a player's name)."),
    card: str = typer.Argument(..., help="The card, e.g. 'Splash Page (Neutral)'."),
    game: str = typer.Option(..., "--game", "-g", help="The game the card belongs to."),
    count: int = typer.Option(1, "--count", "-n", min=1, max=MAX_COPIES, help="How many copies."),
) -> None:
    """Add copies of a card to a collection (created on first use)."""
    from carddb.catalogue.collections import add_cards

    for key, total in add_cards(state(ctx).catalogue(), game, name, [(card, count)]).items():
        typer.echo(f"{name} now holds {total} {key}.")


@app.command("remove")
def remove(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The collection (a player's name)."),
    card: str = typer.Argument(..., help="The card, e.g. 'Splash Page (Neutral)'."),
    game: str = typer.Option(..., "--game", "-g", help="The game the card belongs to."),
    count: int = typer.Option(1, "--count", "-n", min=1, max=MAX_COPIES, help="How many copies."),
) -> None:
    """Remove copies of a card from a collection."""
    from carddb.catalogue.collections import add_cards

    for key, total in add_cards(state(ctx).catalogue(), game, name, [(card, -count)]).items():
        typer.echo(f"{name} now holds {total} {key}.")


@app.command("import")
def import_(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The collection (a player's name; created on first use)."),
    file: Path = typer.Argument(..., help="A card list in any deck format (4 Name per line, .dek, .dec)."),
    game: str = typer.Option(..., "--game", "-g", help="The game the cards belong to."),
) -> None:
    """Add every card of a list to a collection, all or nothing."""
    from carddb.catalogue.collections import import_collection

    added = import_collection(state(ctx).catalogue(), game, name, read_deck_file(file))
    # add_cards answers one total per card, so this counts different cards, not copies.
    typer.echo(f"Imported {len(added)} different card{'s' if len(added) != 1 else ''} into {name}.")


@app.command("show")
def show(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The collection (a player's name)."),
    game: str = typer.Option(..., "--game", "-g", help="The game whose cards to list."),
    as_json: bool = typer.Option(False, "--json", help="Print the collection as JSON."),
) -> None:
    """List a collection's cards and counts."""
    from carddb.catalogue.collections import owned_counts

    owned = owned_counts(state(ctx).catalogue(), name, game)
    if as_json:
        typer.echo(json.dumps({"collection": name, "game": game, "cards": owned}, ensure_ascii=False, indent=2))
        return
    print_table([[str(n), key] for key, n in sorted(owned.items())], ["Count", "Card"])
    typer.echo(f"{sum(owned.values())} cards, {len(owned)} different")
