"""Following the catalogue while watching: a write by another process (``carddb cards import`` in a second
terminal) builds the games it changed; the build's own writes build nothing more.

Each game's content in the catalogue (its cards and their printings, what every step after loading reads) has
a stamp. The watcher keeps, per game, the stamp it last accounted for: the one read right after its own build
loaded the game (``RecordingCatalogue``), or the one that started a build. A game whose stamp differs from the
kept one was written by someone else after the build read it, whatever the journal mode: a write's file events
(the SQLite file, its ``-wal`` or ``-journal``) only say when to look, so WAL checkpoints and the build's own
commits cost a look and never a build. A PostgreSQL catalogue has no file to watch and is looked at every
``POLL_SECONDS``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Text, cast, select
from sqlalchemy.exc import SQLAlchemyError

from carddb.app.build_stamp import catalogue_file
from carddb.catalogue.api import Catalogue
from carddb.catalogue.load import LoadReport
from carddb.catalogue.store import CARD, PRINTING, SET
from carddb.errors import InputError
from carddb.workspace import Workspace

#: How often a catalogue with no file (PostgreSQL) is looked at for another process's writes.
POLL_SECONDS = 2.0


def catalogue_files(db: str) -> list[Path]:
    """The files a write to the catalogue changes: the database, its write-ahead log or rollback journal
    (``-shm`` is written through memory maps, which make no file events)."""
    path = catalogue_file(db)
    return [] if path is None else [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-journal")]


@dataclass(frozen=True)
class GameContent:
    """What the catalogue holds of a game, as the watcher needs it: a stamp of everything a build reads of it
    and the art its cards draw (the first printing's, as ``Card.get("art")``)."""

    stamp: str
    arts: tuple[str, ...] = ()


def game_content(catalogue: Catalogue, game_id: str) -> GameContent:
    """The game's cards and printings read as rows, not as ``Card`` objects: this runs after every build."""
    digest = hashlib.sha256()
    if not catalogue.exists:
        return GameContent(digest.hexdigest())  # as a catalogue holding none of its cards
    arts: dict[int, str] = {}
    try:
        cards, printings = _rows(catalogue, game_id)
    except SQLAlchemyError as exc:  # locked past the busy timeout, a file replaced mid-read
        raise InputError(f"the catalogue {catalogue.db} could not be read ({type(exc).__name__}: {exc})") from None
    for row in cards:
        digest.update(repr(tuple(row)).encode())
    for row in printings:
        digest.update(repr(tuple(row)).encode())
        arts.setdefault(row[0], row[4])
    return GameContent(digest.hexdigest(), tuple(sorted({art for art in arts.values() if art})))


def _rows(catalogue: Catalogue, game_id: str) -> tuple[list[Any], list[Any]]:
    with catalogue.session() as session:
        cards = session.execute(
            select(CARD.c.id, CARD.c.name, CARD.c.qualifier, CARD.c.kind, CARD.c.text, CARD.c.flavor,
                   cast(CARD.c.fields, Text), cast(CARD.c.sample, Text), CARD.c.position)
            .where(CARD.c.game_id == game_id).order_by(CARD.c.position, CARD.c.id)).all()
        printings = session.execute(
            select(PRINTING.c.card_id, SET.c.code, PRINTING.c.number, PRINTING.c.rarity, PRINTING.c.art)
            .join(SET, SET.c.id == PRINTING.c.set_id).where(SET.c.game_id == game_id)
            .order_by(PRINTING.c.card_id, PRINTING.c.position, PRINTING.c.id)).all()
    return list(cards), list(printings)


class RecordingCatalogue(Catalogue):
    """The catalogue the watcher's builds use: it tells the follower when it has loaded a game, so what the build
    itself wrote is taken as read, never as another process's write."""

    def __init__(self, db: str, workspace: Workspace | None, loaded: Callable[[str], None]) -> None:
        super().__init__(db, workspace)
        self._loaded = loaded

    def load_workspace_game(self, workspace: Workspace, game_id: str, *, take_files: bool = False) -> LoadReport:
        report = super().load_workspace_game(workspace, game_id, take_files=take_files)
        self._loaded(game_id)  # before any step reads the game: a write after this is another process's
        return report


class CatalogueFollower:
    """Which games another process changed in the catalogue since the watcher's builds last read them."""

    def __init__(self, catalogue: Catalogue, workspace: Workspace) -> None:
        self.workspace = workspace
        self.catalogue = RecordingCatalogue(catalogue.db, catalogue.workspace, self._loaded)
        self.files = catalogue_files(catalogue.db)
        self.poll_seconds = None if self.files else POLL_SECONDS
        self._kept = {game_id: game_content(self.catalogue, game_id) for game_id in workspace.game_ids()}

    def _loaded(self, game_id: str) -> None:
        self._kept[game_id] = game_content(self.catalogue, game_id)

    def changed_games(self) -> list[str]:
        """The games whose content differs from the one kept, which is then kept: each write builds once."""
        changed = []
        for game_id in self.workspace.game_ids():
            now = game_content(self.catalogue, game_id)
            kept = self._kept.get(game_id)
            if kept is not None and kept.stamp != now.stamp:
                changed.append(game_id)
            self._kept[game_id] = now  # a game new to the workspace: its folder's events build it
        return changed

    def arts(self) -> dict[str, tuple[str, ...]]:
        """Each game's art as the catalogue held it when last read."""
        return {game_id: content.arts for game_id, content in self._kept.items()}
