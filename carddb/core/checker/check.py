"""``check_deck(deck, game, cards)``: every problem of a deck, in one pass. Pure standard library.

The function never raises for a broken rule and never prints. The cards of a game are indexed once
(``CardIndex``: names, and per card the zones that take it and its copy limit) and the index is cached, so
a check costs a few dictionary look-ups per deck line. The rules themselves come from the game definition:
zones and their sizes, copy limits and modifiers, sum caps, and the ``checks`` of ``checks.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from carddb.core.cards.card import Card, normalise_name
from carddb.core.cards.names import NameIndex
from carddb.core.checker.checks import CHECKS, Placed, owned_problems
from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.game.definition import CopyLimit, GameDefinition
from carddb.core.problems import Problem

#: normalise_name, memoised: the same few names are normalised on every check.
_norm = lru_cache(maxsize=1 << 16)(normalise_name)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the checker needs to know about one card, computed once per game."""

    zones: frozenset[str]
    key: str
    identity: str
    limit: int | None
    source: str
    rule: str
    groups: tuple[int, ...]  # indexes of the group-scope copy limits that count this card
    memo: dict = field(default_factory=dict, compare=False)  # what the checks remember about the card


class CardIndex:
    """The cards of one game (under one format), indexed for checking."""

    def __init__(self, game: GameDefinition, cards: Sequence[Card]) -> None:
        self.game = game
        self.cards = cards
        self.names = NameIndex(cards, dict(game.aliases), {s.name: s.code for s in game.sets})
        copies = game.copies
        limits = copies.limits if copies else ()
        self.card_limits: tuple[CopyLimit, ...] = tuple(x for x in limits if x.scope == "card")
        self.group_limits: tuple[CopyLimit, ...] = tuple(x for x in limits if x.scope == "group")
        self._facts: dict[int, CardFacts] = {}

    def facts(self, card: Card) -> CardFacts:
        found = self._facts.get(id(card))
        if found is None:
            found = self._facts[id(card)] = self._compute(card)
        return found

    def _compute(self, card: Card) -> CardFacts:
        game = self.game
        zones = frozenset(z.id for z in game.zones.values() if z.takes.matches(card))
        copies = game.copies
        if copies is None:
            return CardFacts(zones, card.key, card.key, None, "", "", ())
        identity = card.key if copies.identity == "card" else _norm(card.name)
        limit, source, rule = copies.default, copies.default_source, copies.rule
        per_card = card.get(copies.per_card_field) if copies.per_card_field else None
        if isinstance(per_card, int) and not isinstance(per_card, bool):
            limit, source = per_card, copies.per_card_source
        for extra in self.card_limits:
            if (limit is None or extra.limit < limit) and extra.applies.matches(card):
                limit, source, rule = extra.limit, extra.source, extra.rule or copies.rule
        groups = tuple(i for i, g in enumerate(self.group_limits) if g.applies.matches(card))
        return CardFacts(zones, card.key, identity, limit, source, rule, groups)


_INDEXES: dict[tuple[int, int], tuple[GameDefinition, Sequence[Card], CardIndex]] = {}


def card_index(game: GameDefinition, cards: Sequence[Card] | CardIndex) -> CardIndex:
    """The cached index of ``cards`` under ``game`` (built on first use; a changed list is a new object)."""
    if isinstance(cards, CardIndex):
        return cards if cards.game is game else CardIndex(game, cards.cards)
    key = (id(game), id(cards))
    hit = _INDEXES.get(key)
    if hit is not None and hit[0] is game and hit[1] is cards and len(hit[2].names.cards) == len(cards):
        return hit[2]
    if len(_INDEXES) >= 16:
        _INDEXES.pop(next(iter(_INDEXES)))
    index = CardIndex(game, cards)
    _INDEXES[key] = (game, cards, index)
    return index


def check_deck(deck: Deck, game: GameDefinition, cards: Sequence[Card] | CardIndex,
               collection: Mapping[str, int] | None = None, collection_name: str = "") -> list[Problem]:
    """Every problem of ``deck`` under ``game``'s rules, errors first, each with its line where it has one.

    ``collection`` (card key -> copies owned) adds ``not-owned`` problems, as ``deck check --collection``.
    """
    # No catch-all: a bug in the checker raises, and reaches the crash report (or the browser's error line),
    # never a player's verdict dressed as a parse problem.
    return _check(deck, game, card_index(game, cards), collection, collection_name)


def _check(deck: Deck, game: GameDefinition, index: CardIndex, collection: Mapping[str, int] | None,
           collection_name: str) -> list[Problem]:
    problems = list(deck.problems)
    placed: list[Placed] = []
    facts: list[CardFacts] = []
    for entry in deck.entries:
        if entry.zone not in game.zones:  # a hand-made link or entry list: reported, then left out of every check
            problems.append(_unknown_zone(entry, game))
            continue
        card = _resolve(entry, game, index, problems)
        if card is not None:
            known = index.facts(card)
            placed.append(Placed(entry, card, known.key, entry.zone in known.zones, known.memo))
            facts.append(known)
    _zone_sizes(deck, game, problems)
    _wrong_zones(placed, facts, game, problems)
    _copy_limits(placed, facts, game, index, problems)
    _sum_caps(placed, game, problems)
    # A card in a zone that does not take it is reported once, as wrong-zone, and left out of the checks.
    in_place = [p for p in placed if p.home]
    for check in game.checks:
        problems.extend(CHECKS[check.type](check, game, in_place))
    if collection is not None:
        problems.extend(owned_problems(placed, game, collection, collection_name))
    problems.sort(key=Problem.sort_key)
    return problems


def _resolve(entry: DeckEntry, game: GameDefinition, index: CardIndex, problems: list[Problem]) -> Card | None:
    found = index.names.resolve(entry.name, entry.qualifier, entry.set_hint)
    if found.card is not None:
        return found.card
    if found.status == "ambiguous":
        example = f"{entry.count} {found.choices[0]}"
        problems.append(Problem(
            code="ambiguous-card", zone=entry.zone, card=entry.name, line=entry.line, count=entry.count,
            rule=game.rule_link(""), suggestions=found.choices,
            message=f"Several cards are called {entry.name}: {', '.join(found.choices)}. "
                    f"Say which, e.g. '{example}'."))
    elif found.status == "no-version":
        problems.append(Problem(
            code="unknown-card", zone=entry.zone, card=entry.written, line=entry.line, count=entry.count,
            rule=game.rule_link(""), suggestions=found.choices[:3],
            message=f"There is no {entry.name} of version or set {entry.qualifier!r}; "
                    f"it exists as {', '.join(found.choices)}."))
    else:
        hint = f" Did you mean {_or_list(found.choices)}?" if found.choices else ""
        problems.append(Problem(
            code="unknown-card", zone=entry.zone, card=entry.written, line=entry.line, count=entry.count,
            rule=game.rule_link(""), suggestions=found.choices,
            message=f"No card called {entry.written!r} in {game.name}.{hint}"))
    return None


def _unknown_zone(entry: DeckEntry, game: GameDefinition) -> Problem:
    zones = _or_list([f"{zone.label} ({zone.id})" for zone in game.zones.values()])
    return Problem(code="unknown-zone", zone=entry.zone, card=entry.written, line=entry.line, count=entry.count,
                   rule=game.rule_link(""),
                   message=f"{entry.count} {entry.written} is in a zone {game.name} does not have "
                           f"({entry.zone!r}); its zones are {zones}.")


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _or_list(names: Sequence[str]) -> str:
    if not names:
        return "none"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _zone_sizes(deck: Deck, game: GameDefinition, problems: list[Problem]) -> None:
    counts = deck.zone_counts(tuple(game.zones))
    for zone in game.zones.values():
        count = counts.get(zone.id, 0)
        if zone.or_empty and count == 0:
            continue
        if count >= zone.minimum and (zone.maximum is None or count <= zone.maximum):
            continue
        noun = "card" if count == 1 else "cards"
        problems.append(Problem(
            code="zone-size", zone=zone.id, count=count, min=zone.minimum, max=zone.maximum,
            rule=game.rule_link(zone.rule),
            message=f"{zone.label} has {count} {noun}; it must {'be' if zone.or_empty else 'have'} "
                    f"{zone.size_text()}."))


def _wrong_zones(placed: list[Placed], all_facts: list[CardFacts], game: GameDefinition,
                 problems: list[Problem]) -> None:
    for item, facts in zip(placed, all_facts, strict=True):
        if item.home:
            continue
        zone = game.zones[item.entry.zone]
        homes = [game.zones[z].label for z in game.zones if z in facts.zones]
        where = f"it belongs in the {_or_list(homes)}" if homes else f"no zone of {game.name} takes it"
        kind = game.kinds[item.card.kind].label if item.card.kind in game.kinds else item.card.kind
        problems.append(Problem(
            code="wrong-zone", zone=zone.id, card=item.key, line=item.entry.line, count=item.entry.count,
            rule=game.rule_link(zone.rule),
            message=f"{item.key} is {_a(kind.lower())} card and cannot be in the {zone.label}; {where}."))


def _copy_limits(placed: list[Placed], all_facts: list[CardFacts], game: GameDefinition, index: CardIndex,
                 problems: list[Problem]) -> None:
    copies = game.copies
    if copies is None:
        return
    counting = set(copies.zones)
    totals: dict[str, list] = {}  # identity -> [count, first Placed, facts with the lowest limit]
    group_totals = [[0, []] for _ in index.group_limits]
    for item, facts in zip(placed, all_facts, strict=True):
        if item.entry.zone not in counting:
            continue
        slot = totals.get(facts.identity)
        if slot is None:
            totals[facts.identity] = [item.entry.count, item, facts]
        else:
            slot[0] += item.entry.count
            if facts.limit is not None and (slot[2].limit is None or facts.limit < slot[2].limit):
                slot[2] = facts
        for g in facts.groups:
            group_totals[g][0] += item.entry.count
            if item.card.name not in group_totals[g][1]:
                group_totals[g][1].append(item.card.name)
    bonuses = _limit_bonuses(placed, game)
    for count, first, facts in totals.values():
        if facts.limit is None:
            continue
        bonus, label = bonuses.get(_norm(first.card.name), (0, ""))
        limit = facts.limit + bonus
        if count <= limit:
            continue
        shown = first.key if copies.identity == "card" else first.card.name
        problems.append(Problem(
            code="copy-limit", zone=first.entry.zone, card=shown, line=first.entry.line, count=count, limit=limit,
            source=f"{facts.source} + {label}" if bonus else facts.source, rule=game.rule_link(facts.rule),
            message=_copy_message(count, shown, facts.source, facts.limit, bonus, label)))
    for (count, names), group in zip(group_totals, index.group_limits, strict=True):
        if count > group.limit:
            problems.append(Problem(
                code="copy-limit", zone=game.main_zone, count=count, limit=group.limit, source=group.source,
                rule=game.rule_link(group.rule or copies.rule),
                message=f"{count} {group.source} cards in the deck ({', '.join(names)}); "
                        f"this format allows {group.limit} in all."))


def _limit_bonuses(placed: list[Placed], game: GameDefinition) -> dict[str, tuple[int, str]]:
    """Card-borne limit changes (Mario's extra): normalised card name -> (+n, "Mario's extra")."""
    bonuses: dict[str, tuple[int, str]] = {}
    for modifier in game.modifiers:
        for item in placed:
            if item.entry.zone not in modifier.zones:
                continue
            extra = item.card.get(modifier.field)
            if not isinstance(extra, Mapping):
                continue
            label = modifier.label.format(card=item.card.name)
            for name, plus in extra.items():
                if isinstance(plus, int) and plus:
                    key = _norm(name)
                    before = bonuses.get(key, (0, ""))
                    bonuses[key] = (before[0] + plus, f"{before[1]} + {label}" if before[1] else label)
    return bonuses


_LIMIT_WORDS = {
    "default": "at most {limit} copies of any card",
    "deck limit": "its deck limit is {limit}",
    "LIMITED": "it is LIMITED: {limit} per deck",
    "legendary": "it is legendary: {limit} per deck",
    "limit-one": "it is limit one per deck",
}


def _copy_message(count: int, name: str, source: str, base: int, bonus: int, label: str) -> str:
    why = _LIMIT_WORDS.get(source, "its limit is {limit} (" + source + ")").format(limit=base)
    if bonus:
        more = "one more" if bonus == 1 else f"{bonus} more"
        return f"{count} copies of {name}; {why}, and {label} allows {more} {name}: limit {base + bonus}."
    return f"{count} {'copy' if count == 1 else 'copies'} of {name}; {why}."


def _sum_caps(placed: list[Placed], game: GameDefinition, problems: list[Problem]) -> None:
    for cap in game.sum_caps:
        total = 0
        for item in placed:
            if item.entry.zone in cap.zones:
                value = item.card.get(cap.field)
                if isinstance(value, int) and not isinstance(value, bool):
                    total += value * item.entry.count
        if total > cap.cap:
            label = game.fields[cap.field].label
            problems.append(Problem(
                code="level-cap", zone=cap.zones[0], count=total, limit=cap.cap, source=f"{label} cap",
                rule=game.rule_link(cap.rule),
                message=f"The deck's total {label} is {total}; it may be at most {cap.cap}."))
