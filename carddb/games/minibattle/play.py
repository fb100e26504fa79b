"""Pokemon Mini-Battle at the table: the exact chances of an attack's outcomes, what happens between turns, what may
be played this turn, and the opening hand. Pure standard library; the numbers and readings are ``[play]`` of
``rules/minibattle/game.toml``.

Damage is ATK - DEF when above 0, after the special abilities of the listed forms (``ATK+# vs Type``, ``DEF+# vs
Type``, ``Opponent's Attack-#``, ``Evasion D(#)-#``, ``Negate Evasion``, ``Dmg Reflect #``, ``Halve DMG: #%``,
``Double DMG: #%``, ``(Condition) Atk: #%``, ``Effect Chance x2``, ``Effect Off #%``) and the conditions (Prlz,
Slp, Cnfs, Psn). Because the rules are chances, the answer is the exact distribution of outcomes as fractions
(``fractions.Fraction``), never one random roll; ``tests/games/test_minibattle_play.py`` checks it against a
brute-force enumeration of every die.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import (
    Answer,
    chance,
    choice,
    percent_text,
    plural,
    setting,
)
from carddb.core.play.signature import Also, Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.minibattle.knockout import Pokemon, evolve, knockout
from carddb.games.minibattle.pokemon import CONDITION_WORDS, stat
from carddb.games.minibattle.pokemon import form as _form
from carddb.games.minibattle.pokemon import is_basic as _is_basic


# --------------------------------------------------------------------------------------------------- battle
@dataclass(frozen=True, slots=True)
class Battler:
    """A Battling Pokemon: its card, the HP it has left, and its conditions (Prlz, Slp, Cnfs, Psn)."""

    card: Card
    hp: int
    conditions: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.card.name


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way an attack can end (the key of the distribution)."""

    kind: str  # asleep | paralysed | confused | evaded | hit
    damage: int = 0  # to the attacked Pokemon
    self_damage: int = 0  # to the attacker (confused, or a Dmg Reflect)
    knocked_out: bool = False
    attacker_knocked_out: bool = False
    condition: str = ""  # inflicted on the attacked Pokemon


def _rate(percent: int, game: GameDefinition) -> Fraction:
    return Fraction(min(percent, int(setting(game, "max_chance"))), 100)


def attack_odds(game: GameDefinition, attacker: Battler, defender: Battler, *, attacker_partner: Card | None = None,
                defender_partner: Card | None = None) -> Answer:
    """The exact distribution of what one attack does (``attacker_partner``/``defender_partner``: the other Battling
    Pokemon of each side, whose Opponent's Attack-# and Effect Chance x2 count while they battle).

    Readings (``docs/minibattle-play.md``): an asleep Pokemon cannot attack; paralysis is rolled first, then
    confusion, then Evasion; a confused Pokemon hitting itself takes ATK - DEF against its target, no chance
    abilities; Double DMG is rolled before Halve DMG, halves rounded down; Dmg Reflect and a condition need the
    attack to have happened (a condition needs no damage, but not a knocked-out target); Effect Chance x2 doubles
    the chances of conditions being inflicted, once, while its holder battles (``effect_chance_scope``: ``all``
    or ``own-side``), up to 100%; ATK never goes below 0.
    """
    out = Answer(game.id, "battle")
    battle_rule, ability_rule = game.rule_link("battle"), game.rule_link("special-abilities")
    condition_rule = game.rule_link("conditions")
    a, d = attacker.card, defender.card
    atk, defence = stat(a, "atk"), stat(d, "def")
    atk_parts, def_parts = [f"ATK {atk}"], [f"DEF {defence}"]
    bonus = _form(a, "atk-vs")
    if bonus and normalise_name(bonus.type) == normalise_name(str(d.get("type") or "")):
        atk += bonus.number
        atk_parts.append(f"{bonus.number} ({bonus.text})")
    for holder in (d, defender_partner):
        minus = _form(holder, "opponent-attack")
        if minus:
            atk -= minus.number
            atk_parts.append(f"- {minus.number} ({holder.name}'s {minus.text})")
    atk = max(0, atk)
    guard = _form(d, "def-vs")
    if guard and normalise_name(guard.type) == normalise_name(str(a.get("type") or "")):
        defence += guard.number
        def_parts.append(f"{guard.number} ({guard.text})")
    base = max(0, atk - defence)
    dist: dict[Outcome, Fraction] = {}

    def add(p: Fraction, outcome: Outcome) -> None:
        if p:
            dist[outcome] = dist.get(outcome, Fraction(0)) + p

    if "Slp" in attacker.conditions:
        out.say(f"{a.name} is asleep (Slp) and cannot attack.", condition_rule)
        add(Fraction(1), Outcome("asleep"))
        return _finish(out, attacker, defender, dist)
    out.say(f"{a.name} {_sum(atk_parts, atk)} against {d.name} {_sum(def_parts, defence)}: {atk} - {defence} = "
            f"{atk - defence}" + (" damage." if base else ", not above 0: no damage."), battle_rule)
    left = Fraction(1)
    if "Prlz" in attacker.conditions:
        p = Fraction(int(setting(game, "paralysis_chance")), 100)
        out.say(f"{a.name} is paralysed (Prlz): {percent_text(p)} that it does nothing.", condition_rule)
        add(left * p, Outcome("paralysed"))
        left *= 1 - p
    if "Cnfs" in attacker.conditions:
        p = Fraction(int(setting(game, "confusion_chance")), 100)
        out.say(f"{a.name} is confused (Cnfs): {percent_text(p)} that it deals its {base} damage to itself instead.",
                condition_rule)
        add(left * p, Outcome("confused", self_damage=base, attacker_knocked_out=base >= attacker.hp))
        left *= 1 - p
    evasion = _form(d, "evasion")
    if evasion and _form(a, "negate"):
        out.say(f"{a.name}'s Negate Evasion ignores {d.name}'s {evasion.text}.", ability_rule)
    elif evasion:
        p = Fraction(min(evasion.number, evasion.sides), evasion.sides)
        out.say(f"{d.name}'s {evasion.text}: a roll of {evasion.number} or less on a d{evasion.sides}, "
                f"{percent_text(p)}, makes the attack do nothing.", ability_rule)
        add(left * p, Outcome("evaded"))
        left *= 1 - p
    double, halve, reflect = _form(a, "double"), _form(d, "halve"), _form(d, "reflect")
    inflict = _form(a, "condition")
    rate = Fraction(0)
    if inflict:
        multiplier = _effect_multiplier(game, a, attacker_partner, d, defender_partner, out, ability_rule)
        rate = _rate(inflict.number * multiplier, game)
        extra = f" x{multiplier}" if multiplier != 1 else ""
        out.say(f"{a.name}'s {inflict.text}{extra}: {percent_text(rate)} that {d.name} becomes "
                f"{CONDITION_WORDS[inflict.condition]}.", condition_rule)
    p_double = _rate(double.number, game) if double and base else Fraction(0)
    p_halve = _rate(halve.number, game) if halve and base else Fraction(0)
    if p_double:
        out.say(f"{a.name}'s {double.text}: {percent_text(p_double)} that the damage is doubled.", ability_rule)
    if p_halve:
        out.say(f"{d.name}'s {halve.text}: {percent_text(p_halve)} that it takes half (rounded down).", ability_rule)
    if reflect:
        out.say(f"{d.name}'s {reflect.text}: when it takes damage, {a.name} takes {reflect.number}.", ability_rule)
    for doubled, p1 in ((True, p_double), (False, 1 - p_double)):
        for halved, p2 in ((True, p_halve), (False, 1 - p_halve)):
            dealt = base * 2 if doubled else base
            dealt = dealt // 2 if halved else dealt
            back = reflect.number if reflect and dealt > 0 else 0
            knocked = dealt >= defender.hp
            hit = Outcome("hit", dealt, back, knocked, back >= attacker.hp and back > 0)
            p = left * p1 * p2
            if inflict and not knocked and inflict.condition not in defender.conditions:
                add(p * rate, Outcome("hit", dealt, back, knocked, hit.attacker_knocked_out, inflict.condition))
                add(p * (1 - rate), hit)
            else:
                add(p, hit)
    return _finish(out, attacker, defender, dist)


def _sum(parts: Sequence[str], total: int) -> str:
    """``ATK 10`` alone, or ``ATK 9 + 2 (ATK+2 vs Grass) = 11``."""
    return parts[0] if len(parts) == 1 else f"{' + '.join(parts).replace('+ -', '-')} = {total}"


def _effect_multiplier(game: GameDefinition, a: Card, a_partner: Card | None, d: Card, d_partner: Card | None,
                       out: Answer, rule: str) -> int:
    scope = choice(game, "effect_chance_scope", ("all", "own-side"))
    holders = (a, a_partner) if scope == "own-side" else (a, a_partner, d, d_partner)
    found = next((c for c in holders if _form(c, "effect-chance")), None)
    if found is None:
        return 1
    times = _form(found, "effect-chance").number  # type: ignore[union-attr]
    out.say(f"{found.name}'s Effect Chance x{times} is Battling: condition chances x{times}, at most "
            f"{setting(game, 'max_chance')}%.", rule)
    return times


def describe(outcome: Outcome, attacker: str, defender: str) -> str:
    if outcome.kind == "asleep":
        return f"{attacker} is asleep and cannot attack"
    if outcome.kind == "paralysed":
        return f"{attacker} is paralysed and does nothing"
    if outcome.kind == "evaded":
        return f"{defender} evades: the attack does nothing"
    if outcome.kind == "confused":
        return f"{attacker} hits itself for {outcome.self_damage}" + (", knocked out" if outcome.attacker_knocked_out
                                                                       else "")
    text = f"{defender} takes {outcome.damage}" if outcome.damage else f"{defender} takes no damage"
    if outcome.knocked_out:
        text += ", knocked out"
    if outcome.self_damage:
        text += f"; {attacker} takes {outcome.self_damage} back" + (", knocked out" if outcome.attacker_knocked_out
                                                                    else "")
    if outcome.condition:
        text += f"; {defender} is {CONDITION_WORDS[outcome.condition]}"
    return text


def _finish(out: Answer, attacker: Battler, defender: Battler, dist: Mapping[Outcome, Fraction]) -> Answer:
    ordered = sorted(dist.items(), key=lambda item: (-item[1], item[0].kind, -item[0].damage))
    knocked = sum((p for o, p in dist.items() if o.knocked_out), Fraction(0))
    expected = sum((p * o.damage for o, p in dist.items()), Fraction(0))
    table = [{"outcome": describe(o, attacker.name, defender.name), "probability": chance(p), "kind": o.kind,
              "damage": o.damage, "self_damage": o.self_damage, "knocked_out": o.knocked_out,
              "attacker_knocked_out": o.attacker_knocked_out, "condition": o.condition or None} for o, p in ordered]
    rule = out.working[0].rule if out.working else ""
    for row in table:
        out.say(f"{row['outcome']}: {percent_text(Fraction(row['probability']['fraction']))}.", rule)
    odds = "not knocked out" if not knocked else "knocked out for certain" if knocked == 1 else \
        f"knocked out {percent_text(knocked)}"
    out.summary = f"{defender.name} ({defender.hp} HP): {odds}, expected damage {_number(expected)}."
    out.values = {"attacker": attacker.name, "defender": defender.name, "outcomes": table,
                  "knock_out": chance(knocked), "expected_damage": _exact(expected)}
    return out


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator} ({float(value):.2f})"


def _exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": round(float(value), 4)}


# ------------------------------------------------------------------------------------------------ between turns
def between_turns(game: GameDefinition, pokemon: Battler) -> Answer:
    """Between turns: a poisoned Pokemon takes 2 damage, an asleep one wakes up at 50%, and Effect Off #% may clear
    every condition. Reading: in that order (the poison first, then the rolls)."""
    out = Answer(game.id, "between")
    rule, ability_rule = game.rule_link("conditions"), game.rule_link("special-abilities")
    hp, conditions = pokemon.hp, set(pokemon.conditions)
    if not conditions:
        out.say(f"{pokemon.name} has no condition: nothing happens between turns.", rule)
    if "Psn" in conditions:
        loss = int(setting(game, "poison_damage"))
        out.say(f"Poisoned (Psn): {pokemon.name} takes {loss}, {hp} - {loss} = {hp - loss} HP.", rule)
        hp -= loss
    dist: dict[tuple[int, frozenset[str]], Fraction] = {(hp, frozenset(conditions)): Fraction(1)}
    if hp <= 0:
        out.say(f"{pokemon.name} is knocked out by the poison.", rule)
    else:
        if "Slp" in conditions:
            wake = Fraction(int(setting(game, "sleep_wake_chance")), 100)
            out.say(f"Asleep (Slp): {percent_text(wake)} that {pokemon.name} wakes up.", rule)
            dist = _roll(dist, wake, lambda c: c - {"Slp"})
        clear = _form(pokemon.card, "effect-off")
        if clear and conditions:
            p = _rate(clear.number, game)
            out.say(f"{pokemon.name}'s {clear.text}: {percent_text(p)} that it loses every condition.", ability_rule)
            dist = _roll(dist, p, lambda c: frozenset())
    table = []
    for (left, after), p in sorted(dist.items(), key=lambda item: (-item[1], sorted(item[0][1]))):
        words = ", ".join(CONDITION_WORDS[c] for c in sorted(after)) or "no condition"
        text = f"{pokemon.name} knocked out" if left <= 0 else f"{pokemon.name} {left} HP, {words}"
        table.append({"outcome": text, "probability": chance(p), "hp": left, "conditions": sorted(after),
                      "knocked_out": left <= 0})
        out.say(f"{text}: {percent_text(p)}.", rule)
    out.summary = f"{pokemon.name} after the turn: " + "; ".join(
        f"{row['outcome'].removeprefix(pokemon.name + ' ')} {percent_text(Fraction(row['probability']['fraction']))}"
        for row in table) + "."
    out.values = {"pokemon": pokemon.name, "outcomes": table}
    return out


def _roll(dist: Mapping[tuple[int, frozenset[str]], Fraction], p: Fraction, change: Any
          ) -> dict[tuple[int, frozenset[str]], Fraction]:
    out: dict[tuple[int, frozenset[str]], Fraction] = {}
    for (hp, conditions), q in dist.items():
        for key, weight in (((hp, frozenset(change(conditions))), p), ((hp, conditions), 1 - p)):
            if weight:
                out[key] = out.get(key, Fraction(0)) + q * weight
    return out


# ------------------------------------------------------------------------------------------- playing a turn
@dataclass(frozen=True, slots=True)
class InPlay:
    card: Card
    new: bool = False  # played (or evolved) this turn


@dataclass(frozen=True, slots=True)
class Play:
    card: Card
    on: str = ""  # the Pokemon it evolves, when it evolves one


def plays(game: GameDefinition, in_play: Sequence[InPlay], wanted: Sequence[Play], battling: Sequence[str] = ()
          ) -> Answer:
    """What may be played this turn: up to one basic (or baby) Pokemon and one evolution, played on its matching
    pre-evolved Pokemon, which was not played this turn; up to 2 Battling Pokemon.

    Reading: a Basic that evolves from a Baby (Pikachu from Pichu) is the turn's basic, unless it names the Baby it
    evolves (``on``)."""
    out = Answer(game.id, "plays")
    turn_rule, evo_rule = game.rule_link("turn"), game.rule_link("evolution")
    field = list(in_play)
    basics = evolutions = 0
    most_basic, most_evo = int(setting(game, "basics_per_turn")), int(setting(game, "evolutions_per_turn"))
    for play in wanted:
        card = play.card
        source = str(card.get("evolves_from") or "")
        evolving = bool(play.on) or (not _is_basic(card) and bool(source))
        if not evolving:
            basics += 1
            if not _is_basic(card):
                out.problem(f"{card.name} is {card.get('stage')}: it can only be played by evolving "
                            f"{source or 'its pre-evolved Pokemon'}.", evo_rule)
            elif basics > most_basic:
                out.problem(f"{card.name}: only {plural(most_basic, 'basic Pokemon', 'basic Pokemon')} may be "
                            f"played a turn.", turn_rule)
            else:
                out.say(f"Play {card.name} ({card.get('stage')}).", turn_rule)
            field.append(InPlay(card, True))
            continue
        evolutions += 1
        target_name = play.on or source
        if play.on and normalise_name(play.on) != normalise_name(source):
            out.problem(f"{card.name} evolves from {source or 'nothing'}, not from {play.on}.", evo_rule)
            continue
        matches = [p for p in field if normalise_name(p.card.name) == normalise_name(target_name)]
        ready = [p for p in matches if not p.new]
        if evolutions > most_evo:
            out.problem(f"{card.name}: only {plural(most_evo, 'evolution')} may be played a turn.", evo_rule)
        elif not matches:
            out.problem(f"{card.name} evolves from {target_name}, and no {target_name} is in play.", evo_rule)
        elif not ready:
            out.problem(f"{target_name} was played this turn: a Pokemon cannot evolve the turn it is played.", evo_rule)
        else:
            field[field.index(ready[0])] = InPlay(card, True)
            healer = " (Evolution Healer: all its damage is removed)" if _form(ready[0].card, "healer") else ""
            out.say(f"Evolve {target_name} into {card.name}{healer}.", evo_rule)
    most_battling, battle_rule = int(setting(game, "battling_max")), game.rule_link("battling-and-waiting-pokemon")
    names = [normalise_name(p.card.name) for p in field]
    for name in battling:
        if normalise_name(name) not in names:
            out.problem(f"{name} is not in play, so it cannot be Battling.", battle_rule)
    if len(battling) > most_battling:
        out.problem(f"{plural(len(battling), 'Battling Pokemon', 'Battling Pokemon')}: at most {most_battling}; the "
                    f"others are Waiting.", battle_rule)
    out.say("In play now: " + (", ".join(p.card.name for p in field) or "nothing") + ".", turn_rule)
    out.summary = "Every play is allowed." if out.legal else \
        f"The plays break {plural(len(out.problems), 'rule')}."
    out.values = {"in_play": [p.card.name for p in field], "basics": basics, "evolutions": evolutions}
    return out


def opening_hand(game: GameDefinition, hand: Sequence[Card]) -> Answer:
    """A 3-card opening hand is kept when it holds a basic (or baby) Pokemon, else reshuffled and drawn again."""
    out = Answer(game.id, "hand")
    rule = game.rule_link("starting-a-game")
    size = int(setting(game, "opening_hand"))
    if len(hand) != size:
        out.problem(f"An opening hand is {size} cards, not {len(hand)}.", rule)
    starters = [c.name for c in hand if _is_basic(c)]
    if starters:
        out.say(f"{', '.join(starters)} can start: keep the hand and put one basic Pokemon into play.", rule)
        out.summary = "Keep the hand."
    else:
        out.say("No basic (or baby) Pokemon: shuffle the hand back and draw a new one.", rule)
        out.summary = "Reshuffle and draw a new hand."
    out.values = {"keep": bool(starters), "can_start": starters}
    return out


# ---------------------------------------------------------------------------------- helpers described once
# Each helper's typed signature is its command (carddb play minibattle ...), its form on the Play page and the
# check of its request (carddb.core.play.signature).
POKEMON = ("pokemon",)
Condition = Literal["Prlz", "Slp", "Cnfs", "Psn"]
STACK_HELP = "BASIC/EVOLVED[=DAMAGE]: the cards of the stack from the bottom up, and the damage on it"


@dataclass(frozen=True)
class BattlingPokemon:
    card: Annotated[Card, Arg("The Pokemon.", label="Pokemon", kinds=POKEMON, what="Pokemon")]
    hp: Annotated[int | None, Arg("Its HP left (default: its HP).", label="HP", low=1, high=999, what="{card}'s HP",
                                  option="--hp")] = None
    conditions: Annotated[list[Condition], Arg("Its conditions: Prlz, Slp, Cnfs or Psn.", label="conditions",
                                               what="condition", option="--condition")] = ()  # type: ignore


def _battler(pokemon: BattlingPokemon) -> Battler:
    hp = stat(pokemon.card, "hp") if pokemon.hp is None else pokemon.hp
    return Battler(pokemon.card, hp or 1, frozenset(pokemon.conditions or ()))


@helper(title="An attack's odds", rule="battle", example="carddb play minibattle battle Charizard Wartortle")
def battle(game: GameDefinition, index: CardIndex, *,
           attacker: Annotated[BattlingPokemon, Arg("The attacking Battling Pokemon.", label="Attacker")],
           defender: Annotated[BattlingPokemon, Arg("The Battling Pokemon attacked.", label="Defender",
                                                    prefix="defender-")],
           attacker_partner: Annotated[Card | None, Arg("The attacker's other Battling Pokemon.", option="--partner",
                                                        label="Attacker's other Battling Pokemon", kinds=POKEMON,
                                                        what="Pokemon")] = None,
           defender_partner: Annotated[Card | None, Arg("The defender's other Battling Pokemon.",
                                                        label="Defender's other Battling Pokemon", kinds=POKEMON,
                                                        what="Pokemon", beside=True)] = None) -> Answer:
    """An attack's exact odds: every outcome (damage, knocked out, condition) with its chance, and the mean.

    ATK - DEF when above 0, with the special abilities and conditions: every outcome with its exact chance. HP: what
    is left (empty: the card's).
    """
    return attack_odds(game, _battler(attacker), _battler(defender), attacker_partner=attacker_partner,
                       defender_partner=defender_partner)


@helper(title="Between turns", rule="conditions",
        example="carddb play minibattle between Clefairy --hp 12 --condition Psn")
def between(game: GameDefinition, index: CardIndex, *,
            card: Annotated[Card, Arg("The Pokemon.", label="Pokemon", kinds=POKEMON, what="Pokemon",
                                      metavar="POKEMON")],
            hp: Annotated[int | None, Arg("Its HP left (default: its HP).", label="HP", low=1, high=999,
                                          what="its HP")] = None,
            conditions: Annotated[list[Condition], Arg("Its conditions: Prlz, Slp, Cnfs or Psn.", label="conditions",
                                                       what="condition", option="--condition")] = ()  # type: ignore
            ) -> Answer:
    """Between turns: poison's 2 damage, waking up at 50%, Effect Off; every outcome with its chance.

    Poison deals 2, a sleeping Pokemon wakes up at 50%, Effect Off may clear every condition.
    """
    return between_turns(game, _battler(BattlingPokemon(card, hp, conditions)))


def _in_play(text: str) -> dict[str, Any]:
    """``Charmander=new``: a Pokemon in play, played this turn."""
    name, _, new = (part.strip() for part in text.partition("="))
    if not name or new.lower() not in ("", "new"):
        raise InputError(f"{text!r}: write it as Charmander, or Charmander=new")
    return {"card": name, "new": new.lower() == "new"}


@dataclass(frozen=True)
class InPlayRow:
    card: Annotated[Card, Arg("A Pokemon in play.", label="Pokemon", kinds=POKEMON, what="Pokemon")]
    new: Annotated[bool, Arg("It was played this turn.", label="played this turn")] = False


@dataclass(frozen=True)
class PlayRow:
    card: Annotated[Card, Arg("A Pokemon played this turn.", label="Pokemon", kinds=POKEMON, what="Pokemon")]
    on: Annotated[Card | None, Arg("The Baby it evolves from, when a Basic evolves onto its Baby.",
                                   label="on (a Baby)", kinds=POKEMON, what="Pokemon")] = None


@helper("plays", title="What may be played", rule="evolution",
        example="carddb play minibattle plays --in-play Charmander --play Charmeleon")
def plays_helper(game: GameDefinition, index: CardIndex, *,
                 in_play: Annotated[list[InPlayRow], Arg("A Pokemon in play, NAME or NAME=new when it was played this "
                                                         "turn.", label="In play", option="--in-play",
                                                         read=_in_play, count=4)] = (),  # type: ignore
                 play: Annotated[list[PlayRow], Arg("A Pokemon played this turn, in order; NAME=BABY evolves a Basic "
                                                    "onto its Baby.", label="Play", option="--play",
                                                    metavar="NAME[=BABY]", example="Pikachu=Pichu",
                                                    count=3)] = (),  # type: ignore
                 battling: Annotated[list[Card], Arg("A Battling Pokemon after the plays.", label="Battling",
                                                     option="--battling", kinds=POKEMON, what="Pokemon",
                                                     count=3)] = ()  # type: ignore
                 ) -> Answer:
    """What may be played this turn: one basic, one evolution (not on a Pokemon played this turn), 2 Battling.

    One basic and one evolution a turn, not on a Pokemon played this turn; up to 2 Battling.
    """
    return plays(game, [InPlay(row.card, row.new) for row in in_play or []],
                 [Play(row.card, row.on.name if row.on is not None else "") for row in play or []],
                 [card.name for card in battling or []])


@helper("hand", title="The opening hand", rule="starting-a-game",
        example="carddb play minibattle hand Raichu Charmander Ivysaur")
def hand_helper(game: GameDefinition, index: CardIndex, *,
                hand: Annotated[list[Card], Arg("The 3 cards of the opening hand.", label="Card", kinds=("pokemon",),
                                                what="Pokemon", metavar="CARDS", count=3)]) -> Answer:
    """The opening hand: kept with a basic (or baby) Pokemon, else reshuffled.

    Kept when it holds a basic (or baby) Pokemon, else reshuffled.
    """
    return opening_hand(game, hand)


def _stack(text: str) -> dict[str, Any]:
    """``Bulbasaur/Ivysaur=52``: Ivysaur on Bulbasaur with 52 damage."""
    cards, _, damage = (part.strip() for part in text.partition("="))
    names = [name.strip() for name in cards.split("/") if name.strip()]
    if not names or (damage and not damage.isdigit()):
        raise InputError(f"{text!r}: write the stack from the bottom up and the damage on it, as Bulbasaur/Ivysaur=52")
    return {"card": names[-1], "under": names[-2::-1], "damage": int(damage) if damage else 0}


@dataclass(frozen=True)
class Stack:
    card: Annotated[Card, Arg("The Pokemon on top of the stack.", label="Pokemon", kinds=POKEMON, what="Pokemon")]
    under: Annotated[list[Card], Arg("The cards under it, the one just below first.", label="on", kinds=POKEMON,
                                     what="Pokemon", count=2)] = ()  # type: ignore
    damage: Annotated[int, Arg("The damage on it.", label="damage on it", high=999,
                               what="the damage on {card}")] = 0

    def pokemon(self, waiting: bool = False) -> Pokemon:
        return Pokemon(self.card, tuple(self.under or ()), self.damage, waiting)


@dataclass(frozen=True)
class InPlayStack(Stack):
    waiting: Annotated[bool, Arg("It is a Waiting Pokemon (not Battling).", label="Waiting")] = False


def _side(whose: str, option: str) -> Arg:
    return Arg(f"{whose} Battling Pokemon, {STACK_HELP}.", label=f"{whose} Pokemon", option=option, metavar="STACK",
               read=_stack, count=3, also=(Also(f"{option}-waiting", f"{whose} Waiting Pokemon, the same way.",
                                                (("waiting", True),)),))


@helper("knockout", title="A knock-out and victory", rule="battle",
        example="carddb play minibattle knockout Charmeleon Ivysaur --damage 9 --yours Charmander/Charmeleon --theirs "
                "Bulbasaur/Ivysaur=52 --theirs-waiting Squirtle")
def knockout_helper(game: GameDefinition, index: CardIndex, *,
                    attacker: Annotated[Card, Arg("Your Battling Pokemon that attacks (the card on top).",
                                                  label="Your attacking Pokemon", kinds=POKEMON,
                                                  what="attacking Pokemon")],
                    target: Annotated[Card, Arg("Your opponent's Battling Pokemon attacked.", label="attacks",
                                                kinds=POKEMON, what="attacked Pokemon", beside=True)],
                    damage: Annotated[int, Arg("The damage the attack deals (after its rolls).", label="Damage dealt",
                                               high=999, option="--damage", what="damage the attack deals")],
                    send_up: Annotated[Card | None, Arg("The Waiting Pokemon your opponent sends up (their choice; "
                                                        "default: the choices listed).", label="They send up",
                                                        kinds=POKEMON, what="Pokemon", metavar="NAME",
                                                        beside=True)] = None,
                    yours: Annotated[list[InPlayStack], _side("Your", "--yours")] = (),  # type: ignore
                    theirs: Annotated[list[InPlayStack], _side("Your opponent's", "--theirs")] = ()  # type: ignore
                    ) -> Answer:
    """A knock-out: the whole stack discarded, the Waiting Pokemon sent up, and whether the game is won.

    The attacked Pokemon's damage, what a knock-out discards (the card on top and every pre-evolved form under it),
    the Waiting Pokemon its owner sends up, and whether the game is won. Damage: what is on a Pokemon already.
    """
    return knockout(game, [row.pokemon(row.waiting) for row in yours or []],
                    [row.pokemon(row.waiting) for row in theirs or []], attacker.name, target.name, damage,
                    send_up.name if send_up is not None else "")


@helper("evolve", title="Evolving and Evolution Healer", rule="evolution",
        example="carddb play minibattle evolve Pichu=12 Pikachu")
def evolve_helper(game: GameDefinition, index: CardIndex, *,
                  pokemon: Annotated[Stack, Arg(f"The Pokemon that evolves, {STACK_HELP}.", label="Pokemon",
                                                metavar="STACK", read=_stack)],
                  into: Annotated[Card, Arg("The evolved Pokemon played on top of it.", label="Evolves into",
                                            kinds=POKEMON, what="Pokemon to evolve into")],
                  new: Annotated[bool, Arg("The Pokemon was played this turn.", label="played this turn")] = False
                  ) -> Answer:
    """Evolving: the damage stays on the Pokemon, unless its Evolution Healer removes it all.

    The damage on a Pokemon stays when it evolves, unless the evolving card has Evolution Healer.
    """
    return evolve(game, pokemon.pokemon(), into, new)


#: In the order of the Play page.
HELPERS: dict[str, Any] = helpers_of(sys.modules[__name__], order=(
    "battle", "between", "plays", "hand", "knockout", "evolve"))
