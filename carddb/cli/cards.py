"""``carddb cards``: search, show, import and export cards."""

from __future__ import annotations

from pathlib import Path

import typer

from carddb.cli.common import print_json, print_table, state
from carddb.errors import InputError
from carddb.rules.cards import Card

app = typer.Typer(no_args_is_help=True)


@app.command("search")
def search_cards(
    ctx: typer.Context,
    query: str = typer.Argument(..., help='A search, e.g. \'type:fire level<=3 -limited "draw a card"\'.'),
    game: str = typer.Option(None, "--game", "-g", help="Search one game only."),
    as_json: bool = typer.Option(False, "--json", help="Print the cards as JSON."),
    limit: int = typer.Option(0, "--limit", help="At most this many cards (0: all)."),
) -> None:
    """Search cards with the search language (docs/search.md)."""
    cards = state(ctx).catalogue().search(query, game, limit or None)
    if as_json:
        print_json([card.to_dict() for card in cards])
        return
    if not cards:
        typer.echo("No cards match.")
        return
    show_game = len({card.game for card in cards}) > 1 or not game
    print_table([_row(card, show_game) for card in cards],
                ["Game", "Name", "Kind", "Set", "Stats"] if show_game else ["Name", "Kind", "Set", "Stats"])
    typer.echo(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")


def _row(card: Card, show_game: bool) -> list[str]:
    sets = ", ".join(dict.fromkeys(p.set for p in card.printings))
    row = [card.key, card.kind, sets, summary(card)]
    return [card.game, *row] if show_game else row


def summary(card: Card) -> str:
    """A one-line digest of a card's short fields: ``type FIRE, atk 3, def 2, level 4``."""
    parts = []
    for key, value in card.fields.items():
        if isinstance(value, bool):
            if value:
                parts.append(key)
        elif isinstance(value, int | str) and len(str(value)) <= 24:
            parts.append(f"{key} {value}")
        elif isinstance(value, list) and value:
            parts.append(f"{key} {'/'.join(value)}")
    return ", ".join(parts)


@app.command("show")
def show_card(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The card's name (case and apostrophes do not matter)."),
    game: str = typer.Option(..., "--game", "-g", help="The game."),
    as_json: bool = typer.Option(False, "--json", help="Print the card as JSON."),
) -> None:
    """Show one card (or every card sharing the name)."""
    cat = state(ctx).catalogue()
    cards = cat.find(game, name)
    if as_json:
        print_json(cards[0].to_dict() if len(cards) == 1 else [card.to_dict() for card in cards])
        return
    definition = cat.game(game)
    for index, card in enumerate(cards):
        if index:
            typer.echo("")
        typer.echo(card.key)
        kind_label = definition.kinds[card.kind].label if card.kind in definition.kinds else card.kind
        rows = [["kind", kind_label]]
        for key, value in card.fields.items():
            label = definition.fields[key].label if key in definition.fields else key
            if isinstance(value, list):
                value = ", ".join(value)
            elif isinstance(value, dict):
                value = ", ".join(f"{k} +{v}" for k, v in value.items())
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            rows.append([label, str(value)])
        for printing in card.printings:
            rows.append(["printing", " ".join(x for x in (printing.set, printing.number, printing.rarity) if x)])
        if card.sample:
            rows.append(["sample data", "whole card" if card.sample == ["*"] else ", ".join(card.sample)])
        print_table(rows)
        if card.text:
            typer.echo("")
            typer.echo(card.text)


@app.command("import")
def import_cards(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="A .yaml or .csv card file (docs/card-files.md), or a LackeyCCG "
                                "plugin's card data .txt."),
    game: str = typer.Option(None, "--game", "-g", help="The game (when the file does not say)."),
) -> None:
    """Import cards, all or nothing: one bad row and the catalogue stays as it was."""
    st = state(ctx)
    catalogue = st.catalogue()
    with st.progress() as progress, progress.task(f"Importing {file.name}"):
        if file.suffix.lower() == ".txt":
            from carddb.exporters.lackey.reader import read_card_data

            if not game:
                raise InputError(f"{file}: say which game a LackeyCCG card data file is for with --game")
            definition = catalogue.game(game)
            report = catalogue.import_card_objects(definition, read_card_data(file, definition), str(file))
        else:
            report = catalogue.import_cards(file, game)
    st.say(f"Imported {report.total} cards into {report.game} from {file} "
               f"({report.added} new, {report.updated} updated; sets: {', '.join(report.sets) or '-'}).")


@app.command("export")
def export_cards(
    ctx: typer.Context,
    game: str = typer.Option(..., "--game", "-g", help="The game."),
    fmt: str = typer.Option("yaml", "--file-format", help="csv or yaml."),
    out: Path = typer.Option(None, "--out", "-o", help="Write to this file (default: standard output)."),
    set_code: str = typer.Option(None, "--set", help="Only this set."),
    old_fmt: str = typer.Option(None, "--format", "-f", hidden=True, help="Deprecated: --file-format."),
) -> None:
    """Export a game's cards as CSV or YAML; importing the file again gives the same catalogue."""
    from carddb.catalogue.api import write_text_atomic
    from carddb.cli.common import deprecated

    fmt = deprecated(old_fmt, "--format", "--file-format") or fmt
    text = state(ctx).catalogue().export_cards(game, fmt, set_code)
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_text_atomic(out, text)
        typer.echo(f"Wrote {out}", err=True)
