"""The suite's own guard (tests/conftest.py): a write of the test process into the repository's workspace is
noted against the test that made it (an audit hook of the test process, so a user's ``carddb build`` in the clone
while the tests run is never noted); reads, temporary folders and Python's bytecode cache are not."""

from __future__ import annotations

import os
from pathlib import Path

from tests import conftest

REPO = Path(__file__).resolve().parents[1]
WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC


def noted(event: str, *args: object) -> list[str]:
    """What the audit hook notes of one event (taken back off its list, so this test passes)."""
    before = len(conftest._written)
    conftest._record_writes(event, args)
    found = conftest._written[before:]
    del conftest._written[before:]
    return found


def test_a_write_into_the_workspace_is_noted_with_what_it_was(tmp_path: Path) -> None:
    target = REPO / "output" / "catalogue.db"
    assert noted("open", str(target), "w", WRITE) == [f"open {target}"]
    assert noted("os.replace", str(tmp_path / "x"), str(REPO / "output" / "site")) == [
        f"os.replace {REPO / 'output' / 'site'}"]
    assert noted("os.mkdir", os.fsencode(REPO / "rules" / "new"), 0o777, -1) == [f"os.mkdir {REPO / 'rules' / 'new'}"]
    assert noted("sqlite3.connect", REPO / "output" / "catalogue.db") != []
    assert noted("shutil.rmtree", str(REPO / "templates"), None) != []


def test_reads_temporary_folders_and_bytecode_are_not(tmp_path: Path) -> None:
    assert noted("open", str(REPO / "rules" / "shmod" / "game.toml"), "r", os.O_RDONLY) == []
    assert noted("open", str(tmp_path / "output" / "x"), "w", WRITE) == []
    assert noted("open", str(REPO / "site" / "hooks" / "__pycache__" / "x.pyc"), None, WRITE) == []
    # the bytecode's folder made too, where PYTHONDONTWRITEBYTECODE is not set (as on most machines)
    assert noted("os.mkdir", str(REPO / "site" / "hooks" / "__pycache__"), 0o777, -1) == []
    assert noted("open", 3, "w", WRITE) == []  # a file descriptor: its folder was named when it was opened
    assert noted("os.mkdir", str(REPO / "outputs"), 0o777, -1) == []  # a name that only begins the same


def test_the_tests_run_in_an_empty_folder_of_their_own() -> None:
    here = Path.cwd()
    assert REPO not in (here, *here.parents)
    assert not (here / "rules").exists()
