"""Play helpers benchmark: milliseconds per answer in process for each helper's example, and
``carddb play ssbm damage`` as a whole process.

Run: ``.venv/bin/python bench/bench_play.py [--seconds S]``. Prints each helper's time and its ratio to the site
checker's budget of 20 ms a check (design.md), which the page's answers share, then the playtest table's deal
against the 50 ms a draw may take; the helpers read the starter catalogues from the workspace files (no
database).
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
from carddb.core.play.helpers import answer  # noqa: E402
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
    playtest(args.seconds)


#: A sample deck of each deck game, for the playtest table: a deal against the 50 ms a draw may take (issue 26).
PLAYTEST_DECKS = {"minibattle": "legal-charizard-line.txt", "shmod": "legal-fire-water-fusion.txt",
                  "website": "legal-alans-site.txt", "ssbm": "legal-ness-80-cards.txt"}
DRAW_BUDGET_MS = 50.0


def playtest(seconds: float) -> None:
    """The playtest table's work in process: one deal as the rulebook starts a game, and every card's odds."""
    import random

    from carddb.core.decks.parse import parse_deck
    from carddb.core.play.playtest import deal, library, odds_for

    print(f"{'playtest deck':24} {'deal ms':>8} {'of 50 ms':>9} {'odds ms':>8}")
    for game_id, name in PLAYTEST_DECKS.items():
        game, cards = from_workspace(Workspace(REPO), game_id)
        text = (REPO / "rules" / game_id / "decks" / name).read_text(encoding="utf-8")
        lib = library(parse_deck(text, game, name), game, cards)
        rng, started, runs = random.Random(1), time.perf_counter(), 0
        while time.perf_counter() - started < seconds:
            deal(lib, rng)
            runs += 1
        deal_ms = 1000 * (time.perf_counter() - started) / runs
        started = time.perf_counter()
        odds_for(lib, by_turn=3)
        odds_ms = 1000 * (time.perf_counter() - started)
        print(f"{game_id:24} {deal_ms:8.3f} {deal_ms / DRAW_BUDGET_MS:9.4f} {odds_ms:8.1f}")


if __name__ == "__main__":
    main()
