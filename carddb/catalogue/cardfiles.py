"""Card files: YAML and CSV, read into raw records and written back. The format is in docs/card-files.md.

YAML: a mapping with ``set`` (default set code), optional ``game``, and ``cards``, a list of flat mappings
(common keys, printing keys, the game's fields), a card in several sets listing ``printings``.
CSV: a header of keys, one row per printing; rows with the same name, kind and qualifier are one card.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import yaml

from carddb.catalogue.validate import RawCard
from carddb.core.cards.card import COMMON_KEYS, PRINTING_KEYS, Card, Printing
from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief, shown
from carddb.errors import CardDataError
from carddb.files.reading import read_text_file, yaml_document, yaml_loader

#: Characters that make a spreadsheet treat a cell as a formula; such text cells are exported behind a quote.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def read_card_file(path: str | Path) -> tuple[str | None, list[RawCard]]:
    """The game the file names (if any) and its raw cards."""
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml", ".csv"):
        raise CardDataError(f"{path}: unknown card file type {path.suffix.lower() or '(none)'}; use .yaml or .csv")
    return read_card_text(read_text_file(path, what="card file"), path)


def read_card_text(text: str, path: str | Path) -> tuple[str | None, list[RawCard]]:
    """``read_card_file`` of a text already read (its type told by ``path``'s suffix)."""
    suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        return _read_yaml(text, str(path))
    if suffix == ".csv":
        return None, _read_csv(text, str(path))
    raise CardDataError(f"{path}: unknown card file type {suffix or '(none)'}; use .yaml or .csv")


#: libyaml when the text can hold no alias (ten times faster: a build reads every card file), else the loader
#: that bounds what aliases expand to (``carddb.files.reading``)
_Loader = yaml_loader


def load_yaml(text: str, name: str) -> tuple[Any, list[int]]:
    """The document, and the line (from 1) where each entry of its card list starts."""
    node, data = yaml_document(text, name, "card file")
    entries = card_list_node(node)
    return data, [entry.start_mark.line + 1 for entry in entries.value] if entries is not None else []


def card_list_node(node: yaml.Node | None) -> yaml.SequenceNode | None:
    """The node of a card file's ``cards`` list (or of the file itself when it is a bare list)."""
    if isinstance(node, yaml.SequenceNode):
        return node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "cards" and isinstance(value, yaml.SequenceNode):
                return value
    return None


def _read_yaml(text: str, name: str) -> tuple[str | None, list[RawCard]]:
    data, lines = load_yaml(text, name)
    if isinstance(data, list):
        data = {"cards": data}
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardDataError(f"{name}: a card file holds a mapping with a 'cards' list")
    unknown = set(data) - {"game", "set", "cards"}
    if unknown:
        raise CardDataError(f"{name}: unknown top-level key {shown(sorted(map(str, unknown))[0])} "
                            "(expected game, set, cards)")
    default_set = _scalar(data.get("set"), f"{name}, set")
    raws = []
    for index, entry in enumerate(data["cards"], start=1):
        where = f"{name} line {lines[index - 1]}" if index <= len(lines) else f"{name} card {index}"
        if not isinstance(entry, dict):
            raise CardDataError(f"{where}: each card is a mapping of keys to values")
        values = {str(k): v for k, v in entry.items()}
        printings = values.pop("printings", None)
        if printings is not None:
            if not isinstance(printings, list) or not all(isinstance(p, dict) for p in printings):
                raise CardDataError(f"{where}, printings: a list of mappings (set, number, rarity, art)")
            printings = [{str(k): _scalar(v, f"{where}, printings, {brief(k)}") for k, v in p.items()}
                         for p in printings]
        elif default_set and not values.get("set"):
            values["set"] = default_set
        raws.append(RawCard(values=values, where=f"{where} ({brief(values.get('name', '?'))})",
                            printings=printings or []))
    return (_scalar(data["game"], f"{name}, game") if data.get("game") else None), raws


def _scalar(value: Any, where: str) -> str:
    if isinstance(value, list | dict):
        raise CardDataError(f"{where}: expected text, got {shown(value)}")
    return "" if value is None else str(value)


def _read_csv(text: str, name: str) -> list[RawCard]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or "name" not in reader.fieldnames:
        raise CardDataError(f"{name} row 1: the header must name the columns and include 'name'")
    duplicates = {c for c in reader.fieldnames if reader.fieldnames.count(c) > 1}
    if duplicates:
        raise CardDataError(f"{name} row 1: column {sorted(duplicates)[0]!r} appears twice")
    raws: list[RawCard] = []
    line = reader.line_num + 1  # where the next row starts (a quoted cell may hold line breaks)
    try:
        for row_number, row in enumerate(reader, start=2):
            where = f"{name} row {row_number}" + (f" (line {line})" if line != row_number else "")
            line = reader.line_num + 1
            if None in row:
                raise CardDataError(f"{where}: more cells than the header has columns")
            values = {k: unquote_cell(v) for k, v in row.items()}
            printing = {k: values.pop(k, "") for k in PRINTING_KEYS if k in values}
            # One row per printing: rows that repeat a card with another printing merge when built.
            raws.append(RawCard(values=values, where=where, printings=[printing], mergeable=True))
    except csv.Error as exc:
        raise CardDataError(f"{name} row {reader.line_num}: {exc}") from None
    return raws


def unquote_cell(value: str | None) -> str:
    """A CSV cell's text: the quote that kept a spreadsheet from running it as a formula taken off."""
    if value is None:
        return ""
    if value.startswith("'") and value[1:2] != "" and value[1:2] in (*FORMULA_START, "'"):
        return value[1:]
    return value


def quote_cell(value: str) -> str:
    # A leading quote keeps a spreadsheet from running the cell as a formula; a text that itself starts
    # with a quote gets one more, so reading the file back is exact.
    if (value.startswith(FORMULA_START) and not _is_number(value)) or value.startswith("'"):
        return "'" + value
    return value


def _is_number(value: str) -> bool:
    try:
        int(value)
    except ValueError:
        return False
    return True


def columns(game: GameDefinition) -> list[str]:
    return [*COMMON_KEYS, *PRINTING_KEYS, "sample", *game.fields]


def cards_to_yaml(game: GameDefinition, cards: list[Card]) -> str:
    entries = [card_entry(game, card) for card in cards]
    return yaml.dump({"game": game.id, "cards": entries}, Dumper=_CardDumper, allow_unicode=True, sort_keys=False,
                     width=100)


def card_entry(game: GameDefinition, card: Card) -> dict[str, Any]:
    """A card as one entry of a YAML card file's ``cards`` list."""
    entry: dict[str, Any] = {"name": card.name, "kind": card.kind}
    if card.text:
        entry["text"] = card.text
    if card.flavor:
        entry["flavor"] = card.flavor
    for key, definition in game.fields.items():
        if key in card.fields and not definition.computed:
            entry[key] = card.fields[key]
    if len(card.printings) == 1:
        entry.update({k: v for k, v in card.printings[0].to_dict().items() if v})
    else:
        entry["printings"] = [{k: v for k, v in p.to_dict().items() if v} for p in card.printings]
    if card.sample:
        entry["sample"] = list(card.sample)
    return entry


class _CardDumper(yaml.SafeDumper):
    """YAML reads NEL and the Unicode line and paragraph separators as line breaks; texts holding them are
    written double-quoted, where they are escaped, so a card file reads back exactly."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    if any(c in value for c in "\x85\u2028\u2029"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    return dumper.represent_str(value)


_CardDumper.add_representer(str, _represent_str)


def cards_to_csv(game: GameDefinition, cards: list[Card]) -> str:
    header = [c for c in columns(game) if c not in game.fields or not game.fields[c].computed]
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for card in cards:
        for printing in card.printings or []:
            writer.writerow(csv_row(game, header, card, printing))
    return buffer.getvalue()


def csv_row(game: GameDefinition, header: list[str], card: Card, printing: Printing) -> list[str]:
    """One printing of ``card`` as the cells under ``header`` of a CSV card file (a column the game does not
    know is left empty)."""
    row = []
    for key in header:
        if key in COMMON_KEYS:
            cell = getattr(card, key)
        elif key in PRINTING_KEYS:
            cell = getattr(printing, key)
        elif key == "sample":
            cell = "; ".join(card.sample)
        elif key in game.fields:
            cell = game.fields[key].to_cell(card.fields.get(key))
        else:
            cell = ""
        row.append(quote_cell(str(cell)))
    return row
