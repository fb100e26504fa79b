"""Fixtures shared by every test: the repository workspace, a loaded catalogue, and the CLI runner."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.catalogue.api import Catalogue, open_catalogue
from carddb.cli.main import app
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


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
def cli(loaded_db: str):
    """Run ``carddb`` with the loaded catalogue: ``cli("cards", "search", "...")`` -> CliResult."""
    runner = CliRunner()

    def run(*args: str, db: str | None = None, root: str | None = None, input: str | None = None) -> CliResult:
        prefix = ["--root", root or str(REPO), "--db", db or loaded_db]
        result = runner.invoke(app, [*prefix, *args], input=input, catch_exceptions=False)
        return CliResult(result.exit_code, result.stdout, result.stderr)

    return run
