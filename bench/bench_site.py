"""The site in headless Chromium (Debian's /usr/bin/chromium), served by `carddb site serve`'s handler on 127.0.0.1:

- cold load to rules engine ready (a fresh browser context each run), and the stages of the worker's start;
- second visit to engine ready (the same context: the engine comes from the browser's cache);
- a first visit over a throttled link (DevTools network emulation: 20 Mbit/s, 40 ms), page usable and engine ready;
- engine bytes over the wire (what a cold load downloads from assets/pyodide and assets/carddb, encoded);
- one deck-builder change (a click on "+") to its verdict shown, and one check round trip;
- a 60-card deck's proxy PDF made in the browser (the first print loads the printing engine);
- the longest main-thread task while the engine loads.

Targets (issue 16): ready under 3 s cold and under 1 s cached; throttled: page usable under 1 s and engine ready
under 8 s; under 6 MB over the wire; a change under 50 ms; a 60-card PDF under 5 s.

    .venv/bin/python bench/bench_site.py [--runs 3] [--checks 100]

Builds the site of this workspace into a temporary folder and prints figures; it passes or fails nothing.
"""

from __future__ import annotations

import argparse
import os
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
ARGS = ["--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
OBSERVE = """window.__long = []; new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]) })
    .observe({type: "longtask", buffered: true});"""
CHECK = """async ({ game, deck }) => {
    const started = performance.now();
    const reply = await window.carddbEngine.request({ op: "check", game, format: "", deck, filename: "" });
    return [performance.now() - started, reply.ms];
}"""
# One click on a deck card's "+" in the builder, timed until the builder has drawn the verdict of that change.
CHANGE = """() => new Promise((resolve) => {
    const root = document.querySelector("[data-deck-builder]");
    const before = Number(root.dataset.renders || 0);
    const button = root.querySelector("li.carddb-deckcard button[data-add]");
    const started = performance.now();
    new MutationObserver((_, observer) => {
        if (Number(root.dataset.renders || 0) > before && root.querySelector("[data-builder-result]").dataset.verdict
            !== "checking") { observer.disconnect(); resolve(performance.now() - started); }
    }).observe(root, { attributes: true, subtree: true, childList: true });
    button.click();
})"""
READY = "[data-engine][data-state=ready], [data-builder-engine][data-state=ready]"
ENGINE_PATHS = ("/assets/pyodide/", "/assets/carddb/", "/javascripts/checker-worker.js")


def summary(values: list[float], unit: str = "ms") -> str:
    return (f"median {statistics.median(values):.1f} {unit}, min {min(values):.1f}, max {max(values):.1f} "
            f"(n={len(values)})")


def engine_bytes(context) -> list[int]:  # type: ignore[no-untyped-def]
    """Counts the encoded bytes of the engine's responses (page and worker) as they finish."""
    total = [0]

    def finished(request) -> None:  # type: ignore[no-untyped-def]
        if any(part in request.url for part in ENGINE_PATHS) and "print" not in request.url:
            sizes = request.sizes()
            total[0] += sizes["responseBodySize"] + sizes["responseHeadersSize"]

    context.on("requestfinished", finished)
    return total


def wait_ready(page) -> float:  # type: ignore[no-untyped-def]
    page.wait_for_selector(READY, timeout=180_000)
    return page.evaluate("window.carddbEngine.readyAt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold loads (a fresh browser context each)")
    parser.add_argument("--checks", type=int, default=100, help="checks and builder changes timed in one page")
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
              f"{report.bytes / 1048576:.1f} MB on disk (Pyodide {report.pyodide_version})")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        decks = [p.read_text(encoding="utf-8", errors="replace") for p in workspace.deck_files(args.game)]
        legal = next(p for p in workspace.deck_files(args.game) if p.name.startswith("legal-") and p.suffix == ".txt")
        print_deck = next(p for p in workspace.deck_files("website") if p.name.startswith("legal-")
                          and p.suffix == ".txt")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            checker = f"{url}games/{args.game}/checker/"
            cold, cached, loading, stages, wire = [], [], [], [], []
            for _ in range(args.runs):
                context = browser.new_context()
                context.add_init_script(OBSERVE)
                counted = engine_bytes(context)
                page = context.new_page()
                page.goto(checker)
                cold.append(wait_ready(page))
                page.wait_for_timeout(300)  # the last responses' sizes arrive after ready
                wire.append(counted[0])
                began = page.evaluate("window.carddbEngine.started")
                loading.append(max([d for s, d in page.evaluate("window.__long") if s + d > began] or [0]))
                stages.append(page.evaluate("window.carddbEngine.timings"))
                page.evaluate("() => window.carddbEngine.snapshot")  # stored for the next visit
                second = context.new_page()  # a later visit: a new page of the same browser profile
                page.close()
                second.goto(checker)
                cached.append(wait_ready(second))
                context.close()

            # A first visit over a slow link: the gallery is usable (its filter mounted) long before the engine.
            context = browser.new_context()
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 40,
                                                          "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8})
            throttled_bytes = engine_bytes(context)
            page.goto(f"{url}games/{args.game}/cards/")
            page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached", timeout=60_000)
            usable = float(page.locator("[data-card-gallery]").get_attribute("data-mounted-at"))
            page.goto(checker)
            # usable once its game's data has come and its controls answer (data-ready), not when it starts
            page.wait_for_selector("[data-deck-builder][data-ready]", state="attached", timeout=60_000)
            builder_usable = float(page.locator("[data-deck-builder]").get_attribute("data-ready-at"))
            throttled_ready = wait_ready(page)
            context.close()

            # In one warm page: checks, builder changes, and printing a 60-card deck.
            context = browser.new_context(accept_downloads=True)
            page = context.new_page()
            page.goto(checker)
            wait_ready(page)
            page.evaluate(CHECK, {"game": args.game, "deck": decks[0]})  # the first check parses the game
            round_trips, in_python = [], []
            for i in range(args.checks):
                trip, python = page.evaluate(CHECK, {"game": args.game, "deck": decks[i % len(decks)]})
                round_trips.append(trip)
                in_python.append(python)
            page.set_input_files("input[name=deck-file]", str(legal))
            page.wait_for_function("() => ['legal', 'illegal'].includes(document.querySelector("
                                   "'[data-builder-result]').dataset.verdict)")
            changes = [page.evaluate(CHANGE) for _ in range(min(args.checks, 50))]
            page.goto(f"{url}games/website/checker/")
            wait_ready(page)
            page.set_input_files("input[name=deck-file]", str(print_deck))
            page.wait_for_function("() => ['legal', 'illegal'].includes(document.querySelector("
                                   "'[data-builder-result]').dataset.verdict)")
            cards = page.evaluate("() => [...document.querySelectorAll('li.carddb-deckcard')]"
                                  ".reduce((n, li) => n + Number(li.dataset.count), 0)")
            page.click("details[data-print] summary")
            prints = []
            for _ in range(2):
                page.evaluate("() => { delete document.querySelector('[data-deck-builder]').dataset.printed; }")
                page.click("button[data-action=print]")
                page.wait_for_function("() => document.querySelector('[data-deck-builder]').dataset.printed",
                                       timeout=180_000)
                prints.append(float(page.locator("[data-deck-builder]").get_attribute("data-print-ms") or "nan"))
            context.close()
            browser.close()
        server.shutdown()
        server.server_close()

    mb = 1_000_000
    print(f"machine load average while measuring (2 cores): {os.getloadavg()[0]:.1f}")
    print(f"cold load to engine ready (from navigation): {summary([r / 1000 for r in cold], 's')}  target < 3 s")
    for stage in ("manifest", "loader", "pyodide", "rules"):
        print(f"  worker at '{stage}' done: {summary([float(s[stage]) for s in stages])}")
    print(f"second visit (cached) to engine ready: {summary([r / 1000 for r in cached], 's')}  target < 1 s")
    print(f"engine bytes over the wire, cold: {summary([w / mb for w in wire], 'MB')}  target < 6 MB")
    print(f"throttled 20 Mbit/s 40 ms, first visit: gallery usable {usable / 1000:.2f} s, builder usable "
          f"{builder_usable / 1000:.2f} s (target < 1 s), engine ready {throttled_ready / 1000:.2f} s (target < 8 s), "
          f"{throttled_bytes[0] / mb:.2f} MB of engine")
    print(f"longest main-thread task while the engine loads: {summary(loading)}  target < 200 ms")
    print(f"one check, page -> worker -> page ({len(decks)} {args.game} sample decks): {summary(round_trips)}"
          "  target < 20 ms")
    print(f"  of which check_deck_json in Pyodide: {summary(in_python)}")
    print(f"one deck-builder change to verdict shown ({legal.name}): {summary(changes)}  target < 50 ms")
    print(f"proxy PDF of a {cards}-card deck in the browser ({print_deck.name}): first {prints[0] / 1000:.2f} s "
          f"(loads the printing engine), then {prints[1] / 1000:.2f} s  target < 5 s")


if __name__ == "__main__":
    main()
