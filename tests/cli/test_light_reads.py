"""The commands that only read, on a SQLite catalogue, never import SQLAlchemy, SQLModel or alembic (issue 24), nor
Rich, pydantic or a second Click beside Typer's own (issue 36), and the light reader they use answers exactly as the
full catalogue does."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from carddb.catalogue.api import open_catalogue
from carddb.catalogue.collections import add_cards, owned_counts
from carddb.catalogue.read_only import ReadOnlyCatalogue, open_read_only
from carddb.errors import InputError

REPO = Path(__file__).resolve().parents[2]
DECK = REPO / "rules" / "ssbm" / "decks" / "legal-mario-power-block.txt"
HEAVY = re.compile(r"\|\s+(sqlalchemy|sqlmodel|alembic|pydantic|rich|click)$", re.MULTILINE)

READ_COMMANDS = [
    ["cards", "search", "limited", "--game", "shmod"],
    ["cards", "search", "limited", "--game", "shmod", "--json"],
    ["cards", "show", "Power Block", "--game", "ssbm"],
    ["deck", "check", str(DECK), "--game", "ssbm"],
    ["deck", "check", str(DECK), "--game", "ssbm", "--collection", "reader"],
    ["collection", "show", "reader", "--game", "ssbm"],
    ["db", "status"],
    ["play", "shmod", "battle", "Night Reaver", "Coral Warden"],
    ["ssq", "initiative", "Pikachu=5", "Bowser=3"],
    ["roll", "7d10", "--seed", "1"],
    ["--help"],
    ["cards", "search", "--help"],
]


@pytest.fixture(scope="module")
def light_db(tmp_path_factory: pytest.TempPathFactory, loaded_db: str) -> str:
    """A copy of the loaded catalogue with one collection (the session's catalogue stays read-only)."""
    db = tmp_path_factory.mktemp("light") / "catalogue.db"
    _copy(loaded_db, db)
    add_cards(open_catalogue(str(db), REPO), "ssbm", "reader", [("Power Block", 2)])
    return str(db)


def _copy(source: str | Path, target: Path) -> None:
    """A whole copy of a catalogue, its write-ahead log included (SQLite's backup)."""
    import sqlite3

    with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
        old.backup(new)
    old.close()
    new.close()


@pytest.mark.parametrize("args", READ_COMMANDS, ids=" ".join)
def test_a_read_command_imports_no_database_toolkit(light_db: str, args: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CARDDB_DB", None)
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "carddb", "--root", str(REPO), "--db",
                           light_db, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert done.stdout  # it answered
    assert HEAVY.findall(done.stderr) == []


def test_a_write_still_loads_sqlalchemy(light_db: str) -> None:
    """The light path is for reading only: a write goes through the full catalogue."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "carddb", "--root", str(REPO), "--db",
                           light_db, "collection", "add", "reader", "Power Block", "--game", "ssbm"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "sqlalchemy" in HEAVY.findall(done.stderr)


@pytest.mark.parametrize(("query", "game"), [
    ("limited", "shmod"), ("", "ssbm"), ("type:fire level<=3", None), ('"draw a card"', None),
    ("set:base -limited", "shmod"), ("kind:monster or kind:spell", "shmod"), ("", None), ("mario", None),
])
def test_the_light_search_finds_what_the_catalogue_finds(light_db: str, query: str, game: str | None) -> None:
    light = open_read_only(light_db, REPO)
    assert isinstance(light, ReadOnlyCatalogue)
    full = open_catalogue(light_db, REPO)
    assert light.search(query, game) == full.search(query, game)
    assert light.search(query, game, 3) == full.search(query, game, 3)


def test_the_light_reader_shows_cards_sources_and_collections_as_the_catalogue(light_db: str) -> None:
    light, full = open_read_only(light_db, REPO), open_catalogue(light_db, REPO)
    assert light.find_with_sources("ssbm", "power block") == full.find_with_sources("ssbm", "power block")
    assert light.sources("shmod") == full.sources("shmod")
    assert light.owned_counts("reader", "ssbm") == owned_counts(full, "reader", "ssbm")
    assert light.games() == full.games()


def test_a_catalogue_at_another_revision_is_read_by_the_full_catalogue(tmp_path: Path, light_db: str) -> None:
    import sqlite3

    db = tmp_path / "old.db"
    _copy(light_db, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0003'")
    conn.close()
    # the full catalogue opens it, and upgrades it: here a faked revision, so the upgrade says what went wrong
    with pytest.raises(InputError, match="cannot open the catalogue"):
        open_read_only(str(db), REPO)
