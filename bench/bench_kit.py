"""Print-and-play kit benchmark: ``carddb kit`` for each game as a user runs it (a whole process), against the
target of design.md: a whole kit for one game under 10 s. Prints CPU seconds (user + sys of the process: the kit
runs on one core, so this is its wall time on an idle machine, and steadier than wall time on a shared one), wall
seconds, pages and size, and where in-process time goes, step by step.

Run: .venv/bin/python bench/bench_kit.py [--game ssbm] [--paper Letter] [--booklet] [--runs 3]
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GAMES = ("ssbm", "shmod", "ssq", "minibattle", "website")
TARGET_SECONDS = 10.0


def run_once(game: str, paper: str, booklet: bool, out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``carddb kit`` process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # a user's Python caches bytecode
    command = [sys.executable, "-m", "carddb", "--root", str(REPO), "--db", str(out / "none.db"), "--quiet", "kit",
               "--game", game, "--out", str(out), "--paper", paper, *(["--booklet"] if booklet else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def parts(game: str, paper: str, booklet: bool, out: Path) -> list[tuple[str, float]]:
    """In-process CPU seconds of each step of one kit (the progress callback marks where each step starts;
    "start" is reading the game, its cards and its decks)."""
    from carddb.kit.make import KitOptions, kit_of_game

    marks: list[tuple[str, float]] = [("start", time.process_time())]
    kit_of_game(REPO, game, out, KitOptions(paper=paper, booklet=booklet), db=str(out / "none.db"),
                progress=lambda step: marks.append((step, time.process_time())))
    marks.append(("end", time.process_time()))
    return [(name, later - at) for (name, at), (_, later) in itertools.pairwise(marks)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all five)")
    parser.add_argument("--paper", default="A4")
    parser.add_argument("--booklet", action="store_true")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    print(f"carddb kit, {args.paper}{', booklet' if args.booklet else ''}; target: under {TARGET_SECONDS:g} s a "
          f"kit; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for game in args.game or GAMES:
        with tempfile.TemporaryDirectory(prefix="carddb-bench-kit-") as folder:
            out = Path(folder)
            runs = [run_once(game, args.paper, args.booklet, out) for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            kit = out / f"{game}-kit.pdf"
            from pypdf import PdfReader

            pages = len(PdfReader(kit).pages)
            size = kit.stat().st_size / 1_048_576
            steps = parts(game, args.paper, args.booklet, out / "again")
        # The kit runs in one process on one core: its CPU time is its wall time on an idle machine.
        print(f"{game:11s} CPU {cpu:5.2f} s ({cpu / TARGET_SECONDS:.2f} of the target, "
              f"{'ok' if cpu < TARGET_SECONDS else 'OVER'})  wall {wall:5.2f} s ({wall / TARGET_SECONDS:.2f}, "
              f"{'ok' if wall < TARGET_SECONDS else 'OVER'})  {pages} pages, {size:.1f} MB")
        print("            in process: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in steps))


if __name__ == "__main__":
    main()
