"""The incremental build (issue 14), on a copy of this workspace's five games, `carddb` run as a user runs it:

- a build from nothing (the reference: what every build cost before it was incremental);
- `carddb build` with nothing changed;
- one card's text changed in rules/shmod/cards/base.yaml, every output brought up to date;
- one template changed (templates/shmod/spell.toml, one kind of one game);
- `carddb site serve` running: a card file saved, until the open card page in Chromium shows the new text.

Targets: nothing changed under 1 s; one card under 2 s; one template under 5 s; saved card to page under 2 s.

    .venv/bin/python bench/bench_build.py [--runs 3]

Prints times (medians), ratios to the build from nothing and the machine's load; passes or fails nothing.
carddb runs with its bytecode cached (in the temporary folder), as an installed carddb does: a machine that sets
PYTHONDONTWRITEBYTECODE would otherwise compile every module on every run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
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


def timed_build(root: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run([*CARDDB, "--root", str(root), "-q", "build"], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"carddb build failed:\n{done.stderr}")
    return seconds


def redone(root: Path) -> str:
    done = subprocess.run([*CARDDB, "--root", str(root), "build"], capture_output=True, text=True)
    return next((line for line in done.stdout.splitlines() if line.startswith(("Redone", "Everything"))), "")


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def card_edits(root: Path, runs: int) -> list[float]:
    times = []
    for run in range(runs):
        replace_in(root / CARD_FILE, CARD_TEXT if run == 0 else f"{CARD_TEXT[:-1]} ({run}).",
                   f"{CARD_TEXT[:-1]} ({run + 1}).")
        times.append(timed_build(root))
    return times


def template_edits(root: Path, runs: int) -> list[float]:
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


def save_to_page(root: Path, runs: int) -> list[float]:
    """Seconds from writing the card file to the open page showing its new text, with `site serve` watching."""
    if not Path(CHROMIUM).exists():
        print(f"  (no {CHROMIUM}: the watch figure is not measured)")
        return []
    from playwright.sync_api import sync_playwright

    process = subprocess.Popen([*CARDDB, "--root", str(root), "site", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = None
    while url is None:
        line = process.stdout.readline()  # type: ignore[union-attr]
        if not line:
            raise SystemExit("site serve stopped before serving")
        found = re.match(r"Serving on (\S+)", line)
        url = found.group(1) if found else None
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
                wanted = f"Shuffle your Graveyard into your deck (watched {run})."
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
                page.wait_for_timeout(500)
            browser.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="bench-build-") as folder:
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        root = copy_workspace(Path(folder) / "workspace")
        clean = timed_build(root)
        print(f"build from nothing (the reference)     {clean:6.2f} s")
        nothing = [timed_build(root) for _ in range(args.runs)]
        card = card_edits(root, args.runs)
        replace_in(root / CARD_FILE, "deck (3).", "deck (4).")
        print("  what one card redoes: " + redone(root))
        template = template_edits(root, args.runs)
        rows = [("nothing changed", nothing, 1.0), ("one card's text changed", card, 2.0),
                ("one template changed (shmod spell)", template, 5.0)]
        for label, times, target in rows:
            median = statistics.median(times)
            print(f"{label:<38} {median:6.2f} s  (target {target:g} s; {clean / median:5.1f}x faster than "
                  f"from nothing; runs {', '.join(f'{t:.2f}' for t in times)})")
        watched = save_to_page(root, args.runs)
        if watched:
            print(f"{'saved card -> open page shows it':<38} {statistics.median(watched):6.2f} s  (target 2 s; "
                  f"runs {', '.join(f'{t:.2f}' for t in watched)})")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
