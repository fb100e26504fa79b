"""Shared deck links in headless Chromium, opened over a deck the visitor kept: the kept deck stays one click away,
a damaged link says so and changes nothing, cards, zones and formats the game does not have are each described,
and a link of a megabyte opens a deck no bigger than twice what the game allows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from carddb.core.cards.slugs import card_stems
from carddb.site.card_data import game_cards, link_limits
from tests.site.conftest import BuiltSite, Visit, open_visit
from tests.site.test_site_builder import shown_deck, wait_verdict

pytestmark = pytest.mark.browser

GAME = "shmod"


@pytest.fixture
def monsters(catalogue: Any) -> list[tuple[str, str]]:
    """(key, page stem) of shmod's main-deck monsters, in name order."""
    cards = sorted((c for c in catalogue.cards(GAME) if c.kind == "monster"), key=lambda c: c.key)
    stems = card_stems(c.key for c in catalogue.cards(GAME))
    return [(c.key, stems[c.key]) for c in cards]


@pytest.fixture
def kept(chromium: Any, site: BuiltSite, monsters: list[tuple[str, str]]) -> Iterator[tuple[Visit, list]]:
    """A browser that kept a 52-card deck (13 monsters, 4 of each) from an earlier visit."""
    visit = open_visit(chromium, site)
    entries = [("main", key, 4) for key, _ in monsters[:13]]
    deck = {"format": "standard", "zones": {"main": {key: n for _, key, n in entries}}}
    visit.page.goto(f"{site.url}games/{GAME}/cards/")
    visit.page.evaluate(f"localStorage.setItem('carddb.deck.{GAME}', {json.dumps(json.dumps(deck))})")
    yield visit, entries
    visit.page.context.close()


def open_link(visit: Visit, site: BuiltSite, fragment: str) -> str:
    page = visit.page
    page.goto(f"{site.url}games/{GAME}/checker/#deck={fragment}")
    page.wait_for_selector("[data-deck-builder][data-ready]", state="attached")
    page.wait_for_function("() => document.querySelector('[data-builder-note]').textContent.length > 0")
    return page.locator("[data-builder-note]").inner_text()


def test_a_link_over_a_kept_deck_keeps_it_one_click_away(kept: tuple[Visit, list], site: BuiltSite,
                                                         monsters: list[tuple[str, str]]) -> None:
    visit, entries = kept
    key, stem = monsters[-1]
    note = open_link(visit, site, f"standard;main:{stem}")
    assert note == "Opened the deck of the link (1 card). Your previous deck (52 cards) – restore"
    wait_verdict(visit.page, "illegal")
    assert shown_deck(visit.page) == [("main", key, 1)]
    # Still there after a reload (the link is gone from the address, so the reload does not open it again).
    visit.page.reload()
    visit.page.wait_for_selector("button[data-restore]")
    visit.page.click("button[data-restore]")
    assert visit.page.locator("[data-builder-note]").inner_text() == "Your previous deck is back (52 cards)."
    visit.page.wait_for_function("() => document.querySelectorAll('[data-deck-view] li.carddb-deckcard').length == 13")
    assert sorted(shown_deck(visit.page)) == sorted(entries)
    assert visit.external == [] and visit.dialogs == []


def test_a_damaged_link_says_so_and_changes_nothing(kept: tuple[Visit, list], site: BuiltSite) -> None:
    visit, entries = kept
    note = open_link(visit, site, "%%%zz")
    assert note == ("This link's deck cannot be read (it is damaged or cut short): nothing was opened. "
                    "Your deck is as you left it.")
    wait_verdict(visit.page, "legal", "illegal")  # the builder works: the kept deck is checked, and grows
    assert sorted(shown_deck(visit.page)) == sorted(entries)
    visit.page.locator("[data-deck-view] li.carddb-deckcard").first.locator("button[data-add]").click()
    visit.page.wait_for_function("() => [...document.querySelectorAll('[data-deck-view] li.carddb-deckcard')]"
                                 ".some((tile) => tile.dataset.count === '5')")


def test_unknown_cards_zones_and_formats_are_each_described(visit: Visit, site: BuiltSite,
                                                            monsters: list[tuple[str, str]]) -> None:
    (first, first_stem), (_, second_stem) = monsters[:2]
    note = open_link(visit, site, f"no-such-format;main:{first_stem}*2,no-such-card,{first_stem}*x;"
                                  f"graveyard:{second_stem}*3")
    assert note == ("Opened the deck of the link (2 cards). Not as sent: 1 card is not on this site: no-such-card. "
                    "3 cards in a zone this game does not have (graveyard). 1 line has no readable count. "
                    'Its format "no-such-format" is not one of this game\'s: the deck is checked as Standard.')
    assert visit.page.locator("select[name=deck-format]").input_value() == "standard"
    wait_verdict(visit.page, "illegal")
    assert shown_deck(visit.page) == [("main", first, 2)]


def test_a_huge_link_opens_at_most_twice_what_the_game_allows(visit: Visit, site: BuiltSite,
                                                              catalogue: Any) -> None:
    limits = link_limits(game_cards(catalogue.game(GAME), catalogue.cards(GAME)))
    assert limits == {"deck": 2 * (60 + 15 + 60), "copies": 8}  # shmod: main 50 or more, side 15, stack open
    stems = card_stems(c.key for c in catalogue.cards(GAME)).values()
    assert len(stems) * limits["copies"] > limits["deck"]
    lines = ",".join(f"{stem}*9999" for stem in stems)
    fragment = "standard;" + ";".join(f"main:{lines}" for _ in range(1 + 1_000_000 // len(lines)))
    assert len(fragment) > 1_000_000
    note = open_link(visit, site, fragment)
    assert note.startswith(f"Opened the deck of the link ({limits['deck']} cards). Not as sent: ")
    assert "held to 8 copies, twice what the game allows" in note
    assert "The deck was held to 270 cards, twice what the game allows" in note
    wait_verdict(visit.page, "illegal")
    deck = shown_deck(visit.page)
    assert sum(n for _, _, n in deck) == limits["deck"] and max(n for _, _, n in deck) == limits["copies"]
