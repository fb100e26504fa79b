"""The named checks a game definition lists under ``[[checks]]``, one function each. Pure standard library.

Each takes the check's definition, the game and the resolved deck lines, and returns its problems. The
parameters and their meaning are documented in ``docs/game-definition.md``; ``games.md`` says which game
uses which check and why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from carddb.rules.cards import Card, normalise_name
from carddb.rules.deck import DeckEntry
from carddb.rules.game import CheckDef, GameDefinition
from carddb.rules.problems import Problem


@dataclass(frozen=True, slots=True)
class Placed:
    """A deck line whose card was found."""

    entry: DeckEntry
    card: Card


def _in(placed: list[Placed], zones: Iterable[str]) -> list[Placed]:
    wanted = set(zones)
    return [p for p in placed if p.entry.zone in wanted]


def _distinct(placed: list[Placed]) -> dict[str, tuple[Placed, int]]:
    """Card key -> (first line holding it, copies over all those lines)."""
    out: dict[str, tuple[Placed, int]] = {}
    for item in placed:
        first, count = out.get(item.card.key, (item, 0))
        out[item.card.key] = (first, count + item.entry.count)
    return out


def _problem(check: CheckDef, game: GameDefinition, message: str, item: Placed | None = None,
             **extra: Any) -> Problem:
    zone = item.entry.zone if item else (check.params.get("zones") or (game.main_zone,))[0]
    return Problem(code=check.code, severity=check.severity, zone=zone, rule=game.rule_link(check.rule),
                   card=item.card.key if item else None, line=item.entry.line if item else None,
                   message=message, **extra)


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def character_only(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A card bearing a character's symbol only in that character's deck (ssbm)."""
    field = check.params["field"]
    characters = [p.card for p in _in(placed, check.params["from_zones"])]
    if not characters:
        return []  # no character: the zone-size problem says so; whose deck it is stays unknown
    allowed = {normalise_name(_text(c.get(field))) for c in characters if _text(c.get(field))}
    allowed |= {normalise_name(c.name) for c in characters}
    owners = " and ".join(f"{c.name}'s" for c in characters)
    out = []
    for item, count in _distinct(_in(placed, check.params["zones"])).values():
        symbol = _text(item.card.get(field))
        if symbol and normalise_name(symbol) not in allowed:
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.card.key} bears {symbol}'s symbol: it may only be "
                                                         f"in {symbol}'s deck, and this is {owners} deck."))
    return out


def presence(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """At least one card the selector picks (minibattle: a Basic or Baby Pokemon to open with)."""
    if any(check.params["applies"].matches(p.card) for p in _in(placed, check.params["zones"])):
        return []
    return [_problem(check, game, message=check.message or "The deck has no card of the kind it must hold.")]


def evolution_line(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """An evolved card whose chain down to a root (Basic or Baby) is not all in the deck (minibattle)."""
    field, roots = check.params["field"], check.params["roots"]
    here = _in(placed, check.params["zones"])
    by_name = {normalise_name(p.card.name): p.card for p in here}
    out = []
    for item, count in _distinct(here).values():
        card = item.card
        if roots.matches(card) or not _text(card.get(field)):
            continue
        chain, seen, current = [card.name], {normalise_name(card.name)}, card
        while True:
            previous = _text(current.get(field))
            if not previous:
                break  # a card that evolves from nothing named and is not a root: its data says no more
            found = by_name.get(normalise_name(previous))
            if found is None:
                steps = ", which evolves from ".join([*chain[1:], previous]) if len(chain) > 1 else previous
                out.append(_problem(check, game, item=item, count=count,
                                    message=check.message or f"{card.name} evolves from {steps}, which is not in "
                                                             f"the deck: it can never be played."))
                break
            if roots.matches(found) or normalise_name(found.name) in seen:
                break
            chain.append(found.name)
            seen.add(normalise_name(found.name))
            current = found
    return out


def mana_type(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A monster of a TYPE with too few cards of that TYPE to pay its mana (shmod)."""
    field, minimum = check.params["field"], check.params["min_count"]
    exempt = {normalise_name(e) for e in check.params.get("exempt", ())}
    here = _in(placed, check.params["zones"])
    per_type: dict[str, int] = {}
    for item in here:
        value = _text(item.card.get(field))
        if value:
            per_type[normalise_name(value)] = per_type.get(normalise_name(value), 0) + item.entry.count
    out = []
    for item, _copies in _distinct(here).values():
        value = _text(item.card.get(field))
        if not value or normalise_name(value) in exempt or not check.params["applies"].matches(item.card):
            continue
        have = per_type.get(normalise_name(value), 0)
        if have < minimum:
            out.append(_problem(check, game, item=item, count=have, min=minimum,
                                message=check.message or f"{item.card.key} is {value}, but the deck holds only "
                                        f"{have} {value} card{'s' if have != 1 else ''}: it needs {minimum} "
                                        f"(itself and one more to charge as {value} mana)."))
    return out


def fusion_material(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A Fusion/Transformation monster whose named materials are not in the given zones (shmod)."""
    field, applies = check.params["field"], check.params.get("applies")
    present = {normalise_name(p.card.name) for p in _in(placed, check.params["zones"])}
    zone_labels = " and ".join(game.zones[z].label for z in check.params["zones"])
    out = []
    for item, count in _distinct(placed).values():
        if applies is not None and not applies.matches(item.card):
            continue
        materials = item.card.get(field) or []
        missing = [m for m in materials if normalise_name(str(m)) not in present]
        if missing:
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.card.key} needs {_and(map(str, materials))} in the "
                                                         f"{zone_labels}; missing: {_and(missing)}."))
    return out


def _fits(game: GameDefinition, component_type: str, base_types: Iterable[str]) -> bool:
    fits = {normalise_name(t) for t in game.compatibility.get(component_type, ())}
    return any(normalise_name(b) in fits for b in base_types)


def site_type(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A component that fits none of the deck's base sites (website)."""
    field = game.compatibility_field
    bases = [p.card for p in _in(placed, check.params["base_zones"]) if check.params["bases"].matches(p.card)]
    base_types = sorted({_text(b.get(field)) for b in bases if _text(b.get(field))})
    if not base_types:
        return []
    out = []
    for item, count in _distinct(_in(placed, check.params["zones"])).values():
        kind = _text(item.card.get(field))
        if not check.params["applies"].matches(item.card) or kind not in game.compatibility:
            continue
        if not _fits(game, kind, base_types):
            homes = _or(game.compatibility[kind])
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.card.key} is {_a(kind)} component and fits none of "
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
        kind = _text(item.card.get(field))
        if check.params["applies"].matches(item.card) and _fits(game, kind, start_types):
            return []
    names = ", ".join(f"{s.name} ({_text(s.get(field))})" for s in starts)
    return [_problem(check, game, message=check.message or f"No component in the deck can attach to the starting "
                                                           f"base site {names}, and setup needs one.")]


def requires_card(check: CheckDef, game: GameDefinition, placed: list[Placed]) -> list[Problem]:
    """A card that needs another card in play, when the deck holds none (website)."""
    field = check.params["field"]
    here = _in(placed, check.params["zones"])
    present = {normalise_name(p.card.name) for p in here}
    out = []
    for item, count in _distinct(here).values():
        needed = _text(item.card.get(field))
        if needed and normalise_name(needed) not in present:
            out.append(_problem(check, game, item=item, count=count,
                                message=check.message or f"{item.card.key} needs {needed} in play, and the deck "
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
        have = owned.get(item.card.key, 0)
        if count > have:
            out.append(Problem(code="not-owned", zone=item.entry.zone, card=item.card.key, line=item.entry.line,
                               count=count, limit=have, source=f"collection {collection_name}".strip(),
                               rule=game.rule_link(""),
                               message=f"{count} {'copy' if count == 1 else 'copies'} of {item.card.key} in the "
                                       f"deck; {named} holds {have}."))
    return out
