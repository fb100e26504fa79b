"""A card as words for clients that show text beside (or instead of) the face: type line, stats, text.

Tabletop Simulator's tooltip, Cockatrice's card text and Apprentice's record all need the same reading of
the game's fields: a yes/no field is its label when true and nothing when false, a list is ``a, b``, a map
``key=value; ...``. The type line is the kind, then the field the game's ``[apprentice] type`` names
(``Component - Neutral``, ``Monster - FIRE``), the line every client that has one shows.
"""

from __future__ import annotations

from typing import Any

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition


def field_words(game: GameDefinition, key: str, value: Any) -> str:
    """A field's value in words: ``yes``/``no``, ``a, b``, or the field's own cell form."""
    field = game.fields[key]
    if field.type == "bool":
        return "yes" if value else "no"
    if field.type == "list":
        return ", ".join(value)
    return field.to_cell(value)


def kind_label(game: GameDefinition, card: Card) -> str:
    return game.kinds[card.kind].label if card.kind in game.kinds else card.kind


def type_field(game: GameDefinition) -> str:
    key = game.apprentice.get("type", "")
    return key if key in game.fields else ""


def type_line(game: GameDefinition, card: Card) -> str:
    """``Component - Neutral``: the kind and the value of the game's type field, when the card has one."""
    key = type_field(game)
    value = card.fields.get(key) if key else None
    words = field_words(game, key, value) if value not in (None, "", []) else ""
    return f"{kind_label(game, card)} - {words}" if words else kind_label(game, card)


def stat_lines(game: GameDefinition, card: Card, skip: tuple[str, ...] = ()) -> list[str]:
    """``IP: 2``, ``Limit one per deck``: each field the card has, in the game's order (the type field and
    ``skip`` left out); false yes/no fields and empty values are not written."""
    lines = []
    for key, field in game.fields.items():
        value = card.fields.get(key)
        if key in skip or key == type_field(game) or value is None or value is False or value in ("", [], {}):
            continue
        lines.append(field.label if value is True else f"{field.label}: {field_words(game, key, value)}")
    return lines


def readable_text(game: GameDefinition, card: Card) -> str:
    """The stats, then the card's own text: what a player reads to play the card without its face."""
    return "\n".join([*stat_lines(game, card), *([card.text] if card.text else [])])
