"""The named checks a game definition lists under ``[[checks]]``, one function each. Pure standard library.

Each takes the check's definition, the game and the resolved deck lines, and returns its problems. The
parameters and their meaning are documented in ``docs/game-definition.md``; ``games.md`` says which game
uses which check and why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.decks.deck import DeckEntry
from carddb.core.game.definition import CheckDef, GameDefinition
from carddb.core.game.selectors import Selector
from carddb.core.problems import Problem

#: normalise_name, memoised: the same few names are normalised on every check.
_norm = lru_cache(maxsize=1 << 16)(normalise_name)


@dataclass(slots=True)
class Placed:
    """A deck line whose card was found; ``key`` is the card's key, ``home`` whether its zone takes it."""

    entry: DeckEntry
    card: Card
    key: str = ""
    home: bool = True
    memo: dict[Any, Any] = field(default_factory=dict)  # per card, kept by the card index across checks


def _is(item: Placed, selector: Selector) -> bool:
    """``selector.matches(item.card)``, remembered for the card (the same selectors run on every check)."""
    key = id(selector)
    hit = item.memo.get(key)
    if hit is None:
        hit = item.memo[key] = selector.matches(item.card)
    return hit


def _value(item: Placed, key: str) -> str:
    """The card's field as stripped text ('' when absent), remembered for the card."""
    hit = item.memo.get(key)
    if hit is None:
        hit = item.memo[key] = _text(item.card.get(key))
    return hit


def _in(placed: list[Placed], zones: Iterable[str]) -> list[Placed]:
    wanted = set(zones)
    return [p for p in placed if p.entry.zone in wanted]


def _distinct(placed: list[Placed]) -> dict[str, tuple[Placed, int]]:
    """Card key -> (first line holding it, copies over all those lines)."""
    out: dict[str, tuple[Placed, int]] = {}
    for item in placed:
        first, count = out.get(item.key, (item, 0))
        out[item.key] = (first, count + item.entry.count)
    return out


def _problem(check: CheckDef, game: GameDefinition, message: str, item: Placed | None = None,
             **extra: Any) -> Problem:
    zone = item.entry.zone if item else (check.params.get("zones") or (game.main_zone,))[0]
    return Problem(code=check.code, severity=check.severity, zone=zone, rule=game.rule_link(check.rule),
                   card=item.key if item else None, line=item.entry.line if item else None,
                   message=message, **extra)


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def character_only(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A card bearing a character's symbol only in that character's deck (ssbm)."""
    field = check.params["field"]
    characters = [p.card for p in _in(placed, check.params["from_zones"])]
    if not characters:
        return []  # no character: the zone-size problem says so; whose deck it is stays unknown
    allowed = {_norm(_text(c.get(field))) for c in characters if _text(c.get(field))}
    allowed |= {_norm(c.name) for c in characters}
    owners = " and ".join(f"{c.name}'s" for c in characters)
    out = []
    for item, count in _distinct(_in(placed, check.params["zones"])).values():
        symbol = _value(item, field)
        if symbol and _norm(symbol) not in allowed:
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.key} bears {symbol}'s symbol: it may only be "
                                                         f"in {symbol}'s deck, and this is {owners} deck."))
    return out


def presence(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """At least one card the selector picks (minibattle: a Basic or Baby Pokemon to open with)."""
    if any(_is(p, check.params["applies"]) for p in _in(placed, check.params["zones"])):
        return []
    return [_problem(check, game, message=check.message or "The deck has no card of the kind it must hold.")]


def evolution_line(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """An evolved card whose chain down to a root (Basic or Baby) is not all in the deck (minibattle)."""
    field, roots = check.params["field"], check.params["roots"]
    here = _in(placed, check.params["zones"])
    by_name = {_norm(p.card.name): p.card for p in here}
    out = []
    for item, count in _distinct(here).values():
        card = item.card
        if roots.matches(card) or not _text(card.get(field)):
            continue
        chain, seen, current = [card.name], {_norm(card.name)}, card
        while True:
            previous = _text(current.get(field))
            if not previous:
                break  # a card that evolves from nothing named and is not a root: its data says no more
            found = by_name.get(_norm(previous))
            if found is None:
                steps = ", which evolves from ".join([*chain[1:], previous]) if len(chain) > 1 else previous
                out.append(_problem(check, game, item=item, count=count,
                                    message=check.message or f"{card.name} evolves from {steps}, which is not in "
                                                             f"the deck: it can never be played."))
                break
            if roots.matches(found) or _norm(found.name) in seen:
                break
            chain.append(found.name)
            seen.add(_norm(found.name))
            current = found
    return out


def mana_type(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A monster of a TYPE with too few cards of that TYPE to pay its mana (shmod)."""
    field, minimum = check.params["field"], check.params["min_count"]
    exempt = {_norm(e) for e in check.params.get("exempt", ())}
    here = _in(placed, check.params["zones"])
    per_type: dict[str, int] = {}
    for item in here:
        value = _value(item, field)
        if value:
            per_type[_norm(value)] = per_type.get(_norm(value), 0) + item.entry.count
    out = []
    for item, _copies in _distinct(here).values():
        value = _value(item, field)
        if not value or _norm(value) in exempt or not _is(item, check.params["applies"]):
            continue
        have = per_type.get(_norm(value), 0)
        if have < minimum:
            out.append(_problem(check, game, item=item, count=have, min=minimum,
                                message=check.message or f"{item.key} is {value}, but the deck holds only "
                                        f"{have} {value} card{'s' if have != 1 else ''}: it needs {minimum} "
                                        f"(itself and one more to charge as {value} mana)."))
    return out


def fusion_material(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A Fusion/Transformation monster whose named materials are not in the given zones (shmod)."""
    field, applies = check.params["field"], check.params.get("applies")
    present = {_norm(p.card.name) for p in _in(placed, check.params["zones"])}
    zone_labels = " and ".join(game.zones[z].label for z in check.params["zones"])
    out = []
    for item, count in _distinct(placed).values():
        if applies is not None and not _is(item, applies):
            continue
        materials = item.card.get(field) or []
        missing = [m for m in materials if _norm(str(m)) not in present]
        if missing:
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.key} needs {_and(map(str, materials))} in the "
                                                         f"{zone_labels}; missing: {_and(missing)}."))
    return out


_FITS: dict[int, tuple[GameDefinition, dict[str, frozenset[str]]]] = {}


def _fits(game: GameDefinition, component_type: str, base_types: Iterable[str]) -> bool:
    cached = _FITS.get(id(game))
    if cached is None or cached[0] is not game:
        cached = _FITS[id(game)] = (game, {_norm(k): frozenset(_norm(t) for t in v)
                                           for k, v in game.compatibility.items()})
    fits = cached[1].get(_norm(component_type), frozenset())
    return any(_norm(b) in fits for b in base_types)


def site_type(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A component that fits none of the deck's base sites (website)."""
    field = game.compatibility_field
    selector = check.params["bases"]
    base_types = sorted({_value(p, field) for p in _in(placed, check.params["base_zones"]) if _is(p, selector)} - {""})
    if not base_types:
        return []
    out = []
    for item, count in _distinct(_in(placed, check.params["zones"])).values():
        kind = _value(item, field)
        if kind not in game.compatibility or not _is(item, check.params["applies"]):
            continue
        if not _fits(game, kind, base_types):
            homes = _or(game.compatibility[kind])
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.key} is {_a(kind)} component and fits none of "
                                        f"the deck's base sites ({', '.join(base_types)}); it attaches to "
                                        f"{homes} bases."))
    return out


def _or(values: Iterable[str], word: str = "or") -> str:
    items = list(values)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _and(values: Iterable[str]) -> str:
    return _or(values, "and")


def starting_component(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """Setup needs a component that fits the starting base site (website)."""
    field = game.compatibility_field
    starts = [p.card for p in _in(placed, check.params["base_zones"])]
    start_types = [_text(s.get(field)) for s in starts if _text(s.get(field))]
    if not start_types:
        return []
    for item in _in(placed, check.params["zones"]):
        if _is(item, check.params["applies"]) and _fits(game, _value(item, field), start_types):
            return []
    names = ", ".join(f"{s.name} ({_text(s.get(field))})" for s in starts)
    return [_problem(check, game, message=check.message or f"No component in the deck can attach to the starting "
                                                           f"base site {names}, and setup needs one.")]


def requires_card(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A card that needs another card in play, when the deck holds none (website)."""
    field = check.params["field"]
    here = _in(placed, check.params["zones"])
    present = {_norm(p.card.name) for p in here}
    out = []
    for item, count in _distinct(here).values():
        needed = _value(item, field)
        if needed and _norm(needed) not in present:
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.key} needs {needed} in play, and the deck "
                                                         f"holds no {needed}."))
    return out


CHECKS: dict[str, Callable[[CheckDef, GameDefinition, list[Placed]], list[Problem]]] = {
    "character-only": character_only, "presence": presence, "evolution-line": evolution_line,
    "mana-type": mana_type, "fusion-material": fusion_material, "site-type": site_type,
    "starting-component": starting_component, "requires-card": requires_card,
}


def owned_problems(placed: list[Placed], game: GameDefinition, owned: Mapping[str, int],
                   collection_name: str = "") -> list[Problem]:
    """More copies in the deck than the collection holds (``deck check --collection``)."""
    named = f"the collection {collection_name!r}" if collection_name else "your collection"
    out = []
    for item, count in _distinct(placed).values():
        have = owned.get(item.key, 0)
        if count > have:
            out.append(Problem(code="not-owned", zone=item.entry.zone, card=item.key, line=item.entry.line,
                               count=count, limit=have, source=f"collection {collection_name}".strip(),
                               rule=game.rule_link(""),
                               message=f"{count} {'copy' if count == 1 else 'copies'} of {item.key} in the "
                                       f"deck; {named} holds {have}."))
    return out
