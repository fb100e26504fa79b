"""The galleries' search box in headless Chromium: each game's example query (the box's placeholder) is made from
that game's own fields and finds the cards the command line's search finds, and the rules engine that answers it
starts with the gallery page, before anyone types."""

from __future__ import annotations

from typing import Any

import pytest

from carddb.core.search.query import search_cards
from carddb.site.search_example import example_query
from tests.site.conftest import BuiltSite, Visit, WithHostileCard, open_holding_script, open_visit

pytestmark = pytest.mark.browser

GAMES = ["minibattle", "shmod", "ssbm", "ssq", "website"]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_games_example_query_finds_its_cards(chromium: Any, site: BuiltSite, catalogue: Any,
                                                 game_id: str) -> None:
    if game_id not in site.report.games:
        pytest.skip(f"{game_id} is not in the test catalogue")
    game = catalogue.game(game_id)
    cards = WithHostileCard(catalogue).cards(game_id)  # the cards the test site was built with
    query = example_query(game, cards)
    expected = sorted(c.key for c in search_cards(query, cards, game.fields, {s.code: s.name for s in game.sets}))
    assert expected, query
    keys = {k for c in cards for k in game.fields if c.fields.get(k) is not None}
    assert query.split(":")[0].split("<")[0] in keys | {"kind"}  # one of the game's own fields
    visit: Visit = open_visit(chromium, site)
    page = visit.page
    try:
        page.goto(f"{site.url}games/{game_id}/cards/")
        page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached")
        box = page.locator("input[name=search-query]")
        assert box.get_attribute("placeholder") == query
        box.fill(query)
        box.press("Enter")
        page.wait_for_selector("[data-query-status][data-state=done]")
        shown = sorted(tile.get_attribute("data-key")
                       for tile in page.locator("li.carddb-card:not([hidden])").all())
        assert shown == expected
        n = len(expected)
        assert page.locator("[data-query-status]").inner_text() == \
            f"{n} card{'' if n == 1 else 's'} match {query}."
        assert visit.external == []
    finally:
        page.context.close()


def test_the_engine_starts_with_the_gallery_before_anyone_types(visit: Visit, site: BuiltSite) -> None:
    page = visit.page
    page.goto(f"{site.url}games/shmod/cards/")
    page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached")
    # Nothing is typed or focused: the worker's own fetch of Pyodide shows the engine started.
    for _ in range(120):
        if visit.count("pyodide.asm.wasm"):
            break
        page.wait_for_timeout(500)
    assert visit.count("pyodide.asm.wasm") == 1
    assert page.evaluate("document.activeElement === document.body")


def test_a_query_typed_before_the_gallery_starts_is_answered(visit: Visit, site: BuiltSite) -> None:
    # The gallery's script is imported once the page has loaded; a visitor quick enough to type and press Enter
    # before that gets the answer when it starts, not an empty status.
    page = visit.page
    release = open_holding_script(page, f"{site.url}games/shmod/cards/", "gallery.js")
    page.locator("input[name=search-query]").fill("kind:spell")
    page.locator("input[name=search-query]").press("Enter")
    assert page.locator("[data-query-status]").get_attribute("data-state") is None
    release()
    page.wait_for_selector("[data-query-status][data-state=done]")
    assert page.locator("[data-query-status]").inner_text().endswith(" match kind:spell.")
    assert page.locator("li.carddb-card:not([hidden])").count() >= 1
    assert page.locator("li.carddb-card[hidden]").count() >= 1
