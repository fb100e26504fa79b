"""The site's checker in headless Chromium (Debian's /usr/bin/chromium): time until the rules engine is ready from
a cold load, the time of one check, and the longest main-thread task while the engine loads.

Targets (spec/design.md): ready under 5 s from a cold load, a check under 20 ms, no main-thread task over 200 ms.

    .venv/bin/python bench/bench_site.py [--runs 5] [--checks 200]

Builds the site of this workspace into a temporary folder, serves it on 127.0.0.1 and prints figures; it passes
or fails nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from carddb.catalogue.api import open_catalogue  # noqa: E402
from carddb.site.build import build_site  # noqa: E402
from carddb.site.serve import make_server, server_url  # noqa: E402
from carddb.workspace import Workspace  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
OBSERVE = """window.__long = []; new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]) })
    .observe({type: "longtask", buffered: true});"""
CHECK = """async ({ game, deck }) => {
    const started = performance.now();
    const reply = await window.carddbEngine.request({ op: "check", game, format: "", deck, filename: "" });
    return [performance.now() - started, reply.ms];
}"""


def summary(values: list[float], unit: str = "ms") -> str:
    return (f"median {statistics.median(values):.1f} {unit}, min {min(values):.1f}, max {max(values):.1f} "
            f"(n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads (a fresh browser context each)")
    parser.add_argument("--checks", type=int, default=200, help="checks timed in one warm page")
    parser.add_argument("--game", default="shmod")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    workspace = Workspace(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        catalogue = open_catalogue(str(Path(tmp) / "catalogue.db"))
        for game_id in workspace.game_ids():
            catalogue.load_workspace_game(workspace, game_id)
        folder = Path(tmp) / "site"
        server = make_server(folder, "127.0.0.1", 0)
        url = server_url(server)
        started = time.perf_counter()
        report = build_site(ROOT, catalogue, folder, site_url=url)
        print(f"site build: {time.perf_counter() - started:.2f} s, {report.pages} pages, "
              f"{report.bytes / 1048576:.1f} MB (Pyodide {report.pyodide_version})")
        pyodide = folder / "assets" / "pyodide" / report.pyodide_version
        print(f"engine download: {sum(p.stat().st_size for p in pyodide.iterdir()) / 1048576:.1f} MB uncompressed")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        decks = [p.read_text(encoding="utf-8", errors="replace") for p in workspace.deck_files(args.game)]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu", "--disable-quic"])
            ready, since_worker, longest, loading, stages = [], [], [], [], []
            for _ in range(args.runs):
                context = browser.new_context()
                context.add_init_script(OBSERVE)
                page = context.new_page()
                page.goto(f"{url}games/{args.game}/checker/")
                page.wait_for_selector("[data-engine][data-state=ready]", timeout=120_000)
                ready.append(page.evaluate("window.carddbEngine.readyAt"))
                since_worker.append(page.evaluate("window.carddbEngine.readyMs"))
                tasks = page.evaluate("window.__long")
                began = page.evaluate("window.carddbEngine.started")
                longest.append(max([d for _, d in tasks] or [0]))
                loading.append(max([d for start, d in tasks if start + d > began] or [0]))
                stages.append(page.evaluate("window.carddbEngine.timings"))
                if _ == args.runs - 1:
                    round_trips, in_python = [], []
                    page.evaluate(CHECK, {"game": args.game, "deck": decks[0]})  # first check parses the game
                    for i in range(args.checks):
                        trip, python = page.evaluate(CHECK, {"game": args.game, "deck": decks[i % len(decks)]})
                        round_trips.append(trip)
                        in_python.append(python)
                context.close()
            browser.close()
        server.shutdown()
        server.server_close()
    print(f"cold load to engine ready (from navigation): {summary([r / 1000 for r in ready], 's')}  target < 5 s")
    print(f"  of which worker start to ready: {summary([r / 1000 for r in since_worker], 's')}")
    for stage in ("manifest", "loader", "pyodide", "rules"):
        print(f"    worker at '{stage}' done: {summary([float(s[stage]) for s in stages])}")
    print(f"longest main-thread task while the engine loads: {summary(loading)}  target < 200 ms")
    print(f"longest main-thread task of the whole page load (Material's start included): {summary(longest)}")
    print(f"one check, page -> worker -> page ({len(decks)} {args.game} sample decks): {summary(round_trips)}"
          "  target < 20 ms")
    print(f"  of which check_deck_json in Pyodide: {summary(in_python)}")


if __name__ == "__main__":
    main()
