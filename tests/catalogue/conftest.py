"""The catalogue tests run on every engine: SQLite always, PostgreSQL when ``CARDDB_TEST_PG`` names a server.

``CARDDB_TEST_PG`` is a URL of a database the tests may connect to (``postgresql://carddb:carddb@localhost/
carddb_test``) as a role allowed to create databases: each catalogue a test asks for is a new database,
dropped when the test (or the session, for ``loaded_db``) ends.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import ProgrammingError

from carddb.catalogue import db as catalogue_db
from carddb.catalogue.api import open_catalogue
from carddb.workspace import Workspace

PG_URL = os.environ.get("CARDDB_TEST_PG", "")
ENGINES = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]
TABLES = ("game", "card_set", "card", "printing", "card_field", "collection", "collection_entry", "booster_opening")


def _pg_admin():  # type: ignore[no-untyped-def]
    return create_engine(catalogue_db.database_url(PG_URL), isolation_level="AUTOCOMMIT")


def create_pg_database() -> str:
    """A new, empty PostgreSQL database; its URL."""
    name = f"carddb_t_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return PG_URL.rsplit("/", 1)[0] + "/" + name


def drop_pg_database(url: str) -> None:
    engine = catalogue_db._pg_engines.pop(catalogue_db.database_url(url), None)
    if engine is not None:
        engine.dispose()
    admin = _pg_admin()
    try:
        for attempt in range(20):
            try:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))
                return
            except ProgrammingError:
                # FORCE may not end an autovacuum worker busy in the new database (not our role's process):
                # it is done in a moment.
                if attempt == 19:
                    raise
                time.sleep(0.5)
    finally:
        admin.dispose()


def _new_db(kind: str, folder: Path) -> str:
    if kind == "sqlite":
        return str(folder / f"catalogue-{uuid.uuid4().hex[:6]}.db")
    return create_pg_database()


@pytest.fixture
def engine_kind(loaded_db: str) -> str:
    """The engine of this run of the test: it follows ``loaded_db``, so no test runs twice on one engine."""
    return "postgresql" if "://" in loaded_db else "sqlite"


@pytest.fixture
def new_db(tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """``new_db("sqlite" | "postgresql")`` -> the path or URL of a new, empty catalogue location."""
    made: list[str] = []

    def make(kind: str) -> str:
        db = _new_db(kind, tmp_path)
        made.append(db)
        return db

    yield make
    for db in made:
        if "://" in db:
            drop_pg_database(db)


@pytest.fixture
def empty_db(engine_kind: str, new_db: Callable[[str], str]) -> str:
    return new_db(engine_kind)


@pytest.fixture(scope="session", params=ENGINES)
def loaded_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
              workspace: Workspace) -> Iterator[str]:
    """A catalogue holding every bundled game, built once per engine per session (read-only for tests)."""
    db = _new_db(request.param, tmp_path_factory.mktemp("catalogue"))
    catalogue = open_catalogue(db)
    for game_id in workspace.game_ids():
        if workspace.card_files(game_id):
            catalogue.load_workspace_game(workspace, game_id)
    yield db
    if "://" in db:
        drop_pg_database(db)


def snapshot(db: str) -> dict[str, list[tuple]]:
    """Every row of every catalogue table, in id order: equal snapshots mean nothing changed."""
    engine = catalogue_db.make_engine(db)
    with engine.connect() as conn:
        present = set(inspect(conn).get_table_names())
        rows = {table: [tuple(row) for row in conn.execute(text(f"SELECT * FROM {table} ORDER BY 1"))]
                for table in TABLES if table in present}
        for table in ("alembic_version", "schema_info"):
            if table in present:
                rows[table] = [tuple(row) for row in conn.execute(text(f"SELECT * FROM {table}"))]
    if "://" not in db:
        engine.dispose()
    return rows


@pytest.fixture(name="snapshot")
def snapshot_fixture() -> Callable[[str], dict[str, list[tuple]]]:
    return snapshot


@pytest.fixture
def shmod_db(empty_db: str, workspace: Workspace) -> str:
    """A new catalogue holding shmod (51 cards), on this run's engine."""
    open_catalogue(empty_db).load_workspace_game(workspace, "shmod")
    return empty_db


REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def shmod_root(tmp_path: Path) -> Path:
    """A workspace of its own holding a copy of shmod's game.toml and card files (a test may change them)."""
    root = tmp_path / "workspace"
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod", ignore=shutil.ignore_patterns("decks"))
    return root


def write_cards_csv(path: Path, rows: list[str], header: str = "name,kind,level,text,set") -> Path:
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path
