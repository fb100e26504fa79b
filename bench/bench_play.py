"""Play helpers benchmark: milliseconds per answer in process for each helper's example, and
``carddb play ssbm damage`` as a whole process.

Run: ``.venv/bin/python bench/bench_play.py [--seconds S]``. Prints each helper's time and its ratio to the site
checker's budget of 20 ms a check (design.md), which the page's answers share; the helpers read the starter
catalogues from the workspace files (no database).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from carddb.catalogue.game_cards import from_workspace  # noqa: E402
from carddb.rules.play import answer  # noqa: E402
from carddb.workspace import Workspace  # noqa: E402
from tests.play_examples import EXAMPLES  # noqa: E402

BUDGET_MS = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="Time spent on each helper.")
    args = parser.parse_args()
    games = {e.game: from_workspace(Workspace(REPO), e.game) for e in EXAMPLES}
    print(f"{'helper':24} {'ms':>8} {'of 20 ms':>9}")
    for example in EXAMPLES:
        game, cards = games[example.game]
        answer(game, cards, example.helper, example.request)  # the card index, built once per game
        started, runs = time.perf_counter(), 0
        while time.perf_counter() - started < args.seconds:
            answer(game, cards, example.helper, example.request)
            runs += 1
        ms = 1000 * (time.perf_counter() - started) / runs
        print(f"{example.id:24} {ms:8.3f} {ms / BUDGET_MS:9.3f}")
    command = [str(REPO / ".venv" / "bin" / "carddb"), "--root", str(REPO), "play", "ssbm", "damage", "Ganondorf",
               "Set-Up Attack"]
    times = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(1000 * (time.perf_counter() - started))
    print(f"carddb play ssbm damage as a process: median {statistics.median(times):.0f} ms of 5 runs")


if __name__ == "__main__":
    main()
