"""``kill -9`` in the middle of a parallel build: faces and PDFs are being drawn on the build's worker processes
when the whole process group is killed. The next build must complete and give what a clean build gives, byte for
byte (the site is left out: its own interrupted builds are tests/hostile's, and it would triple the time)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from carddb.incremental import _CACHE_KEY

REPO = Path(__file__).resolve().parents[1]
NOT_COMPARED = ("catalogue.db", "catalogue.db-wal", "catalogue.db-shm", "build-stamp.json")
CACHE = Path(".carddb/cache")

pytestmark = pytest.mark.slow


def carddb_build(root: Path, **popen: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "carddb", "--root", str(root), "-q", "build", "--skip", "site"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, **popen)  # type: ignore[call-overload]


def finished(root: Path) -> None:
    done = carddb_build(root)
    _out, err = done.communicate(timeout=600)
    assert done.returncode == 0, err


def outputs(out: Path) -> dict[str, bytes]:
    """Every output by its path. The build's cache is not an output (deleting it is safe) and holds what the last
    build asked for, which depends on what was already up to date: only its names are checked (below)."""
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*"))
            if path.is_file() and path.name not in NOT_COMPARED and CACHE not in path.relative_to(out).parents}


def test_a_build_killed_while_drawing_in_parallel_is_finished_by_the_next(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "rules").mkdir(parents=True)
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod")  # 52 faces: drawn on the worker processes
    (root / "templates").mkdir()
    shutil.copytree(REPO / "templates" / "shmod", root / "templates" / "shmod")
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    faces = root / "output" / "faces" / "shmod"
    sheets = root / "output" / "sheets" / "shmod"
    for wait_for in (faces, sheets):  # killed while the faces are drawn, then while the PDFs are
        running = carddb_build(root, start_new_session=True)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and running.poll() is None:
            if wait_for.is_dir() and len(list(wait_for.iterdir())) >= 4:
                break
            time.sleep(0.02)
        assert running.poll() is None, "the build ended before it could be killed"
        os.killpg(running.pid, signal.SIGKILL)  # the build and every worker it started
        running.communicate()
    finished(root)
    interrupted = outputs(root / "output")
    shutil.rmtree(root / "output" / "faces")
    shutil.rmtree(root / "output" / "sheets")
    for folder in ("lackey", "apprentice", "tts", "cockatrice", "kit", ".carddb"):
        shutil.rmtree(root / "output" / folder, ignore_errors=True)
    (root / "output" / "build-warnings.txt").unlink(missing_ok=True)
    finished(root)
    clean = outputs(root / "output")
    assert sorted(interrupted) == sorted(clean)
    differing = [name for name in clean if interrupted[name] != clean[name]]
    assert not differing, f"{len(differing)} files differ from a clean build, e.g. {differing[:5]}"
    assert not [p for p in (root / "output").rglob("*") if ".carddb-" in p.name or p.suffix == ".part"]
    stray = [p.name for p in (root / "output" / CACHE).iterdir()
             if not _CACHE_KEY.fullmatch(p.name) and p.name != "file-digests.json"]
    assert not stray, stray  # the interrupted builds' half-written entries were cleaned up
