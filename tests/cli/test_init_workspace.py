"""`carddb init` as docs/new-game.md tells a designer: a new workspace, a bundled example, and a sixth game
added beside the five in an existing workspace (its site and docs kept as they are)."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from carddb.cli.main import app
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _five_game_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "games"
    for name in ("rules", "templates", "docs", "site"):
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("node_modules"))
    (root / ".gitignore").write_text("output/\n", encoding="utf-8")
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_sixth_game_beside_the_five_adds_only_its_own_folders(tmp_path: Path) -> None:
    root = _five_game_workspace(tmp_path)
    before = _files(root)
    code, out, err = _run("init", str(root), "--game", "sixth", "--name", "The Sixth Game")
    assert code == 0, err
    created = [line.removeprefix("created ") for line in out.splitlines() if line.startswith("created ")]
    assert {Path(p).relative_to(root).parts[:2] for p in created} == {("rules", "sixth"), ("templates", "sixth")}
    assert out.splitlines()[-1] == f"Next: cd {root} && carddb build --game sixth"
    after = _files(root)
    assert {k: v for k, v in after.items() if k in before} == before  # nothing of the five was touched
    assert Workspace(root).game_ids() == ["minibattle", "shmod", "sixth", "ssbm", "ssq", "website"]
    assert 'name = "The Sixth Game"' in (root / "rules" / "sixth" / "game.toml").read_text(encoding="utf-8")

    code, out, err = _run("--root", str(root), "--db", str(tmp_path / "c.db"), "build", "--game", "sixth",
                          "--skip", "sheets", "--skip", "lackey", "--skip", "apprentice", "--skip", "site")
    assert code == 0, out + err
    assert "sixth: loaded 14 cards in 1 set (core): 14 new" in out.splitlines()


def test_init_example_in_an_existing_workspace_and_its_refusals(tmp_path: Path) -> None:
    root = tmp_path / "mine"
    code, _, err = _run("init", str(root), "--example", "minibattle", "--no-npm")
    assert code == 0, err
    assert Workspace(root).game_ids() == ["minibattle"]
    assert (root / "site" / "mkdocs.yml").is_file() and (root / "templates" / "icons.toml").is_file()
    before = _files(root)

    code, _, err = _run("init", str(root), "--example", "minibattle")
    assert (code, err) == (2, f"Error: {root / 'rules' / 'minibattle'} already exists; nothing was changed\n")
    code, _, err = _run("init", str(root), "--game", "x2", "--example", "shmod")
    assert code == 2 and "give one of them" in err
    code, out, _ = _run("init", str(root))
    assert code == 0 and out.endswith("already holds every workspace file; add a game with --game ID or "
                                      "--example GAME.\n")
    assert _files(root) == before


def test_a_new_workspace_without_a_game_named_gets_the_starter(tmp_path: Path) -> None:
    code, out, _ = _run("init", str(tmp_path / "w"), "--no-npm")
    assert code == 0
    assert Workspace(tmp_path / "w").game_ids() == ["mygame"]
    assert "note: the site's in-browser checker needs Pyodide: run `npm ci --prefix" in out
    assert (tmp_path / "w" / ".gitignore").read_text(encoding="utf-8").splitlines()[1:] == ["output/",
                                                                                            "site/node_modules/"]


def test_quiet_init_says_only_what_went_wrong(tmp_path: Path, monkeypatch) -> None:
    # -q creates the same files and prints nothing; a failing npm is still said, on stderr, as a warning
    code, out, err = _run("-q", "init", str(tmp_path / "quiet"), "--no-npm")
    assert (code, out, err) == (0, "", "")
    assert Workspace(tmp_path / "quiet").game_ids() == ["mygame"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text("#!/bin/sh\necho 'npm ERR! network unreachable' >&2\nexit 1\n", encoding="utf-8")
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    code, out, err = _run("init", str(tmp_path / "offline"), "-q")
    assert (code, out) == (0, "")
    assert err.startswith("warning: npm ci failed (npm ERR! network unreachable), so the site's in-browser checker")
    assert (tmp_path / "offline" / "site").is_dir()
