"""Progress and quiet: a live display on a terminal for each step of the build, nothing in a pipe, only errors
and warnings with --quiet, and a build that ends by listing its warnings."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.app.build import build
from carddb.catalogue.api import open_catalogue
from carddb.cli.build import warning_summary
from carddb.cli.main import app
from carddb.progress import Reporter, Task
from carddb.workspace import Workspace


class Recorder(Reporter):
    """Every task opened, with the last (done, total) it was told and whether it was closed."""

    def __init__(self) -> None:
        self.tasks: list[RecordedTask] = []

    def task(self, label: str, total: int | None = None) -> Task:
        self.tasks.append(RecordedTask(label, total))
        return self.tasks[-1]


class RecordedTask(Task):
    def __init__(self, label: str, total: int | None) -> None:
        self.label, self.total, self.done, self.closed = label, total, 0, False

    def __call__(self, done: int, total: int | None = None) -> None:
        self.done, self.total = done, total

    def advance(self, steps: int = 1) -> None:
        self.done += steps

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def starter_workspace(tmp_path: Path) -> Path:
    result = CliRunner().invoke(app, ["init", str(tmp_path / "w"), "--no-npm"])
    assert result.exit_code == 0, result.output
    return tmp_path / "w"


def test_the_build_opens_a_task_for_each_game_and_step(starter_workspace: Path) -> None:
    workspace = Workspace(starter_workspace)
    recorder = Recorder()
    report = build(workspace, open_catalogue(str(starter_workspace / "c.db")),
                   skip=["lackey", "apprentice", "tts", "cockatrice"], progress=recorder)
    assert not report.failed
    # the sheets are drawn beside the site, the kit made after it
    assert [t.label for t in recorder.tasks] == ["mygame: load", "mygame: decks", "mygame: faces", "mygame: sheets",
                                                    "mygame: kit"]
    faces = recorder.tasks[2]
    assert (faces.done, faces.total) == (15, 15)  # 14 cards and the back, counted as they were drawn
    assert all(t.closed for t in recorder.tasks)


def test_quiet_prints_only_warnings_and_errors(starter_workspace: Path) -> None:
    result = CliRunner().invoke(app, ["--root", str(starter_workspace), "-q", "build", "--skip", "lackey",
                                      "--skip", "apprentice", "--skip", "tts", "--skip", "cockatrice"])
    assert result.exit_code == 0
    assert result.stdout == ""
    site = starter_workspace / "site"
    assert result.stderr.splitlines() == [
        "1 warning:",
        f"  warning: site: skipped, the site's Pyodide is not installed (run `npm ci --prefix {site}` once)"]
    loud = CliRunner().invoke(app, ["--root", str(starter_workspace), "build", "--skip", "lackey", "--skip", "tts",
                                    "--skip", "cockatrice", "--skip", "apprentice", "--skip", "site"])
    assert loud.stdout.splitlines()[0] == "mygame: loaded 14 cards in 1 set (core): nothing changed"
    assert "\x1b[" not in loud.stdout + loud.stderr  # not a terminal: no live display


def test_the_warnings_file_holds_every_warning(starter_workspace: Path) -> None:
    # the one warning: the site skipped, the site's Pyodide not installed (the steps before it add none)
    report = build(Workspace(starter_workspace), open_catalogue(str(starter_workspace / "c.db")),
                   skip=["decks", "sheets", "lackey", "apprentice", "tts", "cockatrice", "kit"])
    assert report.warnings and report.warnings_file == starter_workspace / "output" / "build-warnings.txt"
    assert report.warnings_file.read_text(encoding="utf-8").splitlines() == report.warnings
    again = build(Workspace(starter_workspace), open_catalogue(str(starter_workspace / "c.db")),
                  skip=["decks", "sheets", "lackey", "apprentice", "tts", "cockatrice", "kit", "site"])
    assert again.warnings == [] and not (starter_workspace / "output" / "build-warnings.txt").exists()


def test_the_summary_lists_ten_warnings_and_says_where_the_rest_are() -> None:
    assert warning_summary([], None) == []
    assert warning_summary(["one"], "w.txt") == ["1 warning:", "  warning: one"]
    lines = warning_summary([f"w{i}" for i in range(13)], "out/build-warnings.txt")
    assert lines[0] == "13 warnings:" and lines[1:11] == [f"  warning: w{i}" for i in range(10)]
    assert lines[11:] == ["  ... and 3 more: all 13 are in out/build-warnings.txt"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_terminal_sees_the_live_display_and_then_the_lines(starter_workspace: Path) -> None:
    carddb = Path(sys.executable).parent / "carddb"
    primary, secondary = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    skips = [arg for step in ("lackey", "apprentice", "tts", "cockatrice", "kit", "site") for arg in ("--skip", step)]
    process = subprocess.Popen([str(carddb), "build", *skips],
                               cwd=starter_workspace, stdin=secondary, stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    shown = b""
    while True:
        ready, _, _ = select.select([primary], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the command ended and closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    assert process.wait(timeout=60) == 0
    os.close(primary)
    text = shown.decode("utf-8", errors="replace")
    # the tasks' labels (no printed line says "mygame: sheets" or "mygame: decks"), drawn with terminal codes
    assert "mygame: sheets" in text and "mygame: decks" in text and "\x1b[" in text
    assert "mygame: loaded 14 cards in 1 set (core)" in text and "Built 1 game into" in text
