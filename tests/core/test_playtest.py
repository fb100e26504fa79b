"""The playtest table's odds: exact, equal to a count of every possible deal card by card, and dealt as the
rulebooks start a game (setup reveal, hands drawn again, hand size from the character card)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb

import pytest

from carddb.core.cards.card import Card
from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.game.definition import load_game_text
from carddb.core.play.playtest import Chance, chance, deal, how_dealt, library, odds_data, odds_table

GAME = """
[game]
id = "tiny"
name = "Tiny"

[fields.stage]
type = "choice"
choices = ["basic", "evolved"]
[fields.wit]
type = "int"

[kinds.unit]
fields = ["stage"]
[kinds.part]
fields = []
[kinds.hero]
fields = ["wit"]

[zones.hero]
max = 1
takes = { kind = ["hero"] }
[zones.main]
takes = { kind = ["unit", "part"] }
"""

PLAYTEST = {
    "plain": 'opening_hand = 3\ndraw_per_turn = 1\ndraw_zones = ["main"]',
    "redraw": 'opening_hand = 3\ndraw_per_turn = 1\ndraw_zones = ["main"]\n'
              'redraw_until = { has = { stage = ["basic"] } }',
    "setup": 'opening_hand = 2\ndraw_per_turn = 1\ndraw_zones = ["main"]\nsetup_reveal = 3\n'
             'setup_takes = { kind = ["part"] }',
    "hero": 'opening_hand = "wit"\ndraw_per_turn = 2\nstat_zone = "hero"\ndraw_zones = ["main"]',
}

CARDS = [Card("tiny", "Basic A", "unit", fields={"stage": "basic"}),
         Card("tiny", "Evolved B", "unit", fields={"stage": "evolved"}),
         Card("tiny", "Part C", "part"),
         Card("tiny", "Hero", "hero", fields={"wit": 4})]
DECK = Deck("tiny", [DeckEntry("hero", 1, "Hero"), DeckEntry("main", 2, "Basic A"), DeckEntry("main", 4, "Evolved B"),
                     DeckEntry("main", 3, "Part C")])


def game(kind: str):  # type: ignore[no-untyped-def]
    return load_game_text(GAME + "\n[playtest]\n" + PLAYTEST[kind])


def brute_force(lib, target, at_least: int, seen: int) -> Fraction:  # type: ignore[no-untyped-def]
    """Every deal card by card: each stage a uniform choice among the deals its rule lets stand."""
    rules, cards = lib.rules, list(range(len(lib.cards)))
    reveals = [()]
    if rules.setup_takes is not None:
        reveals = [r for r in itertools.combinations(cards, rules.setup_reveal)
                   if any(rules.setup_takes.matches(lib.cards[i]) for i in r)]
    total = Fraction(0)
    for revealed in reveals:
        left = [i for i in cards if not (i in revealed and rules.setup_takes.matches(lib.cards[i]))]
        hands = [h for h in itertools.combinations(left, lib.hand)
                 if rules.redraw_until is None or any(rules.redraw_until.matches(lib.cards[i]) for i in h)]
        for hand in hands:
            rest = [i for i in left if i not in hand]
            extra = min(seen - lib.hand, len(rest))
            hits = sum(1 for more in itertools.combinations(rest, extra)
                       if sum(target(lib.cards[i]) for i in (*hand, *more)) >= at_least)
            total += Fraction(hits, comb(len(rest), extra)) / len(hands) / len(reveals)
    return total


@pytest.mark.parametrize("kind", ["plain", "redraw", "setup", "hero"])
@pytest.mark.parametrize("target_name", ["Basic A", "Evolved B", "Part C"])
def test_the_odds_equal_a_count_of_every_deal(kind: str, target_name: str) -> None:
    lib = library(DECK, game(kind), CARDS)
    assert lib.problems == []

    def target(card: Card) -> bool:
        return card.name == target_name

    for at_least, turn in itertools.product((1, 2), (0, 1, 2)):
        seen = lib.seen(turn)
        assert chance(lib, target, at_least, seen).value == brute_force(lib, target, at_least, seen), \
            (at_least, turn)


def test_the_plain_hypergeometric_figure() -> None:
    lib = library(DECK, game("plain"), CARDS)
    # at least one of the 2 Basic A among 3 cards of 9: 1 - C(7,3)/C(9,3)
    assert chance(lib, lambda c: c.name == "Basic A").value == 1 - Fraction(comb(7, 3), comb(9, 3))


def test_a_hand_drawn_again_until_it_holds_a_basic_always_holds_one() -> None:
    lib = library(DECK, game("redraw"), CARDS)
    assert chance(lib, lambda c: c.get("stage") == "basic").value == 1
    rng = random.Random(7)
    for _ in range(200):
        opening = deal(lib, rng)
        assert any(card.get("stage") == "basic" for card in opening.hand)
        assert len(opening.hand) == 3 and len(opening.deck) == 6


def test_the_setup_puts_aside_what_it_takes_before_the_hand() -> None:
    lib = library(DECK, game("setup"), CARDS)
    rng = random.Random(3)
    for _ in range(200):
        opening = deal(lib, rng)
        assert opening.setup and all(card.kind == "part" for card in opening.setup)
        assert len(opening.setup) + len(opening.hand) + len(opening.deck) == 9
    assert "the top 3 of the 9 cards of the Main turned over, each Part among them put aside" in how_dealt(lib)


def test_the_hand_size_comes_from_the_hero_card() -> None:
    lib = library(DECK, game("hero"), CARDS)
    assert (lib.hand, lib.per_turn, lib.seen(2)) == (4, 2, 8)
    without = library(Deck("tiny", DECK.entries[1:]), game("hero"), CARDS)
    assert without.problems == ["the opening hand is the wit of the deck's Hero card, which the deck does not "
                                "have"]


def test_no_setup_card_means_the_game_never_starts() -> None:
    deck = Deck("tiny", [DeckEntry("main", 6, "Evolved B")])
    lib = library(deck, game("setup"), CARDS)
    assert chance(lib, lambda c: True).value is None


def test_json_gives_exact_fractions() -> None:
    lib = library(DECK, game("plain"), CARDS)
    data = odds_data(lib, odds_table(lib, [("Basic A", lambda c: c.name == "Basic A")], 2), 2)
    first = data["rows"][0]["chances"][0]  # type: ignore[index]
    assert first == {"at_least": 1, "seen": 3, "chance": "7/12", "percent": 58.33, "shown": "58.3 %"}
    assert data["seen_by_turn"] == 5


def test_a_bad_playtest_table_names_its_key() -> None:
    from carddb.errors import DefinitionError

    bad = GAME + '\n[playtest]\nopening_hand = "stage"\ndraw_per_turn = 1\n'
    with pytest.raises(DefinitionError, match=r"playtest\.opening_hand"):
        load_game_text(bad)


@pytest.mark.parametrize(("value", "shown"), [
    (Fraction(0), "0 %"), (Fraction(1), "100 %"), (Fraction(1, 3000), "< 0.1 %"), (Fraction(2999, 3000), "> 99.9 %"),
    (Fraction(1, 8), "12.5 %"), (None, "never")])
def test_a_small_chance_is_never_shown_as_nought(value: Fraction | None, shown: str) -> None:
    assert Chance(1, 7, value).shown == shown
