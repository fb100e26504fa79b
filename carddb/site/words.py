"""Game-definition rules in plain words, for the generated deck construction pages.

Selectors store names and values normalised (case folded); ``Vocabulary`` maps them back to how the
definition and the cards spell them, so a table says ``Yoink!`` and ``Deity``, not ``yoink!`` and ``deity``.
"""

from __future__ import annotations

from collections.abc import Iterable

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.game.selectors import Selector


class Vocabulary:
    def __init__(self, game: GameDefinition, cards: Iterable[Card]) -> None:
        self.game = game
        self._spelling: dict[str, str] = {}
        for fdef in game.fields.values():
            for choice in (*fdef.choices, *fdef.also):
                self._spelling.setdefault(normalise_name(choice), choice)
        for card in cards:
            self._spelling.setdefault(normalise_name(card.name), card.name)
            for value in card.fields.values():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str):
                        self._spelling.setdefault(normalise_name(item), item)
        self._raw_names(game.raw)

    def _raw_names(self, node: object) -> None:
        """Spellings written in the TOML itself (``name = ["Yoink!"]``), found anywhere in the definition."""
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("name", "has") or isinstance(value, dict | list):
                    self._raw_names(value)
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, str):
                    self._spelling.setdefault(normalise_name(item), item)
                else:
                    self._raw_names(item)

    def spell(self, normalised: str) -> str:
        return self._spelling.get(normalised, normalised)

    def kind_label(self, kind: str) -> str:
        found = self.game.kinds.get(kind)
        return found.label if found else kind

    def field_label(self, key: str) -> str:
        found = self.game.fields.get(key)
        return found.label if found else key

    def zone_label(self, zone: str) -> str:
        found = self.game.zones.get(zone)
        return found.label if found else zone


def join_or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def join_and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def describe_selector(selector: Selector, words: Vocabulary) -> str:
    """``{kind = ["monster"], not = {has = {categories = ["Fusion"]}}}`` -> ``Monster cards, except ...``."""
    noun = join_or(sorted(_plural(words.kind_label(k)) for k in selector.kinds)) if selector.kinds else "cards"
    conditions: list[str] = []
    if selector.names:
        conditions.append(f"named {join_or(sorted(words.spell(n) for n in selector.names))}")
    for key, values in selector.has:
        listed = join_or(sorted(words.spell(v) for v in values))
        field = words.game.fields.get(key)
        if field is not None and field.type == "list":  # "with Fusion or Transformation in their Categories"
            conditions.append(f"with {listed} in their {words.field_label(key)}")
        else:
            conditions.append(f"whose {words.field_label(key)} is {listed}")
    if selector.flag:
        conditions.append(f"marked {words.field_label(selector.flag)}")
    text = " ".join([noun, " and ".join(conditions)]) if conditions else noun
    if selector.any_of:
        parts = [describe_selector(s, words) for s in selector.any_of]
        alternatives = ", or ".join(parts) if any(" or " in p for p in parts) else join_or(parts)
        text = alternatives if text == "cards" else f"{text} that are {alternatives}"
    if selector.negated is not None:
        text += f", except {describe_selector(selector.negated, words)}"
    return text if text != "cards" else "any card"


def _plural(label: str) -> str:
    """``Monster`` -> ``Monster cards``; ``Play card`` -> ``Play cards``."""
    return f"{label}s" if label.lower().endswith("card") else f"{label} cards"
