"""How fast the commands that only read start and answer, as whole processes, beside ``sqlite-utils`` in the
same run (issues 24 and 36: the command line on Typer must stay as fast):

- every read command at most 1.2 times ``sqlite-utils query`` (the cards ``cards search limited --game shmod``
  finds, read by sqlite-utils from the same catalogue file); ``carddb --help`` and ``carddb cards search --help``
  at most 1.2 times ``sqlite-utils --help`` and ``sqlite-utils query --help`` (sqlite-utils is a Click program);
- ``deck check`` at most 0.2 s, the whole process.

    .venv/bin/python bench/bench_cli.py [--repeat 15]

Each command runs ``--repeat`` times after one warm-up run, with Python's bytecode cache on
(PYTHONDONTWRITEBYTECODE unset in the children); the figure is the median wall time. The catalogue is made
once in a temporary folder from the repository's games. Ratios (of wall times) against sqlite-utils in the same
run keep the figures comparable on a loaded machine; the bounds in seconds are judged on the process's CPU time
(user + system), which a machine shared with other work inflates far less than wall time (both are printed).
It prints a verdict per target; like the other benches it passes or fails nothing (make bench runs them all).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "rules" / "ssbm" / "decks" / "legal-mario-power-block.txt"
#: The rows of ``cards search limited --game shmod``: shmod's cards whose ``limited`` flag is set.
SAME_ROWS_SQL = ("SELECT c.name, c.kind, c.fields FROM card c WHERE c.game_id = 'shmod' AND c.id IN "
                 "(SELECT card_id FROM card_field WHERE key = 'limited' AND num = 1) ORDER BY c.position, c.id")
#: The read commands (after ``carddb --root R --db D``), each with the sqlite-utils command it is measured against
#: (its arguments after ``sqlite-utils``; "query" is the query of the same rows) and its own bound in seconds, if any.
READ_COMMANDS: list[tuple[list[str], str, float | None]] = [
    (["cards", "search", "limited", "--game", "shmod"], "query", None),
    (["cards", "show", "Power Block", "--game", "ssbm"], "query", None),
    (["deck", "check", str(DECK), "--game", "ssbm"], "query", 0.2),
    (["collection", "show", "bench", "--game", "ssbm"], "query", None),
    (["db", "status"], "query", None),
    (["play", "shmod", "battle", "Night Reaver", "Coral Warden"], "query", None),
    (["play", "ssbm", "chain", "Link=Smash Attack", "Mario=Jump", "Mario=Dodge: Air"], "query", None),
    (["ssq", "initiative", "Pikachu=5", "Bowser=3"], "query", None),
    (["roll", "7d10", "--seed", "1"], "query", None),
    (["--help"], "--help", None),
    (["cards", "search", "--help"], "query --help", None),
]
RATIO_TARGET = 1.2


def child_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("CARDDB_DB", None)
    return env


def median_seconds(argv: list[str], repeat: int, env: dict[str, str]) -> tuple[float, float]:
    """The median wall time and the median CPU time (user + system) of ``argv`` as a whole process."""
    subprocess.run(argv, env=env, capture_output=True, check=False)  # warm-up: bytecode cache, disk cache
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, check=False)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-400:]}")
    return statistics.median(walls), statistics.median(cpus)


def sqlite_utils() -> str:
    beside = Path(sys.executable).with_name("sqlite-utils")
    found = str(beside) if beside.exists() else shutil.which("sqlite-utils")
    if found is None:
        raise SystemExit("sqlite-utils is not installed: pip install -e '.[dev]'")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    env = child_env()
    carddb = [sys.executable, "-m", "carddb"]
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "catalogue.db")
        prefix = [*carddb, "--root", str(ROOT), "--db", db]
        for setup in (["init"], ["collection", "add", "bench", "Power Block", "--game", "ssbm", "--count", "3"]):
            subprocess.run([*prefix, *setup], env=env, capture_output=True, check=True)
        baselines = {"query": median_seconds([sqlite_utils(), "query", db, SAME_ROWS_SQL], args.repeat, env),
                     "--help": median_seconds([sqlite_utils(), "--help"], args.repeat, env),
                     "query --help": median_seconds([sqlite_utils(), "query", "--help"], args.repeat, env)}
        for name, (wall, cpu) in baselines.items():
            shown = "query (the rows of 'cards search limited --game shmod')" if name == "query" else name
            print(f"sqlite-utils {shown}: {wall:.3f} s wall, {cpu:.3f} s CPU")
        python, python_cpu = median_seconds([sys.executable, "-c", "import sqlite3"], args.repeat, env)
        print(f"python -c 'import sqlite3': {python:.3f} s wall, {python_cpu:.3f} s CPU\n")
        print(f"{'command':<52} {'wall':>7} {'CPU':>7} {'ratio':>6} {'CPU':>6}  target (ratio: wall; seconds: CPU)")
        missed = 0
        for command, against, bound in READ_COMMANDS:
            seconds, cpu = median_seconds([*prefix, *command], args.repeat, env)
            baseline, baseline_cpu = baselines[against]
            ratio = seconds / baseline
            ok = ratio <= RATIO_TARGET and (bound is None or cpu <= bound)
            missed += not ok
            target = f"<= {RATIO_TARGET}x sqlite-utils {against}" + (f", <= {bound} s" if bound else "")
            shown = " ".join(f"'{word}'" if " " in word else word for word in command).replace(str(ROOT) + "/", "")
            print(f"carddb {shown[:45]:<45} {seconds:>6.3f}s {cpu:>6.3f}s {ratio:>5.2f}x {cpu / baseline_cpu:>5.2f}x  "
                  f"{target}: {'ok' if ok else 'MISSED'}")
    print(f"\n{len(READ_COMMANDS) - missed} of {len(READ_COMMANDS)} read commands within their targets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
