"""Reading Tabletop Simulator saved objects back: the deck they hold, and the face TTS shows for each card.

``read_deck`` gives the cards and counts per zone (through the deck checker's own reader,
``carddb.core.decks.tts``). ``card_cells`` follows each card the way TTS does: ``CardID // 100`` is the key
of its ``CustomDeck`` entry, ``CardID % 100`` the slot on that entry's ``NumWidth`` x ``NumHeight`` grid,
counted row by row; the cell is cut out of the sheet the ``FaceURL`` names (a ``file:///`` path, or a URL
under ``base_url`` mapped back to ``folder``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from carddb.core.decks.deck import Deck
from carddb.core.decks.parse import parse_deck
from carddb.core.decks.tts import CARDS, DECKS
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError
from carddb.files.reading import read_deck_file


@dataclass(frozen=True)
class CardCell:
    card_id: int
    nickname: str
    sheet: Path
    columns: int
    rows: int
    slot: int
    problem: str = ""  # why the card shows no face: no CustomDeck entry, a slot outside the grid, ...

    def box(self, sheet_size: tuple[int, int]) -> tuple[int, int, int, int]:
        width, height = sheet_size[0] // self.columns, sheet_size[1] // self.rows
        column, row = self.slot % self.columns, self.slot // self.columns
        return column * width, row * height, (column + 1) * width, (row + 1) * height


def read_deck(path: str | Path, game: GameDefinition) -> Deck:
    path = Path(path)
    return parse_deck(read_deck_file(path), game, path.name)


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        data = json.loads(read_deck_file(path))
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{path}: not a Tabletop Simulator saved object ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("ObjectStates"), list):
        raise InputError(f"{path}: not a Tabletop Simulator saved object (no ObjectStates)")
    return data


def cards_of(obj: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every card object inside ``obj`` (itself, a deck's contents, a bag's contents)."""
    if obj.get("Name") in CARDS:
        yield obj
    for child in obj.get("ContainedObjects") or []:
        if isinstance(child, dict):
            yield from cards_of(child)


def card_cells(path: str | Path, folder: str | Path | None = None, base_url: str = "") -> Iterator[CardCell]:
    """Each card of the saved object (one per physical card) with the sheet cell TTS would show."""
    path = Path(path)
    data = load(path)
    for obj in data["ObjectStates"]:
        if not isinstance(obj, dict):
            continue
        deck_sheets = obj.get("CustomDeck") if obj.get("Name") in DECKS else None
        ids = obj.get("DeckIDs") if obj.get("Name") in DECKS else None
        cards = list(cards_of(obj))
        if ids is not None and ids != [c.get("CardID") for c in cards]:
            yield CardCell(-1, str(obj.get("Nickname", "")), path, 1, 1, 0,
                           problem="DeckIDs do not list the ContainedObjects' CardIDs in order")
        if isinstance(deck_sheets, dict):
            # TTS draws a deck from the deck's own CustomDeck: keys must be numbers naming a sheet.
            for key in deck_sheets:
                if not key.isdigit():
                    yield CardCell(-1, str(obj.get("Nickname", "")), path, 1, 1, 0,
                                   problem=f"CustomDeck key {key!r} is not a number")
        for card in cards:
            yield _cell(card, deck_sheets, Path(folder or path.parent), base_url)


def _cell(card: dict[str, Any], deck_sheets: dict[str, Any] | None, folder: Path, base_url: str) -> CardCell:
    card_id = card.get("CardID")
    nickname = str(card.get("Nickname", ""))
    if not isinstance(card_id, int) or card_id < 0:
        return CardCell(-1, nickname, folder, 1, 1, 0, problem=f"CardID {card_id!r} is not a number")
    key, slot = str(card_id // 100), card_id % 100
    entry = (card.get("CustomDeck") or {}).get(key)
    if entry is None:
        return CardCell(card_id, nickname, folder, 1, 1, slot, problem=f"no CustomDeck entry {key} on the card")
    if deck_sheets is not None and deck_sheets.get(key) != entry:
        return CardCell(card_id, nickname, folder, 1, 1, slot,
                        problem=f"the deck's CustomDeck entry {key} differs from the card's")
    columns, rows = entry.get("NumWidth"), entry.get("NumHeight")
    if not (isinstance(columns, int) and isinstance(rows, int) and 1 <= columns <= 10 and 1 <= rows <= 7):
        return CardCell(card_id, nickname, folder, 1, 1, slot, problem=f"grid {columns} x {rows} is not 1-10 x 1-7")
    sheet = _local(str(entry.get("FaceURL", "")), folder, base_url)
    problem = "" if slot < columns * rows else f"slot {slot} is outside the {columns} x {rows} grid"
    return CardCell(card_id, nickname, sheet, columns, rows, slot, problem=problem)


def _local(url: str, folder: Path, base_url: str) -> Path:
    if base_url and url.startswith(base_url.rstrip("/") + "/"):
        return folder.joinpath(*unquote(url[len(base_url.rstrip("/")) + 1:]).split("/"))
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return Path(unquote(parsed.path))
    return folder / "<not a local file>" / url
