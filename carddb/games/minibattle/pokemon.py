"""Reading a Mini-Battle Pokemon card: its special ability (one of the rulebook's listed forms), its numbers and
its stage. Pure standard library; shared by the battle helpers (``play.py``) and the knock-out helpers
(``knockout.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from carddb.core.cards.card import Card

CONDITIONS = {"prlz": "Prlz", "slp": "Slp", "cnfs": "Cnfs", "psn": "Psn"}
CONDITION_WORDS = {"Prlz": "paralysed", "Slp": "asleep", "Cnfs": "confused", "Psn": "poisoned"}


@dataclass(frozen=True, slots=True)
class Ability:
    """A special ability read from its listed form: ``form`` names it, the numbers and type fill it."""

    #: atk-vs, def-vs, condition, evasion, effect-off, effect-chance, opponent-attack, healer, negate, reflect,
    #: halve, double
    form: str
    text: str
    number: int = 0
    type: str = ""
    sides: int = 0
    condition: str = ""


_FORMS = [
    ("atk-vs", re.compile(r"^ATK\s*\+\s*(?P<number>\d+)\s+vs\.?\s+(?P<type>\w+)$", re.I)),
    ("def-vs", re.compile(r"^DEF\s*\+\s*(?P<number>\d+)\s+vs\.?\s+(?P<type>\w+)$", re.I)),
    ("condition", re.compile(r"^(?P<condition>Prlz|Slp|Cnfs|Psn)\s+Atk\s*:\s*(?P<number>\d+)\s*%$", re.I)),
    ("evasion", re.compile(r"^Evasion\s+D\(?(?P<sides>\d+)\)?\s*-\s*(?P<number>\d+)$", re.I)),
    ("effect-off", re.compile(r"^Effect\s+Off\s*:?\s*(?P<number>\d+)\s*%$", re.I)),
    ("effect-chance", re.compile(r"^Effect\s+Chance\s+x\s*(?P<number>\d+)$", re.I)),
    ("opponent-attack", re.compile(r"^Opponent'?s\s+Attack\s*-\s*(?P<number>\d+)$", re.I)),
    ("healer", re.compile(r"^Evolution\s+Healer$", re.I)),
    ("negate", re.compile(r"^Negate\s+Evasion$", re.I)),
    ("reflect", re.compile(r"^Dmg\s+Reflect\s*:?\s*(?P<number>\d+)$", re.I)),
    ("halve", re.compile(r"^Halve\s+DMG\s*:\s*(?P<number>\d+)\s*%$", re.I)),
    ("double", re.compile(r"^Double\s+DMG\s*:\s*(?P<number>\d+)\s*%$", re.I)),
]


def parse_ability(text: str) -> Ability | None:
    """``"Evasion D6-1"`` -> Ability("evasion", sides=6, number=1); None for a text of no listed form."""
    cleaned = " ".join(str(text or "").replace("\u2019", "'").split())
    for form, pattern in _FORMS:
        match = pattern.match(cleaned)
        if match:
            parts = match.groupdict()
            condition = CONDITIONS.get((parts.get("condition") or "").lower(), "")
            return Ability(form, cleaned, int(parts.get("number") or 0), (parts.get("type") or "").capitalize(),
                           int(parts.get("sides") or 0), condition)
    return None


def ability(card: Card | None) -> Ability | None:
    return parse_ability(str(card.get("ability") or "")) if card is not None else None


def form(card: Card | None, wanted: str) -> Ability | None:
    """The card's special ability when it is of the ``wanted`` form (``healer``, ``reflect``, ...), else None."""
    found = ability(card)
    return found if found is not None and found.form == wanted else None


def stat(card: Card, key: str) -> int:
    """A number of the card (``hp``, ``atk``, ``def``); 0 when the card lacks it."""
    value = card.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def is_basic(card: Card) -> bool:
    """A basic or baby Pokemon: one that is played on its own (a baby counts as a basic)."""
    return str(card.get("stage") or "") in ("basic", "baby")
