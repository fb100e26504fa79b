"""What a template sees: ``card`` (its fields by key), ``game``, ``set``, ``pick(palette, value)``,
``symbol(table, value)`` and ``reminders(text)``."""

from __future__ import annotations

from typing import Any

from carddb.core.cards.card import COMMON_KEYS, PRINTING_KEYS
from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.layout.reminders import reminders_for

#: What a declared field a card does not have reads as, by field type (so ``join`` and ``if`` just work).
_EMPTY = {"list": list, "map": dict, "bool": lambda: False}


class CardView:
    """A card as templates read it: ``card.atk``, ``card.name``, ``card.rarity`` (of its first printing)."""

    __slots__ = ("_card", "_game")

    def __init__(self, card: Any, game: GameDefinition) -> None:
        self._card = card
        self._game = game

    def __getattr__(self, key: str) -> Any:
        card, game = self._card, self._game
        if key in COMMON_KEYS:
            return getattr(card, key)
        if key in PRINTING_KEYS:
            return card.get(key, "")
        if key in ("key", "qualifier"):
            return getattr(card, key)
        if key == "slug":
            return slugify(card.key)
        if key == "kind_label":
            kind = game.kinds.get(card.kind)
            return kind.label if kind else card.kind
        if key in game.fields:
            value = card.fields.get(key)
            if value is None:
                return _EMPTY.get(game.fields[key].type, lambda: None)()
            return value
        raise AttributeError(key)


class _Info:
    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def context_for(game: GameDefinition, template: Any, card: Any, reminders: tuple[Any, ...] = ()) -> dict[str, Any]:
    palettes = template.palettes

    def pick(palette: str, value: Any, default: str | None = None) -> str:
        table = palettes.get(palette, {})
        if isinstance(value, list):
            value = value[0] if value else ""
        key = str(value if value is not None else "").casefold()
        return table.get(key) or table.get("default") or default or "#888888"

    def symbol(table: str, value: Any) -> str:
        """The icon name of the table for the value (of a list, its first value the table names), or its default."""
        names = template.symbols.get(table, {})
        values = value if isinstance(value, list) else [value]
        keys = [str(v if v is not None else "").casefold() for v in values]
        return next((names[k] for k in keys if k in names), names.get("default", ""))

    set_info = _Info(code="", name="", mark="")
    if card is not None and card.printings:
        code = card.printings[0].set
        found = next((s for s in game.sets if s.code.casefold() == code.casefold()), None)
        set_info = _Info(code=code, name=found.name if found else code, mark=found.mark if found else "")
    return {"card": CardView(card, game) if card is not None else None,
            "game": _Info(id=game.id, name=game.name), "set": set_info, "pick": pick, "symbol": symbol,
            "reminders": lambda text: reminders_for(reminders, text)}
