"""The gallery's deck bar on a page opened with a deck already checked on an earlier page: it says the verdict at
once, "as last checked", while the rules engine starts (a first visit waits ten seconds and more for it), then the
engine's own check; a deck changed since says only "Checking…"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.site.conftest import BuiltSite, open_holding_script, open_visit
from tests.site.test_site_playtest import kept_deck

pytestmark = pytest.mark.browser

BAR = "() => { const bar = document.querySelector('[data-deck-bar]'); return [bar.dataset.verdict, bar.textContent]; }"


def test_a_deck_checked_before_shows_its_verdict_while_the_engine_starts(chromium: Any, site: BuiltSite,
                                                                       catalogue: Any) -> None:
    _lib, _index, zones = kept_deck(catalogue, "shmod")
    kept = json.dumps({"format": "standard", "zones": zones})
    visit = open_visit(chromium, site, f"localStorage.setItem('carddb.deck.shmod', {json.dumps(kept)});")
    page = visit.page
    try:
        page.goto(f"{site.url}games/shmod/cards/")
        page.wait_for_function(f"() => ({BAR})()[0] === 'legal'")
        # a new page of the same visit (a full load: a new engine, started from nothing)
        page.goto(f"{site.url}games/shmod/cards/?again")
        page.wait_for_selector("[data-deck-bar][data-verdict]", state="attached")
        verdict, text = page.evaluate(BAR)
        engine = page.evaluate("() => window.carddbEngine && window.carddbEngine.state")
        if engine != "ready":  # the point: said before the engine could say it
            assert (verdict, text.split(". ", 1)[1]) == (
                "checking", "Legal when last checked; checking again… Open the deck builder"), text
        page.wait_for_function(f"() => ({BAR})()[0] === 'legal'", timeout=120_000)
        page.locator("button[data-add]").first.click()  # a changed deck: no verdict of another deck is shown
        verdict, text = page.evaluate(BAR)
        assert verdict != "legal" and "when last checked" not in text, text
    finally:
        page.context.close()


def test_a_card_added_before_the_gallery_starts_is_in_the_deck(visit: Any, site: BuiltSite) -> None:
    # gallery.js wires the "+" buttons once the game's card data has come; a click before then is kept by
    # carddb.js and made again then, not lost.
    page = visit.page
    release = open_holding_script(page, f"{site.url}games/shmod/cards/", "gallery.js")
    tile = page.locator("li.carddb-card:has(button[data-add])").first
    key = tile.get_attribute("data-key")
    tile.locator("button[data-add]").first.click()
    assert page.evaluate("localStorage.getItem('carddb.deck.shmod')") is None  # nothing listened yet
    release()
    page.wait_for_function("() => document.querySelector('[data-deck-bar]').dataset.verdict !== undefined")
    zones = json.loads(page.evaluate("localStorage.getItem('carddb.deck.shmod')"))["zones"]
    assert [(k, n) for zone in zones.values() for k, n in zone.items()] == [(key, 1)]
    assert "1 in " in tile.locator("[data-in-deck]").inner_text()
