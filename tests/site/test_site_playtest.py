"""The builder's playtest table in headless Chromium: a sample deck dealt as its rulebook starts a game (the hand
size, a Mini-Battle hand always holding a Basic, Website TCG's components put aside first), a card drawn, and
the odds it shows equal to `carddb deck odds --json` for the same deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carddb.core.checker.check import CardIndex
from carddb.core.decks.parse import parse_deck
from carddb.core.play.playtest import library, odds_data, odds_for
from tests.site.conftest import BuiltSite, open_visit

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
DECKS = {"minibattle": "legal-charizard-line.txt", "website": "legal-alans-site.txt",
         "shmod": "legal-fire-water-fusion.txt"}


def kept_deck(catalogue: Any, game_id: str) -> tuple[Any, Any, dict[str, dict[str, int]]]:
    """The sample deck as the builder keeps it in localStorage, with its library and card index."""
    game = catalogue.game(game_id)
    index = CardIndex(game, catalogue.cards(game_id))
    deck = parse_deck((REPO / "rules" / game_id / "decks" / DECKS[game_id]).read_text(encoding="utf-8"), game)
    zones: dict[str, dict[str, int]] = {}
    for entry in deck.entries:
        key = index.names.resolve(entry.name, entry.qualifier, entry.set_hint).card.key
        zones.setdefault(entry.zone, {})[key] = zones.get(entry.zone, {}).get(key, 0) + entry.count
    return library(deck, game, index), index, zones


def open_playtest(chromium: Any, site: BuiltSite, game_id: str, zones: dict[str, dict[str, int]]) -> Any:
    kept = json.dumps({"format": "standard", "zones": zones})
    visit = open_visit(chromium, site, f"localStorage.setItem('carddb.deck.{game_id}', {json.dumps(kept)});")
    page = visit.page
    page.goto(f"{site.url}games/{game_id}/checker/")
    page.wait_for_selector("[data-deck-builder][data-ready]", state="attached")  # its buttons are heard
    page.locator("[data-playtest] summary").click()
    page.wait_for_function("() => document.querySelector('[data-builder-engine]')?.dataset.state === 'ready'"
                           " || document.querySelector('[data-playtest-odds] table')")
    return page


@pytest.mark.parametrize("game_id", sorted(DECKS))
def test_a_hand_is_dealt_as_the_rulebook_starts_and_a_card_drawn(chromium: Any, site: BuiltSite, catalogue: Any,
                                                                game_id: str) -> None:
    lib, index, zones = kept_deck(catalogue, game_id)
    page = open_playtest(chromium, site, game_id, zones)
    by_key = {card.key: card for card in index.cards}
    for _ in range(3):
        page.locator("[data-playtest] button[data-action=deal]").click()
        page.wait_for_function("() => document.querySelector('[data-playtest]').dataset.dealMs !== undefined")
        hand = [li.inner_text().strip() for li in page.locator("[data-playtest-hand] li").all()]
        setup = [li.inner_text().strip() for li in page.locator("[data-playtest-setup] li").all()]
        assert len(hand) == lib.hand
        if game_id == "minibattle":
            assert any(by_key[key].get("stage") in ("basic", "baby") for key in hand), hand
        if game_id == "website":
            assert setup and all(by_key[key].kind == "component" for key in setup), setup
        else:
            assert setup == []
        assert len(setup) + len(hand) + int(page.locator("[data-playtest-status]").inner_text().split(", ")[1]
                                            .split()[0]) == len(lib.cards)
        page.evaluate("() => { delete document.querySelector('[data-playtest]').dataset.dealMs; }")
    page.locator("[data-playtest] button[data-action=draw]").click()
    assert page.locator("[data-playtest-hand] li").count() == lib.hand + 1
    page.context.close()


@pytest.mark.parametrize("game_id", sorted(DECKS))
def test_the_odds_shown_are_the_command_lines(chromium: Any, site: BuiltSite, catalogue: Any, game_id: str) -> None:
    lib, _index, zones = kept_deck(catalogue, game_id)
    page = open_playtest(chromium, site, game_id, zones)
    page.wait_for_selector("[data-playtest-odds] table")
    first_key = next(iter(zones["main"]))  # a card of the zone drawn from (not website's starting base site)
    page.locator("select[name=odds-target]").select_option(f"card:{first_key}")
    page.locator("input[name=by-turn]").fill("4")
    page.locator("input[name=by-turn]").dispatch_event("change")
    page.wait_for_function("() => document.querySelector('[data-playtest-odds] th')?.textContent === 'at least'"
                           " && document.querySelector('[data-playtest-odds]').textContent.includes('by turn 4')")
    shown = [[cell.inner_text() for cell in row.locator("th, td").all()]
             for row in page.locator("[data-playtest-odds] tbody tr").all()]
    expected = odds_data(lib, odds_for(lib, card=first_key, by_turn=4), 4)
    want = [[str(c1["at_least"]), c1["shown"], c2["shown"]]  # the command line's wording (deck odds prints .shown)
            for row in expected["rows"] for c1, c2 in zip(row["chances"][::2], row["chances"][1::2], strict=True)]
    assert shown == want
    offered = {o.get_attribute("value") for o in page.locator("select[name=odds-target] option").all()}
    drawn = {f"card:{key}" for key in zones["main"]}
    assert {o for o in offered if o.startswith("card:")} == drawn  # only cards of the zone drawn from
    page.context.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_hand_is_a_row_of_cards_not_a_bulleted_list(chromium: Any, site: BuiltSite, catalogue: Any,
                                                        width: int) -> None:
    """Material's ``.md-typeset ul`` (a bullet and a 185 px row per card) once outranked the hand's own style."""
    _lib, _index, zones = kept_deck(catalogue, "shmod")
    page = open_playtest(chromium, site, "shmod", zones)
    page.set_viewport_size({"width": width, "height": 900})
    page.locator("[data-playtest] button[data-action=deal]").click()
    page.wait_for_function("() => document.querySelector('[data-playtest]').dataset.dealMs !== undefined")
    boxes = page.evaluate("""() => [...document.querySelectorAll('[data-playtest-hand] li')].map((li) => {
        const box = li.getBoundingClientRect();
        return {top: Math.round(box.top), right: box.right, height: box.height, width: box.width,
                bullet: getComputedStyle(li).listStyleType};
    })""")
    assert len(boxes) == 7
    assert all(box["bullet"] == "none" and box["width"] < 150 and box["right"] <= width for box in boxes), boxes
    rows = len({box["top"] for box in boxes})
    assert rows == 1 if width == 1280 else rows <= 3, boxes
    page.screenshot(path=str(Path(site.folder).parent / f"playtest-hand-{width}.png"), full_page=False)
    page.context.close()
