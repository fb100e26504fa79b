"""The built site in headless Chromium (Debian's): the in-browser checker gives the command line's answers, the
page stays responsive while the engine loads, the engine loads once per visit, nothing leaves 127.0.0.1, and
card data is shown as text."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from carddb.catalogue.api import Catalogue
from carddb.cli.main import app
from carddb.core.cards.slugs import card_stems
from carddb.workspace import Workspace
from tests.site.conftest import (
    HOSTILE_GAME,
    HOSTILE_NAME,
    HOSTILE_TEXT,
    BuiltSite,
    Visit,
    open_visit,
    wait_for_instant_navigation,
)

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SAMPLE_DECKS = [(game_id, path) for game_id in Workspace(REPO).game_ids()
                for path in Workspace(REPO).deck_files(game_id)]
READY = "[data-deck-checker] [data-engine][data-state=ready]"


def cli_check(db: str, game_id: str, path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["--root", str(REPO), "--db", db, "deck", "check", str(path), "--game", game_id,
                                      "--json"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return json.loads(result.stdout)


def shown(page: Any) -> dict[str, Any]:
    """What the checker shows: the verdict, and each problem's code and message as a reader sees them."""
    box = page.locator("[data-result]")
    return {"verdict": box.get_attribute("data-verdict"),
            "problems": [(item.get_attribute("data-code"), item.locator(".carddb-message").inner_text())
                         for item in box.locator("li.carddb-problem").all()]}


def run_check(page: Any, action: Any) -> dict[str, Any]:
    before = int(page.locator("[data-result]").get_attribute("data-checks") or 0)
    action()
    page.wait_for_function(f"() => Number(document.querySelector('[data-result]').dataset.checks || 0) > {before}")
    return shown(page)


@pytest.fixture(scope="module")
def checker(chromium: Any, site: BuiltSite) -> Iterator[Visit]:
    """One checker page for the module: the engine starts once, then every deck is checked in it."""
    opened = open_visit(chromium, site)
    opened.page.goto(f"{site.url}games/shmod/checker/")
    opened.page.wait_for_selector(READY)
    yield opened
    opened.page.context.close()


@pytest.mark.parametrize(("game_id", "path"), SAMPLE_DECKS, ids=[f"{g}/{p.name}" for g, p in SAMPLE_DECKS])
def test_sample_deck_verdict_and_problems_equal_the_command_line(checker: Visit, site: BuiltSite, loaded_db: str,
                                                                 game_id: str, path: Path) -> None:
    if game_id not in site.report.games:
        pytest.skip(f"{game_id} is not in the test catalogue")
    expected = cli_check(loaded_db, game_id, path)
    page = checker.page
    page.select_option("select[name=game]", game_id)
    got = run_check(page, lambda: page.set_input_files("input[name=file]", str(path)))
    assert got == {"verdict": "legal" if expected["legal"] else "illegal",
                   "problems": [(p["code"], p["message"]) for p in expected["problems"]]}
    assert page.locator("[data-result]").get_attribute("data-codes") == \
        ",".join(sorted(p["code"] for p in expected["problems"]))
    assert checker.external == [] and checker.dialogs == []


@pytest.mark.parametrize(("game_id", "format_id", "deck"), [
    ("shmod", "open-stack", "illegal-wrong-zone-fusion-in-main.txt"),
    ("minibattle", "one-legendary", "illegal-level-cap-three-legends.txt"),
])
def test_a_house_format_gives_the_command_lines_answer(checker: Visit, site: BuiltSite, loaded_db: str, game_id: str,
                                                       format_id: str, deck: str) -> None:
    if game_id not in site.report.games:
        pytest.skip(f"{game_id} is not in the test catalogue")
    path = REPO / "rules" / game_id / "decks" / deck
    expected = cli_json(loaded_db, "deck", "check", str(path), "--game", game_id, "--format", format_id)
    default = cli_json(loaded_db, "deck", "check", str(path), "--game", game_id)
    assert expected["problems"] != default["problems"]  # the format changes the answer
    page = checker.page
    page.select_option("select[name=game]", game_id)
    page.wait_for_selector(f"select[name=format] option[value='{format_id}']", state="attached")
    page.select_option("select[name=format]", format_id)
    page.fill("textarea[name=deck]", path.read_text(encoding="utf-8"))
    got = run_check(page, lambda: page.click("button[type=submit]"))
    assert got == {"verdict": "legal" if expected["legal"] else "illegal",
                   "problems": [(p["code"], p["message"]) for p in expected["problems"]]}


def test_a_zone_the_game_does_not_have_is_an_unknown_zone_problem(checker: Visit, loaded_db: str,
                                                                 tmp_path: Path) -> None:
    deck = tmp_path / "graveyard.txt"
    deck.write_text("Main:\n3 Replenish\nGraveyard:\n2 Replenish\n", encoding="utf-8")
    expected = cli_check(loaded_db, "shmod", deck)
    page = checker.page
    page.select_option("select[name=game]", "shmod")
    page.fill("textarea[name=deck]", deck.read_text(encoding="utf-8"))
    got = run_check(page, lambda: page.click("button[type=submit]"))
    assert got["problems"] == [(p["code"], p["message"]) for p in expected["problems"]]
    unknown = [message for code, message in got["problems"] if code == "unknown-zone"]
    assert len(unknown) == 1 and "no zone called 'Graveyard'" in unknown[0]


def test_each_problem_links_to_its_rule(checker: Visit, site: BuiltSite) -> None:
    page = checker.page
    page.select_option("select[name=game]", "shmod")
    page.fill("textarea[name=deck]", "Side:\n1 Replenish\n")
    run_check(page, lambda: page.click("button[type=submit]"))
    assert page.locator("[data-result] .carddb-verdict").inner_text() == \
        "Not legal (Main deck 0, Side deck 1, Fusion/Transformation Stack 0): 2 errors."
    links = page.locator("[data-result] li.carddb-problem a")
    assert links.count() >= 1
    href = links.first.get_attribute("href")
    assert href.startswith(f"{site.url}games/shmod/rulebook/#")
    anchor = href.split("#")[1]
    assert f'id="{anchor}"' in site.html("games/shmod/rulebook.md")


def test_markup_in_a_deck_is_shown_as_text(checker: Visit) -> None:
    page = checker.page
    page.select_option("select[name=game]", HOSTILE_GAME)
    page.fill("textarea[name=deck]", f"5 {HOSTILE_NAME}\n1 <b>not a card</b>\n")
    got = run_check(page, lambda: page.click("button[type=submit]"))
    messages = " ".join(message for _, message in got["problems"])
    assert HOSTILE_NAME in messages and "<b>not a card</b>" in messages
    assert page.locator("[data-result] img, [data-result] b, [data-result] script").count() == 0
    assert checker.dialogs == []


def test_a_binary_file_is_refused_with_a_message(checker: Visit, tmp_path: Path) -> None:
    page = checker.page
    binary = tmp_path / "deck.dek"
    binary.write_bytes(bytes(range(256)) * 64)
    got = run_check(page, lambda: page.set_input_files("input[name=file]", str(binary)))
    assert got["verdict"] == "error"
    assert page.locator("[data-result]").inner_text() == "deck.dek is not a text file (it holds NUL bytes)"


def test_a_deck_of_megabytes_keeps_the_page_responsive(checker: Visit) -> None:
    page = checker.page
    page.select_option("select[name=game]", "shmod")
    page.evaluate("""() => {
        window.__long = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
            .observe({ type: "longtask" });
        const pasted = new DataTransfer();
        pasted.setData("text/plain", "1 Replenish\\n".repeat(250000));  // 3 MB
        document.querySelector("textarea[name=deck]").dispatchEvent(
            new ClipboardEvent("paste", { clipboardData: pasted, bubbles: true, cancelable: true }));
    }""")
    assert page.locator("[data-filename]").inner_text() == \
        "Pasted deck: 2.9 MB, too large to edit here; it is checked as it is."
    got = run_check(page, lambda: page.click("button[type=submit]"))
    assert got["verdict"] == "illegal"
    assert ("copy-limit", "250000 copies of Replenish; it is LIMITED: 1 per deck.") in got["problems"]
    assert max(page.evaluate("window.__long") or [0]) < 200


def test_no_main_thread_task_over_200_ms_while_the_engine_loads(chromium: Any, site: BuiltSite) -> None:
    # Every long task from the moment the page creates the engine's worker until the engine is ready. (The
    # page's own start, Material's bundle, comes before and has nothing to do with the engine.)
    observe = """window.__long = []; new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]) })
        .observe({type: "longtask", buffered: true});"""
    opened = open_visit(chromium, site, observe, cold=True)  # a first visit's boot
    try:
        opened.page.goto(f"{site.url}games/ssbm/checker/")
        opened.page.wait_for_selector(READY)
        started, ready = opened.page.evaluate("[window.carddbEngine.started, window.carddbEngine.readyAt]")
        long_tasks = opened.page.evaluate("window.__long")
        during = [duration for start, duration in long_tasks if start + duration > started and start < ready]
        assert ready - started > 1000  # the engine did load in this page (Pyodide takes seconds)
        # A loaded machine stretches every task: the bound is the benchmark's (bench/bench_site.py), with a margin
        # here that only a task blocking the page for its whole load would break.
        assert max(during or [0]) < 1000, long_tasks
        assert opened.external == []
    finally:
        opened.page.context.close()


def test_the_engine_loads_once_across_navigation(visit: Visit, site: BuiltSite, loaded_db: str) -> None:
    # From the sample decks page into the checker (the deck opens and is checked), away to the gallery and back:
    # one page load, one worker, one Pyodide download.
    path = next(p for g, p in SAMPLE_DECKS if g == "shmod")
    page = visit.page
    page.goto(f"{site.url}games/shmod/decks/")
    wait_for_instant_navigation(page)  # else the first click is a full page load
    page.evaluate("window.__same_visit = true")
    page.locator(f"a[href$='?deck={path.name}']").first.click()
    page.wait_for_function("() => Number(document.querySelector('[data-result]')?.dataset.checks || 0) > 0")
    expected = cli_check(loaded_db, "shmod", path)
    assert shown(page) == {"verdict": "legal" if expected["legal"] else "illegal",
                           "problems": [(p["code"], p["message"]) for p in expected["problems"]]}
    page.locator("a.md-nav__link[href$='/games/shmod/cards/']").first.click()
    page.wait_for_function("() => document.querySelector('article h1')?.textContent.startsWith('Shmod: cards')")
    page.go_back()
    page.wait_for_function("() => document.querySelector('article h1')?.textContent.startsWith('Shmod: deck builder')")
    page.wait_for_selector(READY)
    # back on the page, its address opens the sample deck again and checks it: that check done first, so that it is
    # not the one the check below waits for (it could end between the count read and the click)
    page.wait_for_function("() => Number(document.querySelector('[data-result]')?.dataset.checks || 0) > 0")
    page.fill("textarea[name=deck]", "Side:\n1 Replenish\n")
    got = run_check(page, lambda: page.click("button[type=submit]"))
    assert got["verdict"] == "illegal"
    assert page.evaluate("window.__same_visit") is True  # no full page load happened
    assert visit.count("pyodide.asm.wasm") == 1 and visit.count("checker-worker.js") == 1
    # the tests' visits return: their engines start from the first visit's snapshot (tests/site/engine_snapshot.py)
    assert page.evaluate("window.carddbEngine.timings.restored") is True
    assert visit.external == []


def test_a_deck_typed_before_the_sample_deck_arrives_is_kept(chromium: Any, site: BuiltSite) -> None:
    # The builder opened from a sample deck's link: the reader starts typing before the deck's file has come (a slow
    # connection). The sample deck, arriving after, does not replace what they typed.
    path = next(p for g, p in SAMPLE_DECKS if g == "shmod" and p.suffix == ".txt")
    visit = open_visit(chromium, site)
    page = visit.page
    held: list[Any] = []
    page.route(f"**/assets/decks/shmod/*-{path.name}", lambda route: held.append(route))
    try:
        with page.expect_request(lambda request: request.url.endswith(f"-{path.name}")):
            page.goto(f"{site.url}games/shmod/checker/?deck={path.name}")
        page.fill("textarea[name=deck]", "Main:\n3 Replenish\n")
        deadline = time.monotonic() + 60
        while not held:  # the route's handler runs when Playwright next reads its messages: its request is made
            assert time.monotonic() < deadline, "the sample deck's request never reached its route"
            page.wait_for_timeout(10)  # the polling interval, not a wait for something to happen
        held[0].continue_()
        page.wait_for_selector("[data-deck-checker][data-sample-deck]", state="attached")
        assert page.locator("[data-deck-checker]").get_attribute("data-sample-deck") == "not opened"
        assert page.input_value("textarea[name=deck]") == "Main:\n3 Replenish\n"
        # Untouched, the same link opens the sample deck.
        page.unroute(f"**/assets/decks/shmod/*-{path.name}")
        page.goto(f"{site.url}games/shmod/checker/?deck={path.name}")
        page.wait_for_selector("[data-deck-checker][data-sample-deck=opened]", state="attached")
        assert page.input_value("textarea[name=deck]") == path.read_text(encoding="utf-8")
        assert visit.external == []
    finally:
        page.context.close()


def test_every_page_loads_nothing_from_another_host(visit: Visit, site: BuiltSite) -> None:
    # The checker and calculator pages are visited (engine and all) by the tests above, which assert the same.
    pages = sorted(p.parent.relative_to(site.folder).as_posix() for p in site.folder.rglob("index.html"))
    hand_written = len(list((REPO / "site" / "docs").rglob("*.md")))
    assert len(pages) == site.report.pages + hand_written
    # Every page but the card pages, which share one template: of those, the first of each game.
    card_pages = [p for p in pages if "/cards/" in p]
    firsts = {p.split("/cards/")[0]: p for p in reversed(card_pages)}
    for page_path in [p for p in pages if "/cards/" not in p] + sorted(firsts.values()):
        if page_path.endswith("/checker"):
            continue
        visit.page.goto(f"{site.url}{page_path}/" if page_path != "." else site.url)
        visit.page.wait_for_load_state("load")
    assert visit.count("carddb.js") >= 1
    assert visit.external == []


def test_a_card_name_of_markup_is_text_in_the_gallery(visit: Visit, site: BuiltSite, catalogue: Catalogue) -> None:
    page = visit.page
    page.goto(f"{site.url}games/{HOSTILE_GAME}/cards/")
    page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached")
    anchor = card_stems([*(c.key for c in catalogue.cards(HOSTILE_GAME)), HOSTILE_NAME])[HOSTILE_NAME]
    assert anchor == "img-src-x-onerror-alert-1"  # the tile's id is the card's file name: readable, safe
    tile = page.locator(f"#{anchor}")
    assert tile.locator(".carddb-name").inner_text() == HOSTILE_NAME
    assert tile.locator(".carddb-text").inner_text() == HOSTILE_TEXT
    assert page.locator("img[src='x'], article script").count() == 0
    page.fill("input[name=text]", "onerror=alert")
    total = page.locator("li.carddb-card").count()
    assert page.locator(".carddb-count").inner_text() == f"1 of {total} cards"
    assert tile.is_visible()
    assert visit.dialogs == [] and visit.external == []


def test_gallery_filters_by_kind(visit: Visit, site: BuiltSite, catalogue: Any) -> None:
    page = visit.page
    page.goto(f"{site.url}games/shmod/cards/")
    page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached")
    first = page.locator("li.carddb-card img").first
    first.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('li.carddb-card img').complete")
    assert first.evaluate("img => img.naturalWidth") > 0  # the rendered face, served by the site
    spells = sum(1 for card in catalogue.cards("shmod") if card.kind == "spell")
    page.select_option("select[name=kind]", "spell")
    assert page.locator("li.carddb-card:visible").count() == spells
    assert page.locator(".carddb-count").inner_text() == f"{spells} of {page.locator('li.carddb-card').count()} cards"


def test_an_engine_that_never_loads_is_reported(chromium: Any, site: BuiltSite) -> None:
    opened = open_visit(chromium, site, "window.CARDDB_ENGINE_TIMEOUT_MS = 2000;", cold=True)
    stalled: list[Any] = []
    opened.page.context.route("**/pyodide.asm.wasm", lambda route: stalled.append(route))  # never answered
    try:
        opened.page.goto(f"{site.url}games/shmod/checker/")
        status = opened.page.locator("[data-engine]")
        assert status.inner_text().startswith("Loading the rules engine…")  # before the limit
        opened.page.wait_for_selector("[data-engine][data-state=failed]")
        assert status.inner_text() == ("The checker is unavailable: the rules engine did not load within 2 s. "
                                       "Reload the page to try again, or use the command line.")
        assert opened.page.locator("button[type=submit]").is_disabled()
    finally:
        opened.page.context.close()


def cli_json(db: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["--root", str(REPO), "--db", db, *args, "--json"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return json.loads(result.stdout)


def test_a_later_visit_starts_the_engine_from_its_snapshot(chromium: Any, site: BuiltSite, loaded_db: str) -> None:
    opened = open_visit(chromium, site, cold=True)
    path = next(p for g, p in SAMPLE_DECKS if g == "shmod")
    expected = cli_check(loaded_db, "shmod", path)
    try:
        page = opened.page
        page.goto(f"{site.url}games/shmod/checker/")
        page.wait_for_selector(READY)
        assert page.evaluate("window.carddbEngine.timings.restored") is None  # a first visit boots Python
        assert page.evaluate("() => window.carddbEngine.snapshot") is True  # and leaves a snapshot behind
        later = page.context.new_page()
        page.close()
        later.goto(f"{site.url}games/shmod/checker/")
        later.wait_for_selector(READY)
        assert later.evaluate("window.carddbEngine.timings.restored") is True
        got = run_check(later, lambda: later.set_input_files("input[name=file]", str(path)))
        assert got == {"verdict": "legal" if expected["legal"] else "illegal",
                       "problems": [(p["code"], p["message"]) for p in expected["problems"]]}
        assert opened.external == []
    finally:
        opened.page.context.close()
