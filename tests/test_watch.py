"""Watching: which saved files start a build and for which games, real file events through watchdog (an editor's
save, a folder renamed while watched), and what a failed build leaves (its message in the status file the open
pages show, the outputs as they were)."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from carddb.catalogue.api import Catalogue
from carddb.errors import CardDataError, TemplateError
from carddb.watch import STATUS_FILE, Watcher, games_touched, ignored, read_status, watch_build
from carddb.workspace import Workspace


def workspace_at(root: Path) -> Workspace:
    for game in ("shmod", "ssbm"):
        (root / "rules" / game / "cards").mkdir(parents=True)
        (root / "rules" / game / "game.toml").write_text("", encoding="utf-8")
    (root / "templates" / "shmod").mkdir(parents=True)
    (root / "output").mkdir()
    return Workspace(root)


def no_catalogue(workspace: Workspace) -> Catalogue:
    """A catalogue not made yet (the watcher reads it as holding no cards), for builds that are faked."""
    return Catalogue(str(workspace.output_dir / "catalogue.db"), workspace)


def test_what_counts_as_a_change(tmp_path: Path) -> None:
    root = tmp_path
    assert not ignored(root / "rules" / "shmod" / "cards" / "base.yaml", root)
    assert not ignored(root / "site" / "docs" / "javascripts" / "carddb.js", root)
    for path in ("output/site/index.html", "rules/shmod/cards/.base.yaml.swp", "rules/shmod/cards/base.yaml~",
                 "site/node_modules/pyodide/pyodide.js", "rules/shmod/cards/4913", "README.md",
                 "rules/shmod/__pycache__/x.pyc"):
        assert ignored(root / path, root), path


def test_a_change_in_one_game_builds_that_game_only(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    cards = tmp_path / "rules" / "shmod" / "cards" / "base.yaml"
    assert games_touched([cards, tmp_path / "templates" / "shmod" / "spell.toml"], workspace) == ["shmod"]
    assert games_touched([cards, tmp_path / "rules" / "ssbm" / "decks" / "a.txt"], workspace) == ["shmod", "ssbm"]
    for shared in ("templates/icons.toml", "docs/search.md", "site/mkdocs.yml", "rules/shmod", "rules/zelda/x"):
        assert games_touched([tmp_path / shared], workspace) is None, shared


def _wait(condition, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "nothing happened"
        time.sleep(0.02)


def test_real_saves_and_a_renamed_folder_start_builds(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    batches: list[list[Path]] = []
    said: list[str] = []
    watcher = Watcher(workspace, lambda changes: batches.append(changes.paths), say=said.append)
    watcher.start()
    runner = threading.Thread(target=watcher.run, daemon=True)
    runner.start()
    try:
        cards = tmp_path / "rules" / "shmod" / "cards" / "base.yaml"
        swap = cards.with_name(".base.yaml.swp")
        swap.write_text("cards: []\n", encoding="utf-8")  # an editor: a scratch file, renamed over the file
        os.replace(swap, cards)
        _wait(lambda: batches)
        assert cards in batches[0] and not any(p.name.endswith(".swp") for p in batches[0] if p != swap)
        (tmp_path / "output" / "built.txt").write_text("x", encoding="utf-8")  # the build's own writes
        time.sleep(0.3)
        assert len(batches) == 1
        # the whole rules/ folder renamed while watched: a build, a message, and the new folder watched again
        os.replace(tmp_path / "rules", tmp_path / "rules-old")
        _wait(lambda: len(batches) >= 2)
        _wait(lambda: any("is gone" in line for line in said))
        os.replace(tmp_path / "rules-old", tmp_path / "rules")
        _wait(lambda: len(batches) >= 3)
        count = len(batches)
        cards.write_text("cards: [1]\n", encoding="utf-8")
        _wait(lambda: len(batches) > count and any(cards in batch for batch in batches[count:]))
    finally:
        watcher.stop()
        runner.join(timeout=5)


def test_a_failed_build_is_said_and_kept_for_the_page_until_one_succeeds(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    outcomes = [CardDataError("rules/shmod/cards/base.yaml:3: not valid YAML (expected ':')"), "ok"]
    errors: list[str] = []
    statuses: list[dict] = []
    stop = threading.Event()

    def once(games, catalogue):  # type: ignore[no-untyped-def]
        outcome = outcomes.pop(0) if outcomes else "ok"
        if isinstance(outcome, Exception):
            raise outcome
        return type("Report", (), {"failures": []})()

    def watch() -> None:
        watch_build(workspace, no_catalogue(workspace), once, say=lambda line: None, error=errors.append, stop=stop)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    _wait(lambda: read_status(workspace.output_dir).get("builds") == 1)
    statuses.append(read_status(workspace.output_dir))
    cards = tmp_path / "rules" / "shmod" / "cards" / "base.yaml"
    cards.write_text("cards: []\n", encoding="utf-8")
    _wait(lambda: read_status(workspace.output_dir).get("builds") == 2)
    statuses.append(read_status(workspace.output_dir))
    stop.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert statuses[0]["error"] == "rules/shmod/cards/base.yaml:3: not valid YAML (expected ':')"
    assert errors == ["Error: rules/shmod/cards/base.yaml:3: not valid YAML (expected ':')"]
    assert statuses[1] == {"builds": 2, "error": None, "changed": ["rules/shmod/cards/base.yaml"], "games": ["shmod"]}
    assert json.loads((workspace.output_dir / STATUS_FILE).read_text(encoding="utf-8"))["error"] is None


@pytest.mark.slow
def test_a_broken_template_names_its_file_and_line_and_leaves_the_faces(tmp_path: Path) -> None:
    from tests.test_incremental import run_build, small_workspace

    root = small_workspace(tmp_path)
    run_build(root)
    faces = {p.name: p.read_bytes() for p in (root / "output" / "faces" / "minibattle").glob("*.png")}
    template = root / "templates" / "minibattle" / "pokemon.toml"
    text = template.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "{{" in row)
    broken = text.splitlines()
    broken[line - 1] = broken[line - 1].replace("}}", "", 1)  # an unclosed {{: a Jinja syntax error
    template.write_text("\n".join(broken) + "\n", encoding="utf-8")
    from carddb.build import build
    from carddb.catalogue.api import open_catalogue

    report = build(Workspace(root), open_catalogue(str(root / "output" / "catalogue.db"), str(root)))
    failure = next(f for f in report.failures if f.startswith("minibattle faces: "))
    assert f"pokemon.toml:{line}:" in failure
    assert {p.name: p.read_bytes() for p in (root / "output" / "faces" / "minibattle").glob("*.png")} == faces
    with pytest.raises(TemplateError):
        from carddb.layout import load_templates

        load_templates(root, open_catalogue(str(root / "output" / "catalogue.db"), str(root)).game("minibattle"))
    shutil.rmtree(root / "output" / "site")  # nothing else to check there
