"""``kill -9`` at each write: the CLI in a subprocess, killed at carddb's own delicate moments (the
``CARDDB_TEST_KILL_AT`` hooks of ``carddb.files.replacing``) and at random points of its run. After each kill
the target must be the old or the new complete version, never missing or half-written; the next run must
finish the job and leave no staging folder or ``.part`` file behind.

Each scenario has its own copy of the workspace; the runs are forks of the test process, which has carddb
imported already, so a run costs only its own work.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from carddb.files.replacing import KILL_AT_ENV, NO_EXCHANGE_ENV, clean_leftovers, new_file_mode
from tests.hostile.conftest import Ledger, Run, in_process, leftovers, subprocess_run, tree

#: Run the CLI in forks of the test process (carddb already imported): a run then costs its work only.
FORK = True


@dataclass
class Scenario:
    name: str
    args: Callable[[Path], list[str]]
    target: Callable[[Path], Path]
    kills: list[dict[str, str]]  # the environment of each killed run (a hook), or {"after": fraction of a run}
    change: Callable[[Path], None]  # makes the runs after the first write something new


@dataclass
class Outcome:
    name: str
    runs: list[Run] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    partial: int = 0
    lost: int = 0
    tried: int = 0


def _snapshot(path: Path) -> object:
    if path.is_dir():  # what a run was writing inside it is a leftover, judged after the next run
        return {name: digest for name, digest in tree(path).items() if ".carddb-" not in name}
    if path.is_file():
        return path.read_bytes()
    return None


def _change_a_card(ws: Path) -> None:
    """A new text for the first card, imported: the catalogue, and so every export of it, changes."""
    path = ws / "attack-change.yaml"
    path.write_text("cards:\n- {name: Blue Unit 1, kind: unit, cost: 2, power: 2, colour: Blue, set: core, "
                    "number: '001', text: 'A changed text.'}\n", encoding="utf-8")
    run = subprocess_run(ws, "cards", "import", str(path), "--game", "mini", fork=FORK)
    assert run.exit_code == 0, run


def _change_the_deck(ws: Path) -> None:
    deck = ws / "deck.txt"
    deck.write_text(deck.read_text(encoding="utf-8").replace("3 Blue Unit 1", "2 Blue Unit 1"), encoding="utf-8")


def _catalogue_cards(ws: Path) -> str:
    return in_process(ws, "cards", "export", "--game", "mini", "--format", "csv").stdout


HOOKS_FOLDER = [{KILL_AT_ENV: "folder-staged"}, {KILL_AT_ENV: "folder-exchanged"},
                {KILL_AT_ENV: "folder-old-moved", NO_EXCHANGE_ENV: "1"}, {"after": "0.8"}]
HOOKS_FILE = [{KILL_AT_ENV: "file-written"}, {"after": "0.7"}]

SCENARIOS = [
    Scenario("export lackey", lambda ws: ["export", "lackey", "--game", "mini", "--out", str(ws / "exp")],
             lambda ws: ws / "exp", HOOKS_FOLDER, _change_a_card),
    Scenario("db dump", lambda ws: ["db", "dump", str(ws / "dump")], lambda ws: ws / "dump", HOOKS_FOLDER,
             _change_a_card),
    Scenario("site build", lambda ws: ["site", "build", "--out", str(ws / "site-out")], lambda ws: ws / "site-out",
             [{KILL_AT_ENV: "folder-exchanged"}, {KILL_AT_ENV: "folder-old-moved", NO_EXCHANGE_ENV: "1"},
              {"after": "0.9"}], _change_a_card),
    Scenario("deck convert --out", lambda ws: ["deck", "convert", str(ws / "deck.txt"), "--game", "mini", "--to",
                                               "lackey", "--out", str(ws / "keep.dek")],
             lambda ws: ws / "keep.dek", HOOKS_FILE, _change_the_deck),
    Scenario("cards export --out", lambda ws: ["cards", "export", "--game", "mini", "--out", str(ws / "cards.yaml")],
             lambda ws: ws / "cards.yaml", HOOKS_FILE, _change_a_card),
    Scenario("print", lambda ws: ["print", "--game", "mini", "--out", str(ws / "sheets.pdf")],
             lambda ws: ws / "sheets.pdf", HOOKS_FILE, _change_a_card),
    Scenario("render", lambda ws: ["render", "--game", "mini", "--out", str(ws / "faces")],
             lambda ws: ws / "faces" / "mini", [{KILL_AT_ENV: "file-written:1"}, {KILL_AT_ENV: "file-written:2"}],
             _change_a_card),
]


def _run_scenario(scenario: Scenario, base: Path, seed: int) -> Outcome:
    """First a complete run (the old version); then the input changes, once; then the killed runs, each
    leaving a state to judge; then a complete run writes the new version, the one every killed run was
    writing. Every state seen must be the old version or that new one."""
    ws = base / scenario.name.replace(" ", "-").replace("/", "")
    shutil.copytree(base / "pristine", ws, symlinks=True)
    shutil.copy(ws / "rules" / "mini" / "decks" / "legal-starter.txt", ws / "deck.txt")
    outcome = Outcome(scenario.name)
    target = scenario.target(ws)
    first = subprocess_run(ws, *scenario.args(ws), fork=FORK)
    outcome.runs.append(first)
    if first.exit_code != 0:
        outcome.problems.append(f"the first run failed: {first.stderr}")
        return outcome
    old = _snapshot(target)
    scenario.change(ws)
    rng = random.Random(seed)
    seen: list[tuple[dict[str, str], object]] = []
    for kill in scenario.kills:
        env = {k: v for k, v in kill.items() if k != "after"}
        after = float(kill["after"]) * first.seconds * rng.uniform(0.8, 1.2) if "after" in kill else None
        run = subprocess_run(ws, *scenario.args(ws), env=env, kill_after=after, fork=FORK)
        outcome.runs.append(run)
        outcome.tried += 1
        if run.exit_code not in (0, -signal.SIGKILL):
            outcome.problems.append(f"killed run {kill} ended {run.exit_code}: {run.stderr[-500:]}")
        if not target.exists() and kill.get(NO_EXCHANGE_ENV):
            # Killed between the portable path's two renames: the old copy waits beside the target; the next
            # run writing there (or a restore reading it) puts it back before anything else.
            if scenario.name == "db dump":
                restored = subprocess_run(ws, "db", "restore", str(target), db=ws / "recovered.db", fork=FORK)
                if restored.exit_code != 0:
                    outcome.problems.append(f"restore did not recover the dump: {restored.stderr}")
            else:
                clean_leftovers(target.parent)
        seen.append((kill, _snapshot(target)))
    final = subprocess_run(ws, *scenario.args(ws), fork=FORK)
    outcome.runs.append(final)
    if final.exit_code != 0:
        outcome.problems.append(f"the run after the kills failed: {final.stderr}")
    new = _snapshot(target)
    for kill, now in seen:
        _judge(outcome, scenario, kill, old, new, now)
    left = leftovers(target.parent) + (leftovers(target) if target.is_dir() else [])
    if left:
        outcome.problems.append(f"leftovers after the next run: {left}")
    return outcome


def _judge(outcome: Outcome, scenario: Scenario, kill: dict[str, str], old: object, new: object,
           now: object) -> None:
    if now is None:
        outcome.lost += 1
        outcome.problems.append(f"{kill}: the target is missing")
    elif scenario.name == "render" and isinstance(now, dict) and isinstance(old, dict) and isinstance(new, dict):
        # Faces are files of their own: each is its old face or its new one, whole.
        broken = [name for name, digest in now.items() if digest not in (old.get(name), new.get(name))]
        if broken:
            outcome.partial += 1
            outcome.problems.append(f"{kill}: faces neither old nor new: {broken[:5]}")
    elif now not in (old, new):
        outcome.partial += 1
        if isinstance(now, dict) and isinstance(new, dict) and isinstance(old, dict):
            differ = sorted(k for k in set(now) | set(new) if now.get(k) not in (old.get(k), new.get(k)))[:5]
        else:
            differ = "its bytes"
        outcome.problems.append(f"{kill}: neither the old nor the new version ({differ})")


@pytest.fixture(scope="module")
def outcomes(hostile_ws: Path, tmp_path_factory: pytest.TempPathFactory, ledger: Ledger) -> dict[str, Outcome]:
    base = tmp_path_factory.mktemp("faults")
    shutil.copytree(hostile_ws, base / "pristine", symlinks=True)
    results = [_run_scenario(scenario, base, seed) for seed, scenario in enumerate(SCENARIOS)]
    for outcome in results:
        ledger.tried(f"kill -9: {outcome.name}", outcome.tried)
        for run in outcome.runs:
            if run.traceback:
                ledger.fail("tracebacks", f"{outcome.name}: {run.args}")
        if outcome.partial:
            ledger.fail("partial writes", f"{outcome.name} x{outcome.partial}")
        if outcome.lost:
            ledger.fail("data lost", f"{outcome.name} x{outcome.lost}")
    return {outcome.name: outcome for outcome in results}


@pytest.mark.slow
@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_a_kill_leaves_the_old_or_the_new_version_and_the_next_run_cleans_up(outcomes: dict[str, Outcome],
                                                                              name: str) -> None:
    outcome = outcomes[name]
    assert not outcome.problems, outcome.problems
    assert outcome.tried >= 2
    assert not any(run.traceback for run in outcome.runs)


@pytest.mark.slow
def test_a_killed_import_leaves_the_catalogue_as_it_was_or_with_every_card(ws_copy: Path, ledger: Ledger) -> None:
    """An import is one transaction: killed at any moment, the catalogue holds none of the file or all of it."""
    lines = "".join(f"- {{name: Card {i}, kind: unit, cost: 1, power: 1, colour: Red, set: core, text: 'Card "
                    f"number {i} of many.'}}\n" for i in range(1000))
    big = ws_copy / "big.yaml"
    big.write_text("cards:\n" + lines, encoding="utf-8")
    before = _catalogue_cards(ws_copy)
    timed = subprocess_run(ws_copy, "cards", "import", str(big), "--game", "mini", db=ws_copy / "timing.db",
                           fork=FORK)
    states = set()
    for fraction in (0.6, 0.9):
        run = subprocess_run(ws_copy, "cards", "import", str(big), "--game", "mini",
                             kill_after=fraction * timed.seconds, fork=FORK)
        ledger.tried("kill -9: cards import")
        assert not run.traceback, run
        now = _catalogue_cards(ws_copy)
        assert now == before or now.count("\n") == before.count("\n") + 1000, "a half-imported catalogue"
        states.add(now == before)
        if now != before:
            break
    final = subprocess_run(ws_copy, "cards", "import", str(big), "--game", "mini", fork=FORK)
    assert final.exit_code == 0 and _catalogue_cards(ws_copy).count("\n") == before.count("\n") + 1000
    assert leftovers(ws_copy / "output") == []


def test_what_carddb_writes_gets_the_umask_modes(ws_copy: Path, tmp_path: Path) -> None:
    """0644 files and 0755 folders under umask 022 (a web server running as another user can read them),
    never the private 0600/0700 of a temporary file."""
    file_mode, folder_mode = new_file_mode(), _folder_mode()
    out = tmp_path / "out"
    (out / "site").mkdir(parents=True)  # what an earlier carddb left: a private site and a private deck file
    (out / "site" / "index.html").write_text("old", encoding="utf-8")
    (out / "site").chmod(0o700)
    (out / "deck.dec").write_text("old", encoding="utf-8")
    (out / "deck.dec").chmod(0o600)
    runs = [in_process(ws_copy, "export", "lackey", "--game", "mini", "--out", str(out / "lackey")),
            in_process(ws_copy, "db", "dump", str(out / "dump")),
            in_process(ws_copy, "cards", "export", "--game", "mini", "--out", str(out / "cards.yaml")),
            in_process(ws_copy, "deck", "convert", str(ws_copy / "rules/mini/decks/legal-starter.txt"), "--game",
                       "mini", "--to", "apprentice", "--out", str(out / "deck.dec")),
            in_process(ws_copy, "print", "--game", "mini", "--out", str(out / "sheets.pdf")),
            in_process(ws_copy, "site", "build", "--out", str(out / "site"))]
    assert all(run.exit_code == 0 for run in runs), [run.stderr for run in runs]
    for path in [out / "lackey", out / "dump", out / "site", *(p for p in out.rglob("*") if p.is_dir())]:
        assert path.stat().st_mode & 0o777 == folder_mode, path
    for path in [out / "cards.yaml", out / "deck.dec", out / "sheets.pdf", out / "dump" / "manifest.json",
                 out / "site" / "index.html"]:
        assert path.stat().st_mode & 0o777 == file_mode, path


def _folder_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask
