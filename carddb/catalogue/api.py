"""The catalogue as the rest of carddb uses it: open it, load games, import, export, search, read cards."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session

from carddb.catalogue import cardfiles, search
from carddb.catalogue.db import (
    display_url,
    ensure_schema,
    lock_wait_seconds,
    make_engine,
    missing_catalogue_file,
    refresh_statistics,
    writer,
)
from carddb.catalogue.definitions import parse_definition, unknown_game, workspace_definition
from carddb.catalogue.load import LoadReport, load_into, plan_load
from carddb.catalogue.models import CardRow, GameRow, SetRow
from carddb.catalogue.provenance import IMPORT, Source, fingerprint, now, source_name
from carddb.catalogue.store import identity, read_cards, register_game, save_game, stored_cards, write_cards
from carddb.catalogue.validate import RawCard, build_cards
from carddb.catalogue.workspace_cards import read_workspace_game
from carddb.core.cards.card import Card, normalise_name
from carddb.core.cards.fields import FieldDef
from carddb.core.cards.names import no_card_named
from carddb.core.game.definition import GameDefinition
from carddb.errors import CardDataError, ConflictError, InputError, NotFoundError, OutputError
from carddb.workspace import DB_ENV, Workspace


@dataclass
class ImportReport:
    game: str
    source: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    sets: list[str] = field(default_factory=list)
    #: cards that came from a workspace card file and now come from this import: (card key, file)
    taken_from_files: list[tuple[str, str]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.added + self.updated + self.unchanged


class Catalogue:
    """One catalogue database, seen from a workspace. Cheap to open; every write is one transaction.

    A SQLite catalogue file that does not exist yet is not created by reading it: reads answer from the
    workspace's game definitions with no cards (``exists`` is False, ``absent_note`` says so), and the first
    write creates it. Every game of the workspace is known (``definitions.py``), held or not.
    """

    def __init__(self, db: str, workspace: Workspace | None = None) -> None:
        self.db = db
        self.workspace = workspace
        self._engine: Engine | None = None
        self._write_engine: Engine | None = None
        self._ready()

    # the database ---------------------------------------------------------------------------------------
    def _ready(self) -> bool:
        """Open the database if it exists (another process may just have made it); False if it does not."""
        if self._engine is None and not missing_catalogue_file(self.db):
            self._open()
        return self._engine is not None

    def _open(self) -> None:
        engine = make_engine(self.db)
        ensure_schema(engine)
        self._engine = engine
        self._write_engine = writer(engine)  # its transactions queue behind any other writer first

    def close(self) -> None:
        """Close every connection (SQLite folds its write-ahead log into the file); the next use opens again."""
        for engine in {id(e): e for e in (self._write_engine, self._engine) if e is not None}.values():
            engine.dispose()
        self._engine = self._write_engine = None

    @property
    def exists(self) -> bool:
        return self._ready()

    @property
    def engine(self) -> Engine:
        """The database; made (file and schema) if it does not exist yet: only writers and tools ask for it."""
        if not self._ready():
            self._open()
        assert self._engine is not None
        return self._engine

    @property
    def absent_note(self) -> str:
        return (f"the catalogue {self.db} does not exist yet, so it holds no cards: 'carddb build' (or 'carddb "
                "init') loads the workspace's card files into it, 'carddb cards import FILE' a file of cards")

    @contextmanager
    def session(self) -> Iterator[Session]:
        if not self._ready():
            raise InputError(f"no catalogue at {self.db} yet", hint="'carddb build' (or 'carddb init') makes it.")
        with Session(self.engine) as session:
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """All or nothing: commit when the block ends, roll back on any error. One writer at a time."""
        self.engine  # noqa: B018  (the first write makes the catalogue)
        assert self._write_engine is not None
        with Session(self._write_engine) as session:
            try:
                yield session
                session.commit()
            except IntegrityError as exc:
                session.rollback()
                raise ConflictError(f"the catalogue refused the change: {exc.orig}") from None
            except OperationalError as exc:
                session.rollback()
                raise write_failure(exc, display_url(self.engine)) from None
            except BaseException:
                session.rollback()
                raise

    # games ------------------------------------------------------------------------------------------------
    def held_games(self) -> list[str]:
        """The games the catalogue itself holds (registered by a write)."""
        if not self._ready():
            return []
        with self.session() as session:
            return list(session.execute(select(GameRow.id).order_by(GameRow.id)).scalars().all())

    def games(self) -> list[str]:
        """Every game known: the workspace's and the catalogue's."""
        workspace = self.workspace.game_ids() if self.workspace else []
        return sorted({*workspace, *self.held_games()})

    def game(self, game_id: str, format_id: str | None = None) -> GameDefinition:
        """The game's definition: the workspace's game.toml when it has one, else the catalogue's copy."""
        found = workspace_definition(self.workspace, game_id)
        if found is not None:
            return found[0].with_format(format_id)
        row = None
        if self._ready():
            with self.session() as session:
                row = session.execute(select(GameRow.definition, GameRow.definition_path)
                                      .where(GameRow.id == game_id)).first()
        if row is None:
            raise unknown_game(game_id, self.workspace, self.db, self.held_games())
        return parse_definition(row[0], row[1]).with_format(format_id)

    def save_game(self, game: GameDefinition, definition_text: str) -> None:
        with self.transaction() as session:
            save_game(session, game, definition_text)

    def ensure_game(self, session: Session, game_id: str) -> GameDefinition:
        """Inside a write: the game's definition, registered in the catalogue (or updated there) from the
        workspace's game.toml when that differs from the catalogue's copy."""
        found = workspace_definition(self.workspace, game_id)
        if found is not None:
            register_game(session, found[0], found[1])
            return found[0]
        row = session.execute(select(GameRow.definition, GameRow.definition_path).where(GameRow.id == game_id)).first()
        if row is None:
            raise unknown_game(game_id, self.workspace, self.db, self.held_games())
        return parse_definition(row[0], row[1])

    def sets(self, game_id: str) -> list[tuple[str, str]]:
        if game_id in self.held_games():
            with self.session() as session:
                rows = session.execute(select(SetRow.code, SetRow.name).where(SetRow.game_id == game_id)
                                       .order_by(SetRow.id)).all()
            return [(code, name) for code, name in rows]
        return [(s.code, s.name) for s in self.game(game_id).sets]

    def set_code(self, game_id: str, wanted: str) -> str:
        """The code of the game's set ``wanted`` names (its code in any case, or its name); NotFoundError
        naming the sets otherwise."""
        sets = self.sets(game_id)
        for code, name in sets:
            if wanted.casefold() in (code.casefold(), name.casefold()):
                return code
        known = ", ".join(code for code, _name in sets) or "none"
        raise NotFoundError(f"{game_id} has no set {wanted!r} (sets: {known})")

    # cards ------------------------------------------------------------------------------------------------
    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        self.game(game_id)
        if not self._ready():
            return []
        with self.session() as session:
            return read_cards(session, game_id, set_code=set_code)

    def find(self, game_id: str, name: str) -> list[Card]:
        """Every card of the game with that name (several when same-named cards differ by qualifier)."""
        return [card for card, _source in self.find_with_sources(game_id, name)]

    def find_with_sources(self, game_id: str, name: str) -> list[tuple[Card, Source]]:
        self.game(game_id)
        if not self._ready():
            raise NotFoundError(f"no card named {name!r} in {game_id}: {self.absent_note}")
        wanted = normalise_name(name)
        with self.session() as session:
            ids = session.execute(select(CardRow.id).where(CardRow.game_id == game_id,
                                                           CardRow.norm_name == wanted)).scalars().all()
            cards = read_cards(session, game_id, ids=list(ids))
        if not cards:
            raise NotFoundError(no_card_named(name, game_id, self.cards(game_id)))
        sources = self.sources(game_id, [wanted])
        return [(card, sources[identity(card)]) for card in cards]

    def sources(self, game_id: str, names: Collection[str] | None = None) -> dict[tuple[str, str], Source]:
        """Where each card of the game came from (or each card with one of these names), by identity
        (normalised name, qualifier)."""
        if not self._ready():
            return {}
        wanted = None if names is None else {normalise_name(name) for name in names}
        with self.session() as session:
            return {key: held.source for key, held in stored_cards(session, game_id, names=wanted).items()}

    def search(self, query: str, game_id: str | None = None, limit: int | None = None) -> list[Card]:
        """Cards matching the query (docs/search.md); a blank query lists every card (of the game)."""
        games = [game_id] if game_id else self.games()
        fields: dict[str, FieldDef] = {}
        for gid in games:
            fields.update(self.game(gid).fields)
        condition = search.compile_query(search.parse(query), fields, query) if query.strip() else None
        if not self._ready():
            return []
        with self.session() as session:  # the cards' columns straight from the search query: no id round trip
            if condition is None:
                return read_cards(session, game_id or None, limit=limit)
            return read_cards(session, game_id or None, where=condition, limit=limit)

    def import_cards(self, path: str | Path, game_id: str | None = None) -> ImportReport:
        """Import a YAML or CSV card file in one transaction: every card or none."""
        named_game, raws = cardfiles.read_card_file(path)
        if not raws:
            raise CardDataError(f"{path}: holds no cards; nothing was imported")
        if game_id and named_game and named_game != game_id:
            raise CardDataError(f"{path}: the file is for {named_game!r}, not {game_id!r}")
        target = game_id or named_game
        if not target:
            raise InputError(f"{path}: say which game the cards are for with --game")
        game = self.game(target)
        cards = build_cards(game, raws, str(path))
        return self.write(game, cards, source_name(path, self.workspace.root if self.workspace else None))

    def import_card_objects(self, game: GameDefinition, cards: list[Card], source: str) -> ImportReport:
        """Import cards read by another reader (a LackeyCCG plugin's card data), checked like a card file."""
        raws = [RawCard(values={k: v for k, v in card.to_dict().items() if k != "printings"},
                        where=f"{source} ({card.key})", printings=[p.to_dict() for p in card.printings])
                for card in cards]
        return self.write(game, build_cards(game, raws, source),
                          source_name(source, self.workspace.root if self.workspace else None))

    def write(self, game: GameDefinition, cards: list[Card], source: str, *, kind: str = IMPORT) -> ImportReport:
        """Add or update ``cards`` (checked already), recording ``source`` (a file's name) as where they came
        from; a card the catalogue holds exactly as given keeps its source. One transaction."""
        at = now()
        sources = [Source(kind, source, at, fingerprint(card)) for card in cards]
        with self.transaction() as session:
            self.ensure_game(session, game.id)
            counts = write_cards(session, game, cards, sources)
        refresh_statistics(self.engine, counts.added + counts.updated)
        sets = sorted({p.set for c in cards for p in c.printings})
        return ImportReport(game=game.id, source=source, added=counts.added, updated=counts.updated,
                            unchanged=counts.unchanged, sets=sets, taken_from_files=counts.taken_from_files)

    def export_cards(self, game_id: str, fmt: str = "yaml", set_code: str | None = None) -> str:
        game = self.game(game_id)
        cards = self.cards(game_id, self.set_code(game_id, set_code) if set_code is not None else None)
        if fmt == "yaml":
            return cardfiles.cards_to_yaml(game, cards)
        if fmt == "csv":
            return cardfiles.cards_to_csv(game, cards)
        raise InputError(f"unknown export format {fmt!r}; use csv or yaml")

    # the workspace's card files -----------------------------------------------------------------------------
    def load_workspace_game(self, workspace: Workspace, game_id: str, *, take_files: bool = False) -> LoadReport:
        """Load a workspace game's definition and card files (``load.py`` says what that changes), in one
        transaction; every file is read and checked before anything is written."""
        found = read_workspace_game(workspace, game_id)
        with self.transaction() as session:
            report = load_into(session, found, take_files=take_files)
        refresh_statistics(self.engine, report.written)
        return report

    def pending_load(self, workspace: Workspace, game_id: str) -> LoadReport:
        """What ``load_workspace_game`` would change now, changing nothing."""
        found = read_workspace_game(workspace, game_id)
        if not self._ready():
            return plan_load(found, {}, {})[0]
        with self.session() as session:
            return load_into(session, found, write=False)


def open_catalogue(db: str | None = None, root: str | Path | None = None) -> Catalogue:
    """The catalogue at ``db`` (a path or URL), else ``$CARDDB_DB``, else the workspace's output/catalogue.db,
    seen from the workspace at ``root`` (else the one holding the current folder, if any)."""
    workspace = Workspace.locate(root)
    db = db or os.environ.get(DB_ENV) or None
    if db is None:
        db = Workspace.find(root).default_db() if workspace is None else workspace.default_db()
    return Catalogue(db, workspace)


#: How each database says a lock or a conflicting writer stopped a write (SQLite's words; PostgreSQL's
#: SQLSTATE: lock not available, serialization failure, deadlock), and how it says the disk is full (a damaged
#: or read-only SQLite file is named where the engine meets it: ``carddb.catalogue.db``).
_BUSY_WORDS = ("database is locked", "database table is locked", "database is busy")
_BUSY_STATES = {"55P03", "40001", "40P01"}
_DISK_WORDS = ("disk is full", "no space left", "could not extend file")
_DISK_STATES = {"53100"}


def write_failure(exc: OperationalError, where: str) -> Exception:
    """What a failed write really was: another writer holding the catalogue (a conflict: try again), a disk or
    full disk (an output error), or anything else, which is carddb's bug and goes to the crash
    report as it is."""
    reason = str(exc.orig).strip().splitlines()[0] if str(exc.orig).strip() else type(exc.orig).__name__
    state = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    lowered = reason.lower()
    if state in _BUSY_STATES or any(word in lowered for word in _BUSY_WORDS):
        return ConflictError(f"another writer kept the catalogue {where} busy for more than {lock_wait_seconds():g} "
                             f"s ({reason}); nothing was changed, try again")
    if state in _DISK_STATES or any(word in lowered for word in _DISK_WORDS):
        return OutputError(f"the catalogue {where} could not be written ({reason}); nothing was changed")
    return exc
