"""Two-character set codes for ``Expan.dat`` and the ``sets`` field of ``cardinfo.dat``.

Apprentice-era tools take exactly two characters, upper case, unique ignoring case (MSE, Archivist,
``research/apprentice.md`` §1.2). A code is derived from the set's own code; a set with more cards than
``MAX_CARDS_PER_CODE`` is spread over several codes (``Base Set``, ``Base Set (part 2)``), reported.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.exporters.text import to_ascii, to_cp1252

# Apprentice has hard card limits whose values no source states; its own largest sets held about 450 cards
# (Fifth Edition: 449), so a fan set beyond 450 cards is split rather than trusted to work.
MAX_CARDS_PER_CODE = 450


@dataclass
class SetCodes:
    lines: list[tuple[str, str]] = field(default_factory=list)  # (code, full name) in Expan.dat order
    by_card: dict[tuple[int, str], str] = field(default_factory=dict)  # (id(card), set) -> code

    def code_of(self, card: Card, set_code: str) -> str:
        return self.by_card[(id(card), set_code)]


def _candidates(code: str) -> list[str]:
    letters = re.sub(r"[^A-Z0-9]", "", to_ascii(code)[0].upper()) or "X"
    first = letters[0]
    out = [letters[:2]] if len(letters) >= 2 else []
    out += [first + c for c in letters[2:]]
    out += [first + d for d in "23456789"]
    out += [a + b for a in string.ascii_uppercase for b in string.ascii_uppercase]
    return out


def assign_set_codes(game: GameDefinition, cards: list[Card], warnings: list[str], notes: list[str]) -> SetCodes:
    names = {info.code: info.name for info in game.sets}
    members: dict[str, list[Card]] = {code: [] for code in names}
    for card in cards:
        for set_code in dict.fromkeys(p.set for p in card.printings):
            members.setdefault(set_code, []).append(card)
    result = SetCodes()
    taken: set[str] = set()

    def new_code(source: str) -> str:
        code = next(c for c in _candidates(source) if len(c) == 2 and c not in taken)
        taken.add(code)
        return code

    for set_code, set_cards in members.items():
        if not set_cards:
            continue
        full, lost = to_cp1252(" ".join(names.get(set_code, set_code).split()))
        if lost:
            warnings.append(f"set {set_code!r}: name has characters Windows-1252 lacks; written {full!r}")
        parts = [set_cards[i:i + MAX_CARDS_PER_CODE] for i in range(0, len(set_cards), MAX_CARDS_PER_CODE)]
        if len(parts) > 1:
            warnings.append(f"set {set_code!r} has {len(set_cards)} cards, more than the {MAX_CARDS_PER_CODE} an "
                            f"Apprentice set code is trusted with; split over {len(parts)} codes")
        for number, part in enumerate(parts, start=1):
            code = new_code(set_code)
            result.lines.append((code, full if number == 1 else f"{full} (part {number})"))
            for card in part:
                result.by_card[(id(card), set_code)] = code
        notes.append(f"Apprentice set codes: {set_code} = " + ", ".join(
            c for c, _ in result.lines[-len(parts):]))
    return result
