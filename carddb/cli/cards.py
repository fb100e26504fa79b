"""``carddb cards``: search, show, import and export cards."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from carddb.cli.common import print_json, print_table, state
from carddb.cli.parsing import INTEGER, group, workspace_game
from carddb.core.cards.card import Card
from carddb.errors import InputError

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue

app = group(help="Search, show, import and export cards.")


@app.command("search")
def search_cards(
    ctx: typer.Context,
    *,
    query: Annotated[str, typer.Argument(
        help='A search, e.g. \'type:fire level<=3 -limited "draw a card"\'; none (or an empty one) lists every '
             "card.")] = "",
    game: Annotated[str | None, typer.Option("--game", "-g", help="Search one game only.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the cards as JSON.")] = False,
    limit: Annotated[int, typer.Option("--limit", click_type=INTEGER, help="At most this many cards (0: all).")] = 0,
) -> None:
    """Search cards with the search language (docs/search.md); without a query, list every card."""
    catalogue = state(ctx).reader()
    cards = catalogue.search(query, game, limit or None)
    if not catalogue.exists:
        typer.echo(f"note: {catalogue.absent_note}", err=True)
    if as_json:
        sources = _sources(catalogue, cards)
        print_json([{**card.to_dict(), "source": sources(card)} for card in cards])
        return
    if not cards:
        typer.echo("No cards match.")
        return
    show_game = len({card.game for card in cards}) > 1 or not game
    print_table([_row(card, show_game) for card in cards],
                ["Game", "Name", "Kind", "Set", "Stats"] if show_game else ["Name", "Kind", "Set", "Stats"])
    typer.echo(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")


def _sources(catalogue: Catalogue, cards: list[Card]):  # type: ignore[no-untyped-def]
    """card -> its ``source`` object for JSON, reading each game's sources once."""
    from carddb.core.cards.card import normalise_name

    def identity(card: Card) -> tuple[str, str]:  # as carddb.catalogue.store's, without importing SQLAlchemy
        return normalise_name(card.name), card.qualifier

    by_game = {game: catalogue.sources(game, [card.name for card in cards if card.game == game])
               for game in {card.game for card in cards}}

    def source(card: Card) -> dict[str, object] | None:
        found = by_game[card.game].get(identity(card))
        return found.to_dict() if found else None

    return source


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
    *,
    name: Annotated[str, typer.Argument(help="The card's name (case and apostrophes do not matter).")],
    game: Annotated[str | None, typer.Option("--game", "-g", callback=workspace_game, help="The game.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the card as JSON.")] = False,
) -> None:
    """Show one card (or every card sharing the name), with where it came from."""
    cat = state(ctx).reader()
    found = cat.find_with_sources(game, name)
    if as_json:
        shown = [{**card.to_dict(), "source": source.to_dict()} for card, source in found]
        print_json(shown[0] if len(shown) == 1 else shown)
        return
    definition = cat.game(game)
    for index, (card, source) in enumerate(found):
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
        rows.append(["source", source.describe()])
        print_table(rows)
        if card.text:
            typer.echo("")
            typer.echo(card.text)


@app.command("import")
def import_cards(
    ctx: typer.Context,
    *,
    file: Annotated[Path, typer.Argument(
        help="A .yaml or .csv card file (docs/card-files.md), or a LackeyCCG plugin's card data .txt.")],
    game: Annotated[str | None, typer.Option("--game", "-g", help="The game (when the file does not say).")] = None,
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
    unchanged = f", {report.unchanged} unchanged" if report.unchanged else ""
    st.say(f"Imported {report.total} card{'' if report.total == 1 else 's'} into {report.game} from {file} "
           f"({report.added} new, {report.updated} updated{unchanged}; sets: {', '.join(report.sets) or '-'}).")
    if report.taken_from_files:
        files = ", ".join(sorted({name for _key, name in report.taken_from_files}))
        typer.echo(f"note: {len(report.taken_from_files)} of them came from the workspace's card files ({files}) "
                   f"and now come from {report.source}: 'carddb build' keeps this version and says so, "
                   f"'carddb cards write-back --game {report.game}' writes it into the card files.", err=True)


@app.command("export")
def export_cards(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option("--game", "-g", callback=workspace_game, help="The game.")] = None,
    fmt: Annotated[str, typer.Option("--file-format", help="csv or yaml.")] = "yaml",
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write to this file (default: standard output).")] = None,
    set_code: Annotated[str | None, typer.Option("--set", help="Only this set.")] = None,
    old_fmt: Annotated[str | None, typer.Option(
        "--format", "-f", hidden=True, help="Deprecated: --file-format.")] = None,
) -> None:
    """Export a game's cards as CSV or YAML; importing the file again gives the same catalogue."""
    from carddb.cli.common import deprecated
    from carddb.files.replacing import write_file

    fmt = deprecated(old_fmt, "--format", "--file-format") or fmt
    text = state(ctx).catalogue().export_cards(game, fmt, set_code)
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_file(out, text)
        typer.echo(f"Wrote {out}", err=True)


@app.command("write-back")
def write_back(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option("--game", "-g", callback=workspace_game, help="The game.")] = None,
    source: Annotated[str | None, typer.Option(
        "--source", "-s", help="Only the cards of this source: an imported file's name (mycards.csv) or a card file "
             "(rules/G/cards/base.yaml), as 'cards show' names it. Default: every card that does not come from a card "
             "file.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write the changed card files into this folder instead (to look before writing into the "
             "workspace; the catalogue is not changed).")] = None,
) -> None:
    """Write catalogue cards into the workspace's card files (docs/catalogue.md): a card a file holds replaces
    its entry, the others go into a file named after their source; then they come from those files, and
    'carddb build' has nothing to change."""
    from carddb.catalogue.writeback import write_back as run_write_back

    st = state(ctx)
    report = run_write_back(st.catalogue(), st.workspace, game, source=source, out=out)
    pending = report.pending
    if not report.files:
        what = f"comes from {source}" if source else "comes from its card files"
        typer.echo(f"Nothing to write back: every card of {game} in the catalogue {what} already."
                   if not source else f"Nothing to write back for {source}.")
    for change in report.files:
        where = report.folder / Path(change.path).name if not report.in_workspace else change.path
        parts = ([f"{len(change.replaced)} replaced ({', '.join(change.replaced)})"] if change.replaced else []) + \
                ([f"{len(change.added)} added ({', '.join(change.added)})"] if change.added else [])
        how = "new file" if change.created else ("written whole" if change.whole else "edited in place")
        typer.echo(f"{where} ({how}): {'; '.join(parts)}")
    if report.files:
        files = len(report.files)
        then = ("they now come from those files, so 'carddb build' has nothing to change"
                if report.in_workspace else "nothing in the workspace or the catalogue changed")
        typer.echo(f"Wrote {report.cards} card{'s' if report.cards != 1 else ''} of {game} into "
                   f"{files} card file{'s' if files != 1 else ''}: {then}.")
    for key in report.changed_meanwhile:
        typer.echo(f"note: {key} changed in the catalogue while it was written; it keeps its source", err=True)
    if pending is not None and (pending.added or pending.updated or pending.removed):
        typer.echo(f"note: the card files changed since the last build ({pending.summary()}); 'carddb build' "
                   "loads them", err=True)
