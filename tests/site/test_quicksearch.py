"""The gallery's search answered from the built index while the rules engine loads (``quicksearch.js``): on a
cold visit the first query is answered before the engine is ready, then again by the engine, the same cards; and
over every query of docs/search.md and one per field, value and operator of each game, the index's answer is
the command line's (or, where the index is not sure, none: the engine answers)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from carddb.core.search.query import SearchError, search_cards
from tests.core.test_search_query import docs_queries, generated_queries
from tests.site.conftest import BuiltSite, Visit, WithHostileCard, open_visit

pytestmark = pytest.mark.browser

GAMES = ["minibattle", "shmod", "ssbm", "ssq", "website"]
#: Queries the index must answer itself (a cold visit's first search never waits for the engine on these).
SURE = ["fusion", "dragon", "type:fire", "level<=3", "-limited", "kind:spell or kind:trap", '"draw a card"']


def _index(site: BuiltSite, game_id: str) -> dict[str, Any]:
    manifest = json.loads((site.folder / "assets" / "carddb" / "manifest.json").read_text(encoding="utf-8"))
    return json.loads((site.folder / manifest["games"][game_id]["search"]).read_text(encoding="utf-8"))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_index_finds_what_the_command_line_finds(chromium: Any, site: BuiltSite, catalogue: Any,
                                                     game_id: str) -> None:
    if game_id not in site.report.games:
        pytest.skip(f"{game_id} is not in the test catalogue")
    game = catalogue.game(game_id)
    cards = WithHostileCard(catalogue).cards(game_id)
    queries = [*dict.fromkeys([*SURE, *(q for q, g in docs_queries() if g in (None, game_id)),
                               *generated_queries(catalogue, game_id), "constructor:x", "toString", "ß", "a" * 3000,
                               "level<99999999999", "(a", "a)", '"open', "- a"])]
    visit: Visit = open_visit(chromium, site)
    page = visit.page
    try:
        page.goto(f"{site.url}games/{game_id}/cards/")
        answers = page.evaluate("""async ([script, index, queries]) => {
            const { quickSearch } = await import(script);
            return queries.map((query) => quickSearch(index, query));
        }""", [f"{site.url}javascripts/quicksearch.js", _index(site, game_id), queries])
    finally:
        page.context.close()
    answered = 0
    for query, quick in zip(queries, answers, strict=True):
        try:
            expected = [c.key for c in search_cards(query, cards, game.fields,
                                                    {s.code: s.name for s in game.sets})]
        except SearchError:
            assert quick is None, query  # the engine says what is wrong
            continue
        if quick is not None:
            answered += 1
            assert sorted(quick) == sorted(expected), query
    assert answered >= len(queries) // 2
    for query in SURE:
        if query in queries and query.split(":")[0].split("<")[0].lstrip("-") in (*game.fields, "kind", "fusion",
                                                                                   "dragon", '"draw a card"'):
            assert answers[queries.index(query)] is not None, query


def test_a_cold_visits_first_search_is_answered_before_the_engine_is_ready(chromium: Any, site: BuiltSite) -> None:
    visit: Visit = open_visit(chromium, site)
    page = visit.page
    try:
        page.goto(f"{site.url}games/shmod/cards/")
        page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached")
        page.locator("input[name=search-query]").fill("fusion")
        page.wait_for_selector("[data-query-status][data-answered-by]")
        first = page.evaluate("""() => ({by: document.querySelector('[data-query-status]').dataset.answeredBy,
            engine: window.carddbEngine && window.carddbEngine.state,
            text: document.querySelector('[data-query-status]').textContent,
            shown: document.querySelectorAll('li.carddb-card:not([hidden])').length})""")
        assert first["by"] == "index" and first["engine"] != "ready", first
        page.wait_for_function("""() => document.querySelector('[data-query-status]').dataset.answeredBy === 'engine'
            || window.carddbEngine.state === 'failed'""", timeout=120_000)
        assert page.evaluate("() => window.carddbEngine.state") == "ready", page.evaluate(
            "() => window.carddbEngine.detail")
        then = page.evaluate("""() => ({text: document.querySelector('[data-query-status]').textContent,
            shown: document.querySelectorAll('li.carddb-card:not([hidden])').length})""")
        assert then == {"text": first["text"], "shown": first["shown"]} and first["shown"] > 0
    finally:
        page.context.close()
