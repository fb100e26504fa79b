"""``carddb collection``: a player's cards (add, remove, show, import); ``deck check --collection`` uses them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from carddb.cli.common import State, print_table, state
from carddb.cli.parsing import PATH, GameOption, argument, group, integer, option
from carddb.core.limits import MAX_COPIES
from carddb.files.reading import read_deck_file

app = group(help="A player's cards: add, remove, show, import.")


@app.command("add")
@argument("name", help="The collection (a player's name).")
@argument("card", help="The card, e.g. 'Splash Page (Neutral)'.")
@option("--game", "-g", cls=GameOption, required=True, help="The game the card belongs to.")
@option("--count", "-n", type=integer(1, MAX_COPIES), default=1, help="How many copies.")
@click.pass_context
def add(
    ctx: click.Context,
    name: str,
    card: str,
    game: str,
    count: int,
) -> None:
    """Add copies of a card to a collection (created on first use)."""
    from carddb.catalogue.collections import add_cards

    for key, total in add_cards(state(ctx).catalogue(), game, name, [(card, count)]).items():
        click.echo(f"{name} now holds {total} {key}.")


@app.command("remove")
@argument("name", help="The collection (a player's name).")
@argument("card", help="The card, e.g. 'Splash Page (Neutral)'.")
@option("--game", "-g", cls=GameOption, required=True, help="The game the card belongs to.")
@option("--count", "-n", type=integer(1, MAX_COPIES), default=1, help="How many copies.")
@click.pass_context
def remove(
    ctx: click.Context,
    name: str,
    card: str,
    game: str,
    count: int,
) -> None:
    """Remove copies of a card from a collection."""
    from carddb.catalogue.collections import add_cards

    for key, total in add_cards(state(ctx).catalogue(), game, name, [(card, -count)]).items():
        click.echo(f"{name} now holds {total} {key}.")


@app.command("import")
@argument("name", help="The collection (a player's name; created on first use).")
@argument("file", type=PATH, help="A card list in any deck format (4 Name per line, .dek, .dec).")
@option("--game", "-g", cls=GameOption, required=True, help="The game the cards belong to.")
@click.pass_context
def import_(
    ctx: click.Context,
    name: str,
    file: Path,
    game: str,
) -> None:
    """Add every card of a list to a collection, all or nothing."""
    from carddb.catalogue.collections import import_collection

    added = import_collection(state(ctx).catalogue(), game, name, read_deck_file(file))
    # add_cards answers one total per card, so this counts different cards, not copies.
    click.echo(f"Imported {len(added)} different card{'s' if len(added) != 1 else ''} into {name}.")


@app.command("show")
@argument("name", help="The collection (a player's name).")
@option("--game", "-g", cls=GameOption, required=True, help="The game whose cards to list.")
@option("--json", "as_json", is_flag=True, help="Print the collection as JSON.")
@click.pass_context
def show(
    ctx: click.Context,
    name: str,
    game: str,
    as_json: bool,
) -> None:
    """List a collection's cards and counts."""
    owned = owned_in(state(ctx), name, game)
    if as_json:
        click.echo(json.dumps({"collection": name, "game": game, "cards": owned}, ensure_ascii=False, indent=2))
        return
    print_table([[str(n), key] for key, n in sorted(owned.items())], ["Count", "Card"])
    click.echo(f"{sum(owned.values())} cards, {len(owned)} different")


def owned_in(st: State, name: str, game: str) -> dict[str, int]:
    """Card key -> copies a collection holds, read without SQLAlchemy where the catalogue allows."""
    catalogue = st.reader()
    if hasattr(catalogue, "owned_counts"):
        return catalogue.owned_counts(name, game)
    from carddb.catalogue.collections import owned_counts

    return owned_counts(catalogue, name, game)
