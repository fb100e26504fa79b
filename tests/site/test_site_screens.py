"""Every page type of the built site in headless Chromium at a phone's, a tablet's and a desktop's width: nothing
scrolls sideways, and axe-core (site/node_modules, pinned in site/package-lock.json) finds no critical or serious
violation, the theme's own header, footer and search dialog included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.site.conftest import BuiltSite, Visit, add_axe, open_visit

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "site" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (360, 390, 768, 1280)
# Each page type once, with what must be on it before it is measured: its scripts' own work done (they are
# imported after the page loads), a builder holding a deck that breaks a rule, so its charts and problems are laid
# out too.
PAGES = {
    "home": ("", "article .carddb-home"),
    "gallery": ("games/shmod/cards/", "[data-card-gallery][data-mounted] [data-deck-bar][data-verdict]"),
    "card page": ("games/shmod/cards/abyssal-leviathan/", "[data-card-page] [data-deck-status][data-verdict]"),
    "builder": ("games/shmod/checker/#deck=standard;main:abyssal-leviathan*5,coral-warden*2",
                "[data-builder-result][data-verdict=illegal]"),
    "rulebook": ("games/shmod/rulebook/", "article h2"),
    "construction": ("games/shmod/construction/", "article table"),
    "play": ("games/shmod/play/", "[data-play][data-mounted]"),
    "ssq calculator": ("games/ssq/checker/", "[data-play][data-game=ssq][data-mounted]"),
    "decks": ("games/shmod/decks/", "article h2"),
    "guide": ("guide/deck-checker/", "article pre > code"),
}


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.skip(f"{AXE} is missing: run `npm ci --prefix site` (axe-core is a devDependency of site/)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module", params=list(PAGES), ids=list(PAGES))
def opened(request: pytest.FixtureRequest, chromium: Any, site: BuiltSite) -> Iterator[Visit]:
    """The page type loaded once; each test then sets the window's width."""
    path, ready = PAGES[request.param]
    visit = open_visit(chromium, site)
    visit.page.set_viewport_size({"width": WIDTHS[0], "height": 800})
    visit.page.goto(site.url + path)
    visit.page.wait_for_selector(ready, state="attached")
    visit.page.wait_for_load_state("networkidle")
    yield visit
    visit.page.context.close()


def resize(page: Any, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    page.wait_for_function(f"() => window.innerWidth === {width}")
    # The theme fades its header tabs in when they appear (wider windows): measure colours once that has ended.
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def overflowing(page: Any) -> list[str]:
    """What sticks out past the window's right edge (what a reader would have to scroll sideways to see)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && e.getClientRects().length)
        .filter((e) => !e.closest('[hidden], .md-sidebar, .md-search, .md-tabs, .md-typeset__scrollwrap, pre'))
        .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className} right=${
          Math.round(e.getBoundingClientRect().right)}`)""")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_fits_the_window_without_sideways_scrolling(opened: Visit, width: int) -> None:
    page = opened.page
    resize(page, width)
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width, f"{scroll_width} px wide in a {inner_width} px window: {overflowing(page)}"
    assert opened.external == []


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_critical_or_serious(opened: Visit, axe_source: str, width: int) -> None:
    page = opened.page
    resize(page, width)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        add_axe(page, axe_source)
    violations = page.evaluate("""() => axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' ')}: ${v.help}`))""")
    assert violations == []


def test_a_phones_builder_shows_whole_names_charts_without_a_none_bar_and_a_print_panel_that_holds_its_lines(
        chromium: Any, site: BuiltSite) -> None:
    visit = open_visit(chromium, site)
    page = visit.page
    try:
        page.set_viewport_size({"width": 360, "height": 800})
        # A long name, and a spell (no TYPE) beside a monster: the TYPE chart has cards without a value.
        spells = [c for c in ("replenish",) if (site.folder / "games/shmod/cards" / c / "index.html").is_file()]
        page.goto(f"{site.url}games/shmod/checker/#deck=standard;main:tempestus-sky-sovereign*2,"
                  + ",".join(f"{stem}*3" for stem in spells))
        page.wait_for_selector("[data-builder-result][data-verdict=illegal]", state="attached")
        name = page.locator("[data-deck-view] li.carddb-deckcard[data-key='Tempestus, Sky Sovereign'] .carddb-name")
        assert name.inner_text() == "Tempestus, Sky Sovereign"
        assert name.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # nothing cut off behind an ellipsis
        bars = page.locator(".carddb-chart .carddb-bar-label").all_inner_texts()
        assert bars and "(none)" not in bars
        if spells:
            assert page.locator(".carddb-chart[data-axis=type] figcaption").inner_text() == "TYPE (3 without)"
        page.click("details[data-print] summary")
        page.click("button[data-action=print]")
        page.wait_for_selector("[data-deck-builder][data-printed=done]", state="attached", timeout=180_000)
        summary = page.locator("[data-print-result] .carddb-print-summary").inner_text()
        assert summary.startswith("shmod-deck.pdf: 1 page, 5 cards") and "checked: page sizes" in summary
        outside = page.evaluate("""() => { const panel = document.querySelector('[data-print]').getBoundingClientRect();
            return [...document.querySelectorAll('[data-print] *')].filter((e) => e.getClientRects().length
              && e.getBoundingClientRect().right > panel.right + 1).map((e) => e.tagName + '.' + e.className); }""")
        assert outside == []
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    finally:
        page.context.close()
