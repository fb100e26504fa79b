"""How Shmod's cards act on one another: what an Immunity stops, how long an Equip, Continuous or Field card stays,
and what a Fusion or Transformation monster needs to be played. Pure standard library (the site runs it in the
browser); the readings are ``[play]`` of ``rules/shmod/game.toml``.

Immunity: a monster with "Immunity to ___" is completely unaffected by whatever fills the blank, except by the card
that gives it the immunity. The blank is read as kinds of card (Spells, Traps, Monsters), a TYPE, a category, a
subtype (Equip spells) or a card's name, joined by "and" or commas. **Reading**: an immunity stops the effects of
the cards it names, not the battle table (``immunity_stops_battle``).

How long a card stays: a spell without subtype (and a trap) resolves and goes to the Graveyard; an Equip sits
behind the monster it equips; a Continuous card stays until an effect sends it to the Graveyard; a Field card
stays until an effect removes it or another Field card is played. **Reading**: an Equip goes to the Graveyard
when its monster leaves the field (``equip_leaves_with_monster``), and a Field card is replaced by another Field
card whoever plays it (``field_replaced_by``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, choice, setting
from carddb.errors import InputError

EVENTS = ("resolves", "turn-ends", "monster-leaves", "removed", "field-played")
FIELD_READINGS = ("any-player", "same-player")


def _list(card: Card, key: str) -> list[str]:
    value = card.get(key)
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _subtype(card: Card) -> str:
    return str(card.get("subtype") or "")


def _kind(game: GameDefinition, card: Card) -> str:
    return game.kinds[card.kind].label.lower() if card.kind in game.kinds else card.kind


# ------------------------------------------------------------------------------------------------------- Immunity
@dataclass(frozen=True, slots=True)
class Immunity:
    """An "Immunity to ___": the blank as written, and the card that gives it (the monster itself for its text)."""

    blank: str
    given_by: Card


def printed_immunities(card: Card) -> list[str]:
    """The blanks of the "Immunity to ___." sentences of a card's text."""
    return [m.strip() for m in re.findall(r"immunity to ([^.;]+)", card.text, re.I)]


#: The last word of a part of the blank that names a kind of card ("FIRE Monsters", "Equip Spells", "Cards").
KIND_WORDS = {"spell": "spell", "spells": "spell", "trap": "trap", "traps": "trap", "monster": "monster",
              "monsters": "monster", "card": "", "cards": ""}


def vocabulary(game: GameDefinition, cards: Sequence[Card]) -> set[str]:
    """What a blank may name: the TYPEs, subtypes and categories of the game's cards (lower case)."""
    words = {c.lower() for f in ("type", "subtype") if f in game.fields for c in game.fields[f].choices}
    return words | {c.lower() for card in cards for c in _list(card, "categories")}


def _covers(blank: str, card: Card, known: set[str], names: set[str]) -> str:
    """The part of ``blank`` that names ``card`` (a kind, TYPE, category, subtype or name), or ""; a part that
    names nothing of the game is an ``InputError``. ``names``: the game's card names, normalised."""
    facts = {str(card.get("type") or "").lower(), _subtype(card).lower(), *(c.lower() for c in _list(card,
                                                                                                    "categories"))}
    whole_name = normalise_name(blank) in names  # a card called "X and Y" is not two parts
    for part in [blank] if whole_name else (p.strip() for p in re.split(r",|\band\b|&", blank) if p.strip()):
        if normalise_name(part) in names:
            if normalise_name(part) == normalise_name(card.name):
                return part
            continue
        words = part.lower().split()
        kind = KIND_WORDS.get(words[-1])
        qualifier = " ".join(words[:-1] if kind is not None else words)
        if qualifier and qualifier not in known:
            raise InputError(f"cannot read 'Immunity to {blank}': {part!r} names no kind of card, TYPE, category, "
                             f"subtype or card of the game")
        if kind not in (None, "", card.kind):
            continue
        if not qualifier or qualifier in facts:
            return part
    return ""


def immunity(game: GameDefinition, monster: Card, card: Card, given: Sequence[Immunity] = (), *,
             cards: Sequence[Card] = ()) -> Answer:
    """Whether ``card``'s effect touches ``monster``, given the immunities printed on it and ``given`` by cards
    (``cards``: the game's cards, whose TYPEs, categories and names a blank may name)."""
    out = Answer(game.id, "immunity")
    rule = game.rule_link("immunity")
    held = [Immunity(blank, monster) for blank in printed_immunities(monster)] + list(given)
    out.values = {"monster": monster.name, "card": card.name, "affected": True,
                  "immunities": [{"to": i.blank, "given_by": i.given_by.name} for i in held]}
    if not held:  # an answer, not a broken rule: the card simply affects the monster (exit 0)
        out.say(f"{monster.name} has no Immunity: its text gives none and no card is named as giving it one; "
                f"{card.name} affects it as usual.", rule)
        out.summary = f"{monster.name} has no Immunity, so nothing is stopped."
        return out
    known, names = vocabulary(game, cards), {normalise_name(c.name) for c in cards}
    stopped_by = None
    for held_one in held:
        source = "its own text" if held_one.given_by is monster else held_one.given_by.name
        part = _covers(held_one.blank, card, known, names)
        if not part:
            out.say(f"{monster.name} has Immunity to {held_one.blank} (from {source}); {card.name}, a "
                    f"{_kind(game, card)}, does not fall under it.", rule)
        elif normalise_name(held_one.given_by.name) == normalise_name(card.name):
            out.say(f"{monster.name} has Immunity to {held_one.blank}, but {card.name} is the card that gives it: "
                    f"an immunity never stops the card giving it.", rule)
        else:
            out.say(f"{monster.name} has Immunity to {held_one.blank} (from {source}): {card.name}, a "
                    f"{_kind(game, card)}, falls under \"{part}\", so {monster.name} is completely unaffected by it.",
                    rule)
            stopped_by = stopped_by or held_one
    out.values["affected"] = stopped_by is None
    out.summary = (f"{monster.name} is unaffected by {card.name}." if stopped_by else
                   f"{card.name} affects {monster.name} as usual.")
    if stopped_by is not None and card.kind == "monster":
        battle = bool(setting(game, "immunity_stops_battle"))
        out.say(f"In battle with {card.name}: " + (
            "by this format's reading the immunity stops the battle's result too; nothing happens to "
            f"{monster.name}." if battle else
            f"the immunity stops {card.name}'s effects, not the battle table: a battle between them is fought as "
            f"usual (the rulebook's examples are all of effects)."), game.rule_link("battling"))
        out.values["stops_battle"] = battle
    return out


# ------------------------------------------------------------------------------------------- how long cards stay
def lasts(game: GameDefinition, card: Card, event: str = "", other: Card | None = None, *,
          by_opponent: bool = False) -> Answer:
    """Where ``card`` goes once played and what makes it leave; with ``event``, whether that event makes it leave
    now (``other``: the Field card played for ``field-played``, ``by_opponent`` when the other player plays it;
    the monster equipped for ``monster-leaves``)."""
    out = Answer(game.id, "lasts")
    subtype, kind = _subtype(card), _kind(game, card)
    rule = game.rule_link("traps" if card.kind == "trap" else "spells")
    if subtype == "Equip":
        on = f" ({other.name})" if other is not None and other.kind == "monster" else ""
        out.say(f"{card.name} is an Equip {kind}: it is placed behind the monster it equips{on} and stays there.",
                rule)
        leaves = ["an effect removes it", "the monster it equips leaves the field"]
    elif subtype == "Continuous":
        out.say(f"{card.name} is a Continuous {kind}: it stays on the field until another effect sends it to the "
                f"Graveyard.", rule)
        leaves = ["an effect sends it to the Graveyard"]
    elif subtype == "Field":
        out.say(f"{card.name} is a Field {kind}: it stays on the field until another effect removes it or another "
                f"Field card is played.", rule)
        leaves = ["an effect removes it", "another Field card is played"]
    elif card.kind == "trap":
        out.say(f"{card.name} is a trap without subtype: set face down, then when activated it resolves and goes to "
                f"the Graveyard.", rule)
        leaves = ["its effect resolves"]
    else:
        out.say(f"{card.name} is a spell without subtype: its effect resolves, then it goes to the Graveyard.", rule)
        leaves = ["its effect resolves"]
    out.values = {"card": card.name, "subtype": subtype or None, "leaves_when": leaves, "event": event or None,
                  "leaves": None}
    if not event:
        out.summary = f"{card.name} leaves the field when {' or when '.join(leaves)}."
        return out
    gone = _leaves(game, card, subtype, event, other, by_opponent, out, rule)
    out.values["leaves"] = gone
    if not subtype and card.kind == "spell" and event != "resolves":
        out.summary = f"{card.name} is already in the Graveyard: a spell without subtype leaves when it resolves."
    elif out.legal:
        what = _EVENT_TEXT[event].format(other=other.name if other is not None else "another Field card")
        out.summary = f"When {what}, {card.name} {'goes to the Graveyard' if gone else 'stays'}."
    else:
        out.summary = f"{card.name}: the event cannot happen as asked."
    return out


_EVENT_TEXT = {"resolves": "its effect resolves", "turn-ends": "the turn ends",
               "monster-leaves": "the equipped monster leaves the field", "removed": "an effect removes it",
               "field-played": "{other} is played"}


def _leaves(game: GameDefinition, card: Card, subtype: str, event: str, other: Card | None, by_opponent: bool,
            out: Answer, rule: str) -> bool:
    """Whether ``event`` makes the card leave the field now, with the step saying why."""
    if not subtype and card.kind == "spell" and event != "resolves":
        out.say("A spell without subtype goes to the Graveyard as soon as its effect resolves: it is no longer on the "
                "field.", rule)
        return False
    if event == "resolves":
        if subtype:
            out.say(f"Its effect resolving does not send a {subtype} card away: it stays.", rule)
            return False
        out.say("Its effect resolves: it goes to the Graveyard.", rule)
        return True
    if event == "turn-ends":
        out.say("The rulebook gives no card a turn's life: nothing leaves at the End Phase unless an effect says so.",
                game.rule_link("phases"))
        return False
    if event == "removed":
        out.say("An effect that removes it (or sends it to the Graveyard) ends it, whatever its subtype.", rule)
        return True
    if event == "monster-leaves":
        if other is not None and other.kind != "monster":
            out.problem(f"{other.name} is a {_kind(game, other)}: only a monster is equipped.", rule)
            return False
        if subtype != "Equip":
            out.say(f"{card.name} is not an Equip card: a monster leaving the field does not end it"
                    f"{' (a Continuous card waits for an effect to send it away)' if subtype == 'Continuous' else ''}.",
                    rule)
            return False
        if not setting(game, "equip_leaves_with_monster"):
            out.say("By this format's reading an Equip stays when its monster leaves the field.", rule)
            return False
        out.say("Its monster has left the field: an Equip sits behind the monster it equips, so it goes to the "
                "Graveyard with it (the rulebook does not say; as in Yu-Gi-Oh!).", rule)
        return True
    # field-played
    if other is not None and _subtype(other) != "Field":
        out.problem(f"{other.name} is not a Field card: only another Field card replaces a Field card.", rule)
        return False
    if subtype != "Field":
        out.say(f"{card.name} is not a Field card: a Field card being played does not end it.", rule)
        return False
    whoever = choice(game, "field_replaced_by", FIELD_READINGS)
    if whoever == "same-player" and by_opponent:
        out.say("The other player plays a Field card: by this format's reading only its owner's next Field card "
                "replaces it, so it stays.", rule)
        return False
    out.say("Another Field card is played: the old one leaves the field and goes to the Graveyard"
            + (" (whichever player plays it: the rulebook does not limit it to its owner)." if whoever == "any-player"
               else "."), rule)
    return True


# ----------------------------------------------------------------------------------------- Fusion, Transformation
@dataclass(frozen=True, slots=True)
class Material:
    """A monster offered as a material and where it comes from ("hand" or "field")."""

    card: Card
    zone: str = "field"


def fusion(game: GameDefinition, card: Card, materials: Sequence[Material]) -> Answer:
    """Whether ``card`` may be played from the Fusion/Transformation Stack with ``materials``: every monster it names,
    no other, each from a zone ``fusion_from`` / ``transformation_from`` allows; they go to the Graveyard."""
    out = Answer(game.id, "fusion")
    rule = game.rule_link("fusion-and-transformation-monsters")
    stack_rule = game.rule_link("fusion-transformation-stack")
    categories = _list(card, "categories")
    kind = next((c for c in ("Fusion", "Transformation") if c in categories), "")
    needs = _list(card, "materials")
    offered = [m.card.name for m in materials]
    out.values = {"card": card.name, "category": kind or None, "needs": needs, "materials": offered, "missing": [],
                  "extra": [], "to_graveyard": [], "mana": 0}
    if not kind:
        out.problem(f"{card.name} is not a Fusion or Transformation monster: it is played from the hand by paying "
                    f"its LEVEL in mana, with no materials.", rule)
        out.summary = f"{card.name} is not played by Fusion or Transformation."
        return out
    out.say(f"{card.name} is a {kind} monster: it waits in the Fusion/Transformation Stack and names its materials "
            f"at the top of its text: {' + '.join(needs) or 'none'}.", stack_rule)
    left, missing = Counter(normalise_name(n) for n in offered), []
    for name in needs:  # each named monster takes one offered copy; what is left over is not a material
        if left[normalise_name(name)] > 0:
            left[normalise_name(name)] -= 1
        else:
            missing.append(name)
    extra = list(dict.fromkeys(name for name in offered if left[normalise_name(name)] > 0))
    for name in missing:
        out.problem(f"{name} is missing: a {kind} monster needs every monster it names.", rule)
    for name in extra:
        out.problem(f"{name} is not named by {card.name}: only the monsters it names are its materials.", rule)
    allowed = tuple(setting(game, "fusion_from" if kind == "Fusion" else "transformation_from"))
    for m in materials:
        if m.zone not in allowed:
            out.problem(f"{m.card.name} is in your {m.zone}: a {kind}'s materials come from your "
                        f"{' or '.join(allowed)}.", rule)
    if out.legal:
        out.say(f"Materials: {', '.join(f'{m.card.name} (from your {m.zone})' for m in materials)}: all named, "
                f"none missing; they go to the Graveyard and {card.name} comes from the stack (the rulebook names no "
                f"zone; as in Yu-Gi-Oh! and as Fusion Rite and Metamorphosis read).", rule)
        out.say(f"{card.name} is played by an effect: you tap no mana for its LEVEL {card.get('level')}.",
                game.rule_link("monsters"))
        out.values["to_graveyard"] = offered
        out.summary = f"{card.name} can be played: {' and '.join(offered)} go to the Graveyard; no mana."
    else:
        out.values.update(missing=missing, extra=extra)
        out.summary = f"{card.name} cannot be played with {' and '.join(offered) or 'no materials'}."
    return out
