"""The card as every layer sees it: a plain dataclass, pure standard library.

The catalogue stores cards in SQL and hands them out as these; the checker, the layout engine, the exporters
and the browser all read them. ``fields`` holds the game's own typed fields under the keys its definition
declares (``games.md`` fixes them); values are ``int``, ``str``, ``bool``, ``list[str]`` or
``dict[str, int]``, and a field a card does not have is absent from the mapping.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

FieldValue = int | str | bool | list[str] | dict[str, int] | None

#: The keys every game shares, in the order card files list them.
COMMON_KEYS = ("name", "kind", "text", "flavor")
PRINTING_KEYS = ("set", "number", "rarity", "art")


@dataclass(frozen=True, slots=True)
class Printing:
    """One printing of a card in a set."""

    set: str
    number: str = ""
    rarity: str = ""
    art: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"set": self.set, "number": self.number, "rarity": self.rarity, "art": self.art}


@dataclass(slots=True)
class Card:
    """A card's rules identity within a game, with its printings.

    ``qualifier`` tells apart cards that share a name (Website TCG's Splash Page exists as a Neutral and as
    an Alan's Site card); it is the value of the game's ``qualifier_field`` and empty for most cards.
    ``sample`` lists the keys whose values are invented sample data rather than stated by the rulebook;
    ``["*"]`` marks a card that is sample data as a whole.
    """

    game: str
    name: str
    kind: str
    text: str = ""
    flavor: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    printings: list[Printing] = field(default_factory=list)
    qualifier: str = ""
    sample: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        """A stable identity within the game: the name, plus the qualifier when there is one."""
        return f"{self.name} ({self.qualifier})" if self.qualifier else self.name

    def get(self, key: str, default: Any = None) -> Any:
        """A value by its public key: a common key, a printing key of the first printing, or a field."""
        if key in COMMON_KEYS:
            return getattr(self, key)
        if key in PRINTING_KEYS:
            return getattr(self.printings[0], key) if self.printings else default
        return self.fields.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        """The public JSON shape of a card (``cards show --json``)."""
        data: dict[str, Any] = {"game": self.game, "name": self.name, "kind": self.kind,
                                "text": self.text, "flavor": self.flavor}
        data.update(self.fields)
        data["printings"] = [p.to_dict() for p in self.printings]
        if self.sample:
            data["sample"] = list(self.sample)
        if self.qualifier:
            data["qualifier"] = self.qualifier
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Card:
        """The inverse of ``to_dict`` (used to ship a catalogue to the browser as JSON)."""
        reserved = {"game", "name", "kind", "text", "flavor", "printings", "sample", "qualifier"}
        return cls(game=data["game"], name=data["name"], kind=data["kind"], text=data.get("text", ""),
                   flavor=data.get("flavor", ""), fields={k: v for k, v in data.items() if k not in reserved},
                   printings=[Printing(**p) for p in data.get("printings", [])],
                   qualifier=data.get("qualifier", ""), sample=list(data.get("sample", [])))


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})
_SPACES = re.compile(r"\s+")


def normalise_name(name: str) -> str:
    """The form names are matched in: case, outer and repeated inner space and curly apostrophes ignored.

    ``games.md``: ``Ness' PSI Magnet`` matches ``ness’ psi magnet``.
    """
    text = unicodedata.normalize("NFC", name).translate(_APOSTROPHES)
    return _SPACES.sub(" ", text).strip().casefold()


def card_copy(card: Card) -> Card:
    """A card whose fields, printings and sample keys can change without changing ``card`` (its printings are
    frozen; a field's value is a string, a number, a truth value, a list or a map)."""
    return replace(card, fields={key: _copied(value) for key, value in card.fields.items()},
                   printings=list(card.printings), sample=list(card.sample))


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    return value
