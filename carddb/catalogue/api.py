"""The catalogue as the rest of carddb uses it: open it, load games, import, export, search, read cards."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session

from carddb.catalogue import cardfiles, search
from carddb.catalogue.db import display_url, ensure_schema, lock_wait_seconds, make_engine, refresh_statistics, writer
from carddb.catalogue.models import CardRow, GameRow, SetRow
from carddb.catalogue.store import read_cards, save_game, write_cards
from carddb.catalogue.validate import RawCard, build_cards
from carddb.errors import CardDataError, ConflictError, InputError, NotFoundError, UnknownGameError
from carddb.rules.cards import Card, normalise_name
from carddb.rules.fields import FieldDef
from carddb.rules.game import GameDefinition, load_game_text
from carddb.workspace import Workspace


@dataclass
class ImportReport:
    game: str
    source: str
    added: int = 0
    updated: int = 0
    removed: int = 0
    sets: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.added + self.updated


class Catalogue:
    """One catalogue database. Cheap to open; every write is one transaction."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.engine = make_engine(db)
        ensure_schema(self.engine)
        self.write_engine = writer(self.engine)  # its transactions queue behind any other writer first

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine) as session:
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """All or nothing: commit when the block ends, roll back on any error. One writer at a time."""
        with Session(self.write_engine) as session:
            try:
                yield session
                session.commit()
            except IntegrityError as exc:
                session.rollback()
                raise ConflictError(f"the catalogue refused the change: {exc.orig}") from None
            except OperationalError as exc:
                session.rollback()
                reason = str(exc.orig).strip().splitlines()[0] if str(exc.orig).strip() else "locked"
                where = display_url(self.engine)
                raise ConflictError(f"another writer kept the catalogue {where} busy for more than "
                                    f"{lock_wait_seconds():g} s ({reason}); nothing was changed, try again") from None
            except BaseException:
                session.rollback()
                raise

    # games ------------------------------------------------------------------------------------------------
    def games(self) -> list[str]:
        with self.session() as session:
            return list(session.execute(select(GameRow.id).order_by(GameRow.id)).scalars().all())

    def game(self, game_id: str, format_id: str | None = None) -> GameDefinition:
        with self.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                known = ", ".join(self.games()) or "none yet; run 'carddb build'"
                raise UnknownGameError(f"unknown game {game_id!r} in {self.db} (games: {known})")
            text, path = row.definition, row.definition_path
        return _parse_definition(text, path).with_format(format_id)

    def save_game(self, game: GameDefinition, definition_text: str) -> None:
        with self.transaction() as session:
            save_game(session, game, definition_text)

    def sets(self, game_id: str) -> list[tuple[str, str]]:
        with self.session() as session:
            rows = session.execute(select(SetRow.code, SetRow.name).where(SetRow.game_id == game_id)
                                   .order_by(SetRow.id)).all()
        return [(code, name) for code, name in rows]

    # cards ------------------------------------------------------------------------------------------------
    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        self.game(game_id)
        with self.session() as session:
            return read_cards(session, game_id, set_code=set_code)

    def find(self, game_id: str, name: str) -> list[Card]:
        """Every card of the game with that name (several when same-named cards differ by qualifier)."""
        self.game(game_id)
        wanted = normalise_name(name)
        with self.session() as session:
            ids = session.execute(select(CardRow.id).where(CardRow.game_id == game_id,
                                                           CardRow.norm_name == wanted)).scalars().all()
            cards = read_cards(session, game_id, ids=list(ids))
        if not cards:
            raise NotFoundError(f"no card named {name!r} in {game_id}")
        return cards

    def search(self, query: str, game_id: str | None = None, limit: int | None = None) -> list[Card]:
        games = [game_id] if game_id else self.games()
        fields: dict[str, FieldDef] = {}
        for gid in games:
            fields.update(self.game(gid).fields)
        condition = search.compile_query(search.parse(query), fields, query)
        with self.session() as session:  # the cards' columns straight from the search query: no id round trip
            return read_cards(session, game_id or None, where=condition, limit=limit)

    def import_cards(self, path: str | Path, game_id: str | None = None, *, replace: bool = False) -> ImportReport:
        """Import a YAML or CSV card file in one transaction: every card or none."""
        named_game, raws = cardfiles.read_card_file(path)
        if game_id and named_game and named_game != game_id:
            raise CardDataError(f"{path}: the file is for {named_game!r}, not {game_id!r}")
        target = game_id or named_game
        if not target:
            raise InputError(f"{path}: say which game the cards are for with --game")
        game = self.game(target)
        cards = build_cards(game, raws, str(path))
        return self.write(game, cards, str(path), replace=replace)

    def import_card_objects(self, game: GameDefinition, cards: list[Card], source: str) -> ImportReport:
        """Import cards read by another reader (a LackeyCCG plugin's card data), checked like a card file."""
        raws = [RawCard(values={k: v for k, v in card.to_dict().items() if k != "printings"},
                        where=f"{source} ({card.key})", printings=[p.to_dict() for p in card.printings])
                for card in cards]
        return self.write(game, build_cards(game, raws, source), source)

    def write(self, game: GameDefinition, cards: list[Card], source: str, *, replace: bool = False) -> ImportReport:
        with self.transaction() as session:
            counts = write_cards(session, game, cards, replace=replace)
        refresh_statistics(self.engine, counts["added"] + counts["updated"])
        sets = sorted({p.set for c in cards for p in c.printings})
        return ImportReport(game=game.id, source=source, sets=sets, **counts)

    def export_cards(self, game_id: str, fmt: str = "yaml", set_code: str | None = None) -> str:
        game = self.game(game_id)
        cards = self.cards(game_id, set_code)
        if fmt == "yaml":
            return cardfiles.cards_to_yaml(game, cards)
        if fmt == "csv":
            return cardfiles.cards_to_csv(game, cards)
        raise InputError(f"unknown export format {fmt!r}; use csv or yaml")

    # bundled games ----------------------------------------------------------------------------------------
    def load_workspace_game(self, workspace: Workspace, game_id: str) -> ImportReport:
        """Load a workspace game (definition and every card file) so the catalogue matches the files exactly."""
        folder = workspace.game_dir(game_id)
        text = (folder / "game.toml").read_text(encoding="utf-8")
        game = _parse_definition(text, str((folder / "game.toml").relative_to(workspace.root)))
        if game.id != game_id:
            raise InputError(f"{folder / 'game.toml'}: declares id {game.id!r} but lives in folder {game_id!r}")
        raws = []
        for card_file in workspace.card_files(game_id):
            named, file_raws = cardfiles.read_card_file(card_file)
            if named and named != game_id:
                raise CardDataError(f"{card_file}: the file is for {named!r}, not {game_id!r}")
            raws.extend(file_raws)
        cards = build_cards(game, raws, str(folder / "cards"))
        with self.transaction() as session:
            save_game(session, game, text)
            counts = write_cards(session, game, cards, replace=True)
        return ImportReport(game=game_id, source=str(folder), sets=sorted({p.set for c in cards for p in c.printings}),
                            **counts)


@cache
def _parse_definition(text: str, path: str) -> GameDefinition:
    # Definitions are parsed often (every command reads one) and are immutable: parse each text once.
    return load_game_text(text, path)


def open_catalogue(db: str | None = None, root: str | Path | None = None) -> Catalogue:
    """The catalogue at ``db`` (a path or URL), else ``$CARDDB_DB``, else the workspace's output/catalogue.db."""
    return Catalogue(db or Workspace.find(root).default_db())


def write_text_atomic(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
