"""Schema migrations: a kept catalogue of the first schema upgrades without loss, on each engine; a killed
upgrade leaves the old version; a newer catalogue or an unreachable server is refused with nothing changed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import JSON, DateTime, MetaData, inspect, text
from sqlmodel import SQLModel

from carddb.catalogue import db as catalogue_db
from carddb.catalogue.api import open_catalogue

FIXTURE = Path(__file__).parent / "fixtures" / "catalogue_schema1.sql"
# parents before children, so foreign keys hold while copying (revision 0001 writes schema_info itself)
FIRST_SCHEMA_TABLES = ("game", "card_set", "card", "collection", "booster_opening", "printing",
                       "card_field", "collection_entry")


def first_schema_catalogue(kind: str, new_db, tmp_path: Path) -> str:
    """The kept catalogue made by carddb 0.1 (schema 0001, before migrations existed), on the engine asked for.

    On SQLite it is the SQL dump loaded as it is. On PostgreSQL the database is brought to revision 0001 and
    the same rows are copied in, as a community server running carddb 0.1 would hold them."""
    source = tmp_path / f"schema1-{kind}.db"
    with sqlite3.connect(source) as conn:
        conn.executescript(FIXTURE.read_text(encoding="utf-8"))
    conn.close()
    if kind == "sqlite":
        return str(source)
    url = new_db("postgresql")
    engine = catalogue_db.make_engine(url)
    from alembic import command  # here, not at collection: Alembic takes a while to import

    with engine.begin() as conn, sqlite3.connect(source) as lite:
        config = catalogue_db._alembic_config()
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        config.attributes.pop("connection")
        conn.execute(text("DROP TABLE alembic_version"))  # as carddb 0.1 left it: no Alembic table yet
        meta = MetaData()
        meta.reflect(conn)
        for name in FIRST_SCHEMA_TABLES:
            table = meta.tables[name]
            rows = [dict(zip([c[0] for c in cursor.description], row, strict=True))
                    for cursor in [lite.execute(f"SELECT * FROM {name}")] for row in cursor.fetchall()]
            for row in rows:
                for column in table.columns:
                    if isinstance(column.type, JSON):
                        row[column.name] = json.loads(row[column.name])
                    elif isinstance(column.type, DateTime):
                        row[column.name] = datetime.fromisoformat(row[column.name]).replace(tzinfo=UTC)
            conn.execute(table.insert(), rows)
            if name not in ("game", "schema_info"):  # their ids are not serial
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                  f"(SELECT max(id) FROM {name}))"))
    lite.close()
    return url


FIRST_SCHEMA_CARD_COLUMNS = 12  # id ... position; revision 0004 adds the four source columns after them


def _data(rows: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The rows of the first schema's columns (what an upgrade must keep as it was)."""
    data = {table: value for table, value in rows.items() if table not in ("alembic_version", "schema_info")}
    data["card"] = [row[:FIRST_SCHEMA_CARD_COLUMNS] for row in data["card"]]
    return data


def test_first_schema_catalogue_upgrades_without_losing_a_card(cli, engine_kind, new_db, tmp_path, snapshot) -> None:
    db = first_schema_catalogue(engine_kind, new_db, tmp_path)
    before = snapshot(db)
    assert len(before["card"]) == 51 and len(before["collection_entry"]) == 1 and len(before["booster_opening"]) == 1
    status = cli("db", "status", db=db)
    assert status.exit_code == 0
    assert status.stdout.splitlines()[1] == ("Schema: revision 0001; 3 upgrades waiting (0002, 0003, 0004): "
                                            "run 'carddb db upgrade'")
    # any command upgrades an older catalogue on the way
    found = cli("cards", "search", "limited", "--game", "shmod", "--json", db=db)
    assert found.exit_code == 0, found.stderr
    assert {card["name"] for card in json.loads(found.stdout)} >= {"Replenish", "Yoink!", "Revival Stone"}
    after = snapshot(db)
    assert _data(after) == _data(before)
    # every card of the old catalogue has an unknown source, which the next build adopts (test_sources.py)
    assert {row[FIRST_SCHEMA_CARD_COLUMNS:] for row in after["card"]} == {("unknown", "", None, "")}
    assert after["alembic_version"] == [("0004",)] and after["schema_info"] == [(1, 4)]
    assert cli("db", "status", db=db).stdout.splitlines()[1] == "Schema: revision 0004 (up to date)"
    cards = open_catalogue(db).cards("shmod")
    assert len(cards) == 51 and cards[0].printings[0].set == "base"
    shown = json.loads(cli("cards", "show", "Replenish", "--game", "shmod", "--json", db=db).stdout)
    assert shown["source"] == {"kind": "unknown", "what": "unknown", "name": "", "at": None, "fingerprint": ""}


def test_db_upgrade_command(cli, tmp_path, new_db) -> None:
    db = first_schema_catalogue("sqlite", new_db, tmp_path)
    result = cli("db", "upgrade", db=db)
    assert (result.exit_code, result.stdout) == (0, f"Upgraded {db} to revision 0004 (applied 0002, 0003, "
                                                    "0004).\n")
    result = cli("db", "upgrade", db=db)
    assert (result.exit_code, result.stdout) == (0, f"{db} is already up to date.\n")


def test_migrated_schema_equals_the_models(empty_db: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    engine = open_catalogue(empty_db).engine
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert differences == []


KILL_MID_MIGRATION = """
import os, sys
from alembic import op
real = op.create_index
def create_then_die(*args, **kwargs):
    real(*args, **kwargs)
    os._exit(9)  # the process is killed after the revision's first change, before it is recorded
op.create_index = create_then_die
from carddb.catalogue.api import open_catalogue
open_catalogue(sys.argv[1])
"""


def test_killed_migration_leaves_the_old_version(cli, engine_kind, new_db, tmp_path, snapshot) -> None:
    db = first_schema_catalogue(engine_kind, new_db, tmp_path)
    before = snapshot(db)
    killed = subprocess.run([sys.executable, "-c", KILL_MID_MIGRATION, db], capture_output=True, text=True,
                            timeout=60)
    assert killed.returncode == 9, killed.stderr
    assert snapshot(db) == before
    with catalogue_db.make_engine(db).connect() as conn:
        indexes = {ix["name"] for ix in inspect(conn).get_indexes("card")}
    assert "ix_card_game_position" not in indexes
    assert cli("db", "status", db=db).stdout.splitlines()[1].startswith("Schema: revision 0001; 3 upgrades")
    assert cli("db", "upgrade", db=db).exit_code == 0
    assert _data(snapshot(db)) == _data(before)


def test_newer_catalogue_is_refused_and_untouched(cli, empty_db, snapshot) -> None:
    open_catalogue(empty_db).engine  # noqa: B018  (asking for the engine makes the catalogue)
    with catalogue_db.make_engine(empty_db).begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    before = snapshot(empty_db)
    shown = empty_db if "://" not in empty_db else empty_db.replace(":carddb@", ":***@")
    for args in (["cards", "search", "limited"], ["db", "upgrade"]):
        result = cli(*args, db=empty_db)
        assert result.exit_code == 2
        assert result.stderr == (f"Error: the catalogue {shown} has schema revision 0099, made by a newer carddb "
                                 "than this one (which knows up to 0004); upgrade carddb to use it. "
                                 "Nothing was changed.\n")
    status = cli("db", "status", db=empty_db)
    assert status.exit_code == 2
    assert status.stdout.splitlines()[1] == "Schema: revision 0099, from a newer carddb (this one knows up to 0004)"
    assert snapshot(empty_db) == before


def test_server_down_is_a_clear_error(cli) -> None:
    url = "postgresql://carddb:secret@127.0.0.1:1/catalogue"
    result = cli("cards", "search", "limited", db=url)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: cannot open the catalogue postgresql://carddb:***@127.0.0.1:1/catalogue: ")
    assert "Connection refused" in result.stderr and "secret" not in result.stderr


@pytest.mark.skipif(not os.environ.get("CARDDB_TEST_PG"), reason="needs a PostgreSQL server (CARDDB_TEST_PG)")
def test_refused_password_is_a_clear_error(cli) -> None:
    base = os.environ["CARDDB_TEST_PG"].split("://", 1)[1]
    user, rest = base.split(":", 1)[0], base.split("@", 1)[1]
    result = cli("db", "status", db=f"postgresql://{user}:wrong-password@{rest}")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot open the catalogue postgresql://{user}:***@{rest}: ")
    assert f'password authentication failed for user "{user}"' in result.stderr


def test_a_url_of_another_engine_is_refused(cli) -> None:
    result = cli("db", "status", db="mysql://me@host/cards")
    assert result.exit_code == 2
    assert result.stderr == ("Error: catalogue 'mysql://me@host/cards': carddb keeps catalogues in a SQLite file "
                             "(a path) or in PostgreSQL (postgresql://user@host/database), not mysql://\n")


def test_the_password_of_any_url_is_masked(cli) -> None:
    result = cli("db", "status", db="mysql://u:secret@h/db")
    assert result.exit_code == 2
    assert "secret" not in result.stderr and "mysql://u:***@h/db" in result.stderr


def test_the_head_revision_known_without_alembic_is_alembic_s_head() -> None:
    # A command on an up-to-date catalogue checks its revision with one query and never loads alembic: that
    # shortcut is right only while its head is the head of the migrations folder.
    assert catalogue_db._script().get_current_head() == catalogue_db.HEAD_REVISION


def test_an_up_to_date_catalogue_is_opened_without_alembic(tmp_path) -> None:
    db = tmp_path / "catalogue.db"
    assert open_catalogue(str(db)).engine is not None  # made, at the head revision
    probe = ("import sys; from carddb.catalogue.api import open_catalogue; "
             "print(open_catalogue(sys.argv[1]).exists, 'alembic' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe, str(db)], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False"]
    old = first_schema_catalogue("sqlite", None, tmp_path)  # a catalogue to upgrade: alembic runs
    done = subprocess.run([sys.executable, "-c", probe, old], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]
