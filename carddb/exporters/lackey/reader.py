"""Reading LackeyCCG plugins: card data files, ``plugininfo.txt``, ``.dek`` decks and ``updatelist.txt``.

Used by the tests to read exports back, and by ``carddb cards import`` to move a community's existing plugin
into carddb: ``read_card_data(path, game)`` turns a card data file into ``Card`` objects, mapping its
columns onto the game's fields by header (field label, label in CamelCase, or key, ignoring case). Lackey
reads the first three columns by position (``research/lackey.md`` §1.3), and so does this reader.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from carddb.core.cards.card import Card, Printing
from carddb.core.cards.fields import FieldValueError
from carddb.core.game.definition import GameDefinition
from carddb.errors import CardDataError, InputError
from carddb.exporters.lackey.carddata import camel
from carddb.exporters.text import from_one_line
from carddb.files.reading import read_user_file

MAX_FILE_BYTES = 64 * 1024 * 1024
_LINES = re.compile(r"\r\n|\r|\n")
_IGNORED = {"imagefile", "script", "sound", "legality"}  # Lackey's own columns and what carddb derives
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)>")


def _read_text(path: Path) -> str:
    data = read_user_file(path, what="LackeyCCG file", max_bytes=MAX_FILE_BYTES)
    if b"\0" in data:
        raise InputError(f"{path} is not a text file")
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_rows(path: str | Path) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of a card data file (any line ending; blank lines skipped)."""
    path = Path(path)
    lines = [line for line in _LINES.split(_read_text(path)) if line.strip()]
    if not lines:
        raise CardDataError(f"{path}: empty card data file")
    header = lines[0].split("\t")
    if len(header) < 3:
        raise CardDataError(f"{path}: line 1 is not a LackeyCCG header (Name, Set, ImageFile, ... separated by tabs)")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) > len(header):
            raise CardDataError(f"{path}: line {number} has {len(cells)} cells but the header has {len(header)}")
        rows.append(cells + [""] * (len(header) - len(cells)))
    return header, rows


def _column_map(header: list[str], game: GameDefinition, path: Path) -> dict[int, str]:
    names: dict[str, str] = {"kind": "@kind", "type": "@kind" if "type" not in game.fields else "", "rarity": "@rarity",
                             "number": "@number", "text": "@text", "flavor": "@flavor"}
    names = {k: v for k, v in names.items() if v}
    for key, fdef in game.fields.items():
        for alias in (key, fdef.label, camel(fdef.label), camel(key.replace("_", " ")) + "Field"):
            names[alias.casefold()] = key
    mapped: dict[int, str] = {}
    unknown = []
    for i, head in enumerate(header[3:], start=3):
        wanted = head.strip().casefold()
        if wanted in names:
            mapped[i] = names[wanted]
        elif wanted not in _IGNORED:
            unknown.append(head)
    if unknown:
        known = ", ".join(sorted({f.label for f in game.fields.values()}))
        raise CardDataError(f"{path}: columns {', '.join(map(repr, unknown))} are not fields of {game.name}; rename "
                            f"them to a field ({known}) or Kind, Rarity, Number, Text, Flavor")
    return mapped


def read_card_data(path: str | Path, game: GameDefinition) -> list[Card]:
    """The cards of a LackeyCCG card data file; a card listed in several sets gets one printing per set."""
    path = Path(path)
    header, rows = read_rows(path)
    if not rows:
        raise CardDataError(f"{path}: no cards under the header line; nothing was imported")
    mapping = _column_map(header, game, path)
    kinds_by_label = {k.label.casefold(): k.id for k in game.kinds.values()} | {k: k for k in game.kinds}
    cards: dict[tuple[str, str], Card] = {}
    for number, row in enumerate(rows, start=2):
        where = f"{path}: line {number}"
        name, set_code = row[0].strip(), row[1].strip()
        if not name:
            raise CardDataError(f"{where}: the Name column is empty")
        values = {key: row[i] for i, key in mapping.items()}
        kind_text = values.pop("@kind", "").strip()
        if kind_text:
            kind = kinds_by_label.get(kind_text.casefold()) or kinds_by_label.get(kind_text)
            if kind is None:
                raise CardDataError(f"{where}: Kind {kind_text!r} is not a kind of {game.name} "
                                    f"({', '.join(k.label for k in game.kinds.values())})")
        elif len(game.kinds) == 1:
            kind = next(iter(game.kinds))
        else:
            raise CardDataError(f"{where}: no Kind column; {game.name} has several kinds of card")
        fields = {}
        for key, cell in values.items():
            if key.startswith("@") or not cell.strip():
                continue
            try:
                value = game.fields[key].coerce(from_one_line(cell))
            except FieldValueError as exc:
                raise CardDataError(f"{where}: column {game.fields[key].label}: {exc}") from None
            if value is not None:
                fields[key] = value
        qualifier = ""
        q_field = game.qualifier_field
        if q_field and fields.get(q_field) and name.endswith(f" ({fields[q_field]})"):
            name, qualifier = name[: -len(f" ({fields[q_field]})")], str(fields[q_field])
        printing = Printing(set=set_code, number=values.get("@number", "").strip(),
                            rarity=values.get("@rarity", "").strip())
        card = cards.get((name, qualifier))
        if card is None:
            cards[(name, qualifier)] = Card(game=game.id, name=name, kind=kind,
                                            text=from_one_line(values.get("@text", "").strip()),
                                            flavor=from_one_line(values.get("@flavor", "").strip()),
                                            fields=fields, printings=[printing], qualifier=qualifier)
        elif printing not in card.printings:
            card.printings.append(printing)
    return list(cards.values())


@dataclass
class DekCard:
    name: str
    set: str
    image_id: str


@dataclass
class DekFile:
    game: str
    zones: dict[str, list[DekCard]] = field(default_factory=dict)  # superzone name -> one entry per copy


def read_dek(source: str | Path) -> DekFile:
    """A LackeyCCG ``.dek``; refuses DTD entity declarations (no entity expansion attacks)."""
    text = _read_text(Path(source)) if isinstance(source, Path) else source
    if re.search(r"<!ENTITY", text, re.IGNORECASE):
        raise InputError("the .dek file declares XML entities; refusing to read it")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(f"not a well-formed .dek file ({exc})") from None
    if root.tag != "deck":
        raise InputError(f"not a LackeyCCG .dek file (root element <{root.tag}>)")
    dek = DekFile(game=(root.findtext("meta/game") or "").strip())
    for zone in root.findall("superzone"):
        cards = dek.zones.setdefault(zone.get("name", ""), [])
        for card in zone.findall("card"):
            name = card.find("name")
            cards.append(DekCard(name=(name.text or "").strip() if name is not None else "",
                                 set=(card.findtext("set") or "").strip(),
                                 image_id=name.get("id", "") if name is not None else ""))
    return dek


def read_plugininfo(text: str) -> list[tuple[str, dict[str, str]]]:
    """The top-level blocks of a ``plugininfo.txt`` as ``(tag, {child: value})``, tolerant as Lackey is.

    Raises ``InputError`` on a closing tag that closes nothing open, so our own output must be well formed.
    """
    blocks: list[tuple[str, dict[str, str]]] = []
    stack: list[tuple[str, int]] = []
    current: dict[str, str] = {}
    for match in _TAG.finditer(text):
        closing, tag = match.group(1) == "/", match.group(2)
        if not closing:
            stack.append((tag, match.end()))
            if len(stack) == 2:
                current = {}
            continue
        if not stack or stack[-1][0] != tag:
            raise InputError(f"plugininfo.txt: </{tag}> at offset {match.start()} closes nothing open")
        open_tag, start = stack.pop()
        if len(stack) == 2:
            current[open_tag] = text[start:match.start()].strip()
        elif len(stack) == 1:
            blocks.append((open_tag, current))
    if stack:
        raise InputError(f"plugininfo.txt: <{stack[-1][0]}> is never closed")
    return blocks


def read_updatelist(text: str) -> tuple[tuple[str, str], list[tuple[str, str, int]], dict[str, list[str]]]:
    """``((plugin, date), [(local path, url, checksum)], {section: [lines]})``."""
    lines = [line for line in _LINES.split(text) if line.strip()]
    if not lines:
        raise InputError("updatelist.txt is empty")
    first = lines[0].split("\t")
    if len(first) != 2:
        raise InputError("updatelist.txt: line 1 must be '<plugin name><TAB><MM-DD-YY>'")
    entries: list[tuple[str, str, int]] = []
    sections: dict[str, list[str]] = {}
    section = None
    for number, line in enumerate(lines[1:], start=2):
        if line.endswith(":") and "\t" not in line:
            section = line[:-1]
            sections[section] = []
        elif section is not None:
            sections[section].append(line.strip())
        else:
            parts = line.split("\t")
            if len(parts) != 3 or not re.fullmatch(r"-?\d+", parts[2]):
                raise InputError(f"updatelist.txt: line {number} is not '<path><TAB><url><TAB><checksum>'")
            entries.append((parts[0], parts[1], int(parts[2])))
    return (first[0], first[1]), entries, sections
