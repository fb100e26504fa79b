"""``carddb deck``: check a deck against its game's construction rules, convert between deck formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import state
from carddb.cli.parsing import group, integer, workspace_game
from carddb.errors import InputError
from carddb.files.reading import read_deck_file

app = group(help="Check decks against the rules; convert deck files.")


def _deck_game(ctx: typer.Context, game_id: str, format_id: str | None):  # type: ignore[no-untyped-def]
    from carddb.catalogue.game_cards import game_and_cards

    st = state(ctx)
    game, cards = game_and_cards(game_id, format_id, st.db, st.root)
    if not game.deck_game:
        raise InputError(f"{game.name} ({game.id}) has no decks; try 'carddb play ssq turn' or 'carddb roll'")
    return game, cards


@app.command("check")
def check(
    ctx: typer.Context,
    *,
    file: Annotated[Path, typer.Argument(
        help="The deck: a deck list, LackeyCCG .dek or .txt, Apprentice .dec, Cockatrice .cod or a Tabletop "
             "Simulator saved object (.json).")],
    game_id: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the deck is for.")] = None,
    format_id: Annotated[str | None, typer.Option(
        "--format", "-f", help="One of the game's formats (house rules).")] = None,
    collection: Annotated[str | None, typer.Option(
        "--collection", "-c", help="Also report cards the deck holds more copies of than this collection.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
) -> None:
    """Check a deck: exit 0 when legal, 1 when it has errors, 2 when the file or game cannot be read."""
    from carddb.catalogue.game_cards import other_games
    from carddb.core.checker.report import check_deck_text, with_other_game_hint

    text = read_deck_file(file)
    game, cards = _deck_game(ctx, game_id, format_id)
    owned = None
    if collection:
        from carddb.cli.collection import owned_in

        owned = owned_in(state(ctx), collection, game.id)
    report = check_deck_text(text, game, cards, file.name, owned, collection or "")
    report = with_other_game_hint(report, other_games(game.id, state(ctx).db, state(ctx).root))
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(report.text(str(file)), nl=False)
    raise typer.Exit(0 if report.legal else 1)


@app.command("odds")
def odds(
    ctx: typer.Context,
    *,
    file: Annotated[Path, typer.Argument(help="The deck, in any format deck check reads.")],
    game_id: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the deck is for.")] = None,
    card: Annotated[str | None, typer.Option("--card", help="One card: the chance of 1, 2, ... copies of it.")] = None,
    kind: Annotated[str | None, typer.Option(
        "--kind", help="One kind of card (e.g. component): 1, 2, ... of that kind.")] = None,
    by_turn: Annotated[int, typer.Option(
        "--by-turn", click_type=integer(0, 200), help="Also the chance by this turn's draw.")] = 3,
    second: Annotated[bool, typer.Option(
        "--second", help="Going second (matters where the first turn draws none).")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the odds as one JSON object (exact fractions).")] = False,
) -> None:
    """Exact odds of drawing a card or a kind: in the opening hand the rulebook deals, and by a turn."""
    from carddb.core.decks.parse import parse_deck
    from carddb.core.play.playtest import library, odds_data, odds_for

    game, cards = _deck_game(ctx, game_id, None)
    lib = library(parse_deck(read_deck_file(file), game, file.name), game, cards)
    if game.playtest is None:
        raise InputError(lib.problems[0])
    rows = odds_for(lib, card or "", kind or "", by_turn, not second)
    data = odds_data(lib, rows, by_turn, not second)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for problem in lib.problems:
        typer.echo(f"warning: {problem}", err=True)
    typer.echo(f"{game.name}: {data['dealt']}.")
    seen = data["seen_by_turn"]
    typer.echo(_odds_text(rows, f"in the opening hand ({lib.hand})", f"by turn {by_turn} ({seen} cards)",
                          per_count=bool(card or kind)))
    typer.echo(f"Rules: {data['rule']}")


def _odds_text(rows, opening: str, later: str, per_count: bool) -> str:  # type: ignore[no-untyped-def]
    def pct(chance) -> str:  # type: ignore[no-untyped-def]
        return chance.shown

    lines = []
    if per_count:
        (row,) = rows
        lines.append(f"{row.label}: {row.copies} in the deck")
        table = [("at least", opening, later)]
        table += [(f"{c.at_least}", pct(c), pct(d)) for c, d in zip(row.chances[::2], row.chances[1::2],
                                                                       strict=True)]
    else:
        table = [("card", "copies", opening, later)]
        table += [(r.label, str(r.copies), pct(r.chances[0]), pct(r.chances[1])) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for line in table:
        cells = [line[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(line[1:], widths[1:], strict=True))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


@app.command("convert")
def convert(
    ctx: typer.Context,
    *,
    file: Annotated[Path, typer.Argument(help="The deck to convert (any format deck check reads).")],
    game_id: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game the deck is for.")] = None,
    to: Annotated[str, typer.Option(
        "--to", help="text, lackey (.dek), apprentice (.dec), cockatrice (.cod) or tts (a Tabletop Simulator saved "
             "object: a folder).")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write here instead of printing (for tts: the folder).")] = None,
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="tts only: where the folder will be published.")] = None,
) -> None:
    """Convert a deck between the deck list format, LackeyCCG .dek, Apprentice .dec, Cockatrice .cod and a
    Tabletop Simulator saved object."""
    from carddb.core.decks.parse import parse_deck
    from carddb.core.decks.write import WRITE_FORMATS, write_deck

    if to not in (*WRITE_FORMATS, "tts"):
        raise InputError(f"unknown deck format {to!r}; use one of {', '.join(WRITE_FORMATS)}, tts")
    if base_url and to != "tts":
        raise InputError("--base-url is only for --to tts")
    if to == "tts":
        _convert_to_tts(ctx, file, game_id, out, base_url)
        return
    if out is not None and out.is_dir():
        raise InputError(f"{out} is a folder; --out takes the deck file to write")
    text = read_deck_file(file)
    game, cards = _deck_game(ctx, game_id, None)
    if to == "cockatrice":
        from carddb.exporters.cockatrice.export import cockatrice_deck

        warnings: list[str] = []
        result = cockatrice_deck(text, file.name, game, cards, warnings)
        for warning in warnings:
            typer.echo(f"warning: {warning}", err=True)
        _write_or_print(result, out, to, None)
        return
    deck = parse_deck(text, game, file.name)
    deck.name = deck.name or file.stem
    untouched = f"; {out} was not touched" if out is not None else ""
    if not deck.entries:
        first = next(iter(deck.problems), None)
        reason = f"line {first.line}: {first.message}" if first else "it holds no card lines"
        raise InputError(f"{file}: nothing to convert ({reason}){untouched}")
    for problem in deck.problems:
        typer.echo(f"warning: line {problem.line}: {problem.message} (not converted)", err=True)
    _write_or_print(write_deck(deck, game, to), out, to, deck)


def _convert_to_tts(ctx: typer.Context, file: Path, game_id: str, out: Path | None, base_url: str | None) -> None:
    from carddb.cli.export import print_report, tts_install
    from carddb.exporters.tts import export_tts

    if out is None:
        raise InputError("--to tts writes a folder (the saved object and its sheets); give it with --out DIR")
    text = read_deck_file(file)
    _deck_game(ctx, game_id, None)
    st = state(ctx)
    report = export_tts(st.workspace.root, st.catalogue(), game_id, out, base_url=base_url,
                        deck_text=(text, file.name), sets=False, faces_dir=st.workspace.output_dir / "faces")
    print_report(st, report)
    st.say(tts_install(report.root, base_url))


def _write_or_print(result: str, out: Path | None, to: str, deck) -> None:  # type: ignore[no-untyped-def]
    if out is None:
        typer.echo(result, nl=False)
        return
    from carddb.files.replacing import write_file

    write_file(out, result, encoding="cp1252" if to == "apprentice" and _is_cp1252(result) else "utf-8")
    typer.echo(f"Wrote {out}" + (f" ({len(deck.entries)} lines, {deck.total} cards)." if deck else "."))


def _is_cp1252(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True
