"""The playtest table: a deck shuffled and dealt as its rulebook starts a game (``[playtest]`` of game.toml), and
the exact odds of drawing a card or a kind, in the opening hand or by a turn.

Pure standard library, so the deck builder runs the same code in the browser (Pyodide) as ``carddb deck odds``.

The odds are exact fractions. The deck is cut into the few classes of card that matter to one question (the
target or not, crossed with what the setup takes and what an opening hand must hold); every way a setup reveal
and an opening hand can fall across those classes is counted, weighted by its number of combinations, and the
draws after the hand are a hypergeometric tail. "Again until" is a condition, not a cost: a hand drawn until it
holds a Basic is a hand drawn once, given that it holds one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction
from math import comb

from carddb.core.cards.card import Card
from carddb.core.checker.check import card_index
from carddb.core.decks.deck import Deck
from carddb.core.game.definition import GameDefinition, PlaytestRules
from carddb.core.game.selectors import Selector
from carddb.errors import InputError

#: A reveal or an opening hand that never holds what the rulebook asks is dealt again at most this often by
#: ``deal`` (the odds need no such bound: they condition on it exactly).
MAX_DEALS = 1000


@dataclass
class Library:
    """The cards a game draws from, one per copy in deck order, with the numbers the rulebook draws them by."""

    game: GameDefinition
    rules: PlaytestRules
    cards: list[Card]
    hand: int
    per_turn: int
    problems: list[str] = field(default_factory=list)  # why it cannot be dealt as the rulebook says

    def seen(self, turn: int, going_first: bool = True) -> int:
        """How many cards the player has drawn into hand by their turn ``turn`` (0: the opening hand alone)."""
        draws = turn if self.rules.first_turn_draws or not going_first else max(0, turn - 1)
        return self.hand + self.per_turn * draws


def library(deck: Deck, game: GameDefinition, cards: Sequence[Card]) -> Library:
    """The deck's drawn zones as a library, or one with ``problems`` (no ``[playtest]``, an unknown card, the
    card that sets the hand size missing)."""
    rules = game.playtest
    if rules is None:
        return Library(game, PlaytestRules(0, 0, ()), [], 0, 0, [f"{game.name} declares no opening hand "
                                                                     "([playtest] in game.toml)"])
    index = card_index(game, cards)
    drawn: list[Card] = []
    stat_card: Card | None = None
    problems: list[str] = []
    for entry in deck.entries:
        card = index.names.resolve(entry.name, entry.qualifier, entry.set_hint).card
        if entry.zone in rules.draw_zones:
            if card is None:
                problems.append(f"no card called {entry.written!r}: its {entry.count} left out of the odds")
                continue
            drawn += [card] * entry.count
        elif entry.zone == rules.stat_zone and card is not None:
            stat_card = card
    numbers = []
    for key, value in (("opening hand", rules.hand), ("draws a turn", rules.per_turn)):
        if isinstance(value, int):
            numbers.append(value)
            continue
        raw = stat_card.get(value) if stat_card is not None else None
        if not isinstance(raw, int) or isinstance(raw, bool):
            zone = game.zones[rules.stat_zone].label
            problems.append(f"the {key} is the {game.fields[value].label} of the deck's {zone} card, which the "
                            "deck does not have")
            raw = 0
        numbers.append(max(0, raw))
    return Library(game, rules, drawn, min(numbers[0], len(drawn)), numbers[1], problems)


# --------------------------------------------------------------------------------------------------- dealing
@dataclass
class Opening:
    """One dealt start: what the setup took, the hand, the deck left (top first), and how often it was dealt."""

    setup: list[Card]
    hand: list[Card]
    deck: list[Card]
    deals: int = 1

    def draw(self, count: int = 1) -> list[Card]:
        """The next ``count`` cards off the deck, into the hand (fewer when the deck runs out)."""
        taken, self.deck = self.deck[:count], self.deck[count:]
        self.hand += taken
        return taken


def deal(lib: Library, rng: random.Random) -> Opening:
    """Shuffle and start as the rulebook says: the setup reveal until it takes a card, then the opening hand
    until it holds what it must (each time shuffled afresh); after ``MAX_DEALS`` the last deal stands."""
    rules, cards, deals = lib.rules, list(lib.cards), 0
    setup: list[Card] = []
    if rules.setup_takes is not None and rules.setup_reveal:
        for deals in range(1, MAX_DEALS + 1):  # noqa: B007 (the count is kept)
            rng.shuffle(cards)
            revealed = cards[:rules.setup_reveal]
            setup = [c for c in revealed if rules.setup_takes.matches(c)]
            if setup:
                break
        for card in setup:
            cards.remove(card)
    hand_deals = 0
    for hand_deals in range(1, MAX_DEALS + 1):  # noqa: B007
        rng.shuffle(cards)
        if rules.redraw_until is None or any(rules.redraw_until.matches(c) for c in cards[:lib.hand]):
            break
    return Opening(setup, cards[:lib.hand], cards[lib.hand:], max(deals, hand_deals))


# ---------------------------------------------------------------------------------------------------- odds
@dataclass(frozen=True)
class Chance:
    """The chance of at least ``at_least`` target cards among the first ``seen`` drawn into hand."""

    at_least: int
    seen: int
    value: Fraction | None  # None: the game cannot start with this deck (no card the setup or hand needs)

    @property
    def percent(self) -> float | None:
        return None if self.value is None else float(self.value) * 100

    @property
    def shown(self) -> str:
        """The chance as a player reads it: ``12.5 %``; ``< 0.1 %`` and ``> 99.9 %`` for a chance that rounds to
        0 or 100 without being it (a 1-in-3,000 hand is not "0.0 %"), ``0 %`` and ``100 %`` only when exact."""
        if self.value is None:
            return "never"
        if self.value in (0, 1):
            return f"{int(self.value) * 100} %"
        percent = float(self.value) * 100
        if percent < 0.05:
            return "< 0.1 %"
        if percent >= 99.95:
            return "> 99.9 %"
        return f"{percent:.1f} %"


def chance(lib: Library, target: Callable[[Card], bool], at_least: int = 1, seen: int | None = None) -> Chance:
    """The exact chance that at least ``at_least`` cards ``target`` matches are among the first ``seen`` cards
    drawn into hand (default: the opening hand), the setup and the redraws as the rulebook deals them."""
    seen = lib.hand if seen is None else seen
    rules = lib.rules
    classes: dict[tuple[bool, bool, bool], int] = {}
    for card in lib.cards:
        key = (bool(target(card)), rules.setup_takes is not None and rules.setup_reveal > 0
               and rules.setup_takes.matches(card), rules.redraw_until is not None and rules.redraw_until.matches(card))
        classes[key] = classes.get(key, 0) + 1
    keys = list(classes)
    counts = [classes[k] for k in keys]
    value = _after_setup(lib, keys, counts, at_least, seen)
    return Chance(at_least, seen, value)


def _after_setup(lib: Library, keys: list[tuple[bool, bool, bool]], counts: list[int], at_least: int,
                 seen: int) -> Fraction | None:
    rules = lib.rules
    reveal = min(rules.setup_reveal, sum(counts)) if rules.setup_takes is not None else 0
    if not reveal:
        return _after_hand(lib, keys, counts, at_least, seen)
    takes = [k[1] for k in keys]
    kept, ways_taken = Fraction(0), 0
    for split in _splits(counts, reveal):
        taken = [n if takes[i] else 0 for i, n in enumerate(split)]
        if not any(taken):
            continue  # nothing to put on the site: shuffled back and revealed again
        ways = _ways(counts, split)
        ways_taken += ways
        rest = _after_hand(lib, keys, [c - t for c, t in zip(counts, taken, strict=True)], at_least, seen)
        if rest is None:
            return None
        kept += ways * rest
    return kept / ways_taken if ways_taken else None


def _after_hand(lib: Library, keys: list[tuple[bool, bool, bool]], counts: list[int], at_least: int,
                seen: int) -> Fraction | None:
    deck = sum(counts)
    hand = min(lib.hand, deck)
    seen = min(max(seen, hand), deck)
    must_hold = [k[2] for k in keys] if lib.rules.redraw_until is not None else None
    targets = [k[0] for k in keys]
    good, allowed = 0, 0
    for split in _splits(counts, hand):
        if must_hold is not None and not any(n for n, m in zip(split, must_hold, strict=True) if m):
            continue  # a hand without what it must hold is shuffled back and drawn again
        ways = _ways(counts, split)
        allowed += ways
        in_hand = sum(n for n, t in zip(split, targets, strict=True) if t)
        left_targets = sum(c for c, t in zip(counts, targets, strict=True) if t) - in_hand
        good += ways * _at_least(deck - hand, left_targets, seen - hand, at_least - in_hand)
    if not allowed:
        return None
    return Fraction(good) / allowed


def _at_least(population: int, successes: int, draws: int, wanted: int) -> Fraction | int:
    """Hypergeometric: the chance of at least ``wanted`` successes in ``draws`` from ``population``."""
    if wanted <= 0:
        return 1
    if draws <= 0:
        return 0
    hits = sum(comb(successes, k) * comb(population - successes, draws - k)
               for k in range(wanted, min(successes, draws) + 1))
    return Fraction(hits, comb(population, draws))


def _splits(counts: list[int], size: int) -> Iterator[list[int]]:
    """Every way ``size`` cards fall across classes of ``counts`` cards (how many of each)."""
    if not counts:
        if size == 0:
            yield []
        return
    rest_capacity = sum(counts[1:])
    for first in range(max(0, size - rest_capacity), min(counts[0], size) + 1):
        for tail in _splits(counts[1:], size - first):
            yield [first, *tail]


def _ways(counts: list[int], split: list[int]) -> int:
    ways = 1
    for n, k in zip(counts, split, strict=True):
        ways *= comb(n, k)
    return ways


# ------------------------------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class OddsRow:
    """One line of an odds table: a card (or a kind, or a query), its copies, and the chances asked."""

    label: str
    copies: int
    chances: tuple[Chance, ...]


def odds_table(lib: Library, targets: Sequence[tuple[str, Callable[[Card], bool]]], by_turn: int,
               going_first: bool = True, at_least: Sequence[int] = (1,)) -> list[OddsRow]:
    """For each named target: its copies in the library, and the chance of ``at_least`` copies in the opening
    hand and by turn ``by_turn``."""
    rows = []
    for label, target in targets:
        copies = sum(1 for c in lib.cards if target(c))
        chances = []
        for k in at_least:
            chances.append(chance(lib, target, k))
            chances.append(chance(lib, target, k, lib.seen(by_turn, going_first)))
        rows.append(OddsRow(label, copies, tuple(chances)))
    return rows


def odds_for(lib: Library, card: str = "", kind: str = "", by_turn: int = 3,
             going_first: bool = True) -> list[OddsRow]:
    """``carddb deck odds`` and the builder's table: every card's chance of at least one copy, or, for one
    ``card`` (a name or key) or ``kind``, of at least 1, 2, ... of them."""
    if card and kind:
        raise InputError("give a card or a kind, not both")
    if card:
        wanted = [c for c in lib.cards if card.casefold() in (c.key.casefold(), c.name.casefold())]
        if not wanted:
            close = get_close_matches(card, sorted({c.key for c in lib.cards}), n=1, cutoff=0.6)
            raise InputError(f"the deck draws no card called {card!r}"
                             + (f"; did you mean {close[0]!r}?" if close else ""))
        # At least k copies for k up to what is drawn by then: beyond that every chance is nought (a deck of
        # 200 lines of 999 copies asked 199,800 rows of its hypergeometric tail).
        targets, top = [(wanted[0].key, _is_card(wanted[0].key))], min(len(wanted), lib.seen(by_turn, going_first))
    elif kind:
        if kind not in lib.game.kinds:
            raise InputError(f"{lib.game.name} has no kind {kind!r}; kinds: {', '.join(lib.game.kinds)}")
        copies = sum(1 for c in lib.cards if c.kind == kind)
        targets, top = [(kind, is_kind(kind))], min(5, copies, lib.seen(by_turn, going_first))
    else:
        targets, top = each_card(lib), 1
    return odds_table(lib, targets, by_turn, going_first, range(1, max(1, top) + 1))


def each_card(lib: Library) -> list[tuple[str, Callable[[Card], bool]]]:
    """A target per distinct card of the library, in deck order."""
    seen: dict[str, Callable[[Card], bool]] = {}
    for card in lib.cards:
        if card.key not in seen:
            seen[card.key] = _is_card(card.key)
    return [(key, target) for key, target in seen.items()]


def _is_card(key: str) -> Callable[[Card], bool]:
    return lambda card: card.key == key


def is_kind(kind: str) -> Callable[[Card], bool]:
    return lambda card: card.kind == kind


def how_dealt(lib: Library) -> str:
    """The start the odds assume, in a sentence: ``an opening hand of 7 from the 50 cards of the Deck; ...``."""
    rules, game = lib.rules, lib.game
    zones = " and ".join(game.zones[z].label for z in rules.draw_zones if z in game.zones) or "deck"
    parts = []
    source = f"the {len(lib.cards)} cards of the {zones}"
    if rules.setup_takes is not None and rules.setup_reveal:
        parts.append(f"the top {rules.setup_reveal} of {source} turned over, each {describe(rules.setup_takes, game)} "
                     "among them put aside, the rest shuffled back (again until one is)")
        source = "what is left"
    redraw = f", drawn again until it holds a {describe(rules.redraw_until, game)}" if rules.redraw_until else ""
    parts.append(f"an opening hand of {lib.hand} from {source}{redraw}")
    parts.append(f"then {lib.per_turn} a turn" + ("" if rules.first_turn_draws else
                                                  " (none on the first turn of the player who goes first)"))
    return "; ".join(parts)


def describe(selector: Selector, game: GameDefinition) -> str:
    """A selector in words, for "a ..." or "each ...": ``card with Stage baby or basic``, ``Component``."""
    words = []
    if selector.kinds:
        words.append(" or ".join(sorted(game.kinds[k].label if k in game.kinds else k for k in selector.kinds)))
    if selector.names:
        words.append(" or ".join(sorted(selector.names)))
    for key, values in selector.has:
        label = game.fields[key].label if key in game.fields else key
        words.append(f"{label} {' or '.join(sorted(values))}")
    if selector.flag:
        words.append(game.fields[selector.flag].label if selector.flag in game.fields else selector.flag)
    if selector.any_of:
        words.append(" or ".join(describe(s, game) for s in selector.any_of))
    text = ", ".join(words) or "card"
    return text if selector.kinds else f"card with {text}"


def odds_data(lib: Library, rows: Sequence[OddsRow], by_turn: int, going_first: bool = True) -> dict[str, object]:
    """The odds as plain data, for ``--json`` and the browser: fractions as ``"a/b"`` beside their percent."""
    def one(c: Chance) -> dict[str, object]:
        return {"at_least": c.at_least, "seen": c.seen,
                "chance": None if c.value is None else f"{c.value.numerator}/{c.value.denominator}",
                "percent": None if c.percent is None else round(c.percent, 2), "shown": c.shown}

    return {"game": lib.game.id, "dealt": how_dealt(lib), "cards": len(lib.cards), "opening_hand": lib.hand,
            "per_turn": lib.per_turn, "by_turn": by_turn, "going_first": going_first,
            "seen_by_turn": lib.seen(by_turn, going_first), "rule": lib.game.rule_link(lib.rules.rule),
            "problems": list(lib.problems),
            "rows": [{"target": r.label, "copies": r.copies, "chances": [one(c) for c in r.chances]} for r in rows]}
