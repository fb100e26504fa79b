"""The hostile corpus's harness: a small workspace to attack, the CLI run in process or in a resource-limited
subprocess, and the ledger that counts what was tried and what went wrong (``bench/hostile_report.py``).

Every run is judged as a user would see it: its exit code, one ``Error:`` line naming the file, no traceback
and no "carddb hit a bug", bounded time and memory, and nothing written where it should not be.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.cli.main import app
from tests.conftest import built_once

REPO = Path(__file__).resolve().parents[2]
#: Set to a file path: the session's ledger is written there as JSON (``bench/hostile_report.py`` reads it).
LEDGER_ENV = "CARDDB_HOSTILE_LEDGER"
#: A run of one hostile input: at most this long (wall clock: the machine may be busy), this much processor
#: time and memory (address space) in a subprocess.
HANG_SECONDS = 60.0
CPU_SECONDS = 10
MEMORY_BYTES = 1536 * 1024 * 1024
#: What no input may make a message: longer lines than this, or more of them.
MAX_LINE = 500
MAX_LINES = 25


@dataclass
class Run:
    """What a user saw of one run."""

    args: list[str]
    exit_code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float = 0.0
    killed: bool = False
    cpu_seconds: float = 0.0

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stdout + self.stderr or "hit a bug" in self.stderr

    timed_out: bool = False

    @property
    def hang(self) -> bool:
        """Stopped for taking too long: past the wall-clock limit (generous, the machine may be busy) or
        the processor-time limit."""
        return self.timed_out or self.seconds > HANG_SECONDS


@dataclass
class Ledger:
    """Counts for the closing note: inputs tried and every failure by kind."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    slowest: float = 0.0
    peak_mb: float = 0.0

    def tried(self, kind: str, n: int = 1) -> None:
        self.counts[f"tried:{kind}"] += n

    def run(self, kind: str, run: Run) -> None:
        self.tried(kind)
        self.slowest = max(self.slowest, run.seconds)
        self.peak_mb = max(self.peak_mb, run.peak_mb)
        if run.traceback:
            self.fail("tracebacks", f"{kind}: {run.args}")
        if run.hang:
            self.fail("hangs", f"{kind}: {run.args} took {run.seconds:.1f} s")

    def fail(self, what: str, detail: str) -> None:
        self.counts[what] += 1
        self.failures.append(f"{what}: {detail}")


_LEDGER = Ledger()


@pytest.fixture(scope="session")
def ledger() -> Iterator[Ledger]:
    yield _LEDGER
    target = os.environ.get(LEDGER_ENV)
    if target:
        data = asdict(_LEDGER)
        data["counts"] = dict(_LEDGER.counts)
        Path(target).write_text(json.dumps(data, indent=1), encoding="utf-8")


def one_error_line(run: Run, *, naming: str | None = None) -> str:
    """The run's ``Error:`` line, checked to be the one such line, first, bounded, naming ``naming``."""
    lines = run.stderr.splitlines()
    assert lines and lines[0].startswith("Error: "), run
    assert sum(line.startswith("Error:") for line in lines) == 1, run
    assert len(lines) <= MAX_LINES and all(len(line) <= MAX_LINE for line in lines), run
    if naming is not None:
        assert naming in lines[0], (naming, run)
    return lines[0]


# --- a workspace to attack ------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def hostile_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace made by ``carddb init`` (one small game, ``mini``, with the site's sources and docs; the
    repository's Pyodide linked, not installed again) with its catalogue loaded by ``carddb build``: made once per
    run, read only (``ws_copy`` for a test that changes it)."""

    def build(folder: Path) -> None:
        root = folder / "ws"
        runner = CliRunner()
        result = runner.invoke(app, ["init", str(root), "--game", "mini", "--no-npm"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        site = root / "site"
        if not site.is_dir():  # an older init made no site
            shutil.copytree(REPO / "site", site, ignore=shutil.ignore_patterns("node_modules"))
            shutil.copytree(REPO / "docs", root / "docs", dirs_exist_ok=True)
        if (REPO / "site" / "node_modules").is_dir() and not (site / "node_modules").exists():
            (site / "node_modules").symlink_to(REPO / "site" / "node_modules", target_is_directory=True)
        db = root / "output" / "catalogue.db"
        loaded = runner.invoke(app, ["--root", str(root), "--db", str(db), "build", "--game", "mini"],
                               catch_exceptions=False)
        assert loaded.exit_code == 0, loaded.output

    folder, _ = built_once(tmp_path_factory, "hostile", build)
    return folder / "ws"


@pytest.fixture
def ws_copy(hostile_ws: Path, tmp_path: Path) -> Path:
    """A private copy of the workspace (its output folder and catalogue too), for tests that change it."""
    root = tmp_path / "ws"
    shutil.copytree(hostile_ws, root, symlinks=True)
    return root


def in_process(root: Path, *args: str, db: Path | None = None) -> Run:
    """``carddb --root ROOT --db DB ARGS`` through Typer's runner, timed; an exception escaping is a traceback."""
    argv = ["--root", str(root), "--db", str(db or root / "output" / "catalogue.db"), *args]
    started = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _too_long)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    crash_dir = os.environ.get("CARDDB_CRASH_DIR")
    os.environ["CARDDB_CRASH_DIR"] = str(root.parent / "crashes")  # never the user's own state folder
    try:
        result = CliRunner().invoke(app, argv)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if crash_dir is None:
            os.environ.pop("CARDDB_CRASH_DIR", None)
        else:
            os.environ["CARDDB_CRASH_DIR"] = crash_dir
    seconds = time.perf_counter() - started
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "\nTraceback (most recent call last): " + repr(result.exception)
    return Run(argv, result.exit_code, result.stdout, stderr, seconds)


class _TooLong(Exception):
    pass


def _too_long(_signum, _frame) -> None:  # type: ignore[no-untyped-def]
    raise _TooLong("the run did not finish in time")


def subprocess_run(root: Path, *args: str, db: Path | None = None, env: dict[str, str] | None = None,
                   timeout: float = HANG_SECONDS, kill_after: float | None = None, cwd: Path | None = None,
                   fork: bool = False) -> Run:
    """``carddb ARGS`` in a child process with an address-space and processor-time limit, its peak memory
    measured; ``kill_after`` seconds: SIGKILL it then (a user pulling the plug), if it has not finished.

    ``fork``: the child is a fork of this test process, which has carddb imported already: the same CLI,
    without half a second of imports a run (for the many runs of the kill tests; its memory then counts the
    parent's pages, so memory is measured only without it).
    """
    argv = ["--root", str(root), "--db", str(db or root / "output" / "catalogue.db"), *args]
    out_dir = Path(os.environ.get("TMPDIR", "/tmp"))
    full_env = {**os.environ, "CARDDB_CRASH_DIR": str(root.parent / "crashes"), **(env or {})}
    fork = fork and threading.active_count() == 1  # forking a process with threads is not safe
    with _temp(out_dir) as stdout, _temp(out_dir) as stderr:
        started = time.perf_counter()
        process = None
        if fork:
            pid = os.fork()
            if pid == 0:
                _child(argv, full_env, cwd or root, stdout.fileno(), stderr.fileno())
        else:
            with open(os.devnull, "rb") as stdin:
                # The Popen object is kept until its returncode is set below: one dropped unfinished is put
                # on subprocess's list of children to reap, and the next Popen in any thread reaps it,
                # leaving wait4 here with no child.
                process = subprocess.Popen([sys.executable, "-m", "carddb", *argv], stdin=stdin, stdout=stdout,
                                           stderr=stderr, cwd=cwd or root, env=full_env, preexec_fn=_limits)
                pid = process.pid
        killed = False
        deadline = started + (kill_after if kill_after is not None else timeout)
        peak_kb = 0
        while True:
            peak_kb = max(peak_kb, _high_water_kb(pid))
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                os.kill(pid, signal.SIGKILL)
                killed = True
                done, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.005)
        returncode = os.waitstatus_to_exitcode(status)
        if process is not None:
            process.returncode = returncode  # reaped here: subprocess must not wait for it again
        seconds = time.perf_counter() - started
        stdout.seek(0)
        stderr.seek(0)
        out, err = stdout.read().decode("utf-8", "replace"), stderr.read().decode("utf-8", "replace")
    timed_out = (killed and kill_after is None) or returncode == -signal.SIGXCPU
    # The child's own high-water mark (VmHWM, read while it runs): ru_maxrss would count the pages of this
    # test process, which the child shares between fork and exec.
    peak_mb = 0.0 if fork else (peak_kb or usage.ru_maxrss) / 1024
    return Run(argv, returncode, out, err, seconds, peak_mb=peak_mb,
               killed=killed, cpu_seconds=usage.ru_utime + usage.ru_stime, timed_out=timed_out)


def _high_water_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _child(argv: list[str], env: dict[str, str], cwd: Path, out: int, err: int) -> None:
    """In a forked child: become ``carddb ARGV`` and exit with its code, whatever happens."""
    code = 99
    try:
        _limits()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 (the child's own streams)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        from carddb.files import replacing

        replacing._cleaned.clear()  # what this process has cleaned so far: nothing, as for a new process
        replacing._mine.clear()
        replacing._reached.clear()
        from carddb.cli.main import main

        sys.argv = ["carddb", *argv]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # the child must never return into the test run
        code = 98
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


class _temp:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self):  # type: ignore[no-untyped-def]
        import tempfile

        self.handle = tempfile.TemporaryFile(dir=self.folder)
        return self.handle

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` (relative POSIX path) with its SHA-256: a folder's exact content."""
    import hashlib

    files = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def leftovers(folder: Path) -> list[str]:
    """What carddb leaves while writing (hidden ``.carddb-`` staging folders and ``.part`` files)."""
    return sorted(p.name for p in folder.iterdir() if ".carddb-" in p.name) if folder.is_dir() else []
