"""The saved object's JSON (``research/tts-cockatrice.md`` §1.1-1.4, §1.8).

The envelope is TTS's own, its outer fields empty as TTS writes them for a saved object. A pile of several
cards is a ``Deck``: ``DeckIDs`` holds one ``CardID`` per physical card, ``ContainedObjects`` one ``Card``
per id in the same order, and ``CustomDeck`` maps each sheet's key to its images and grid. Each card
repeats its own sheet's entry, so a card dealt from the deck still knows its face. A pile of one card is a
``Card`` (TTS has no deck of one). ``CardID = key * 100 + slot``, the slot counted row by row from 0.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

from carddb.exporters.tts.mapping import Placement
from carddb.exporters.tts.sheets import Grid


@dataclass(frozen=True)
class Sheet:
    key: int
    face_url: str
    back_url: str
    grid: Grid

    def entry(self) -> dict[str, Any]:
        return {"FaceURL": self.face_url, "BackURL": self.back_url, "NumWidth": self.grid.columns,
                "NumHeight": self.grid.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}


@dataclass
class CardFace:
    """One card as TTS shows it: its id on a sheet and its texts."""

    card_id: int
    sheet: Sheet
    nickname: str
    description: str
    notes: str  # GMNotes


@dataclass
class Pile:
    nickname: str
    description: str
    notes: str
    placement: Placement
    cards: list[CardFace] = field(default_factory=list)  # one entry per physical card, in deck order
    single_notes: str = ""  # the GMNotes of the card when the pile is a single card (it carries the zone)


class Guids:
    """Six-hex-digit object GUIDs, distinct within a file and the same on every export of it.

    TTS gives an object without one a GUID when it loads it, but tools that take saves apart by object
    (TTSModManager refuses an object with no GUID) need one, so every object and contained card has its own.
    """

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.taken: set[str] = set()

    def next(self) -> str:
        n = len(self.taken)
        while True:
            guid = f"{zlib.crc32(f'{self.seed}/{n}'.encode()) & 0xFFFFFF:06x}"
            if guid not in self.taken:
                self.taken.add(guid)
                return guid
            n += 1


def transform(placement: Placement) -> dict[str, float]:
    return {"posX": placement.x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 0.0 if placement.face_up else 180.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def card_object(face: CardFace, placement: Placement, guids: Guids, notes: str | None = None) -> dict[str, Any]:
    return {"GUID": guids.next(), "Name": "Card", "Transform": transform(placement), "Nickname": face.nickname,
            "Description": face.description, "GMNotes": face.notes if notes is None else notes,
            "CardID": face.card_id, "Hands": True,
            "CustomDeck": {str(face.sheet.key): face.sheet.entry()}}


def pile_object(pile: Pile, guids: Guids) -> dict[str, Any]:
    if len(pile.cards) == 1:
        return card_object(pile.cards[0], pile.placement, guids, pile.single_notes or None)
    inside = Placement(0.0, pile.placement.face_up)
    sheets = {str(face.sheet.key): face.sheet.entry() for face in pile.cards}
    return {"GUID": guids.next(), "Name": "Deck", "Transform": transform(pile.placement), "Nickname": pile.nickname,
            "Description": pile.description, "GMNotes": pile.notes, "Hands": False,
            "DeckIDs": [face.card_id for face in pile.cards],
            "CustomDeck": dict(sorted(sheets.items(), key=lambda item: int(item[0]))),
            "ContainedObjects": [card_object(face, inside, guids) for face in pile.cards]}


def saved_object(piles: list[Pile], seed: str) -> dict[str, Any]:
    """The whole file: TTS's saved-object envelope around one object per pile (``seed`` names the file's
    GUIDs)."""
    guids = Guids(seed)
    return {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
            "ObjectStates": [pile_object(pile, guids) for pile in piles if pile.cards]}
