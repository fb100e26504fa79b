"""Tabletop Simulator saved objects (and whole saves) read as decks. Pure standard library.

A saved object is JSON whose ``ObjectStates`` holds the objects (``research/tts-cockatrice.md`` §1.1): a
``Deck`` (or ``DeckCustom``) lists its cards in ``ContainedObjects``, a ``Card`` stands alone, a bag holds
either. Every card found counts once. A card is named by its ``GMNotes`` when those are carddb's JSON
(``{"card": "Splash Page (Neutral)", ...}``), else by its ``Nickname``, which is what a player sees. The zone
of an object comes from carddb's ``GMNotes`` (``"zone": "character"``), else from its nickname
(``Character``, or ``Bowser Koopa (Character)``), else it is the main deck.
"""

from __future__ import annotations

import json
from typing import Any

from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.decks.parse import split_qualifier, zone_for_header
from carddb.core.game.definition import GameDefinition
from carddb.core.problems import Problem

DECKS = ("Deck", "DeckCustom")
CARDS = ("Card", "CardCustom")
MAX_DEPTH = 16  # bags in bags: deeper nesting is not a deck
MAX_CARDS = 10_000


def carddb_notes(obj: dict[str, Any]) -> dict[str, Any]:
    """The object's ``GMNotes`` when they are carddb's JSON object, else ``{}`` (a player's own notes)."""
    notes = obj.get("GMNotes")
    if not isinstance(notes, str) or not notes.lstrip().startswith("{"):
        return {}
    try:
        data = json.loads(notes)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


class _TtsReader:
    def __init__(self, game: GameDefinition) -> None:
        self.game = game
        self.deck = Deck(game=game.id, source_format="tts")
        self.counts: dict[tuple[str, str, str], int] = {}
        self.cards = 0

    def problem(self, message: str, zone: str | None = None) -> None:
        self.deck.problems.append(Problem(code="parse", message=message, zone=zone, line=None,
                                          rule=self.game.rule_link("")))

    def read(self, text: str) -> Deck:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            self.problem(f"The file is not a Tabletop Simulator saved object: not valid JSON ({exc}).")
            return self.deck
        if isinstance(data, dict) and isinstance(data.get("ObjectStates"), list):
            objects = data["ObjectStates"]
            self.deck.name = str(data.get("SaveName") or "")
        elif isinstance(data, dict) and "Name" in data:
            objects = [data]
        else:
            self.problem("The file is JSON but not a Tabletop Simulator saved object (no ObjectStates).")
            return self.deck
        for obj in objects:
            self.walk(obj, self.game.main_zone, 0)
        for (zone, name, qualifier), count in self.counts.items():
            written = f"{name} ({qualifier})" if qualifier else name
            self.deck.entries.append(DeckEntry(zone=zone, count=count, name=name, qualifier=qualifier,
                                               text=f"{count} {written}"))
        if not self.counts and not self.deck.problems:
            self.problem("The saved object holds no cards.")
        return self.deck

    def zone_of(self, obj: dict[str, Any], inherited: str) -> str:
        notes = carddb_notes(obj)
        if isinstance(notes.get("zone"), str) and notes["zone"] in self.game.zones:
            return notes["zone"]
        nickname = str(obj.get("Nickname") or "").strip()
        if nickname and obj.get("Name") not in CARDS:
            for candidate in (nickname, split_qualifier(nickname)[1]):
                zone = zone_for_header(candidate, self.game) if candidate else None
                if zone:
                    return zone
        return inherited

    def walk(self, obj: Any, zone: str, depth: int) -> None:
        if not isinstance(obj, dict) or depth > MAX_DEPTH:
            return
        zone = self.zone_of(obj, zone)
        if not self.deck.name and isinstance(carddb_notes(obj).get("deck"), str):
            self.deck.name = carddb_notes(obj)["deck"]
        kind = obj.get("Name")
        contained = obj.get("ContainedObjects")
        if kind in CARDS:
            self.card(obj, zone)
        elif kind in DECKS and not isinstance(contained, list):
            self.problem(f"The deck {obj.get('Nickname') or ''!r} lists no ContainedObjects, so its cards have no "
                         f"names to read.", zone)
        if isinstance(contained, list):
            for child in contained:
                self.walk(child, zone, depth + 1)

    def card(self, obj: dict[str, Any], zone: str) -> None:
        self.cards += 1
        if self.cards > MAX_CARDS:
            if self.cards == MAX_CARDS + 1:
                self.problem(f"The saved object holds more than {MAX_CARDS} cards; the rest were not read.")
            return
        notes = carddb_notes(obj)
        written = notes.get("card") if isinstance(notes.get("card"), str) else str(obj.get("Nickname") or "")
        written = " ".join(written.split())
        if not written:
            self.problem(f"A card (CardID {obj.get('CardID')}) has no nickname, so it cannot be named.", zone)
            return
        name, qualifier = split_qualifier(written)
        self.counts[(zone, name, qualifier)] = self.counts.get((zone, name, qualifier), 0) + 1


def parse_tts(text: str, game: GameDefinition) -> Deck:
    return _TtsReader(game).read(text)
