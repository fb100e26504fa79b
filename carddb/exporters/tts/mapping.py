"""What Tabletop Simulator shows of a card and where each zone lies on the table.

``Nickname`` is the card's name (its version only where two cards share a name): the tooltip title and
what TTS's search finds. ``Description`` is the type line, the stats and the card's text, so the tooltip
reads the card without zooming. ``GMNotes`` (seen only by the Black seat and by scripts) holds carddb's JSON
``{"game", "card", "set", "number"}``: the exact card, for reading the object back (``carddb.core.decks.tts``).

The main deck lies face down in the middle; every other zone lies beside it, to the right, in the game's
zone order: a zone of one card (ssbm's character, website's base site) as a face-up card, a larger zone
(shmod's stack and side deck) as a face-down deck.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.exporters.card_text import readable_text, type_line

ZONE_SPACING = 3.0  # table units between piles: a card at scale 1 is about 2.2 wide


@dataclass(frozen=True)
class Placement:
    x: float
    face_up: bool


def description(game: GameDefinition, card: Card) -> str:
    return "\n".join(part for part in (type_line(game, card), readable_text(game, card)) if part)


def card_notes(game: GameDefinition, card: Card, zone: str | None = None) -> str:
    printing = card.printings[0] if card.printings else None
    data = {"game": game.id, "card": card.key, "set": printing.set if printing else "",
            "number": printing.number if printing else ""}
    if zone is not None:
        data["zone"] = zone
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def deck_notes(game: GameDefinition, deck_name: str, zone: str | None) -> str:
    data = {"game": game.id, "deck": deck_name}
    if zone is not None:
        data["zone"] = zone
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def pile_name(deck_name: str, game: GameDefinition, zone: str | None) -> str:
    """``Bowser Koopa (Character)``: the pile's tooltip, which also tells the zone to a reader."""
    label = game.zones[zone].label if zone in game.zones else ""
    return f"{deck_name} ({label})" if label else deck_name


def placements(game: GameDefinition, piles: list[tuple[str | None, int]]) -> list[Placement]:
    """Where each pile (zone, cards) lies: the main deck (or a set's cards) at x = 0, other zones to its
    right; a pile of one card face up, a larger one face down."""
    out = []
    others = 0
    for zone, size in piles:
        if zone is None or zone == game.main_zone:
            out.append(Placement(0.0, size == 1))
        else:
            others += 1
            out.append(Placement(ZONE_SPACING * others, size == 1))
    return out
