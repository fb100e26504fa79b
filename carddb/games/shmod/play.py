"""Shmod at the table: battle outcomes, Life after a Battle Phase, an ATK changed inside it, paying mana, what a
turn allows (one mana charge, no trap the turn it is set, no Battle Phase on the first player's first turn), and
how cards act on one another (Immunity, how long Equip, Continuous and Field cards stay, Fusion and
Transformation). Pure standard library; the numbers and readings are ``[play]`` of ``rules/shmod/game.toml``.

The battles are ``battles.py``, the card interactions ``interactions.py``; this module pays mana, plans a turn and
reads each helper's JSON request (``HELPERS``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import (
    Answer,
    find_card,
    flag,
    plural,
    rows,
    setting,
    whole,
    word,
)
from carddb.core.play.signature import Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.shmod.battles import Change, Declared, Monster, Side, battle, battle_phase, int_value
from carddb.games.shmod.interactions import Immunity, Material, fusion, lasts
from carddb.games.shmod.interactions import immunity as immunity_answer


# ------------------------------------------------------------------------------------------------------- mana
def pay_mana(game: GameDefinition, card: Card, mana: Mapping[str, int], *, x: int | None = None,
             by_effect: bool = False) -> Answer:
    """Tap mana equal to the card's LEVEL (a Level X card: any amount, which becomes X); a monster's mana includes
    at least 1 of its TYPE, except a COLOURLESS one. A monster played by an effect pays nothing.

    **Reading**: a MULTI-TYPE monster's 1 mana of its TYPE may be any TYPE but COLOURLESS (``mana_any_colour``).
    """
    out = Answer(game.id, "mana")
    rule = game.rule_link({"monster": "monsters", "spell": "spells", "trap": "traps"}.get(card.kind, "mana"))
    tapped = {t: n for t, n in mana.items() if n}
    total = sum(tapped.values())
    shown = " + ".join(f"{t} {n}" for t, n in tapped.items()) or "nothing"
    kind = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
    mtype = str(card.get("type") or "")
    level = card.get("level")
    out.values = {"card": card.name, "level": level, "tapped": total, "x": None, "paid": False}
    if by_effect and card.kind == "monster":
        out.say(f"{card.name} is played by an effect: it costs no mana.", rule)
        if total:
            out.say(f"The {plural(total, 'mana', 'mana')} tapped are not needed.", rule)
        out.values["paid"] = True
        out.summary = f"{card.name} is played by an effect: no mana."
        return out
    if level == "X":
        xrule = game.rule_link("level-x-cards")
        if x is not None and x != total:
            out.problem(f"X is the mana tapped: {total}, not {x}.", xrule)
        out.say(f"{card.name} is Level X: the {plural(total, 'mana', 'mana')} tapped make X = {total} for all of its "
                f"effect.",
                xrule)
        level = total
        out.values["x"] = total
    elif total != int_value(level):
        out.problem(f"{card.name} is Level {level}: tap exactly {level} mana, not {total}.", rule)
    head = f"{card.name}, Level {card.get('level')} {mtype + ' ' if mtype else ''}{kind.lower()}"
    if card.kind == "monster" and mtype not in setting(game, "mana_exempt"):
        any_colour = mtype in setting(game, "mana_any_colour")
        exempt = set(setting(game, "mana_exempt"))
        own = sum(n for t, n in tapped.items() if (t not in exempt if any_colour else t == mtype))
        need = f"mana of any TYPE but {'/'.join(sorted(exempt))}" if any_colour else mtype
        out.say(f"{head}: tap {level} mana including at least 1 {need}; tapped {shown} = {total}.", rule)
        if not own:
            out.problem(f"{card.name} needs at least 1 {need}{'' if any_colour else ' mana'} among the mana tapped.",
                        rule)
    else:
        why = " (COLOURLESS monsters need no mana of their TYPE)" if card.kind == "monster" else ""
        out.say(f"{head}: tap {level} mana of any TYPE{why}; tapped {shown} = {total}.", rule)
    out.values["paid"] = out.legal
    out.summary = f"{card.name} is paid for." if out.legal else f"{card.name} is not paid for."
    return out


# ------------------------------------------------------------------------------------------------------- turn
def plan_turn(game: GameDefinition, *, first_turn: bool = False, charges: Sequence[Card] = (),
              set_traps: Sequence[Card] = (), activate: Sequence[Card] = (), attackers: Sequence[Card] = ()) -> Answer:
    """A turn's six phases and what they allow: 1 mana charge a turn though there are two Main Phases, a trap not
    activated the turn it is set, each monster attacking once, and no Battle Phase on the first player's first
    turn (**Reading**, from the forum thread: the first player still draws)."""
    out = Answer(game.id, "turn")
    phases = game.rule_link("phases")
    charge_rule, trap_rule = game.rule_link("mana"), game.rule_link("traps")
    if first_turn:
        out.say(f"Setting up: each player has {setting(game, 'life')} Life and draws {setting(game, 'opening_hand')} "
                f"cards.", game.rule_link("setting-up-a-game"))
        out.say("Draw Phase: draw 1 card (the first player draws too, as the forum thread settles it).",
                game.rule_link("the-first-turn"))
    else:
        out.say("Draw Phase: draw 1 card.", phases)
    out.say("Untap Phase: untap every card in your Mana Zone.", phases)
    most = int(setting(game, "charges_per_turn"))
    for number, card in enumerate(charges, 1):
        mtype = str(card.get("type") or "COLOURLESS") if card.kind == "monster" else "COLOURLESS"
        if number > most:
            out.problem(f"Charging {card.name}: only {plural(most, 'mana', 'mana')} may be charged a turn, though "
                        f"a turn has two Main Phases.", charge_rule)
        else:
            out.say(f"Main Phase: charge {card.name} into the Mana Zone as 1 {mtype} mana.", charge_rule)
    for card in set_traps:
        out.say(f"Main Phase: set {card.name} face down; it cannot be activated this turn.", trap_rule)
    set_names = {normalise_name(c.name) for c in set_traps}
    for card in activate:
        if normalise_name(card.name) in set_names:
            out.problem(f"{card.name} was set this turn: a trap cannot be activated the turn it is set.", trap_rule)
        else:
            out.say(f"Activate {card.name}: turn it face up and tap {card.get('level')} mana (its LEVEL).", trap_rule)
    battle_rule = game.rule_link("battling")
    if first_turn:
        out.say("Battle Phase: skipped (the first player's first turn).", game.rule_link("the-first-turn"))
        if attackers:
            out.problem("The player who goes first skips the Battle Phase of the first turn: no attacks.",
                        game.rule_link("the-first-turn"))
    else:
        counted: dict[str, int] = {}
        for card in attackers:
            key = normalise_name(card.name)
            counted[key] = counted.get(key, 0) + 1
            allowed = Monster(card).attacks_allowed(game)
            if counted[key] == allowed + 1:
                out.problem(f"{card.name} attacks {counted[key]} times; a monster attacks "
                            f"{'once' if allowed == 1 else plural(allowed, 'time')} a Battle Phase.", battle_rule)
        out.say(f"Battle Phase: {plural(len(attackers), 'attack')} declared.", battle_rule)
    out.say("Second Main Phase: as the first (the one charge of the turn may be in either).", phases)
    out.say("End Phase: resolve effects; the next player's turn begins.", phases)
    out.summary = "The turn is legal." if out.legal else f"The turn breaks {plural(len(out.problems), 'rule')}."
    out.values = {"first_turn": first_turn, "charges": len(charges), "attacks": len(attackers)}
    return out


# --------------------------------------------------------------------------------------------- JSON requests
def _monster(game: GameDefinition, index: CardIndex, row: Mapping[str, Any], key: str = "card",
             default_position: str = "attack") -> Monster:
    card = find_card(game, index, row.get(key), ("monster",), "monster")
    return Monster(card, word(row, "position", ("attack", "defense"), default_position),
                   whole(row, "atk", high=99, what=f"{card.name}'s ATK"),
                   whole(row, "def", high=99, what=f"{card.name}'s DEF"))


def _battle(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"attacker": "Night Reaver", "atk": null, "defender": "Coral Warden", "position": "defense",
    "defender_atk": null, "defender_def": null, "defender_has_monsters": false}``; no defender attacks directly."""
    attacker = _monster(game, index, {"card": request.get("attacker"), "atk": request.get("atk")})
    defender = None
    if request.get("defender"):
        defender = _monster(game, index, {"card": request.get("defender"), "position": request.get("position"),
                                          "atk": request.get("defender_atk"), "def": request.get("defender_def")},
                            default_position="attack")
    return battle(game, attacker, defender, defender_has_monsters=flag(request, "defender_has_monsters"))


def _phase(game: GameDefinition, index: CardIndex, request: Mapping[str, Any],
           changes: Sequence[Change] = ()) -> Answer:
    """``{"mine": [{"card": "Night Reaver", "position": "attack"}], "theirs": [{"card": "Coral Warden",
    "position": "defense"}], "attacks": [{"attacker": "Night Reaver", "target": "Coral Warden"}], "life": 10,
    "their_life": 10, "first_turn": false}``; an attack without a target is direct."""
    start = int(setting(game, "life"))
    mine = Side([_monster(game, index, row) for row in rows(request, "mine")],
                whole(request, "life", start, high=99) or 0)
    theirs = Side([_monster(game, index, row) for row in rows(request, "theirs")],
                  whole(request, "their_life", start, high=99) or 0)
    attacks = [Declared(str(row.get("attacker") or "").strip(), str(row.get("target") or "").strip())
               for row in rows(request, "attacks")]
    for row in attacks:
        if not row.attacker:
            raise InputError("each attack names its attacking monster")
    for row in rows(request, "attacks"):  # names must be monsters of the game, even when not on the field
        find_card(game, index, row.get("attacker"), ("monster",), "monster")
        if row.get("target"):
            find_card(game, index, row.get("target"), ("monster",), "monster")
    return battle_phase(game, mine, theirs, attacks, first_turn=flag(request, "first_turn"), changes=changes,
                        helper="atk-change" if changes else "phase")


def _mana(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"card": "Magma Colossus", "mana": {"FIRE": 2, "EARTH": 3}, "x": null, "by_effect": false}``"""
    card = find_card(game, index, request.get("card"), ("monster", "spell", "trap"), "monster, spell or trap")
    raw = request.get("mana") or {}
    if not isinstance(raw, Mapping):
        raise InputError("mana is a table of TYPE to the mana of it tapped, e.g. FIRE=2")
    types = list(game.fields["type"].choices) if "type" in game.fields else []
    mana: dict[str, int] = {}
    for key, value in raw.items():
        wanted = str(key).strip().upper()
        if wanted not in types:
            raise InputError(f"{key!r} is not a TYPE of mana; use {', '.join(types)}")
        count = whole({"n": value}, "n", 0, high=99, what=f"{wanted} mana") or 0
        mana[wanted] = mana.get(wanted, 0) + count
    return pay_mana(game, card, mana, x=whole(request, "x", high=99, what="X"), by_effect=flag(request, "by_effect"))


def _atk_change(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``_phase``'s request with ``"changes": [{"after": 1, "card": "Gloom Imp", "by": 2, "whose": "theirs"}]``:
    each change made after that many attacks (0: before the first), on ``whose`` field ("" for either)."""
    changes = []
    for row in rows(request, "changes"):
        card = find_card(game, index, row.get("card"), ("monster",), "monster")
        by = whole(row, "by", low=-99, high=99, what=f"{card.name}'s ATK change")
        if by is None:
            raise InputError(f"give the ATK change of {card.name} (+2, -1)")
        after = whole(row, "after", 0, high=99, what="the attacks before the change") or 0
        changes.append(Change(after, card.name, by, word(row, "whose", ("mine", "theirs"), "")))
    if not changes:
        raise InputError("give an ATK change: the monster, by how much, and after which attack")
    return _phase(game, index, request, changes)


def _fusion(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"card": "Steam Titan", "materials": [{"card": "Cinder Hound", "from": "hand"}, {"card": "Reef Lancer",
    "from": "field"}]}``"""
    card = find_card(game, index, request.get("card"), ("monster",), "monster")
    materials = []
    for row in rows(request, "materials"):
        material = find_card(game, index, row.get("card"), ("monster",), "monster")
        zone = str(row.get("from") or "field").strip().lower()
        if zone not in ("hand", "field"):
            raise InputError(f"{material.name} comes from your hand or your field, not {row.get('from')!r}")
        materials.append(Material(material, zone))
    return fusion(game, card, materials)


# ---------------------------------------------------------------------------------- helpers described once
# Each helper's typed signature is its command (carddb play shmod ...), its form on the Play page and the check of
# its request (carddb.core.play.signature). The helpers above still read their requests by hand.
MONSTER, TRAP = ("monster",), ("trap",)
Event = Literal["resolves", "turn-ends", "monster-leaves", "removed", "field-played"]


@helper(title="A turn's limits", rule="phases",
        example='carddb play shmod turn --charge "Ember Whelp" --set "Pitfall Snare"')
def turn(game: GameDefinition, index: CardIndex, *,
         first_turn: Annotated[bool, Arg("This is the first player's first turn.",
                                         label="the first player's first turn")] = False,
         charges: Annotated[list[Card], Arg("A card charged as mana this turn (repeat).", label="Charge",
                                            option="--charge", names="card", count=2)] = (),  # type: ignore
         set: Annotated[list[Card], Arg("A trap set face down this turn (repeat).", label="Set trap", kinds=TRAP,
                                        option="--set", count=2)] = (),  # type: ignore
         activate: Annotated[list[Card], Arg("A trap activated this turn (repeat).", label="Activate trap",
                                             kinds=TRAP, option="--activate", count=2)] = (),  # type: ignore
         attacks: Annotated[list[Card], Arg("A monster attacking this turn (repeat per attack).", label="Attack with",
                                            kinds=MONSTER, option="--attack", count=4)] = ()  # type: ignore
         ) -> Answer:
    """A turn's six phases: one mana charge, no trap the turn it is set, no Battle Phase on the first turn.

    One mana charge a turn, no trap activated the turn it is set, no Battle Phase on the first player's first turn.
    """
    return plan_turn(game, first_turn=first_turn, charges=list(charges or []), set_traps=list(set or []),
                     activate=list(activate or []), attackers=list(attacks or []))


@helper("immunity", title="Immunity", rule="immunity",
        example='carddb play shmod immunity "Cinder Hound" "Monster Bash"')
def immunity_helper(game: GameDefinition, index: CardIndex, *,
                    monster: Annotated[Card, Arg("The monster that may be immune.", label="Monster", kinds=MONSTER)],
                    card: Annotated[Card, Arg("The card whose effect would touch it.", label="affected by",
                                              names="card")],
                    immunity: Annotated[str | None, Arg("An Immunity another card gives it: what fills the blank, "
                                                        "e.g. Spells.", label="Immunity to (given by a card)")] = None,
                    given_by: Annotated[Card | None, Arg("The card giving that Immunity (the card itself is never "
                                                         "stopped by it).", label="given by", names="card",
                                                         what="card giving the immunity")] = None) -> Answer:
    """Immunity to ___: whether a card's effect touches a monster (never stopped: the card giving the immunity).

    Whether a card's effect touches a monster with Immunity to ___ (its own, or one a card gives it): never stopped
    is the card giving the immunity. "A monster with Immunity to ___ is completely unaffected by whatever fills the
    blank, except by the card that gives it the immunity": a monster with none is affected as usual, which breaks
    no rule.
    """
    blank = (immunity or "").strip()
    blank = blank[len("immunity to "):].strip() if blank.lower().startswith("immunity to ") else blank
    given = []
    if blank:
        if given_by is None:
            raise InputError("name a card giving the immunity")
        given.append(Immunity(blank.rstrip("."), given_by))
    elif given_by is not None:
        raise InputError("say the immunity the card gives, e.g. Spells")
    return immunity_answer(game, monster, card, given, cards=index.cards)


@helper("lasts", title="How long a spell or trap stays", rule="spells",
        example='carddb play shmod lasts "Flame Blade" monster-leaves')
def lasts_helper(game: GameDefinition, index: CardIndex, *,
                 card: Annotated[Card, Arg("The spell or trap played.", label="Spell or trap", kinds=("spell", "trap"),
                                           what="spell or trap", names="card")],
                 event: Annotated[Event | None, Arg("What happens: resolves, turn-ends, monster-leaves, removed or "
                                                    "field-played; leave out to list what ends it.", label="when",
                                                    positional=True)] = None,
                 other: Annotated[Card | None, Arg("The Field card played (field-played) or the monster equipped "
                                                   "(monster-leaves).", label="other card (Field card played, monster "
                                                   "equipped)", names="card")] = None,
                 by_opponent: Annotated[bool, Arg("For field-played: the other player plays the new Field card.",
                                                  label="the other player plays the new Field card")] = False
                 ) -> Answer:
    """How long a spell or trap stays: Equip, Continuous and Field cards, and when one leaves the field.

    Equip cards sit behind their monster, Continuous cards stay until an effect sends them away, Field cards until
    an effect removes them or another Field card is played.
    """
    return lasts(game, card, event or "", other, by_opponent=by_opponent)


_DESCRIBED = helpers_of(sys.modules[__name__])
HELPERS: dict[str, Any] = {"battle": _battle, "phase": _phase, "mana": _mana, "turn": _DESCRIBED["turn"],
                           "atk-change": _atk_change, "immunity": _DESCRIBED["immunity"],
                           "lasts": _DESCRIBED["lasts"], "fusion": _fusion}
