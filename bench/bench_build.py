"""The incremental build (issues 14 and 22), on a copy of this workspace's five games, `carddb` run as a user runs it:

- a build from nothing (the reference: what every build cost before it was incremental);
- `carddb build` with nothing changed;
- one card's text changed in rules/shmod/cards/base.yaml, every output brought up to date;
- one card added to rules/shmod/cards/base.yaml, and the same card deleted (with the site pages each built, from the
  build's own summary: at most 10);
- one template changed (templates/shmod/spell.toml, one kind of one game);
- `carddb site serve` running: a card file saved, until the open card page in Chromium shows the new text; and the
  same with `site serve --skip sheets --skip kit` (the PDFs left out of every build).

Targets (issues 22 and 34; design.md "Performance targets"): nothing changed under 0.5 s; one card's text changed,
every output updated, under 2 s and under 0.03x the build from nothing; one card added or deleted under 3 s with at
most 10 site pages built; one template changed under 3 s; saved card to page under 2 s. The generated game of
5,000 cards (the table's last two rows) is bench/bench_scale.py's.

    .venv/bin/python bench/bench_build.py [--runs 3]

Prints wall and CPU times (medians; a build's CPU time includes its drawing workers'), each against its target
(the ratio: under 1.00x meets it) and against the build from nothing, and the machine's load; passes or fails nothing.
carddb runs with its bytecode cached (in the temporary folder), as an installed carddb does: a machine that sets
PYTHONDONTWRITEBYTECODE would otherwise compile every module on every run.
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDDB = [sys.executable, "-m", "carddb"]
CARD_FILE = Path("rules/shmod/cards/base.yaml")
CARD_TEXT = "Shuffle your Graveyard into your deck."
TEMPLATE = Path("templates/shmod/spell.toml")
CHROMIUM = "/usr/bin/chromium"


def copy_workspace(into: Path) -> Path:
    for name in ("rules", "templates", "docs", "site"):
        shutil.copytree(ROOT / name, into / name, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    (into / "site" / "node_modules").symlink_to(ROOT / "site" / "node_modules", target_is_directory=True)
    return into


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float  # of the build process and the workers it waited for (os.wait4)


def timed_build(root: Path) -> Timing:
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen([*CARDDB, "--root", str(root), "-q", "build"], stdout=subprocess.DEVNULL,
                                   stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            err.seek(0)
            raise SystemExit(f"carddb build failed:\n{err.read().decode(errors='replace')}")
    return Timing(seconds, usage.ru_utime + usage.ru_stime)


def redone(root: Path, explained: list[str] | None = None) -> str:
    """The build's summary line (what it redid); ``explained`` gets its ``--explain`` lines of the site."""
    done = subprocess.run([*CARDDB, "--root", str(root), "build", "--explain"], capture_output=True, text=True)
    if explained is not None:
        explained += [line for line in done.stdout.splitlines() if line.startswith("site: ") and " redone (" in line]
    return next((line for line in done.stdout.splitlines() if line.startswith(("Redone", "Everything"))), "")


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


ADDED_CARD = """  - name: Bench Hound {run}
    kind: monster
    number: "M9{run}"
    type: FIRE
    atk: 2
    def: 1
    level: 1
    categories: [Beast]
"""


def card_adds_and_deletes(root: Path, runs: int, explained: list[str]) -> tuple[list[Timing], list[Timing],
                                                                                  list[str]]:
    """Each run: a card appended to the card file and built, then deleted and built; the site's share of each
    (``site (4 of 310 pages built)``) from the last build's summary, and in ``explained`` the site's pages named by
    ``carddb build --explain`` for one more card added, then deleted."""
    path = root / CARD_FILE
    added, deleted, pages = [], [], []
    for run in range(runs):
        before = path.read_text(encoding="utf-8")
        path.write_text(before + ADDED_CARD.format(run=run), encoding="utf-8")
        added.append(timed_build(root))
        path.write_text(before, encoding="utf-8")
        deleted.append(timed_build(root))
    path.write_text(before + ADDED_CARD.format(run=runs), encoding="utf-8")
    explained.append("card added:")
    pages.append(site_pages(redone(root, explained)))
    path.write_text(before, encoding="utf-8")
    explained.append("card deleted:")
    pages.append(site_pages(redone(root, explained)))
    return added, deleted, pages


def site_pages(summary: str) -> str:
    found = re.search(r"site \(([^)]*)\)", summary)
    return found.group(1) if found else ("site up to date" if summary else "?")


def card_edits(root: Path, runs: int) -> list[Timing]:
    times = []
    for run in range(runs):
        replace_in(root / CARD_FILE, CARD_TEXT if run == 0 else f"{CARD_TEXT[:-1]} ({run}).",
                   f"{CARD_TEXT[:-1]} ({run + 1}).")
        times.append(timed_build(root))
    return times


def template_edits(root: Path, runs: int) -> list[Timing]:
    path = root / TEMPLATE
    colours = re.findall(r'background = "(#[0-9a-fA-F]{6})"', path.read_text(encoding="utf-8"))
    if not colours:
        raise SystemExit(f"{path} has no background colour to change")
    times = []
    current = colours[0]
    for run in range(runs):
        changed = f"#{(int(current[1:], 16) ^ (run + 1)):06x}"
        replace_in(path, f'background = "{current}"', f'background = "{changed}"')
        current = changed
        times.append(timed_build(root))
    return times


def save_to_page(root: Path, runs: int, skip: tuple[str, ...] = ()) -> list[float]:
    """Seconds from writing the card file to the open page showing its new text, with `site serve` watching (less
    the steps in ``skip``: `site serve --skip`)."""
    if not Path(CHROMIUM).exists():
        print(f"  (no {CHROMIUM}: the watch figure is not measured)")
        return []
    from playwright.sync_api import sync_playwright

    process = subprocess.Popen([*CARDDB, "--root", str(root), "site", "serve", "--port", "0",
                                *(option for step in skip for option in ("--skip", step))],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = None
    while url is None:
        line = process.stdout.readline()  # type: ignore[union-attr]
        if not line:
            raise SystemExit("site serve stopped before serving")
        found = re.match(r"Serving on (\S+)", line)
        url = found.group(1) if found else None
    built = queue.Queue()  # the server's "Built ..." lines, read by a thread so that its pipe never fills
    threading.Thread(target=lambda: [built.put(line) for line in process.stdout if line.startswith("Built ")],  # type: ignore[union-attr]
                     daemon=True).start()
    times = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])
            page = browser.new_page()
            page.goto(url + "games/shmod/cards/replenish/")
            page.wait_for_timeout(1000)
            for run in range(runs):
                text = (root / CARD_FILE).read_text(encoding="utf-8")
                current = re.search(r"Shuffle your Graveyard into your deck[^\"]*", text).group(0)  # type: ignore[union-attr]
                less = f" less {', '.join(skip)}" if skip else ""
                wanted = f"Shuffle your Graveyard into your deck (watched {run}{less})."
                temp = (root / CARD_FILE).with_name(".base.yaml.swp")
                temp.write_text(text.replace(current, wanted, 1), encoding="utf-8")
                started = time.perf_counter()
                os.replace(temp, root / CARD_FILE)  # saved as an editor saves
                deadline = started + 60
                while time.perf_counter() < deadline:
                    try:
                        if wanted in page.inner_text("article", timeout=1000):
                            break
                    except Exception:  # reloading
                        pass
                    page.wait_for_timeout(10)
                times.append(time.perf_counter() - started)
                built.get(timeout=120)  # the rest of its build (exports, the site again): the next save waits
            browser.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a busy machine: still rebuilding; the figures are taken already
            process.kill()
            process.wait()
    return times


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at start: {load()} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="bench-build-") as folder:
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        root = copy_workspace(Path(folder) / "workspace")
        clean = timed_build(root)
        print(f"build from nothing (the reference)     {clean.wall:6.2f} s wall, {clean.cpu:6.2f} s CPU   "
              f"(load {load()})")
        nothing = [timed_build(root) for _ in range(args.runs)]
        card = card_edits(root, args.runs)
        replace_in(root / CARD_FILE, f"deck ({args.runs}).", f"deck ({args.runs + 1}).")  # one more edit, told
        print("  what one card redoes: " + redone(root))
        explained: list[str] = []
        added, deleted, pages = card_adds_and_deletes(root, args.runs, explained)
        print(f"  site pages built: card added {pages[0]}; card deleted {pages[1]} (target at most 10 pages)")
        print("  `carddb build --explain`, the site's lines:\n" + "\n".join(f"    {line}" for line in explained))
        template = template_edits(root, args.runs)
        rows = [("nothing changed", nothing, 0.5), ("one card's text changed", card, 2.0),
                ("one card added", added, 3.0), ("one card deleted", deleted, 3.0),
                ("one template changed (shmod spell)", template, 3.0)]
        print(f"{'work (five games)':<38} {'wall':>8} {'CPU':>8}  {'target':>7}  wall/target  of the cold build "
              "(wall / CPU)")
        for label, times, target in rows:
            wall = statistics.median(t.wall for t in times)
            cpu = statistics.median(t.cpu for t in times)
            print(f"{label:<38} {wall:6.2f} s {cpu:6.2f} s  {target:5.1f} s  {wall / target:9.2f}x  "
                  f"{wall / clean.wall:6.3f}x / {cpu / clean.cpu:6.3f}x   (runs "
                  f"{', '.join(f'{t.wall:.2f}' for t in times)})")
        print("  (target for one card's text: under 0.03x the cold build in the same run)")
        print(f"  (load {load()})")
        watched = save_to_page(root, args.runs)
        if watched:
            wall = statistics.median(watched)
            print(f"{'saved card -> open page shows it':<38} {wall:6.2f} s {'':>8}  {2.0:5.1f} s  {wall / 2.0:9.2f}x"
                  f"   (runs {', '.join(f'{t:.2f}' for t in watched)}; each after the last one's build ended)")
        quicker = save_to_page(root, args.runs, skip=("sheets", "kit"))
        if quicker:
            wall = statistics.median(quicker)
            print(f"{'  the same, serve --skip sheets --skip kit':<38} {wall:6.2f} s {'':>8}  {2.0:5.1f} s  "
                  f"{wall / 2.0:9.2f}x   (runs {', '.join(f'{t:.2f}' for t in quicker)}; the PDFs left as they were)")
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
