"""One card changed, added or removed in a card file's text, every other line as it was.

YAML: only the lines of the values that changed are rewritten (a one-line value in place, so a comment after it
stays), a new value goes where the file's order of keys puts it, a removed one loses its lines; comments, order,
quoting and the other cards are kept, and what is written follows the file's own style
(``carddb.catalogue.yaml_style``). When an entry is too unusual for that the whole entry is written again (as
``carddb cards write-back`` does). CSV: the card's rows are replaced by rows in the file's own columns; every
other row keeps its text. The caller reads the new text back before writing it (``carddb.catalogue.studio_edits``).
"""

from __future__ import annotations

import csv
import io
from typing import Any

import yaml

from carddb.catalogue import cardfiles
from carddb.catalogue.yaml_style import FileStyle, last_line, parse
from carddb.core.cards.card import PRINTING_KEYS, Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError


# -- YAML ---------------------------------------------------------------------------------------------------
def _entries(text: str) -> tuple[list[yaml.MappingNode], FileStyle]:
    """The nodes of the file's cards, and the file's style."""
    parsed = parse(text)
    entries = parsed[1]
    if entries is None or entries.flow_style or not all(isinstance(n, yaml.MappingNode) for n in entries.value):
        raise InputError("the card file's list of cards is not a block list of mappings; the studio cannot edit it "
                         "in place (carddb cards write-back can rewrite it)")
    return list(entries.value), FileStyle.of(text, parsed)


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += FileStyle.ending(text)
    return lines


def yaml_replace(game: GameDefinition, text: str, index: int, before: Card, after: Card, *,
                 whole: bool = False) -> str:
    """The text with card ``index`` of the file (``before``) made ``after``; ``whole``: its entry rewritten."""
    entries, style = _entries(text)
    node = entries[index]
    lines = _lines(text)
    first, last = node.start_mark.line, last_line(node)
    if whole:
        indent = len(lines[first]) - len(lines[first].lstrip(" "))
        return "".join([*lines[:first], style.items(game, [after], indent), *lines[last + 1:]])
    held = {key.value: (key, value) for key, value in node.value if isinstance(key, yaml.ScalarNode)}
    old, new = _entry(game, before, "printings" in held), _entry(game, after, "printings" in held)
    edits: list[tuple[int, int, list[str]]] = []  # (first line, line after the last, new lines)
    added = []
    for key in [*new, *(k for k in old if k not in new)]:
        if old.get(key) == new.get(key):
            continue
        if key not in held:
            if key in new:
                added.append(key)
            continue
        key_node, value = held[key]
        if key_node is node.value[0][0]:
            return yaml_replace(game, text, index, before, after, whole=True)  # its line starts with "- "
        end = last_line(value) + 1
        if key not in new:
            edits.append((key_node.start_mark.line, end, []))
        else:
            edits.append((key_node.start_mark.line, end, _value_lines(style, lines, key_node, value, new[key])))
    order = list(style.ordered({**dict.fromkeys(new), **dict.fromkeys(held)}, after.kind))
    indent = " " * node.value[0][0].start_mark.column
    inserted: dict[int, list[str]] = {}
    for key in added:  # where the file's order puts it: before the first key held that comes after it
        following = [held[k][0] for k in order[order.index(key) + 1:] if k in held]
        at = following[0].start_mark.line if following and following[0] is not node.value[0][0] else last + 1
        inserted.setdefault(at, []).extend(indent + line for line in style.dump({key: new[key]}).splitlines(True))
    edits += [(at, at, new_lines) for at, new_lines in inserted.items()]
    for start, end, replacement in sorted(edits, key=lambda edit: edit[:2], reverse=True):
        lines[start:end] = replacement
    return "".join(lines)


def _entry(game: GameDefinition, card: Card, listed: bool) -> dict[str, Any]:
    """The card's entry; its printings as a ``printings`` list when the file lists them so."""
    entry = cardfiles.card_entry(game, card)
    if listed and "printings" not in entry:
        entry["printings"] = [{k: entry.pop(k) for k in PRINTING_KEYS if k in entry}]
    return entry


def _value_lines(style: FileStyle, lines: list[str], key: yaml.ScalarNode, value: yaml.Node, new: Any) -> list[str]:
    """The lines of ``key: new`` in the style of the value it replaces: a one-line value (a text, a flow list) is
    replaced where it stands, so what follows it (a comment) stays; anything else is written again at the key's
    indentation."""
    line = key.start_mark.line
    one_line = (isinstance(value, yaml.ScalarNode) or bool(getattr(value, "flow_style", False))) \
        and value.start_mark.line == value.end_mark.line == line
    dumped = style.dump({key.value: new}, kept={key.value: value}).splitlines(keepends=True)
    if one_line and len(dumped) == 1:
        here = lines[line]
        text = dumped[0].partition(": ")[2].rstrip("\r\n")
        return [here[:value.start_mark.column] + text + here[value.end_mark.column:]]
    head = lines[line][:key.start_mark.column]
    return [head + dumped[0], *(" " * key.start_mark.column + rest for rest in dumped[1:])]


def yaml_remove(text: str, index: int) -> str:
    entries, _style = _entries(text)
    if len(entries) == 1:
        raise InputError("that is the file's only card; a card file keeps at least one (delete the file instead)")
    node = entries[index]
    lines = _lines(text)
    del lines[node.start_mark.line:last_line(node) + 1]
    return "".join(lines)


def yaml_insert(game: GameDefinition, text: str, card: Card, after: int | None = None) -> str:
    """The text with ``card`` added after entry ``after`` (None: after the last), in the file's style."""
    entries, style = _entries(text)
    if not entries:
        raise InputError("the card file has no card to put a new one beside; add one in a text editor first")
    lines = _lines(text)
    node = entries[-1 if after is None else after]
    at = last_line(node) + 1
    first = lines[node.start_mark.line]
    indent = len(first) - len(first.lstrip(" "))
    return "".join([*lines[:at], style.items(game, [card], indent), *lines[at:]])


# -- CSV ----------------------------------------------------------------------------------------------------
def _records(text: str) -> tuple[list[str], list[str], list[tuple[int, int, dict[str, str]]]]:
    """The file's lines, its header, and each row: (first line, line after it, cells by column)."""
    lines = io.StringIO(text, newline="").readlines()
    reader = csv.reader(iter(lines))
    header = next(reader, [])
    rows = []
    start = reader.line_num
    for cells in reader:
        rows.append((start, reader.line_num, dict(zip(header, cells, strict=False))))
        start = reader.line_num
    return lines, header, rows


def _rows_of(game: GameDefinition, rows: list[tuple[int, int, dict[str, str]]], card: Card) -> list[int]:
    wanted = (normalise_name(card.name), card.qualifier)
    return [n for n, (_s, _e, cells) in enumerate(rows)
            if (normalise_name(cardfiles.unquote_cell(cells.get("name", ""))),
                cardfiles.unquote_cell(cells.get(game.qualifier_field, "")) if game.qualifier_field else "") == wanted]


def _card_rows(game: GameDefinition, header: list[str], card: Card, ending: str) -> list[str]:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator=ending)
    for printing in card.printings:
        writer.writerow(cardfiles.csv_row(game, header, card, printing))
    missing = [k for k in card.fields if k not in header and not game.fields[k].computed]
    missing += [k for k in ("text", "flavor") if getattr(card, k) and k not in header]
    if missing:
        raise InputError(f"the CSV file has no column {missing[0]!r}; add the column to its header first")
    return buffer.getvalue().splitlines(keepends=True)


def _ending(lines: list[str]) -> str:
    return "\r\n" if lines and lines[0].endswith("\r\n") else "\n"


def csv_replace(game: GameDefinition, text: str, before: Card, after: Card | None, *, copy: bool = False) -> str:
    """The text with ``before``'s rows replaced by ``after``'s (None: removed; ``copy``: ``after`` added below)."""
    lines, header, rows = _records(text)
    found = _rows_of(game, rows, before)
    if not found:
        raise InputError(f"the CSV file has no row for {before.key}")
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += _ending(lines)
    new = _card_rows(game, header, after, _ending(lines)) if after is not None else []
    if copy:
        at = rows[found[-1]][1]
        return "".join([*lines[:at], *new, *lines[at:]])
    for n in reversed(found[1:]):
        del lines[rows[n][0]:rows[n][1]]
    start, end, _cells = rows[found[0]]
    lines[start:end] = new
    return "".join(lines)


def csv_append(game: GameDefinition, text: str, card: Card) -> str:
    lines, header, _rows = _records(text)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += _ending(lines)
    return "".join([*lines, *_card_rows(game, header, card, _ending(lines))])
