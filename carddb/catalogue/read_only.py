"""What the commands that only read ask of a catalogue, answered by sqlite3 alone for a SQLite file.

``cards search``, ``cards show``, ``collection show`` and ``db status`` would spend most of their time
importing SQLAlchemy (half a second) to run a few queries. ``open_read_only`` gives them a
``ReadOnlyCatalogue`` instead when the catalogue is a SQLite file at this carddb's schema revision: the same
answers as ``carddb.catalogue.api.Catalogue`` (the tests compare both), read with the standard library. A
database URL, a catalogue at another revision (it needs an upgrade first) or no workspace to read definitions
from get the full ``Catalogue``.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from datetime import datetime
from pathlib import Path
from typing import Any

from carddb.catalogue.definitions import parse_definition, unknown_game, workspace_definition
from carddb.catalogue.provenance import Source
from carddb.catalogue.reader import SqliteReader
from carddb.catalogue.schema_revision import HEAD_REVISION
from carddb.core.cards.card import Card, normalise_name
from carddb.core.cards.fields import FieldDef
from carddb.core.cards.names import no_card_named
from carddb.core.game.definition import GameDefinition
from carddb.core.search.query import CardSearch
from carddb.errors import NotFoundError
from carddb.workspace import DB_ENV, Workspace


class ReadOnlyCatalogue:
    """A SQLite catalogue at the head revision, read through sqlite3; the read methods of ``Catalogue``."""

    def __init__(self, db: str, workspace: Workspace | None, reader: SqliteReader) -> None:
        self.db = db
        self.workspace = workspace
        self.reader = reader
        self.exists = True

    def held_games(self) -> list[str]:
        return self.reader.games()

    def games(self) -> list[str]:
        workspace = self.workspace.game_ids() if self.workspace else []
        return sorted({*workspace, *self.held_games()})

    def game(self, game_id: str, format_id: str | None = None) -> GameDefinition:
        found = workspace_definition(self.workspace, game_id)
        if found is not None:
            return found[0].with_format(format_id)
        row = self.reader.conn.execute("SELECT definition, definition_path FROM game WHERE id = ?",
                                       (game_id,)).fetchone()
        if row is None:
            raise unknown_game(game_id, self.workspace, self.db, self.held_games())
        return parse_definition(row[0], row[1]).with_format(format_id)

    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        self.game(game_id)
        return self.reader.cards(game_id, set_code) if game_id in self.held_games() else []

    def search(self, query: str, game_id: str | None = None, limit: int | None = None) -> list[Card]:
        """The cards of ``Catalogue.search``, matched in Python by the search language's own matcher (the
        one the site runs), in catalogue order: game, then load order."""
        games = [game_id] if game_id else self.games()
        fields: dict[str, FieldDef] = {}
        for gid in games:
            fields.update(self.game(gid).fields)
        held = set(self.held_games())
        cards = [card for gid in sorted(set(games) & held) for card in self.reader.cards(gid)]
        if query.strip():
            sets = dict(self.reader.conn.execute("SELECT code, name FROM card_set"))
            cards = CardSearch(query, fields, sets).select(cards)
        return cards[:limit] if limit else cards

    def find_with_sources(self, game_id: str, name: str) -> list[tuple[Card, Source]]:
        self.game(game_id)
        wanted = normalise_name(name)
        cards = [card for card in self.cards(game_id) if normalise_name(card.name) == wanted]
        if not cards:
            raise NotFoundError(no_card_named(name, game_id, self.cards(game_id)))
        sources = self.sources(game_id, [wanted])
        return [(card, sources[(normalise_name(card.name), card.qualifier)]) for card in cards]

    def sources(self, game_id: str, names: Collection[str] | None = None) -> dict[tuple[str, str], Source]:
        wanted = None if names is None else {normalise_name(name) for name in names}
        rows = self.reader.conn.execute(
            "SELECT norm_name, qualifier, source_kind, source_name, source_at, source_fingerprint FROM card "
            "WHERE game_id = ?", (game_id,))
        return {(norm, qualifier): Source(kind, name, _moment(at), print_)
                for norm, qualifier, kind, name, at, print_ in rows if wanted is None or norm in wanted}

    def owned_counts(self, name: str, game_id: str) -> dict[str, int]:
        """Card key -> copies owned, as ``carddb.catalogue.collections.owned_counts``."""
        row = self.reader.conn.execute("SELECT id FROM collection WHERE game_id = ? AND name = ?",
                                       (game_id, name)).fetchone()
        if row is None:
            raise NotFoundError(f"no collection {name!r} for {game_id}")
        return dict(self.reader.conn.execute(
            "SELECT card_key, count FROM collection_entry WHERE collection_id = ? ORDER BY id", (row[0],)))


def _moment(stored: Any) -> datetime | None:
    """A moment as SQLAlchemy's DateTime keeps it in SQLite (``2025-03-01 10:02:03.000123``)."""
    if stored is None or isinstance(stored, datetime):
        return stored
    return datetime.fromisoformat(str(stored))


def sqlite_revision(path: Path) -> str | None:
    """The schema revision a SQLite catalogue file records, or None when it records none it can say."""
    import sqlite3
    import urllib.parse

    try:
        conn = sqlite3.connect(f"file:{urllib.parse.quote(str(path.absolute()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        rows = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return rows[0][0] if len(rows) == 1 else None


def open_read_only(db: str | None = None, root: str | Path | None = None) -> Any:
    """A catalogue to read: a ``ReadOnlyCatalogue`` for a SQLite file at the head revision, else the full
    ``Catalogue`` (which also answers for a catalogue that does not exist yet)."""
    workspace = Workspace.locate(root)
    name = db or os.environ.get(DB_ENV) or None
    if name is None:
        name = Workspace.find(root).default_db() if workspace is None else workspace.default_db()
    if "://" not in name:
        path = Path(name).expanduser()
        if path.is_file() and sqlite_revision(path) == HEAD_REVISION:
            return ReadOnlyCatalogue(name, workspace, SqliteReader(path))
    from carddb.catalogue.api import Catalogue

    return Catalogue(name, workspace)
