"""Properties of the checker (hypothesis): it never raises; order does not matter; adding a copy never removes
a copy-limit problem; every problem's card is in the deck."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carddb.core.cards.card import normalise_name
from carddb.core.checker.check import check_deck
from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.decks.parse import parse_deck
from carddb.core.problems import Problem
from tests.core.decks import starter

GAMES = ["ssbm", "shmod", "minibattle", "website"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(game_id=st.sampled_from(GAMES), text=st.text(max_size=400))
def test_never_raises_on_any_text(game_id: str, text: str) -> None:
    game, cards = starter(game_id)
    problems = check_deck(parse_deck(text, game), game, cards)
    assert all(isinstance(p, Problem) and p.message for p in problems)  # and nothing raised: no catch-all hides it


LINE_PIECES = st.sampled_from(["4 ", "4x ", "1\t", "SB:  2 ", "Deck:\n", "Side:\n", "<deck>", "//", "#", "(base) ",
                               "[", "]", "0 ", "Splash Page", "Power Block", "Mario", "Ember Whelp", "\n", "999999 "])


@FAST
@given(game_id=st.sampled_from(GAMES), pieces=st.lists(LINE_PIECES, max_size=40))
def test_never_raises_on_deck_like_text(game_id: str, pieces: list[str]) -> None:
    game, cards = starter(game_id)
    check_deck(parse_deck("".join(pieces), game), game, cards)


def entries(game_id: str):  # type: ignore[no-untyped-def]
    game, cards = starter(game_id)
    names = [*sorted({c.key for c in cards})[:40], "No Such Card"]
    return st.lists(st.tuples(st.sampled_from(list(game.zones)), st.integers(1, 6), st.sampled_from(names)),
                    min_size=1, max_size=25)


def as_deck(game_id: str, rows: list[tuple[str, int, str]]) -> Deck:
    deck = Deck(game=game_id)
    for number, (zone, count, written) in enumerate(rows, start=1):
        name, _, qualifier = written.partition(" (")
        deck.entries.append(DeckEntry(zone=zone, count=count, name=name, qualifier=qualifier.rstrip(")"),
                                      line=number, text=f"{count} {written}"))
    return deck


def signature(problems: list[Problem]) -> Counter:
    return Counter((p.code, p.severity, p.card, p.count, p.limit, p.min, p.max, p.source) for p in problems)


@st.composite
def deck_and_order(draw):  # type: ignore[no-untyped-def]
    game_id = draw(st.sampled_from(GAMES))
    rows = draw(entries(game_id))
    return game_id, rows, draw(st.permutations(rows))


@FAST
@given(case=deck_and_order())
def test_order_of_lines_and_zones_does_not_change_the_problems(case) -> None:  # type: ignore[no-untyped-def]
    game_id, rows, shuffled = case
    game, cards = starter(game_id)
    assert signature(check_deck(as_deck(game_id, rows), game, cards)) == \
        signature(check_deck(as_deck(game_id, shuffled), game, cards))


@FAST
@given(case=deck_and_order(), extra=st.integers(0, 24))
def test_adding_a_copy_never_removes_a_copy_limit_problem(case, extra: int) -> None:  # type: ignore[no-untyped-def]
    game_id, rows, _ = case
    game, cards = starter(game_id)
    before = {p.card for p in check_deck(as_deck(game_id, rows), game, cards) if p.code == "copy-limit"}
    zone, _count, name = rows[extra % len(rows)]
    grown = [*rows, (zone, 1, name)]
    after = {p.card for p in check_deck(as_deck(game_id, grown), game, cards) if p.code == "copy-limit"}
    assert before <= after


@FAST
@given(case=deck_and_order())
def test_every_problems_card_is_in_the_deck(case) -> None:  # type: ignore[no-untyped-def]
    game_id, rows, _ = case
    game, cards = starter(game_id)
    by_key = {c.key: c for c in cards}
    in_deck = set()
    for _zone, _count, written in rows:
        in_deck |= {normalise_name(written), normalise_name(written.partition(" (")[0])}
        if written in by_key:
            in_deck.add(normalise_name(by_key[written].name))
    for problem in check_deck(as_deck(game_id, rows), game, cards):
        assert problem.card is None or normalise_name(problem.card) in in_deck, problem
