"""Card selectors: the small matching language game definitions use to name sets of cards.

A selector is a TOML table whose keys are all required to hold (AND):

- ``kind = ["monster"]``                    the card is of one of these kinds
- ``name = ["Replenish", "Yoink!"]``        the card's name is one of these (normalised)
- ``has = { categories = ["Deity"] }``      the field equals one of the values, or a list field holds one
- ``flag = "limited"``                      the field is true
- ``any = [ {...}, {...} ]``                at least one of these selectors matches
- ``not = { ... }``                         this selector does not match
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carddb.core.cards.card import Card, normalise_name

SELECTOR_KEYS = frozenset({"kind", "name", "has", "flag", "any", "not"})


@dataclass(frozen=True, slots=True)
class Selector:
    kinds: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    has: tuple[tuple[str, frozenset[str]], ...] = ()
    flag: str = ""
    any_of: tuple[Selector, ...] = ()
    negated: Selector | None = None
    fields_named: frozenset[str] = field(default=frozenset(), compare=False)

    def matches(self, card: Card) -> bool:
        if self.kinds and card.kind not in self.kinds:
            return False
        if self.names and normalise_name(card.name) not in self.names:
            return False
        for key, wanted in self.has:
            if not _value_in(card.get(key), wanted):
                return False
        if self.flag and not card.get(self.flag):
            return False
        if self.any_of and not any(s.matches(card) for s in self.any_of):
            return False
        return not (self.negated is not None and self.negated.matches(card))

    def field_keys(self) -> set[str]:
        """Every field this selector reads, so a definition can be checked for dangling field names."""
        keys = {k for k, _ in self.has} | ({self.flag} if self.flag else set())
        for sub in self.any_of:
            keys |= sub.field_keys()
        if self.negated is not None:
            keys |= self.negated.field_keys()
        return keys


def _value_in(value: Any, wanted: frozenset[str]) -> bool:
    if value is None or value == "":
        return False
    if isinstance(value, list):
        return any(_norm(v) in wanted for v in value)
    return _norm(value) in wanted


def _norm(value: Any) -> str:
    return normalise_name(str(value))


def parse_selector(raw: Any, where: str) -> Selector:
    """Build a selector from its TOML table; ``where`` names the file and key for errors."""
    from carddb.core.game.definition_errors import definition_error

    if not isinstance(raw, Mapping):
        raise definition_error(where, "a selector must be a table such as { kind = [\"monster\"] }")
    unknown = set(raw) - SELECTOR_KEYS
    if unknown:
        raise definition_error(f"{where}.{sorted(unknown)[0]}",
                               f"unknown selector key; expected one of {', '.join(sorted(SELECTOR_KEYS))}")

    def strings(key: str) -> frozenset[str]:
        value = raw.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise definition_error(f"{where}.{key}", "must be a list of strings")
        return frozenset(normalise_name(v) for v in value)

    has_raw = raw.get("has", {})
    if not isinstance(has_raw, Mapping):
        raise definition_error(f"{where}.has", "must be a table of field = [values]")
    has = []
    for key, values in has_raw.items():
        if isinstance(values, str | int | bool):
            values = [values]
        if not isinstance(values, list):
            raise definition_error(f"{where}.has.{key}", "must be a value or a list of values")
        has.append((key, frozenset(normalise_name(str(v)) for v in values)))
    flag = raw.get("flag", "")
    if not isinstance(flag, str):
        raise definition_error(f"{where}.flag", "must be a field name")
    any_raw = raw.get("any", [])
    if not isinstance(any_raw, list):
        raise definition_error(f"{where}.any", "must be a list of selectors")
    any_of = tuple(parse_selector(s, f"{where}.any[{i}]") for i, s in enumerate(any_raw))
    negated = parse_selector(raw["not"], f"{where}.not") if "not" in raw else None
    return Selector(kinds=frozenset(raw.get("kind", [])) if isinstance(raw.get("kind", []), list)
                    else frozenset([raw["kind"]]),
                    names=strings("name"), has=tuple(has), flag=flag, any_of=any_of, negated=negated)
