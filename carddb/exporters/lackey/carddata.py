"""Card data files: one tab-separated ``sets/<set>.txt`` per set, ``Name``, ``Set``, ``ImageFile`` first.

The remaining columns are the card's kind, the game's fields (one column each, headed by the field's label
in CamelCase so deck-editor searches and pack criteria can name them), rarity, number, text, flavor and
``Legality`` (``research/lackey.md`` §1.3, §1.6). Every cell is one line of ASCII: line breaks become
`` | `` (read back as line breaks), tabs spaces, other characters are transliterated and reported. No CSV
quoting: Lackey does not unquote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import GameDefinition
from carddb.errors import OutputError
from carddb.exporters.legality import legality_text
from carddb.exporters.text import describe, one_line, to_ascii

FIXED_HEAD = ("Name", "Set", "ImageFile", "Kind")
FIXED_TAIL = ("Rarity", "Number", "Text", "Flavor", "Legality")
_SAFE_SET = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")


@dataclass(frozen=True)
class Column:
    header: str
    key: str  # a field key, or "@name", "@set", "@image", "@kind", "@rarity", ... for the fixed columns


def camel(label: str) -> str:
    """``Evolves from`` -> ``EvolvesFrom``; ``Deck limit (DL)`` -> ``DeckLimitDL``; ``ATK`` stays."""
    words = re.findall(r"[A-Za-z0-9]+", to_ascii(label)[0])
    return "".join(w[0].upper() + w[1:] for w in words)


def columns(game: GameDefinition) -> list[Column]:
    taken = {h.casefold() for h in FIXED_HEAD + FIXED_TAIL}
    out = [Column("Name", "@name"), Column("Set", "@set"), Column("ImageFile", "@image"), Column("Kind", "@kind")]
    for key, field in game.fields.items():
        header = camel(field.label) or camel(key)
        if not header or header.casefold() in taken:
            header = camel(key.replace("_", " ")) + "Field"
        taken.add(header.casefold())
        out.append(Column(header, key))
    out += [Column(h, "@" + h.casefold()) for h in FIXED_TAIL]
    return out


def set_value(code: str, warnings: list[str]) -> str:
    """The ``Set`` column value, which is also a folder name under ``sets/setimages/``."""
    if _SAFE_SET.match(code):
        return code
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", to_ascii(code)[0]).strip("-._")[:32] or "set"
    warnings.append(f"set {code!r} is not a safe folder name; its LackeyCCG Set is {safe!r}")
    return safe


class CellWriter:
    """Turns values into cells and remembers, per card, what could not be kept as it was."""

    def __init__(self, warnings: list[str]) -> None:
        self.warnings = warnings

    def cell(self, value: str, card: str, column: str) -> str:
        flat = one_line(value)
        text, lost = to_ascii(flat)
        if lost:
            self.warnings.append(f"{card}: {column} transliterated to ASCII for LackeyCCG ({describe(lost)})")
        if text.startswith('"') and text.endswith('"') and len(text) > 1:
            text = f"'{text[1:-1]}'"  # a reader that unquotes CSV would eat these quotes
        return text

    def name(self, card: Card) -> str:
        return " ".join(self.cell(card.key, card.key, "Name").split())


def lackey_names(cards: list[Card], warnings: list[str]) -> dict[int, str]:
    """Each card's Name in the card data (ASCII, one space between words), unique within the game."""
    writer = CellWriter(warnings)
    names: dict[int, str] = {}
    seen: dict[str, Card] = {}
    for card in cards:
        name = writer.name(card)
        other = seen.get(name.casefold())
        if other is not None:
            raise OutputError(f"{other.key!r} and {card.key!r} both become {name!r} in LackeyCCG, which finds cards "
                              f"by name; rename one of them")
        seen[name.casefold()] = card
        names[id(card)] = name
    return names


def row_values(game: GameDefinition, cols: list[Column], card: Card, printing: Printing, name: str,
               set_name: str, image: str, writer: CellWriter) -> list[str]:
    """One card-data row; ``name``, ``set_name`` and ``image`` are already safe and unique."""
    kind = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
    given = {"@name": name, "@set": set_name, "@image": image}
    other = {"@kind": kind, "@rarity": printing.rarity, "@number": printing.number, "@text": card.text,
             "@flavor": card.flavor, "@legality": legality_text(game, card)}
    values = []
    for col in cols:
        if col.key in given:
            values.append(given[col.key])
            continue
        raw = other[col.key] if col.key in other else _field_cell(game, col.key, card.fields.get(col.key))
        values.append(writer.cell(raw, card.key, col.header))
    return values


def _field_cell(game: GameDefinition, key: str, value: object) -> str:
    if value is None:
        return ""
    field = game.fields[key]
    if field.type == "bool":
        return "yes" if value else "no"
    return field.to_cell(value)


def render_file(cols: list[Column], rows: list[list[str]]) -> str:
    lines = ["\t".join(c.header for c in cols)]
    lines += ["\t".join(row) for row in rows]
    return "\n".join(lines) + "\n"
