"""Opening a catalogue: a SQLite file path or a PostgreSQL URL, with the schema created or upgraded on first use.

The schema is versioned by Alembic (``carddb/catalogue/migrations``). Opening a catalogue brings an older one
up to date in one transaction (all revisions or none) and refuses one made by a newer carddb. Writers are
serialised: SQLite takes its write lock at BEGIN (``BEGIN IMMEDIATE``, waiting up to the busy timeout);
PostgreSQL takes one advisory lock per write transaction. So a writer always sees what the previous one
committed, and no update is lost.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import urllib.parse
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlmodel import create_engine

from carddb.catalogue.schema_revision import FIRST_REVISION, HEAD_REVISION
from carddb.errors import InputError, mask_secrets

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

#: seconds a writer waits for another one before giving up with a ConflictError ($CARDDB_LOCK_WAIT overrides)
LOCK_WAIT_SECONDS = 30.0
#: the advisory lock every PostgreSQL writer (and migration) takes; any constant shared by all carddb versions
PG_WRITE_LOCK = 0x0CA7DDB
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

_pg_engines: dict[str, Engine] = {}


def lock_wait_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get("CARDDB_LOCK_WAIT", LOCK_WAIT_SECONDS)))
    except ValueError:
        raise InputError(f"CARDDB_LOCK_WAIT={os.environ['CARDDB_LOCK_WAIT']!r} is not a number of seconds") from None


def database_url(db: str) -> str:
    """``output/catalogue.db`` -> ``sqlite:///output/catalogue.db``; ``postgresql://...`` -> the psycopg 3 driver."""
    if "://" not in db:
        return f"sqlite:///{Path(db).expanduser()}"
    scheme, rest = db.split("://", 1)
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return f"postgresql+psycopg://{rest}"
    if scheme == "sqlite":
        return db
    raise InputError(f"catalogue {db!r}: carddb keeps catalogues in a SQLite file (a path) or in PostgreSQL "
                     f"(postgresql://user@host/database), not {scheme}://")


def missing_catalogue_file(db: str) -> bool:
    """Whether ``db`` names a SQLite catalogue file that does not exist (yet)."""
    if "://" in db:
        if not db.startswith("sqlite:///"):
            return False
        db = db.removeprefix("sqlite:///")
    if db in ("", ":memory:"):
        return False
    return not Path(db).expanduser().exists()


def display_url(engine: Engine) -> str:
    """The catalogue as a user named it, the password hidden."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        database = url.database or ":memory:"
        return urllib.parse.unquote(database.removeprefix("file:")) if url.query.get("uri") else database
    return mask_secrets(url.set(drivername="postgresql").render_as_string(hide_password=False))


def read_only_file(path: Path) -> bool:
    """A catalogue file carddb may read but not write (a read-only mount, another user's file): it is then
    opened read-only and immutable, which needs no lock file and no write-ahead log beside it."""
    return path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


#: How to write a password holding a character a URL reserves.
_ENCODE_HINT = "; percent-encode @, :, /, [ and ] in the user name or password (%40, %3A, %2F, %5B, %5D)"


def make_engine(db: str) -> Engine:
    url = database_url(db)
    try:
        parsed = make_url(url)
        host = parsed.host or ""
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number (an @ or : in a password)
        raise InputError(f"catalogue {db!r} is not a database URL{_ENCODE_HINT}") from None
    if (host.startswith("[") and not host.endswith("]")) or host.count("[") != host.count("]"):
        raise InputError(f"catalogue {db!r} is not a database URL: its host has an unclosed '['{_ENCODE_HINT}")
    if parsed.get_backend_name() == "postgresql":
        import importlib.util

        if importlib.util.find_spec("psycopg") is None:
            raise InputError(f"catalogue {db!r}: PostgreSQL needs the postgres extra of carddb (psycopg): "
                             "pip install 'carddb[postgres]'")
    if "\x00" in str(parsed.database or "") + db:
        raise InputError(f"catalogue {db!r} holds a NUL character; it cannot name a file or a database")
    if parsed.get_backend_name() == "sqlite":
        path = Path(parsed.database or "")
        read_only = False
        if parsed.database not in (None, "", ":memory:"):
            if path.exists() and not path.is_file():
                raise InputError(f"catalogue {path} is {'a folder' if path.is_dir() else 'not a file'}, not a "
                                 "database file")
            read_only = read_only_file(path)
            if read_only:
                # Immutable (no lock files needed) unless a writer left changes in a write-ahead log beside it,
                # which only a plain read-only open sees.
                wal = path.with_name(path.name + "-wal")
                settled = not (wal.exists() and wal.stat().st_size > 0)
                url = (f"sqlite:///file:{urllib.parse.quote(str(path.absolute()))}?mode=ro"
                       f"{'&immutable=1' if settled else ''}&uri=true")
            else:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise InputError(f"catalogue {path}: cannot create its folder ({exc.strerror})") from None
        engine = create_engine(url, connect_args={"timeout": lock_wait_seconds()})
        event.listen(engine, "connect", functools.partial(_sqlite_connect, read_only=read_only))
        event.listen(engine, "begin", _sqlite_begin)
        event.listen(engine, "handle_error", functools.partial(_sqlite_error, name=str(path)))
        return engine
    # One engine (and connection pool) per database in a process: commands open the catalogue several times.
    if url not in _pg_engines:
        engine = create_engine(url, pool_pre_ping=True, connect_args={
            "connect_timeout": 10, "options": f"-c lock_timeout={int(lock_wait_seconds() * 1000)}"})
        event.listen(engine, "begin", _pg_begin)
        _pg_engines[url] = engine
    return _pg_engines[url]


def _sqlite_connect(dbapi_connection, _record, read_only: bool = False) -> None:  # type: ignore[no-untyped-def]
    # carddb issues BEGIN itself (see _sqlite_begin): the driver's own transaction handling would neither
    # take the write lock early nor wrap DDL, so a migration would not be all-or-nothing.
    dbapi_connection.isolation_level = None
    if read_only:
        return  # nothing to set up for a file that is only read
    # WAL lets readers go on while one writer imports; the busy timeout makes a second writer wait
    # instead of failing at once; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={int(lock_wait_seconds() * 1000)}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


#: SQLite's words for a file that is not a sound database, and for one carddb may not write.
_DAMAGED = ("malformed", "not a database", "file is encrypted", "disk i/o error")
_READ_ONLY = ("readonly database", "read-only", "attempt to write a readonly")


def _sqlite_error(context, name: str) -> None:  # type: ignore[no-untyped-def]
    """A damaged or read-only catalogue file, whichever statement met it: one clear ``InputError`` naming the
    file, instead of a driver error surfacing from deep inside a command."""
    error = context.original_exception
    if not isinstance(error, sqlite3.DatabaseError):
        return
    text = str(error).lower()
    if any(word in text for word in _DAMAGED):
        raise InputError(f"the catalogue {name} is damaged ({error}); restore it from a dump "
                         "(carddb db restore) or move it away and run carddb build") from None
    if any(word in text for word in _READ_ONLY):
        raise InputError(f"the catalogue {name} is read-only: commands that only read it (search, show, "
                         "deck check, export) work, this one writes") from None


def _sqlite_begin(connection: Connection) -> None:
    # A writer takes the database's write lock before it reads anything, so it never decides on a stale
    # snapshot (which SQLite would only report at commit, as "database is locked").
    write = connection.get_execution_options().get("carddb_write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _pg_begin(connection: Connection) -> None:
    # Writers queue on one advisory lock (released at commit or rollback), as SQLite's writers do on its
    # write lock; each statement after it sees everything committed before (READ COMMITTED).
    if connection.get_execution_options().get("carddb_write", False):
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_WRITE_LOCK})")


def writer(engine: Engine) -> Engine:
    """The same engine, its transactions taking the write lock first."""
    return engine.execution_options(carddb_write=True)


# --- schema versions -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SchemaStatus:
    current: str | None  # None: an empty database
    head: str
    pending: tuple[str, ...]  # revisions an upgrade would apply, oldest first
    known: bool  # False: made by a newer carddb

    @property
    def up_to_date(self) -> bool:
        return self.known and not self.pending


@cache
def _alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def _script() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config())


def _current_revision(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    heads = MigrationContext.configure(connection).get_current_heads()
    if heads:
        return heads[0]
    # A catalogue from before migrations: the first schema, recognised by its schema_info table.
    return FIRST_REVISION if inspect(connection).has_table("schema_info") else None


def _status(connection: Connection) -> SchemaStatus:
    script = _script()
    head = script.get_current_head()
    assert head is not None
    current = _current_revision(connection)
    known = current is None or _has_revision(script, current)
    pending: tuple[str, ...] = ()
    if known:
        upgrades = script.iterate_revisions(head, current)  # newest first
        pending = tuple(rev.revision for rev in reversed(list(upgrades)))
    return SchemaStatus(current=current, head=head, pending=pending, known=known)


def _has_revision(script: ScriptDirectory, revision: str) -> bool:
    try:
        return script.get_revision(revision) is not None
    except Exception:  # alembic raises several kinds for a revision it has never heard of
        return False


def schema_status(engine: Engine) -> SchemaStatus:
    with _connection_errors(engine), engine.connect() as connection:
        return _status(connection)


def upgrade(engine: Engine) -> list[str]:
    """Apply the pending revisions in one transaction, under the write lock; returns the revisions applied."""
    with _connection_errors(engine), writer(engine).connect() as connection, connection.begin():
        status = _status(connection)  # read again under the lock: another process may just have upgraded
        _refuse_newer(engine, status)
        if not status.pending:
            return []
        from alembic import command
        from alembic.runtime.migration import MigrationContext

        config = _alembic_config()
        config.attributes["connection"] = connection
        try:
            if status.current is not None and not MigrationContext.configure(connection).get_current_heads():
                command.stamp(config, status.current)
            command.upgrade(config, "head")
        finally:
            config.attributes.pop("connection", None)
        return list(status.pending)


def ensure_schema(engine: Engine) -> None:
    """Create a new catalogue's tables, upgrade an older catalogue, refuse one from a newer carddb."""
    if _at_head(engine):
        return  # the common case, answered without importing alembic (a tenth of a second of every command)
    status = schema_status(engine)
    _refuse_newer(engine, status)
    if status.pending:
        upgrade(engine)


def _at_head(engine: Engine) -> bool:
    """Whether the catalogue's recorded revision is this carddb's head; any doubt (no such table, another
    revision, an error) is answered False, and alembic then decides."""
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except SQLAlchemyError:
        return False
    return [row[0] for row in rows] == [HEAD_REVISION]


def _refuse_newer(engine: Engine, status: SchemaStatus) -> None:
    if not status.known:
        raise InputError(f"the catalogue {display_url(engine)} has schema revision {status.current}, made by a "
                         f"newer carddb than this one (which knows up to {status.head}); upgrade carddb to use it. "
                         "Nothing was changed.")


class _connection_errors:
    """Turn a server that is down, a refused password or an unreadable file into one clear InputError."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, _tb) -> bool:  # type: ignore[no-untyped-def]
        if exc is None or not isinstance(exc, SQLAlchemyError):
            return False
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        detail = reason[0] if reason else type(exc).__name__
        if isinstance(exc, OperationalError):
            raise InputError(f"cannot open the catalogue {display_url(self.engine)}: {detail}") from None
        raise InputError(f"the catalogue {display_url(self.engine)} cannot be used: {detail}") from None


#: a write of at least this many cards refreshes PostgreSQL's planner statistics at once
ANALYZE_AFTER_CARDS = 1000


def refresh_statistics(engine: Engine, cards_written: int) -> None:
    """After a big import, let PostgreSQL plan searches with the new row counts instead of waiting for
    autovacuum (without it a search over a fresh 50,000-card catalogue took seconds instead of milliseconds)."""
    if engine.dialect.name != "postgresql" or cards_written < ANALYZE_AFTER_CARDS:
        return
    with _connection_errors(engine), engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE card, card_field, printing, card_set")
