"""A game's cards onto Apprentice's Magic-shaped record: name, type, cost, P/T, text, flavor, colour, sets.

The game's ``[apprentice]`` table says which field goes where (``docs/exports.md`` lists each game):
``cost``, ``type`` (written after the kind, ``Pokemon - Fire``), ``power``/``toughness`` (``3/2``),
``color`` with ``colors`` (a field's values to W U B R G, A colourless, L land, M multi), ``flavor``, and
``text_fields``, written as ``Label: value`` lines above the card text (by default every field not used
elsewhere). Apprentice draws W, U, B, R and G in the cost as mana symbols, so a cost holding those letters
is moved into the text instead. Text is Windows-1252; what it lacks is transliterated and reported.
"""

from __future__ import annotations

from collections.abc import Callable

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.exporters.apprentice.cardinfo import (
    ARTIFACT,
    COLOR_BITS,
    GOLD,
    LAND,
    MAX_STRING_BYTES,
    NAME_LENGTH,
    Record,
    crlf,
)
from carddb.exporters.card_names import client_names
from carddb.exporters.card_text import field_words
from carddb.exporters.text import describe, to_cp1252

RARITY_LETTERS = {"common": "C", "uncommon": "U", "rare": "R", "super rare": "M", "mythic": "M",
                  "mythic rare": "M"}
_MANA_LETTERS = set("WUBRGwubrg")


class Mapper:
    def __init__(self, game: GameDefinition, code_of: Callable[[Card, str], str], warnings: list[str]) -> None:
        self.game = game
        self.table = game.apprentice
        self.code_of = code_of  # (card, set) -> the two-character code of that printing
        self.warnings = warnings
        used = {self.table.get(k) for k in ("cost", "type", "power", "toughness", "flavor")}
        self.text_fields = list(self.table.get("text_fields") or [k for k in game.fields if k not in used])

    def text(self, value: str, card: Card, part: str) -> str:
        converted, lost = to_cp1252(value)
        if lost:
            self.warnings.append(f"{card.key}: {part} has characters Windows-1252 lacks, transliterated "
                                 f"({describe(lost)})")
        return converted

    def cell(self, key: str | None, card: Card) -> str:
        if not key:
            return ""
        value = card.fields.get(key)
        if value is None:
            return ""
        return field_words(self.game, key, value)

    def record(self, card: Card, name: str, set_items: str) -> Record:
        kind = self.game.kinds[card.kind].label if card.kind in self.game.kinds else card.kind
        type_value = self.cell(self.table.get("type"), card)
        cost = self.cell(self.table.get("cost"), card)
        lines = []
        if cost and _MANA_LETTERS & set(cost):
            label = self.game.fields[self.table["cost"]].label
            self.warnings.append(f"{card.key}: cost {cost!r} holds letters Apprentice draws as mana symbols; "
                                 f"written in the text as '{label}: {cost}'")
            lines.append(f"{label}: {cost}")
            cost = ""
        power, toughness = self.cell(self.table.get("power"), card), self.cell(self.table.get("toughness"), card)
        pt = f"{power or '-'}/{toughness or '-'}" if power or toughness else ""
        for key in self.text_fields:
            value = card.fields.get(key)
            if value is None or value is False or value == [] or value == {}:
                continue
            label = self.game.fields[key].label
            lines.append(label if value is True else f"{label}: {field_words(self.game, key, value)}")
        if card.text:
            lines.append(card.text)
        flavor_parts = [self.cell(self.table.get("flavor"), card), card.flavor]
        return Record(
            name=name, type=self.text(f"{kind} - {type_value}" if type_value else kind, card, "type"),
            cost=self.text(cost, card, "cost"), pt=self.text(pt, card, "power/toughness"),
            text=self._fit(self.text("\n".join(lines), card, "text"), card, "text"),
            flavor=self._fit(self.text("\n".join(p for p in flavor_parts if p), card, "flavor"), card, "flavor"),
            color=self.color(card), sets=set_items)

    def _fit(self, text: str, card: Card, part: str) -> str:
        if len(crlf(text).encode("cp1252")) <= MAX_STRING_BYTES:
            return text
        cut = text
        while len(crlf(cut + " [...]").encode("cp1252")) > MAX_STRING_BYTES:
            cut = cut[:-20]
        self.warnings.append(f"{card.key}: {part} is longer than the {MAX_STRING_BYTES} bytes Apprentice readers "
                             f"hold; cut, ending in '[...]'")
        return cut.rstrip() + " [...]"

    def color(self, card: Card) -> int:
        key = self.table.get("color")
        value = card.fields.get(key) if key else None
        letters = ""
        if value is not None:
            wanted = {str(k).casefold(): v for k, v in self.table.get("colors", {}).items()}
            for item in value if isinstance(value, list) else [value]:
                letters += wanted.get(str(item).casefold(), "")
        bits = 0
        for letter in letters:
            bits |= COLOR_BITS.get(letter, 0)
        if bin(bits).count("1") > 1 or "M" in letters:
            return bits | GOLD
        if bits:
            return bits
        return LAND if "L" in letters else ARTIFACT

    def sets(self, card: Card) -> str:
        """``BA`` or ``BA,PR``: the bare two-character codes, without a ``-C`` rarity (``docs/exports.md``).

        MSE and Archivist read the first two characters of each item, so they accept the bare code as they
        accept ``BA-C``; ArcanistCCG matches the whole field against ``(^|,)CODE(,|-|$)`` (Java ``matches``),
        which only a bare code satisfies. The rarity stays in the spoiler list.
        """
        return ",".join(dict.fromkeys(self.code_of(card, printing.set) for printing in card.printings))


def apprentice_names(cards: list[Card], warnings: list[str]) -> dict[int, str]:
    """Each card's name in ``cardinfo.dat``: Windows-1252, at most 27 characters, unique (case ignored).

    Only names that collide get their version (``Splash Page (Neutral)``); a long name is shortened at a word
    and never ends in a cut bracket (``card_names``).
    """
    def convert(text: str, card: Card) -> str:
        converted, lost = to_cp1252(text)
        if lost:
            warnings.append(f"{card.key}: name has characters Windows-1252 lacks; Apprentice name {converted!r}")
        return converted

    return client_names(cards, "Apprentice", warnings, limit=NAME_LENGTH, convert=convert)
