"""Inputs made to exhaust: each run in a subprocess with an address-space limit, its time and peak memory
measured. They must fail fast (a few seconds), in bounded memory, with one ``Error:`` line; a crash (a bug)
must be one line and a report, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from carddb.errors import InputError
from carddb.files import reading
from tests.hostile import corpus
from tests.hostile.conftest import Ledger, Run, one_error_line, subprocess_run

#: A hostile input may take this much processor time and memory, whole process included (starting Python with
#: SQLAlchemy and Typer takes about 0.7 s and 90 MB). Processor time, not the wall clock: the machine running
#: the tests may be busy with other work.
FAST_CPU_SECONDS = 4.0
PEAK_MB = 400.0


def _attacks(folder: Path) -> list[tuple[str, list[str], str]]:
    """(what, carddb arguments, a word the error must hold)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"bomb.yaml": corpus.alias_bomb_card_file(), "deep.yaml": b"cards: " + b"[" * 5000,
             "deep.dek": b"<deck>" + b"<a>" * 100_000, "ten-thousand-lines.txt": b"1 Blue Unit 1\n" * 10_000}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    with open(folder / "huge.csv", "wb") as handle:  # 40 MB that stat admits to: refused before reading
        handle.truncate(40 * 1024 * 1024)
    for name in ("zero.yaml", "zero.txt"):
        (folder / name).symlink_to("/dev/zero")
    for name in ("pipe.yaml", "pipe.txt"):
        os.mkfifo(folder / name)
    return [
        ("alias bomb", ["cards", "import", str(folder / "bomb.yaml"), "--game", "mini"], "alias"),
        ("5,000 nested [", ["cards", "import", str(folder / "deep.yaml"), "--game", "mini"], "nest"),
        ("40 MB card file", ["cards", "import", str(folder / "huge.csv"), "--game", "mini"], "too big"),
        ("card file -> /dev/zero", ["cards", "import", str(folder / "zero.yaml"), "--game", "mini"], "device"),
        ("card file is a pipe", ["cards", "import", str(folder / "pipe.yaml"), "--game", "mini"], "named pipe"),
        # the deck check fast path (no Typer) reads these
        ("deck file -> /dev/zero", ["deck", "check", str(folder / "zero.txt"), "--game", "mini"], "device"),
        ("deck file is a pipe", ["deck", "check", str(folder / "pipe.txt"), "--game", "mini"], "named pipe"),
        ("deck convert of a pipe", ["deck", "convert", str(folder / "pipe.txt"), "--game", "mini", "--to", "text"],
         "named pipe"),
        ("catalogue is a pipe", ["--db", str(folder / "pipe.yaml"), "cards", "search", "x"], "not a file"),
        ("catalogue is /dev/zero", ["--db", str(folder / "zero.yaml"), "cards", "search", "x"], "not a file"),
    ]


def _private_catalogue(hostile_ws: Path, folder: Path) -> Path:
    """A copy of the shared workspace's catalogue: SQLite makes its shared-memory file beside a catalogue it opens
    (and deletes it as it closes), which another test copying the shared workspace at that moment would miss."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "catalogue.db"
    shutil.copyfile(hostile_ws / "output" / "catalogue.db", db)
    return db


@pytest.mark.slow
def test_exhausting_inputs_fail_fast_in_bounded_memory(hostile_ws: Path, tmp_path: Path, ledger: Ledger) -> None:
    attacks = _attacks(tmp_path / "attack")

    db = _private_catalogue(hostile_ws, tmp_path)

    def attack(case: tuple[str, list[str], str]) -> tuple[str, str, Run]:
        what, args, word = case
        if args[0] == "--db":
            return what, word, subprocess_run(hostile_ws, *args[2:], db=Path(args[1]), cwd=tmp_path)
        return what, word, subprocess_run(hostile_ws, *args, db=db, cwd=tmp_path)

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(attack, attacks))
    for what, word, run in results:
        ledger.run("exhausting input", run)
        assert not run.traceback and not run.hang, (what, run)
        assert run.exit_code == 2, (what, run)
        assert word in one_error_line(run), (what, run.stderr)
        assert run.cpu_seconds < FAST_CPU_SECONDS and run.peak_mb < PEAK_MB, (what, run.cpu_seconds, run.peak_mb)


@pytest.mark.slow
def test_a_big_honest_deck_is_checked_in_bounded_memory(hostile_ws: Path, tmp_path: Path, ledger: Ledger) -> None:
    deck = tmp_path / "many.dek"
    deck.write_bytes(b'<deck version="0.8"><superzone name="Deck">'
                     + b'<card><name id="b">Blue Unit 1</name><set>core</set></card>' * 150_000
                     + b"</superzone></deck>")
    run = subprocess_run(hostile_ws, "deck", "check", str(deck), "--game", "mini",
                         db=_private_catalogue(hostile_ws, tmp_path), cwd=tmp_path)
    ledger.run("exhausting input", run)
    assert run.exit_code == 1 and "not a usable count" in run.stdout, run
    assert run.cpu_seconds < FAST_CPU_SECONDS and run.peak_mb < PEAK_MB, (run.cpu_seconds, run.peak_mb)


def test_the_size_is_counted_as_the_file_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``stat`` may lie (a /proc file says 0, a file may grow while read): the reader counts what it reads."""
    path = tmp_path / "grows.yaml"
    path.write_bytes(b"x" * 5000)
    real = os.fstat

    def lying(fd: int) -> os.stat_result:
        info = real(fd)
        return os.stat_result((info.st_mode, *tuple(info)[1:6], 0, *tuple(info)[7:10]))  # st_size 0

    monkeypatch.setattr(reading.os, "fstat", lying)
    with pytest.raises(InputError, match="more than 4,096 bytes is too big"):
        reading.read_user_file(path, max_bytes=4096)
    assert reading.read_user_file(path, max_bytes=5000) == b"x" * 5000


def test_a_pipe_full_of_data_is_refused_too(tmp_path: Path) -> None:
    """A pipe someone keeps filling (here: filled to the brim by a writer that holds it open) is refused as
    a pipe, without reading a byte of it."""
    pipe = tmp_path / "fed.yaml"
    os.mkfifo(pipe)
    writer = os.open(pipe, os.O_RDWR | os.O_NONBLOCK)  # never blocks on Linux: the pipe now has a writer
    try:
        with contextlib.suppress(BlockingIOError):
            while True:
                os.write(writer, b"cards: []\n" * 1000)
        with pytest.raises(InputError, match="named pipe"):
            reading.read_text_file(pipe, what="card file")
    finally:
        os.close(writer)


CRASH = """
import sys
import carddb.catalogue.api as api
import carddb.catalogue.read_only as read_only
def broken(*args, **kwargs):
    raise ZeroDivisionError("a bug, near postgresql://carddb:hunter2@db.example/cards")
api.Catalogue.{method} = broken
read_only.ReadOnlyCatalogue.{method} = broken  # a read command reads a SQLite file through this one
from carddb.cli.main import main
sys.argv = ["carddb", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize(("method", "args"), [
    ("search", ["cards", "search", "x", "--game", "mini"]),
    ("export_cards", ["cards", "export", "--game", "mini"]),
])
def test_a_crash_is_one_line_and_a_report(hostile_ws: Path, tmp_path: Path, ledger: Ledger, method: str,
                                          args: list[str]) -> None:
    reports = tmp_path / "crashes"
    result = subprocess.run([sys.executable, "-c", CRASH.format(method=method), "--root", str(hostile_ws),
                             "--db", str(_private_catalogue(hostile_ws, tmp_path)), *args],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "CARDDB_CRASH_DIR": str(reports)})
    ledger.tried("crash")
    lines = result.stderr.splitlines()
    assert result.returncode == 70 and len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: carddb hit a bug (ZeroDivisionError: a bug, near postgresql://carddb:***@")
    assert "Traceback" not in result.stderr and "hunter2" not in result.stderr
    (report,) = reports.iterdir()
    assert str(report) in lines[0]
    text = report.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "in broken" in text
    assert "hunter2" not in text and "command: carddb --root" in text


def test_a_crash_in_the_deck_check_fast_path_is_one_line_too(hostile_ws: Path, tmp_path: Path) -> None:
    code = CRASH.replace("import carddb.catalogue.api as api", "import carddb.core.checker.report as api") \
        .replace("api.Catalogue.{method}", "api.check_deck_text") \
        .replace("read_only.ReadOnlyCatalogue.{method} = broken", "")
    deck = hostile_ws / "rules" / "mini" / "decks" / "legal-starter.txt"
    result = subprocess.run([sys.executable, "-c", code, "--root", str(hostile_ws), "--db",
                             str(_private_catalogue(hostile_ws, tmp_path)), "deck", "check", str(deck),
                             "--game", "mini"],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "CARDDB_CRASH_DIR": str(tmp_path / "crashes")})
    assert result.returncode == 70 and result.stderr.count("\n") == 1, result.stderr
    assert "carddb hit a bug" in result.stderr and len(list((tmp_path / "crashes").iterdir())) == 1
