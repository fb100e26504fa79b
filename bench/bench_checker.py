"""Deck checker benchmark: checks per second in process, and ``carddb deck check`` as a whole process.

Run: ``.venv/bin/python bench/bench_checker.py [--runs N]``. Prints figures and the ratio to the design's
targets (at least 10,000 checks a second of a 60-card deck in process; under 200 ms median for the command).
Uses the ssbm and website starter catalogues and a catalogue built in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from carddb.catalogue.game_cards import from_workspace as _from_workspace  # noqa: E402
from carddb.core.checker.check import check_deck  # noqa: E402
from carddb.core.decks.parse import parse_deck  # noqa: E402
from carddb.workspace import Workspace  # noqa: E402

TARGET_CHECKS = 10_000
TARGET_MS = 200.0
DECKS = {"ssbm": REPO / "rules/ssbm/decks/legal-mario-power-block.txt",
         "website": REPO / "rules/website/decks/legal-alans-site.txt"}


def in_process(game_id: str, deck_file: Path, seconds: float = 2.0) -> tuple[float, float, int]:
    game, cards = _from_workspace(Workspace(REPO), game_id, None)
    text = deck_file.read_text(encoding="utf-8")
    deck = parse_deck(text, game)
    check_deck(deck, game, cards)  # builds and caches the card index once
    # CPU time of this process (time.process_time), so other work on a shared machine does not count.
    checks, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        for _ in range(200):
            check_deck(deck, game, cards)
        checks += 200
    check_rate = checks / (time.process_time() - started)
    parses, started = 0, time.process_time()
    while time.process_time() - started < seconds / 2:
        for _ in range(100):
            check_deck(parse_deck(text, game), game, cards)
        parses += 100
    return check_rate, parses / (time.process_time() - started), deck.total


def whole_process(runs: int) -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "catalogue.db")
        from carddb.catalogue.api import open_catalogue

        catalogue = open_catalogue(db)
        catalogue.load_workspace_game(Workspace(REPO), "ssbm")
        catalogue.engine.dispose()
        command = [str(Path(sys.executable).parent / "carddb"), "--root", str(REPO), "--db", db, "deck", "check",
                   str(DECKS["ssbm"]), "--game", "ssbm"]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "0"}
        subprocess.run(command, capture_output=True, check=False, env=env)  # warm: .pyc files and the OS file cache
        times, cpu = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, check=False, env=env)
            times.append((time.perf_counter() - started) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
            if done.returncode != 0:
                raise SystemExit(f"deck check failed: {done.stdout.decode()} {done.stderr.decode()}")
        return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="whole-process runs (median reported)")
    args = parser.parse_args()
    print("In process, per CPU second (check_deck on a parsed deck; then parse + check):")
    for game_id, path in DECKS.items():
        rate, with_parse, cards = in_process(game_id, path)
        print(f"  {game_id:<8} {cards:>3}-card deck: {rate:>9,.0f} checks/s  ({rate / TARGET_CHECKS:.2f}x the "
              f"10,000/s target); parse+check {with_parse:,.0f}/s")
    times, cpu = whole_process(args.runs)
    median = statistics.median(times)
    print(f"Whole process: carddb deck check (ssbm, read with sqlite3), {args.runs} runs: median {median:.0f} ms,"
          f" min {min(times):.0f} ms, max {max(times):.0f} ms  ({TARGET_MS / median:.2f}x the 200 ms target; "
          f"{'met' if median < TARGET_MS else 'NOT met'})")
    print(f"  CPU time (user + system) per run: median {statistics.median(cpu):.0f} ms; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall time grows with other work on the machine)")


if __name__ == "__main__":
    main()
