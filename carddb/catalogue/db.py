"""Opening a catalogue: a SQLite file path or a database URL, with the schema created on first use."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlmodel import Session, SQLModel, create_engine, select

from carddb.catalogue import models
from carddb.errors import InputError

SCHEMA_VERSION = 1


def database_url(db: str) -> str:
    """``output/catalogue.db`` -> ``sqlite:///output/catalogue.db``; URLs pass through unchanged."""
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


def make_engine(db: str) -> Engine:
    url = database_url(db)
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if str(path) != ":memory:":
            if path.exists() and path.is_dir():
                raise InputError(f"catalogue {path} is a folder, not a database file")
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    # WAL lets readers go on while one writer imports; the busy timeout makes a second writer wait
    # instead of failing at once; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def ensure_schema(engine: Engine) -> None:
    """Create the tables of a new catalogue and record its schema version."""
    try:
        SQLModel.metadata.create_all(engine)
        with Session(engine) as session:
            info = session.exec(select(models.SchemaInfo)).first()
            if info is None:
                session.add(models.SchemaInfo(id=1, version=SCHEMA_VERSION))
                session.commit()
            elif info.version > SCHEMA_VERSION:
                raise InputError(f"this catalogue has schema version {info.version}, newer than this carddb "
                                 f"understands ({SCHEMA_VERSION}); upgrade carddb")
    except OperationalError as exc:
        raise InputError(f"cannot open the catalogue {engine.url!r}: {exc.orig}") from None
    except SQLAlchemyError as exc:
        raise InputError(f"cannot open the catalogue {engine.url!r}: {exc}") from None
