"""A catalogue shared by several members stays whole: real processes importing and building at the same time,
and processes killed (SIGKILL) in the middle of a write, on each engine (PostgreSQL with CARDDB_TEST_PG)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from carddb.catalogue.api import open_catalogue

from .conftest import REPO, write_cards_csv
from .test_sources import LOAD_ONLY
from .test_writers import holding_the_write_lock, queued_behind_the_lock


def _member(tmp_path: Path, name: str) -> Path:
    """A member's own checkout of the workspace (the same card files as everybody's)."""
    root = tmp_path / name
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod", ignore=shutil.ignore_patterns("decks"))
    return root


def _carddb(root: Path, db: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "carddb.cli.main", "--root", str(root), "--db", db, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _together(db: str, *runs: tuple[Path, list[str]]) -> list[str]:
    """Start every command while holding the write lock, so they all queue for it, then let them race."""
    with holding_the_write_lock(db):
        started = [_carddb(root, db, *args) for root, args in runs]
        queued_behind_the_lock(db, started)
    results = [(run.wait(timeout=120), *run.communicate()) for run in started]
    assert [code for code, _, _ in results] == [0] * len(runs), [err for _, _, err in results]
    return [out for _, out, _ in results]


def _spells(prefix: str, count: int) -> list[str]:
    return [f"{prefix} {n},spell,{n % 9 + 1},{prefix} draws {n}.,base" for n in range(1, count + 1)]


@pytest.mark.slow  # more than a few seconds: `make test` runs it, `make test-fast` not
def test_two_members_import_then_build_and_keep_every_card(empty_db: str, tmp_path: Path) -> None:
    alice, bob = _member(tmp_path, "alice"), _member(tmp_path, "bob")
    open_catalogue(empty_db).engine  # noqa: B018  (a new, empty catalogue: its tables, no game yet)
    alpha = write_cards_csv(tmp_path / "alpha.csv", _spells("Alpha", 40))
    beta = write_cards_csv(tmp_path / "beta.csv", _spells("Beta", 40))
    imports = _together(empty_db, (alice, ["cards", "import", str(alpha), "--game", "shmod"]),
                        (bob, ["cards", "import", str(beta), "--game", "shmod"]))
    assert sorted(out.split(" (", 1)[1] for out in imports) == ["40 new, 0 updated; sets: base).\n"] * 2
    builds = _together(empty_db, (alice, LOAD_ONLY), (bob, LOAD_ONLY))
    firsts = sorted(out.splitlines()[0] for out in builds)
    assert firsts == [  # whichever built second found the first one's load and had nothing to do
        "shmod: loaded 51 cards in 1 set (base): 51 new; the catalogue also holds 80 imported cards",
        "shmod: loaded 51 cards in 1 set (base): nothing changed; the catalogue also holds 80 imported cards"]
    # a build and an import at the same moment: neither loses the other's cards
    gamma = write_cards_csv(tmp_path / "gamma.csv", _spells("Gamma", 10))
    _together(empty_db, (alice, LOAD_ONLY), (bob, ["cards", "import", str(gamma), "--game", "shmod"]))
    catalogue = open_catalogue(empty_db, alice)
    names = [card.name for card in catalogue.cards("shmod")]
    assert len(names) == len(set(names)) == 51 + 90
    sources = catalogue.sources("shmod")
    kinds = sorted({(s.kind, s.name) for s in sources.values()})
    assert kinds == [("import", "alpha.csv"), ("import", "beta.csv"), ("import", "gamma.csv"),
                     ("workspace", "rules/shmod/cards/base.yaml")]


KILL_DURING = """
import os, signal, sys
from carddb.catalogue import store
real = getattr(store, sys.argv[1])
def write_then_die(*args, **kwargs):
    real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)  # kill -9, in the middle of the transaction
setattr(store, sys.argv[1], write_then_die)
from carddb.cli.main import app
app(sys.argv[2:])
"""


@pytest.mark.parametrize(("step", "command"), [("_write_children", "import"), ("delete_cards", "build"),
                                               ("update_cards", "build")])
def test_a_write_killed_halfway_leaves_the_catalogue_as_it_was(empty_db: str, shmod_root: Path, tmp_path: Path,
                                                               step: str, command: str, snapshot) -> None:
    base = shmod_root / "rules" / "shmod" / "cards" / "base.yaml"
    catalogue = open_catalogue(empty_db, shmod_root)
    catalogue.load_workspace_game(catalogue.workspace, "shmod")
    catalogue.import_cards(write_cards_csv(tmp_path / "mine.csv", _spells("Mine", 20)), "shmod")
    text = base.read_text(encoding="utf-8")  # the files change: the next build updates one card, removes one
    text = text.replace('text: "Shuffle your Graveyard into your deck."', 'text: "Shuffle it."')
    start = text.index("  - name: Monster Bash")
    base.write_text(text[:start] + text[text.index("  - name:", start + 5):], encoding="utf-8")
    before = snapshot(empty_db)
    args = (["cards", "import", str(write_cards_csv(tmp_path / "more.csv", _spells("More", 500))), "--game", "shmod"]
            if command == "import" else LOAD_ONLY)
    killed = subprocess.run([sys.executable, "-c", KILL_DURING, step, "--root", str(shmod_root), "--db", empty_db,
                             *args], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert snapshot(empty_db) == before
    # and the next one does it whole
    redo = subprocess.run([sys.executable, "-m", "carddb.cli.main", "--root", str(shmod_root), "--db", empty_db,
                           *args], capture_output=True, text=True, timeout=120)
    assert redo.returncode == 0, redo.stderr
    assert len(open_catalogue(empty_db, shmod_root).cards("shmod")) == (51 + 20 + 500 if command == "import"
                                                                        else 50 + 20)


def test_an_import_killed_at_any_moment_is_all_or_nothing(empty_db: str, shmod_root: Path, tmp_path: Path) -> None:
    catalogue = open_catalogue(empty_db, shmod_root)
    catalogue.load_workspace_game(catalogue.workspace, "shmod")
    big = write_cards_csv(tmp_path / "big.csv", _spells("Big", 3000))
    run = _carddb(shmod_root, empty_db, "cards", "import", str(big), "--game", "shmod")
    time.sleep(float(os.environ.get("CARDDB_TEST_KILL_AFTER", "1.5")))
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=60)
    count = len(catalogue.cards("shmod"))
    assert count in (51, 51 + 3000)
