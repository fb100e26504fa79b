"""A read-only view of a SQLite catalogue through the standard library's sqlite3.

``carddb deck check`` must answer in well under 200 ms as a whole process, and importing SQLAlchemy alone
takes longer than that. Commands that only read one game's cards use ``open_reader``: plain sqlite3 for a
catalogue file, the full ``Catalogue`` for a database URL. Both return the same ``Card`` objects.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import urllib.parse
from collections import defaultdict
from pathlib import Path
from typing import Protocol

from carddb.catalogue.definitions import parse_definition
from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError, UnknownGameError
from carddb.workspace import Workspace


class CardSource(Protocol):
    def game(self, game_id: str, format_id: str | None = None) -> GameDefinition: ...

    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]: ...


def _damaged_is_input(method):  # type: ignore[no-untyped-def]
    """A damaged catalogue file met halfway through reading is an ``InputError`` naming the file."""

    @functools.wraps(method)
    def reading(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise InputError(_damaged(self.path, exc)) from None

    return reading


def _damaged(path: Path, exc: Exception) -> str:
    return (f"the catalogue {path} is damaged ({exc}); restore it from a dump (carddb db restore) or move it "
            "away and run carddb build")


class SqliteReader:
    """Reads games and cards of a SQLite catalogue without SQLAlchemy."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # A file carddb may not write (a read-only mount) is opened immutable: no lock or -shm file needed.
        read_only = not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
        wal = path.with_name(path.name + "-wal")
        settled = read_only and not (wal.exists() and wal.stat().st_size > 0)  # else only a plain open sees it
        uri = f"file:{urllib.parse.quote(str(path.absolute()))}?mode=ro{'&immutable=1' if settled else ''}"
        try:
            self.conn = sqlite3.connect(uri, uri=True)
            self.conn.execute("SELECT 1 FROM game LIMIT 1")
        except sqlite3.Error as exc:
            if any(word in str(exc) for word in ("malformed", "not a database")):
                raise InputError(_damaged(path, exc)) from None
            raise InputError(f"cannot read the catalogue {path}: {exc}; run 'carddb build' first") from None

    @_damaged_is_input
    def games(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT id FROM game ORDER BY id")]

    @_damaged_is_input
    def game(self, game_id: str, format_id: str | None = None) -> GameDefinition:
        row = self.conn.execute("SELECT definition, definition_path FROM game WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            known = ", ".join(self.games()) or "none yet; run 'carddb build'"
            raise UnknownGameError(f"unknown game {game_id!r} in {self.path} (games: {known})")
        return parse_definition(row[0], row[1]).with_format(format_id)

    @_damaged_is_input
    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        self.game(game_id)
        printings: dict[int, list[Printing]] = defaultdict(list)
        for card_id, code, number, rarity, art in self.conn.execute(
                "SELECT p.card_id, s.code, p.number, p.rarity, p.art FROM printing p "
                "JOIN card_set s ON s.id = p.set_id WHERE s.game_id = ? ORDER BY p.card_id, p.position",
                (game_id,)):
            printings[card_id].append(Printing(set=code, number=number, rarity=rarity, art=art))
        cards = []
        for card_id, name, kind, text, flavor, fields, qualifier, sample in self.conn.execute(
                "SELECT id, name, kind, text, flavor, fields, qualifier, sample FROM card WHERE game_id = ? "
                "ORDER BY position, id", (game_id,)):
            card_printings = printings.get(card_id, [])
            if set_code is not None and not any(p.set == set_code for p in card_printings):
                continue
            cards.append(Card(game=game_id, name=name, kind=kind, text=text, flavor=flavor,
                              fields=json.loads(fields), printings=card_printings, qualifier=qualifier,
                              sample=json.loads(sample)))
        return cards


def open_reader(db: str | None = None, root: str | Path | None = None) -> CardSource:
    """The fastest reader for ``db``: sqlite3 for a catalogue file that exists, else the full catalogue."""
    db = db or Workspace.find(root).default_db()
    if "://" not in db:
        path = Path(db)
        if path.is_file():
            return SqliteReader(path)
        if not path.exists():
            raise InputError(f"no catalogue at {path}; run 'carddb build' (or 'carddb init') first")
    from carddb.catalogue.api import open_catalogue

    return open_catalogue(db, root)
