"""Fixtures shared by every test: the repository workspace, a loaded catalogue, and the CLI runner.

The suite needs nothing outside the repository: a test that compares with the third-party files of
``../shared/samples`` is marked ``samples`` and skips, with its reason, when they are not there
(``CARDDB_SAMPLES`` names another folder holding them). Tests write only under temporary folders: the CLI
runs on a copy of the workspace, and a session that leaves an ``output/`` in the repository fails.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.catalogue.api import Catalogue, open_catalogue
from carddb.cli.main import app
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parent.parent
SAMPLES_ENV = "CARDDB_SAMPLES"
#: What a copy of the workspace holds: the games, their templates, the site's sources and the docs.
WORKSPACE_FOLDERS = ("rules", "templates", "docs", "site")


def samples_dir() -> Path:
    """Where the third-party sample files are: ``$CARDDB_SAMPLES``, else ``../shared/samples``."""
    return Path(os.environ.get(SAMPLES_ENV) or REPO.parent / "shared" / "samples")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    folder = samples_dir()
    if folder.is_dir():
        return
    skip = pytest.mark.skip(reason=f"compares with third-party sample files, and {folder} is not there "
                                   f"(set {SAMPLES_ENV} to their folder)")
    for item in items:
        if item.get_closest_marker("samples"):
            item.add_marker(skip)


_OUTPUT_BEFORE = pytest.StashKey[dict[Path, int]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_OUTPUT_BEFORE] = _snapshot(REPO / "output")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Tests write only to temporary folders: fail a session that wrote into the repository's ``output/``."""
    before = session.config.stash.get(_OUTPUT_BEFORE, None)
    if before is None or session.config.option.collectonly:
        return
    written = sorted(set(_snapshot(REPO / "output").items()) - set(before.items()))
    if written:
        names = ", ".join(str(path) for path, _ in written[:5])
        session.config.get_terminal_writer().line(
            f"FAILED: the tests wrote {len(written)} file(s) into {REPO / 'output'}: {names}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _snapshot(folder: Path) -> dict[Path, int]:
    """Every file under ``folder`` with its modification time (nanoseconds)."""
    if not folder.is_dir():
        return {}
    return {path: path.stat().st_mtime_ns for path in folder.rglob("*") if path.is_file()}


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
    db = str(tmp_path_factory.mktemp("catalogue") / "catalogue.db")
    catalogue = open_catalogue(db)
    for game_id in workspace.game_ids():
        if workspace.card_files(game_id):
            catalogue.load_workspace_game(workspace, game_id)
    return db


@pytest.fixture(scope="session")
def catalogue(loaded_db: str) -> Catalogue:
    return open_catalogue(loaded_db)


@pytest.fixture
def cli(loaded_db: str, workspace_copy: Path):
    """Run ``carddb`` with the loaded catalogue on a copy of the workspace: ``cli("cards", "search", "...")``."""
    runner = CliRunner()

    def run(*args: str, db: str | None = None, root: str | None = None, input: str | None = None) -> CliResult:
        prefix = ["--root", root or str(workspace_copy), "--db", db or loaded_db]
        result = runner.invoke(app, [*prefix, *args], input=input, catch_exceptions=False)
        return CliResult(result.exit_code, result.stdout, result.stderr)

    return run
