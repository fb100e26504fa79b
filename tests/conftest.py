"""Fixtures shared by every test: the repository workspace, a loaded catalogue, and the CLI runner.

The suite needs nothing outside the repository: a test that compares with the third-party files of
``../shared/samples`` is marked ``samples`` and skips, with its reason, when they are not there
(``CARDDB_SAMPLES`` names another folder holding them).

Tests write only under temporary folders, and run in one: from the first test on, the working folder is an empty
temporary folder, so a ``carddb`` run (in process or a child) that forgets ``--root`` finds no workspace instead of
the repository. The CLI runs on a copy of the workspace. A test that writes into the repository's workspace
(``output/``, ``rules/``, ``templates/``, ``docs/``, ``site/``) fails, naming what it wrote: the test process
records its own writes (an audit hook), so a user's ``carddb build`` in the clone while the tests run is no
test's fault and fails nothing.

``make test`` runs the tests on every core (pytest-xdist, ``--dist loadscope``: a module runs whole on one worker,
so its module fixtures are made once). Shared fixtures:

- ``repo_root``, ``workspace``: the repository and its workspace, read only.
- ``workspace_copy``: a copy of the workspace for this worker's session (the CLI's default ``output/`` lands in it).
- ``loaded_db`` / ``catalogue``: every bundled game loaded once per session, read only (copy it to write).
- ``cli``: ``cli("cards", "search", ...)`` runs carddb in process on ``workspace_copy`` and ``loaded_db``.
- ``built_once(tmp_path_factory, name, build)``: a folder that ``build(folder)`` fills once per run, whatever
  the number of workers (one builds, under a lock, the others wait and reuse it); read only for the tests.
  tests/site's ``site`` (the built site) is made this way.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue

try:
    import fcntl
except ImportError:  # Windows: each xdist worker builds its own
    fcntl = None  # type: ignore[assignment]

REPO = Path(__file__).resolve().parent.parent
SAMPLES_ENV = "CARDDB_SAMPLES"
# The sites the tests build (dozens, each from nothing) compress their engine files at the quickest settings: 0.5 s
# of CPU a build instead of 3.9 s. Child processes inherit it. tests/site's shared site is built with the defaults,
# for the tests of what a visitor downloads.
os.environ.setdefault("CARDDB_QUICK_COMPRESSION", "1")
#: What a copy of the workspace holds: the games, their templates, the site's sources and the docs.
WORKSPACE_FOLDERS = ("rules", "templates", "docs", "site")
T = TypeVar("T")


def samples_dir() -> Path:
    """Where the third-party sample files are: ``$CARDDB_SAMPLES``, else ``../shared/samples``."""
    return Path(os.environ.get(SAMPLES_ENV) or REPO.parent / "shared" / "samples")


#: The longest modules, longest first, as measured (seconds of their tests, at `make test` on 2 cores): they are
#: handed to the workers first. pytest-xdist's ``--dist loadscope`` gives out whole modules in the order they are
#: collected, and one of these started last would run alone at the end while the other workers sit idle.
LONGEST_FIRST = ("tests/test_incremental_changes.py",  # 276 s
                 "tests/test_incremental.py",  # 230 s
                 "tests/site/test_studio_browser.py",  # 170 s
                 "tests/site/test_site_builder.py",  # 112 s
                 "tests/site/test_site_screens.py",  # 105 s
                 "tests/site/test_site_browser.py",  # 84 s
                 "tests/site/test_site_attack.py",  # 75 s
                 "tests/site/test_site_playtest.py",  # 70 s
                 "tests/test_wheel.py",  # 53 s
                 "tests/hostile/test_faults.py",  # 52 s
                 # the longest of `make test-fast` (which runs none of the above), as measured there
                 "tests/catalogue/test_shared_catalogue.py",  # 15 s
                 "tests/hostile/test_readers.py",  # 14 s
                 "tests/hostile/test_plugins.py",  # 13 s
                 "tests/sheets/test_cut_marks.py",  # 11 s
                 "tests/exporters/test_printshop.py",  # 10 s
                 "tests/site/test_site_build.py",  # 9 s
                 "tests/catalogue/test_writers.py",  # 9 s
                 "tests/faces/test_every_face.py",  # 9 s
                 "tests/site/test_print_bundle.py",  # 8 s
                 "tests/sheets/test_print_cli.py",  # 8 s
                 "tests/catalogue/test_backup.py",  # 8 s
                 "tests/sheets/test_game_sheets.py",  # 8 s
                 "tests/site/test_studio_http.py")  # 8 s


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: number for number, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))  # stable: else as collected
    folder = samples_dir()
    if folder.is_dir():
        return
    skip = pytest.mark.skip(reason=f"compares with third-party sample files, and {folder} is not there "
                                   f"(set {SAMPLES_ENV} to their folder)")
    for item in items:
        if item.get_closest_marker("samples"):
            item.add_marker(skip)


# --- the tests' own writes into the repository's workspace ----------------------------------------------------

#: What the tests must never write to: the repository's workspace and what a build makes of it.
GUARDED = tuple(str(REPO / name) for name in ("output", *WORKSPACE_FOLDERS))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
#: Audit events that change a file or folder, and where their target path is among the arguments.
_CHANGES = {"open": 0, "os.mkdir": 0, "os.remove": 0, "os.rmdir": 0, "os.rename": 1, "os.replace": 1,
            "os.symlink": 1, "os.link": 1, "os.truncate": 0, "os.chmod": 0, "os.utime": 0, "shutil.rmtree": 0,
            "sqlite3.connect": 0}
_written: list[str] = []


def _guarded(target: object) -> bool:
    if not isinstance(target, (str, bytes, os.PathLike)):
        return False  # a file descriptor, or a path relative to one (inside a folder already named)
    path = os.path.abspath(os.fsdecode(target))
    if "__pycache__" in path.split(os.sep):
        return False  # Python caching the bytecode of site/hooks, which MkDocs imports (the folder made, too)
    return any(path == folder or path.startswith(folder + os.sep) for folder in GUARDED)


def _record_writes(event: str, args: tuple) -> None:
    """An audit hook: note every change this process makes under ``GUARDED`` (a user's own build is another
    process, and is not noted)."""
    where = _CHANGES.get(event)
    if where is None or len(args) <= where:
        return
    if event == "open" and not (args[2] & _WRITE_FLAGS if isinstance(args[2], int) else False):
        return  # read only
    if _guarded(args[where]):
        _written.append(f"{event} {os.fsdecode(args[where])}")


sys.addaudithook(_record_writes)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Fail the test (at its teardown) that wrote into the repository's workspace, naming what it wrote."""
    outcome = yield
    if call.when != "teardown" or not _written:
        return
    report = outcome.get_result()
    written, _written[:] = list(_written), []
    names = "\n  ".join(written[:10])
    report.outcome = "failed"
    report.longrepr = (f"the test wrote {len(written)} time(s) into the repository's workspace ({REPO}); "
                       f"tests write only to temporary folders:\n  {names}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A write outside any test (at collection, or a session fixture's teardown) fails the session."""
    if _written:
        names = ", ".join(_written[:5])
        session.config.get_terminal_writer().line(
            f"FAILED: the tests wrote {len(_written)} time(s) into {REPO}'s workspace: {names}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session", autouse=True)
def _run_in_a_folder_of_their_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests' working folder is an empty temporary one: a ``carddb`` run that forgets ``--root`` (in process,
    or a child process, which the audit hook does not see) finds no workspace rather than the repository."""
    before = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(before)


@pytest.fixture(scope="session", autouse=True)
def _children_keep_their_bytecode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Where the environment says not to write bytecode beside the sources (``PYTHONDONTWRITEBYTECODE``), every
    ``carddb`` child process of the tests would compile carddb's modules again (0.08 processor-seconds of a child
    build's 0.88 here): they keep it in the run's temporary folder instead (``PYTHONPYCACHEPREFIX``), shared by the
    workers, as the benchmarks do. The tests' own processes are started already and keep the setting."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        yield
        return
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # the run's folder, above each worker's own
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE")
        patch.setenv("PYTHONPYCACHEPREFIX", str(run / "pycache"))
        yield


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], T]) -> tuple[Path, T]:
    """``(folder, build(folder))``, built once per test run and shared read only: under pytest-xdist, the first
    worker to ask builds it under a lock while the others wait, then they all reuse its folder and result (a
    pickle). A build that failed is tried again by the next worker to ask."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None or fcntl is None:
        folder = tmp_path_factory.mktemp(name)
        return folder, build(folder)
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's own
    folder, result = shared / name, shared / f"{name}.pickle"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when the build raises
        if result.is_file():
            return folder, pickle.loads(result.read_bytes())
        shutil.rmtree(folder, ignore_errors=True)  # what a failed build left
        folder.mkdir()
        built = build(folder)
        result.write_bytes(pickle.dumps(built))
        return folder, built


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def workspace() -> Workspace:
    return Workspace(REPO)


@pytest.fixture(scope="session")
def samples() -> Path:
    """The third-party sample files; a test using them is marked ``samples`` (skipped when they are absent)."""
    folder = samples_dir()
    if not folder.is_dir():
        pytest.skip(f"{folder} is not there")
    return folder


@pytest.fixture(scope="session")
def workspace_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository's workspace, so a command's default output/ lands in a temporary folder.

    The site's installed Pyodide (``site/node_modules``, 30 MB) is linked, not copied."""
    root = tmp_path_factory.mktemp("workspace")
    for name in WORKSPACE_FOLDERS:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    if (REPO / "site" / "node_modules").is_dir():
        (root / "site" / "node_modules").symlink_to(REPO / "site" / "node_modules", target_is_directory=True)
    return root


@pytest.fixture(scope="session")
def loaded_db(tmp_path_factory: pytest.TempPathFactory, workspace: Workspace) -> str:
    """A catalogue holding every bundled game, built once per test session (read-only for tests)."""
    from carddb.catalogue.api import open_catalogue

    db = str(tmp_path_factory.mktemp("catalogue") / "catalogue.db")
    catalogue = open_catalogue(db)
    for game_id in workspace.game_ids():
        if workspace.card_files(game_id):
            catalogue.load_workspace_game(workspace, game_id)
    return db


@pytest.fixture(scope="session")
def catalogue(loaded_db: str) -> Catalogue:
    from carddb.catalogue.api import open_catalogue

    return open_catalogue(loaded_db)


@pytest.fixture
def cli(loaded_db: str, workspace_copy: Path):
    """Run ``carddb`` with the loaded catalogue on a copy of the workspace, in it: ``cli("cards", "search", "...")``."""
    from typer.testing import CliRunner

    from carddb.cli.main import app

    runner = CliRunner()

    def run(*args: str, db: str | None = None, root: str | None = None, input: str | None = None) -> CliResult:
        workspace = root or str(workspace_copy)
        with contextlib.chdir(workspace):  # in the workspace, as a user runs it: the docs' relative paths work
            result = runner.invoke(app, ["--root", workspace, "--db", db or loaded_db, *args], input=input,
                                   catch_exceptions=False)
        return CliResult(result.exit_code, result.stdout, result.stderr)

    return run
