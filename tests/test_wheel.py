"""The designer's install: `pip install` of carddb's wheel into a fresh virtual environment, then `carddb init x
&& cd x && carddb build` there, far from the repository, as README.md tells a designer who only wants the tool.

The wheel is built from a copy of the repository's files and installed with pip's own configuration (its
indexes and cache), so what is checked is what a user gets: the package, its data (templates, the starter,
the bundled games and the site's sources) and its declared dependencies.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "output", "node_modules", "build", "dist", "*.egg-info",
                                    "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis")


def _run(args: list[str | Path], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDDB_", "VIRTUAL_ENV", "PYTHON"))}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin/`` of a fresh virtual environment holding carddb installed from its wheel."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", base / "dist", source], base)
    assert built.returncode == 0, built.stderr
    wheels = sorted((base / "dist").glob("carddb-*.whl"))
    assert len(wheels) == 1
    made = _run([sys.executable, "-m", "venv", base / "venv"], base)
    assert made.returncode == 0, made.stderr
    bin_dir = base / "venv" / "bin"
    pip = _run([bin_dir / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", wheels[0]], base)
    assert pip.returncode == 0, pip.stderr
    return bin_dir


@pytest.mark.slow
def test_the_installed_carddb_is_the_wheels_not_the_repositorys(installed: Path, tmp_path: Path) -> None:
    where = _run([installed / "python", "-c", "import carddb.bundled as b; print(b.bundled_root())"], tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()) == installed.parent / "lib" / f"python{sys.version_info.major}." \
        f"{sys.version_info.minor}" / "site-packages" / "carddb" / "bundled"


@pytest.mark.slow
def test_init_then_build_works_outside_the_clone(installed: Path, tmp_path: Path) -> None:
    init = _run([installed / "carddb", "init", "x"], tmp_path)
    assert init.returncode == 0, init.stderr
    assert f"created {Path('x') / 'site'}" in init.stdout.splitlines()
    workspace = tmp_path / "x"
    for path in ("rules/mygame/game.toml", "templates/mygame/unit.toml", "templates/icons.toml", "site/mkdocs.yml",
                 "site/hooks/carddb_hook.py", "site/docs/javascripts/carddb.js", "docs/deck-files.md", ".gitignore"):
        assert (workspace / path).is_file(), path
    assert not (workspace / "site" / "node_modules").exists() or shutil.which("npm")

    build = _run([installed / "carddb", "build"], workspace)
    assert build.returncode == 0, build.stdout + build.stderr
    lines = build.stdout.splitlines()
    assert "mygame: loaded 14 cards in 1 set (core): 14 new" in lines
    assert f"mygame: faces in {workspace / 'output' / 'faces' / 'mygame'}: 15 drawn, 0 reused" in lines
    sheet = workspace / "output" / "sheets" / "mygame" / "mygame-all-cards-fronts.pdf"
    assert sheet.read_bytes().startswith(b"%PDF-")
    assert (workspace / "output" / "lackey" / "mygame" / "mygame" / "plugininfo.txt").is_file()
    if shutil.which("npm"):  # init installed Pyodide: the site builds as in the clone
        assert any(line.startswith("site: ") and " pages, 14 cards (14 faces)" in line for line in lines), lines
        assert "Deck builder" in (workspace / "output" / "site" / "games" / "mygame" / "checker" /
                                  "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_init_example_copies_a_bundled_game(installed: Path, tmp_path: Path) -> None:
    init = _run([installed / "carddb", "init", "y", "--example", "shmod", "--no-npm"], tmp_path)
    assert init.returncode == 0, init.stderr
    workspace = tmp_path / "y"
    for top in ("rules", "templates"):
        ours = {p.relative_to(REPO / top / "shmod"): p.read_bytes() for p in (REPO / top / "shmod").rglob("*")
                if p.is_file()}
        copied = {p.relative_to(workspace / top / "shmod"): p.read_bytes()
                  for p in (workspace / top / "shmod").rglob("*") if p.is_file()}
        assert copied == ours
    check = _run([installed / "carddb", "deck", "check", "rules/shmod/decks/legal-fire-water-fusion.txt", "--game",
                  "shmod"], workspace)
    assert check.returncode == 0, check.stdout + check.stderr
    unknown = _run([installed / "carddb", "init", "z", "--example", "zelda"], tmp_path)
    assert (unknown.returncode, unknown.stderr) == (
        2, "Error: no bundled game 'zelda'; the examples are minibattle, shmod, ssbm, ssq, website\n")
    assert not (tmp_path / "z").exists()
