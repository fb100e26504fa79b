"""Catalogue files that are not what they should be: damaged pages, not a database at all, read-only."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.conftest import Ledger, in_process, one_error_line

DECK = "rules/mini/decks/legal-starter.txt"


def _checkpointed_copy(hostile_ws: Path, target: Path) -> Path:
    """The catalogue as one self-contained file (its write-ahead log folded in), as a backup would be."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # read as the unchanging file it is: a plain connection would make its -wal and -shm files beside it, in the
    # workspace every worker copies (a copy made meanwhile failed on them vanishing)
    source = sqlite3.connect(f"{(hostile_ws / 'output' / 'catalogue.db').as_uri()}?immutable=1", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
    finally:
        copy.close()
        source.close()
    return target


def _damage(path: Path) -> None:
    size = path.stat().st_size
    with path.open("r+b") as handle:
        for offset in range(4096 * 2, size, 4096 * 2):  # every other page past the schema
            handle.seek(offset + 100)
            handle.write(b"\xde\xad\xbe\xef" * 200)


@pytest.mark.parametrize("spoil", ["pages", "junk", "truncated", "empty-header"])
def test_a_damaged_catalogue_is_one_error_naming_the_file(hostile_ws: Path, tmp_path: Path, ledger: Ledger,
                                                          spoil: str) -> None:
    db = _checkpointed_copy(hostile_ws, tmp_path / f"{spoil}.db")
    if spoil == "pages":
        _damage(db)
    elif spoil == "junk":
        db.write_bytes(os.urandom(20_000))
    elif spoil == "truncated":
        db.write_bytes(db.read_bytes()[:6000])
    else:
        db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 84 + db.read_bytes()[100:])
    for args in (["cards", "search", "cost>=1", "--game", "mini"], ["cards", "export", "--game", "mini"],
                 ["deck", "check", str(hostile_ws / DECK), "--game", "mini"], ["db", "status"],
                 ["collection", "add", "p", "Blue Unit 1", "--game", "mini"]):
        run = in_process(hostile_ws, *args, db=db)
        ledger.run("damaged catalogue", run)
        assert not run.traceback, run
        if run.exit_code != 0:  # a damage a command never reads past is no error for it
            assert run.exit_code == 2, run
            line = one_error_line(run, naming=db.name)
            assert any(word in line for word in ("damaged", "not a database", "malformed", "cannot")), line


def test_the_deck_check_fast_path_names_a_damaged_catalogue(hostile_ws: Path, tmp_path: Path) -> None:
    db = tmp_path / "junk.db"
    db.write_bytes(os.urandom(20_000))
    result = subprocess.run([sys.executable, "-m", "carddb", "--root", str(hostile_ws), "--db", str(db), "deck",
                             "check", str(hostile_ws / DECK), "--game", "mini"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stderr.startswith(f"Error: the catalogue {db} is damaged"), result


def test_a_read_only_catalogue_can_be_searched_not_written(hostile_ws: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, ledger: Ledger) -> None:
    folder = tmp_path / "mounted"
    db = _checkpointed_copy(hostile_ws, folder / "catalogue.db")
    db.chmod(0o444)
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root may write anyway: have the file look read-only as it does to everyone else
        real = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if mode & os.W_OK and
                            str(path) in (str(db), str(folder)) else real(path, mode, **kw))
    try:
        for args in (["cards", "search", "cost>=1", "--game", "mini"], ["cards", "show", "Blue Unit 1", "--game",
                                                                        "mini"],
                     ["cards", "export", "--game", "mini"], ["db", "status"]):
            run = in_process(hostile_ws, *args, db=db)
            ledger.run("read-only catalogue", run)
            assert run.exit_code == 0 and not run.traceback, run
        wrote = in_process(hostile_ws, "collection", "add", "p", "Blue Unit 1", "--game", "mini", db=db)
        ledger.run("read-only catalogue", wrote)
        assert wrote.exit_code == 2 and "read-only" in one_error_line(wrote, naming=str(db)), wrote
        assert sorted(p.name for p in folder.iterdir()) == ["catalogue.db"]  # no -wal, -shm or journal left
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)


def test_a_catalogue_on_a_read_only_mount(hostile_ws: Path, tmp_path: Path) -> None:
    """The real thing where the system allows it: a read-only bind mount in a private mount namespace."""
    if not shutil.which("unshare") or os.geteuid() != 0:
        pytest.skip("needs unshare and root to make a read-only mount")
    folder = tmp_path / "mount"
    db = _checkpointed_copy(hostile_ws, folder / "catalogue.db")
    carddb = f"{sys.executable} -m carddb --root {hostile_ws} --db {db}"
    script = (f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} || exit 77; "
              f"{carddb} cards search 'cost>=1' --game mini --json >/dev/null || exit 1; "
              f"{carddb} deck check {hostile_ws / DECK} --game mini >/dev/null || exit 2; "
              f"{carddb} collection add p 'Blue Unit 1' --game mini 2>&1 | grep -q 'read-only' || exit 3")
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    if result.returncode == 77 or "unshare failed" in result.stderr or "Operation not permitted" in result.stderr:
        pytest.skip(f"no read-only mount here: {result.stderr.strip()[:200]}")
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
