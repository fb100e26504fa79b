"""Several writers at once, as real processes running ``carddb cards import`` on one catalogue (each engine)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text

from carddb.catalogue.api import open_catalogue
from carddb.catalogue.db import make_engine, writer

REPO = Path(__file__).resolve().parents[2]


@contextmanager
def holding_the_write_lock(db: str) -> Iterator[None]:
    """Be the writer everybody else queues behind, until the block ends."""
    engine = writer(make_engine(db))
    with engine.connect() as conn, conn.begin():
        conn.execute(text("SELECT count(*) FROM card"))
        yield


def queued_behind_the_lock(db: str, processes: list[subprocess.Popen[str]], seconds: float = 120) -> None:
    """Until every one of ``processes`` waits for the write lock that ``holding_the_write_lock`` holds: on
    PostgreSQL, as many advisory locks asked for and not granted; on SQLite, each asleep in SQLite's busy handler
    (Linux names where a sleeping process sleeps, and "0" for one that runs). Where that is never named (another
    system), two seconds, in which they have started."""
    started = time.monotonic()
    named = False

    def waiting() -> bool:
        nonlocal named
        if "://" in db:
            with make_engine(db).connect() as conn:
                return conn.execute(text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())")).scalar() >= len(processes)
        try:
            where = [Path(f"/proc/{run.pid}/wchan").read_text() for run in processes]
        except OSError:
            where = ["0"]
        named = named or any(place != "0" for place in where)
        return all(place == "hrtimer_nanosleep" for place in where) or (
            not named and time.monotonic() - started > 2.0)

    while not waiting():
        assert all(run.poll() is None for run in processes), "a writer ended before the lock was released"
        assert time.monotonic() - started < seconds, "the writers never queued for the lock"
        time.sleep(0.02)  # the polling interval


def _card_file(path: Path, prefix: str, count: int, shared_text: str) -> Path:
    rows = [f"{prefix} {n},spell,{n % 9 + 1},Draw {n} cards.,base" for n in range(1, count + 1)]
    rows.append(f"Shared Spell,spell,3,{shared_text},base")
    path.write_text("name,kind,level,text,set\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _start_import(db: str, card_file: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "carddb.cli.main", "--root", str(REPO), "--db", db,
                             "cards", "import", str(card_file), "--game", "shmod"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **env})


def test_two_imports_at_once_lose_nothing(shmod_db: str, tmp_path: Path) -> None:
    first = _card_file(tmp_path / "alpha.csv", "Alpha", 400, "Written by alpha.")
    second = _card_file(tmp_path / "beta.csv", "Beta", 400, "Written by beta.")
    with holding_the_write_lock(shmod_db):
        # both processes start, open the catalogue and queue for the lock; releasing it lets them race
        runs = [_start_import(shmod_db, first), _start_import(shmod_db, second)]
        queued_behind_the_lock(shmod_db, runs)
    results = [(run.wait(timeout=120), *run.communicate()) for run in runs]
    assert [code for code, _, _ in results] == [0, 0], [err for _, _, err in results]
    reports = sorted(out.split(" (", 1)[1] for _, out, _ in results)
    # whichever came second saw the first one's Shared Spell and updated it instead of adding it again
    assert reports == ["400 new, 1 updated; sets: base).\n", "401 new, 0 updated; sets: base).\n"]
    cards = open_catalogue(shmod_db).cards("shmod")
    names = [card.name for card in cards]
    assert len(names) == len(set(names)) == 51 + 801
    assert {f"Alpha {n}" for n in range(1, 401)} | {f"Beta {n}" for n in range(1, 401)} <= set(names)
    shared = [card for card in cards if card.name == "Shared Spell"]
    assert shared[0].text in ("Written by alpha.", "Written by beta.")
    assert len(shared[0].printings) == 1
    with make_engine(shmod_db).connect() as conn:
        values = conn.execute(text("SELECT count(*) FROM card_field f JOIN card c ON c.id = f.card_id "
                                   "WHERE c.name = 'Shared Spell'")).scalar()
        positions = conn.execute(text("SELECT count(DISTINCT position), count(*) FROM card "
                                      "WHERE game_id = 'shmod'")).one()
    assert values == 1  # its one searchable field (level), not one per writer
    assert positions[0] == positions[1] == 852


def test_a_writer_that_waits_too_long_gets_a_clear_conflict(shmod_db: str, tmp_path: Path, snapshot) -> None:
    card_file = _card_file(tmp_path / "late.csv", "Late", 5, "Too late.")
    before = snapshot(shmod_db)
    with holding_the_write_lock(shmod_db):
        run = _start_import(shmod_db, card_file, CARDDB_LOCK_WAIT="1")
        code, (out, err) = run.wait(timeout=60), run.communicate()
    shown = shmod_db if "://" not in shmod_db else shmod_db.replace(":carddb@", ":***@")
    assert code == 2 and out == ""
    assert err.startswith(f"Error: another writer kept the catalogue {shown} busy for more than 1 s (")
    assert err.endswith("); nothing was changed, try again\n")
    assert snapshot(shmod_db) == before
