"""Shmod at the table: battle outcomes, Life after a Battle Phase, an ATK changed inside it, paying mana, what a
turn allows (one mana charge, no trap the turn it is set, no Battle Phase on the first player's first turn), and
how cards act on one another (Immunity, how long Equip, Continuous and Field cards stay, Fusion and
Transformation). Pure standard library; the numbers and readings are ``[play]`` of ``rules/shmod/game.toml``.

The battles are ``battles.py``, the card interactions ``interactions.py``; this module pays mana, plans a turn and
describes each helper by its typed signature (``HELPERS``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import (
    Answer,
    plural,
    setting,
)
from carddb.core.play.signature import Also, Arg, helper, helpers_of
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


# ---------------------------------------------------------------------------------- helpers described once
# Each helper's typed signature is its command (carddb play shmod ...), its form on the Play page and the check of
# its request (carddb.core.play.signature).
MONSTER, TRAP = ("monster",), ("trap",)
Event = Literal["resolves", "turn-ends", "monster-leaves", "removed", "field-played"]
Position = Literal["attack", "defense"]
POSITIONS = (("attack", "Attack Position"), ("defense", "Defense Position"))


@helper("battle", title="A battle", rule="battling",
        example='carddb play shmod battle "Night Reaver" "Coral Warden" --defense')
def battle_helper(game: GameDefinition, index: CardIndex, *,
                  attacker: Annotated[Card, Arg("The attacking monster (in Attack Position).", label="Attacker",
                                                kinds=MONSTER)],
                  atk: Annotated[int | None, Arg("The attacker's ATK as it is now (equips, fields).", label="ATK now",
                                                 high=99, what="the attacker's ATK", beside=True)] = None,
                  defender: Annotated[Card | None, Arg("The monster attacked; none for a direct attack.",
                                                       label="Defender", kinds=MONSTER, positional=True)] = None,
                  position: Annotated[Position, Arg("The defender's position, Attack or Defense.", label="in",
                                                    option="--defense", sets="defense", beside=True,
                                                    shown=POSITIONS)] = "attack",
                  defender_atk: Annotated[int | None, Arg("The defender's ATK as it is now.", label="ATK now",
                                                          high=99, what="the defender's ATK", beside=True)] = None,
                  defender_def: Annotated[int | None, Arg("The defender's DEF as it is now.", label="DEF now",
                                                          high=99, what="the defender's DEF", beside=True)] = None,
                  defender_has_monsters: Annotated[bool, Arg(
                      "For a direct attack: the defending player has monsters in play.", option="--has-monsters",
                      label="the defending player has monsters (for a direct attack)")] = False) -> Answer:
    """One battle: attack against attack, attack against defense, or a direct attack.

    Attack against attack, attack against defense, or (no defender) a direct attack. Leave ATK and DEF empty to use
    the cards' own.
    """
    return battle(game, Monster(attacker, "attack", atk),
                  Monster(defender, position, defender_atk, defender_def) if defender is not None else None,
                  defender_has_monsters=defender_has_monsters)


@dataclass(frozen=True)
class OnField:
    card: Annotated[Card, Arg("A monster on the field.", label="Monster", kinds=MONSTER)]
    position: Annotated[Position, Arg("Its position, Attack or Defense.", label="in", shown=POSITIONS)] = "attack"


@dataclass(frozen=True)
class Attack:
    attacker: Annotated[Card, Arg("The attacking monster.", label="attacker", kinds=MONSTER,
                                  what="attacking monster")]
    target: Annotated[Card | None, Arg("The monster it attacks; none for a direct attack.", label="target",
                                       kinds=MONSTER)] = None


def _change(text: str) -> dict[str, Any]:
    """``1:Gale Sparrow=+2``: after 1 attack, Gale Sparrow's ATK +2 (``0:`` before the first), to your monster."""
    after, sep, rest = text.partition(":")
    name, _, by = rest.rpartition("=")
    if not (sep and after.strip().isdigit() and name.strip() and by.strip().lstrip("+-").isdigit()):
        raise InputError(f"{text!r}: write the attacks before it, the monster and the change, as "
                         "1:Gale Sparrow=+2")
    return {"after": int(after), "card": name.strip(), "by": int(by), "whose": "mine"}


@dataclass(frozen=True)
class AtkChange:
    card: Annotated[Card, Arg("The monster whose ATK changes.", label="monster", kinds=MONSTER)]
    by: Annotated[int, Arg("How much its ATK changes, e.g. +2 or -1.", label="ATK +/-", low=-99, high=99,
                           what="ATK change of {card}")]
    after: Annotated[int, Arg("The attacks made before the change (0: before the first).", label="after attacks",
                              high=99, what="the attacks before the change")] = 0
    whose: Annotated[Literal["mine", "theirs"] | None, Arg(
        "Whose monster it is, when both players have one so named.", label="whose",
        shown=(("mine", "yours"), ("theirs", "theirs")))] = None


MINE = Arg("Your monster on the field, NAME or NAME=defense.", label="Your monster", option="--mine",
           metavar="NAME[=defense]", example="Coral Warden=defense", count=4)
THEIRS = Arg("The defending player's monster, NAME or NAME=defense.", label="Their monster", option="--theirs",
             metavar="NAME[=defense]", example="Coral Warden=defense", count=4)
ATTACKS = Arg("An attack in order: ATTACKER=TARGET, or ATTACKER alone to attack directly.", label="Attack",
              option="--attack", metavar="ATTACKER[=TARGET]", example="Night Reaver=Coral Warden", count=5)
LIFE = Arg("Your Life before the Battle Phase (default: the game's, 10).", label="Your Life", high=99)
THEIR_LIFE = Arg("The defending player's Life (default: the game's, 10).", label="their Life", high=99, beside=True)


def _sides(game: GameDefinition, mine: Sequence[OnField], theirs: Sequence[OnField], life: int | None,
           their_life: int | None) -> tuple[Side, Side]:
    start = int(setting(game, "life"))
    return (Side([Monster(row.card, row.position) for row in mine], start if life is None else life),
            Side([Monster(row.card, row.position) for row in theirs], start if their_life is None else their_life))


def _declared(attacks: Sequence[Attack]) -> list[Declared]:
    return [Declared(row.attacker.name, row.target.name if row.target is not None else "") for row in attacks]


@helper(title="A Battle Phase", rule="battling",
        example='carddb play shmod phase --mine "Night Reaver" --theirs "Gloom Imp" --attack "Night Reaver=Gloom Imp"')
def phase(game: GameDefinition, index: CardIndex, *,
          life: Annotated[int | None, LIFE] = None,
          their_life: Annotated[int | None, THEIR_LIFE] = None,
          first_turn: Annotated[bool, Arg("This is the first player's first turn.",
                                          label="the first player's first turn", beside=True)] = False,
          mine: Annotated[list[OnField], MINE] = (),  # type: ignore[assignment]
          theirs: Annotated[list[OnField], THEIRS] = (),  # type: ignore[assignment]
          attacks: Annotated[list[Attack], ATTACKS] = ()  # type: ignore[assignment]
          ) -> Answer:
    """A Battle Phase: each attack in order, the monsters destroyed, and both players' Life afterwards.

    Each attack in order; leave the target empty to attack directly. Life starts at 10.
    """
    own, other = _sides(game, mine or [], theirs or [], life, their_life)
    return battle_phase(game, own, other, _declared(attacks or []), first_turn=first_turn)


@helper("atk-change", title="An ATK changed in the Battle Phase", rule="battling",
        example='carddb play shmod atk-change --mine "Cinder Hound" --theirs "Coral Warden=defense" '
                '--attack "Cinder Hound=Coral Warden" --change "0:Cinder Hound=+2"')
def atk_change(game: GameDefinition, index: CardIndex, *,
               life: Annotated[int | None, LIFE] = None,
               their_life: Annotated[int | None, THEIR_LIFE] = None,
               mine: Annotated[list[OnField], dataclasses.replace(MINE, count=3)] = (),  # type: ignore[assignment]
               theirs: Annotated[list[OnField], dataclasses.replace(THEIRS, count=3)] = (),  # type: ignore
               attacks: Annotated[list[Attack], dataclasses.replace(ATTACKS, count=4)] = (),  # type: ignore
               changes: Annotated[list[AtkChange], Arg(
                   "An ATK change to your monster: AFTER:NAME=+N, after AFTER attacks (0: before the first).",
                   label="ATK change", option="--change", metavar="AFTER:NAME=+N", read=_change, count=3,
                   also=(Also("--their-change", "An ATK change to the defending player's monster, as --change.",
                              (("whose", "theirs"),)),))] = ()  # type: ignore[assignment]
               ) -> Answer:
    """An ATK changed inside a Battle Phase: the battles fought before it stand, the attacks after it use it.

    An Equip, a Field card or an effect changes a monster's ATK after some attacks (0: before the first): the battles
    already fought stand, the attacks after it use the new ATK.
    """
    if not changes:
        raise InputError("give an ATK change: the monster, by how much, and after which attack")
    own, other = _sides(game, mine or [], theirs or [], life, their_life)
    made = [Change(row.after, row.card.name, row.by, row.whose or "") for row in changes]
    return battle_phase(game, own, other, _declared(attacks or []), changes=made, helper="atk-change")


@helper(title="Paying mana", rule="monsters", example='carddb play shmod mana "Magma Colossus" FIRE=1 EARTH=4')
def mana(game: GameDefinition, index: CardIndex, *,
         card: Annotated[Card, Arg("The monster, spell or trap paid for.", label="Card", kinds=("monster", "spell",
                                                                                             "trap"),
                                   what="monster, spell or trap", names="card")],
         x: Annotated[int | None, Arg("For a Level X card: the X wanted (it must equal the mana tapped).", label="X",
                                      high=99, what="X", beside=True)] = None,
         by_effect: Annotated[bool, Arg("The monster is played by an effect (no mana).",
                                        label="played by an effect", beside=True)] = False,
         mana: Annotated[dict[str, int] | None, Arg("The mana tapped: a number of each TYPE.",
                                                    label="Mana tapped", keys="type", high=99, metavar="TYPE=N",
                                                    example="FIRE=2")] = None) -> Answer:
    """Mana payment: LEVEL mana, with at least 1 of the monster's TYPE (not for COLOURLESS); Level X cards.

    Tap mana equal to the LEVEL, with at least 1 of a monster's TYPE (not for COLOURLESS); a Level X card takes any
    amount.
    """
    return pay_mana(game, card, mana or {}, x=x, by_effect=by_effect)


@helper(title="A turn's limits", rule="phases",
        example='carddb play shmod turn --charge "Ember Whelp" --set "Pitfall Snare"')
def turn(game: GameDefinition, index: CardIndex, *,
         first_turn: Annotated[bool, Arg("This is the first player's first turn.",
                                         label="the first player's first turn")] = False,
         charges: Annotated[list[Card], Arg("A card charged as mana this turn.", label="Charge",
                                            option="--charge", names="card", count=2)] = (),  # type: ignore
         set: Annotated[list[Card], Arg("A trap set face down this turn.", label="Set trap", kinds=TRAP,
                                        option="--set", count=2)] = (),  # type: ignore
         activate: Annotated[list[Card], Arg("A trap activated this turn.", label="Activate trap",
                                             kinds=TRAP, option="--activate", count=2)] = (),  # type: ignore
         attacks: Annotated[list[Card], Arg("A monster attacking this turn, once per attack.", label="Attack with",
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


@dataclass(frozen=True)
class MaterialRow:
    card: Annotated[Card, Arg("A monster sent as a material.", label="Material", kinds=MONSTER)]
    zone: Annotated[Literal["field", "hand"], Arg("Where it comes from: your field or your hand.", label="from your",
                                                  key="from", what="{card}'s zone")] = "field"


@helper("fusion", title="Fusion and Transformation", rule="fusion-and-transformation-monsters",
        example='carddb play shmod fusion "Steam Titan" "Cinder Hound=hand" "Reef Lancer"')
def fusion_helper(game: GameDefinition, index: CardIndex, *,
                  card: Annotated[Card, Arg("The Fusion or Transformation monster played from the stack.",
                                            label="Fusion or Transformation monster", kinds=MONSTER)],
                  materials: Annotated[list[MaterialRow], Arg(
                      "The monsters sent as its materials, NAME or NAME=hand (default: field).", what="material",
                      metavar="MATERIALS...", example="Cinder Hound=hand", count=3)] = ()  # type: ignore
                  ) -> Answer:
    """Fusion and Transformation: the materials named, where they come from, the Graveyard, no mana.

    The monsters a Fusion or Transformation monster names, where they may come from, and what goes to the
    Graveyard; no mana is paid.
    """
    return fusion(game, card, [Material(row.card, row.zone) for row in materials or []])


#: In the order of the Play page.
HELPERS: dict[str, Any] = helpers_of(sys.modules[__name__], order=(
    "battle", "phase", "mana", "turn", "atk-change", "immunity", "lasts", "fusion"))

#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"card": lambda c: True}
