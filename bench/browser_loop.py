"""The browser tests run again and again beside a process that keeps one core busy (issue 35): a test that waits on
time instead of on the page's own state fails here first, since every step of the page and of the server takes
longer than on a quiet machine.

    .venv/bin/python bench/browser_loop.py [--runs 10] [--burners 1] [--workers auto] [--log FILE] [TEST_FILE ...]

Each run is ``pytest -m browser`` as ``make test`` runs it (the same workers and module order); the burners spin
from the first run to the last. Prints, run by run, the tests passed and failed, the seconds it took and the load
when it ended, then how many runs passed whole; the failures' names and pytest's output of a failed run are kept
in ``--log`` (default: a file in the temporary folder, named at the end). Passes or fails nothing itself; its exit
status is 1 when a run failed, so that it can be run before a change to the browser tests lands.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|errors?)")


def burn() -> None:  # pragma: no cover - runs in a process of its own until it is terminated
    while True:
        pass


def run_once(workers: str, paths: list[str]) -> tuple[dict[str, int], list[str], str, float]:
    """One run of the browser tests (of ``paths`` only, when given): the counts of its summary line, the failed
    tests, its output, its seconds."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-m", "browser", "-n", workers, "--dist", "loadscope",
                           "--no-loadscope-reorder", "-p", "no:cacheprovider", "--durations=0", *paths],
                          cwd=ROOT, capture_output=True, text=True)
    output = done.stdout + done.stderr
    counts = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0}
    last = next((line for line in reversed(output.splitlines()) if " in " in line and "passed" in line), "")
    for number, word in SUMMARY.findall(last):
        counts["errors" if word.startswith("error") else word] = int(number)
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in output.splitlines()
              if line.startswith(("FAILED ", "ERROR "))]
    if done.returncode != 0 and not failed:
        failed = [f"pytest exited with {done.returncode}"]
    return counts, failed, output, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--burners", type=int, default=1, help="processes that keep a core busy (default 1)")
    parser.add_argument("--workers", default="auto", help="pytest-xdist workers, as make test's WORKERS")
    parser.add_argument("--log", type=Path, default=None, help="where pytest's output of a failed run is kept")
    parser.add_argument("paths", nargs="*", help="test files to run (default: every browser test)")
    options = parser.parse_args()
    log = options.log or Path(tempfile.gettempdir()) / f"carddb-browser-loop-{os.getpid()}.log"
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(options.burners)]
    for burner in burners:
        burner.start()
    whole = 0
    print(f"{options.runs} runs of the browser tests, {options.workers} workers, beside {options.burners} "
          f"burning process(es), on {os.cpu_count()} cores", flush=True)
    try:
        with log.open("w", encoding="utf-8") as kept:
            for run in range(1, options.runs + 1):
                counts, failed, output, seconds = run_once(options.workers, options.paths)
                whole += not failed
                load = os.getloadavg()[0]
                print(f"run {run:2d}: {counts['passed']} passed, {counts['failed']} failed, {counts['errors']} "
                      f"errors, {counts['skipped']} skipped in {seconds:.0f} s (load {load:.1f})", flush=True)
                for name in failed:
                    print(f"    FAILED {name}", flush=True)
                if failed:
                    kept.write(f"===== run {run}\n{output}\n")
    finally:
        for burner in burners:
            burner.terminate()
    print(f"{whole} of {options.runs} runs passed whole" + ("" if whole == options.runs else f"; see {log}"))
    return 0 if whole == options.runs else 1


if __name__ == "__main__":
    sys.exit(main())
