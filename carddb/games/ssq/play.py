"""Super Smash Quest Skirmish before the dice are rolled: the exact chance that an attack hits, its expected damage,
the odds of a same-tick clash, and the one item a fighter may hold. Pure standard library.

A pool of d10 counts 7, 8 and 9 as one success and 10 as two (the game's ``[dice]``); the attack hits when it rolls
more successes than the defence (a tie misses). The distributions are exact (``fractions.Fraction``), built by
convolving one die's distribution, and ``tests/games/test_ssq_odds.py`` checks them against every face of every die.
Pools and damage are those of the turn checker (``ssq.dice_pool``, ``ssq.damage``) and the clash that of
``fight.same_tick_clash``, so the odds always agree with ``carddb play ssq turn`` and ``carddb play ssq clash``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.dice import dice_sides, percentile, success_table
from carddb.core.play.helpers import (
    Answer,
    chance,
    find_card,
    percent_text,
    plural,
    setting,
)
from carddb.core.play.signature import Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.ssq.fight import ClashSide, attack_power_bonus, same_tick_clash, turn_number
from carddb.games.ssq.lives import MAX_COINS, MAX_LIVES, MAX_SESSION, lose_life, smash_powers
from carddb.games.ssq.movement import MOVE_WORDS, plan, reach, triple_jump_height
from carddb.games.ssq.percentile import MAX_LUCK, percentile_move
from carddb.games.ssq.table import DEFENCES, move_of
from carddb.games.ssq.table import HELPERS as TABLE_HELPERS
from carddb.games.ssq.turn import damage, dice_pool, move_power

MAX_DICE = 40


# -------------------------------------------------------------------------------------------------- dice pools
def die_distribution(game: GameDefinition | None) -> dict[int, Fraction]:
    """One die: successes -> chance (a d10: 0 at 6/10, 1 at 3/10, 2 at 1/10)."""
    sides, table = dice_sides(game), success_table(game)
    out: dict[int, Fraction] = {}
    for face in range(1, sides + 1):
        hits = table.get(face, 0)
        out[hits] = out.get(hits, Fraction(0)) + Fraction(1, sides)
    return out


@lru_cache(maxsize=256)
def _pool(dice: int, die: tuple[tuple[int, Fraction], ...]) -> tuple[tuple[int, Fraction], ...]:
    dist = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for hits, q in die:
                nxt[total + hits] = nxt.get(total + hits, Fraction(0)) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


def pool_distribution(dice: int, game: GameDefinition | None = None) -> dict[int, Fraction]:
    """Successes of ``dice`` dice -> their exact chance (0 dice: 0 successes for certain)."""
    return dict(_pool(max(0, dice), tuple(sorted(die_distribution(game).items()))))


def beats(attack: Mapping[int, Fraction], defence: Mapping[int, Fraction]) -> Fraction:
    """The chance that the attack rolls more successes than the defence (a tie misses)."""
    return sum((p * q for a, p in attack.items() for d, q in defence.items() if a > d), Fraction(0))


def pool_words(game: GameDefinition, fighter: Card, terms: str) -> str:
    """``AGI 3 + Ranged 2 = 5`` for ``AGI + Ranged`` (a single term: ``AGI 1``)."""
    parts = []
    for term in (t.strip() for t in terms.split("+")):
        if term:
            parts.append(f"{term} {dice_pool(game, fighter, term)[0]}" if not term.lstrip("-").isdigit() else term)
    total = dice_pool(game, fighter, terms)[0]
    return f"{' + '.join(parts)} = {total}" if len(parts) > 1 else f"{parts[0] if parts else 0}"


# ---------------------------------------------------------------------------------------------- attack odds
def attack_odds(game: GameDefinition, fighter: Card, move: Card, target: Card, *, defence: str = "dodge",
                same_tick: bool = False, attacks: int = 1, extra_dice: int = 0) -> Answer:
    """The exact chance that ``move`` hits ``target``, and its damage: each damage with its chance, and the mean.

    ``attacks``: the attacks of this turn (each beyond the first costs every attack 2 dice); ``same_tick``: the
    target acts on the same tick and rolls AGI alone; ``defence``: dodge (AGI + Dodge) or guard (AGI + Guard);
    ``extra_dice``: dice added to the attack (+1 for a charge released early).
    """
    out = Answer(game.id, "odds")
    hit_rule, dice_rule = game.rule_link("attacking-and-defending"), game.rule_link("dice")
    accuracy = str(move.get("accuracy") or "")
    base, unknown = dice_pool(game, fighter, accuracy)
    if unknown:
        out.problem(f"{move.name}: cannot read {', '.join(unknown)} in its Accuracy {accuracy!r}.",
                    game.rule_link("move-anatomy"))
    penalty = turn_number(game, "combo_penalty") * max(0, attacks - 1)
    pool = max(0, base - penalty + extra_dice)
    terms = [pool_words(game, fighter, accuracy)]
    if penalty:
        terms.append(f"- {penalty} combo penalty ({plural(attacks, 'attack')} this turn)")
    if extra_dice:
        terms.append(f"+ {extra_dice}")
    out.say(f"{fighter.name}, {move.name}: {' '.join(terms)}{f' = {pool}' if len(terms) > 1 else ''} dice.",
            game.rule_link("actions-and-rate") if penalty else hit_rule)
    if same_tick:
        defence_terms = "AGI"
        out.say(f"{target.name} acts on the same tick: no Dodge or Guard, AGI alone.", game.rule_link("same-tick"))
    else:
        defence_terms = f"AGI + {'Guard' if defence == 'guard' else 'Dodge'}"
    against = dice_pool(game, target, defence_terms)[0]
    verb = "defends" if same_tick else "guards" if defence == "guard" else "dodges"
    out.say(f"{target.name} {verb}: "
            f"{pool_words(game, target, defence_terms)} dice.", hit_rule)
    die = die_distribution(game)
    out.say("Each die: " + ", ".join(f"{hits} success{'es' if hits != 1 else ''} {percent_text(p)}"
                                     for hits, p in sorted(die.items())) + ".", dice_rule)
    attack_dist, defence_dist = pool_distribution(pool, game), pool_distribution(against, game)
    hit = beats(attack_dist, defence_dist)
    out.say(f"{pool} dice must roll more successes than {against} (a tie misses): hit {percent_text(hit)}.", hit_rule)
    power = move_power(move, fighter)
    multiplier = move.get("damage") if isinstance(move.get("damage"), int) else 1
    end = int(target.get("end") or 0)
    by_damage: dict[int, Fraction] = {}
    by_margin: dict[int, Fraction] = {}
    for a, p in attack_dist.items():
        for d, q in defence_dist.items():
            if a > d:
                by_margin[a - d] = by_margin.get(a - d, Fraction(0)) + p * q
    damage_rule = game.rule_link("damage")
    for margin, p in sorted(by_margin.items()):
        dealt, working = damage(game, power, margin, end, multiplier)
        by_damage[dealt] = by_damage.get(dealt, Fraction(0)) + p
        out.say(f"Beats the defence by {margin}, at {percent_text(p)}: {working}.", damage_rule)
    expected = sum((dealt * p for dealt, p in by_damage.items()), Fraction(0))
    table = [{"damage": dealt, "probability": chance(p)} for dealt, p in sorted(by_damage.items())]
    out.summary = (f"{move.name} hits {target.name} {percent_text(hit)}; expected damage {_number(expected)}"
                   + (f" ({_number(expected / hit)} when it hits)." if hit else "."))
    out.values = {"fighter": fighter.name, "move": move.name, "target": target.name, "pool": pool,
                  "defence_pool": against, "hit": chance(hit), "miss": chance(1 - hit),
                  "expected_damage": _exact(expected), "damage": table}
    return out


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": round(float(value), 4)}


# ----------------------------------------------------------------------------------------------- clash odds
def clash_odds(game: GameDefinition, first: tuple[Card, Card, int], second: tuple[Card, Card, int]) -> Answer:
    """Two fighters attacking each other on the same tick, before they roll: each rolls its attack's Accuracy and
    adds its attack's Power (not POW, plus Power bought with Smash Points) as automatic successes; the higher total
    hits, a tie clashes harmlessly. Each outcome is worked out by ``same_tick_clash``, as ``carddb play ssq clash``."""
    out = Answer(game.id, "clash-odds")
    rule = game.rule_link("same-tick")
    sides = []
    for fighter, move, extra in (first, second):
        dice = dice_pool(game, fighter, str(move.get("accuracy") or ""))[0]
        bonus = attack_power_bonus(move, fighter) + extra
        out.say(f"{fighter.name}, {move.name}: {pool_words(game, fighter, str(move.get('accuracy') or ''))} dice, "
                f"{bonus:+d} Power as automatic successes.", rule)
        sides.append((fighter, move, extra, pool_distribution(dice, game)))
    wins = {first[0].name: Fraction(0), second[0].name: Fraction(0)}
    expected = {first[0].name: Fraction(0), second[0].name: Fraction(0)}
    tie = Fraction(0)
    (f1, m1, e1, d1), (f2, m2, e2, d2) = sides
    for a, p in d1.items():
        for b, q in d2.items():
            result = same_tick_clash(game, ClashSide(f1, m1, a, e1), ClashSide(f2, m2, b, e2)).values
            if result["winner"] is None:
                tie += p * q
            else:
                wins[result["winner"]] += p * q
                expected[result["winner"]] += p * q * result["damage"]
    for name, other in ((f1.name, f2.name), (f2.name, f1.name)):
        out.say(f"{name} hits {other} {percent_text(wins[name])}; expected damage to {other} "
                f"{_number(expected[name])}.", rule)
    out.say(f"The attacks clash harmlessly {percent_text(tie)}.", rule)
    out.summary = (f"{f1.name} hits {percent_text(wins[f1.name])}, {f2.name} hits {percent_text(wins[f2.name])}, "
                   f"a clash {percent_text(tie)}.")
    out.values = {"first": {"fighter": f1.name, "move": m1.name, "hits": chance(wins[f1.name]),
                            "expected_damage": _exact(expected[f1.name])},
                  "second": {"fighter": f2.name, "move": m2.name, "hits": chance(wins[f2.name]),
                             "expected_damage": _exact(expected[f2.name])},
                  "clash": chance(tie)}
    return out


# ---------------------------------------------------------------------------------------------------- items
def held_items(game: GameDefinition, fighter: Card, items: Sequence[str], weapons: Sequence[Card] = ()) -> Answer:
    """A fighter holds one item at a time (a shell, a weapon in use); the Smash Dex and badges do not count."""
    out = Answer(game.id, "items")
    rule = game.rule_link("items")
    most = int(setting(game, "items_held"))
    free = [normalise_name(n) for n in setting(game, "items_not_counted")]
    known = {normalise_name(w.name): w.name for w in weapons}
    held, free_held = [], []
    for item in items:
        key = normalise_name(item)
        if any(key == f or key.endswith(f" {f}") or key.startswith(f"{f} ") for f in free):
            free_held.append(item)
        else:
            held.append(known.get(key, item))
    if free_held:
        out.say(f"{', '.join(free_held)}: always at hand, not "
                f"{'a held item' if len(free_held) == 1 else 'held items'}.", rule)
    if held:
        out.say(f"{fighter.name} holds {', '.join(held)}.", rule)
    if len(held) > most:
        out.problem(f"{fighter.name} holds {plural(len(held), 'item')}; a fighter holds {most} at a time.", rule)
    out.summary = (f"{fighter.name} may hold {held[0] if held else 'an item'}." if out.legal
                   else f"{fighter.name} holds too many items: one at a time.")
    out.values = {"fighter": fighter.name, "held": held, "not_counted": free_held}
    return out


# ---------------------------------------------------------------------------------- helpers described once
# Each helper's typed signature is its command (carddb play ssq ...), its form on the turn calculator page and the
# check of its request (carddb.core.play.signature); those of a turn and around it are table.py's.
FIGHTER = ("fighter",)
CAUSE_WORDS = (("fall", "fell off a ledge"), ("hp", "0 HP in HP mode"), ("smash", "killed outright by a Smash"),
               ("star-finish", "star finish"))


@helper(title="Hit odds", rule="attacking-and-defending", formats=True,
        example='carddb play ssq odds Mario "Red Fireball" Bowser')
def odds(game: GameDefinition, index: CardIndex, *,
         fighter: Annotated[Card, Arg("The attacking fighter, e.g. Mario.", label="Fighter", kinds=FIGHTER)],
         move: Annotated[str, Arg("The attack, e.g. Red Fireball.", label="attack", names="move", beside=True)],
         target: Annotated[Card, Arg("The fighter attacked.", label="target", kinds=FIGHTER, beside=True)],
         defence: Annotated[Literal["dodge", "guard"], Arg("How the target defends: dodge (AGI + Dodge) or guard "
                                                           "(AGI + Guard).", label="Defence", option="--guard",
                                                           sets="guard", shown=DEFENCES)] = "dodge",
         same_tick: Annotated[bool, Arg("The target acts on the same tick: it rolls AGI alone.",
                                        label="same tick (AGI alone)", beside=True)] = False,
         attacks: Annotated[int, Arg("Attacks this turn (each beyond the first costs 2 dice).",
                                     label="attacks this turn", low=1, high=10)] = 1,
         extra_dice: Annotated[int, Arg("Dice added to the attack (+1: a charge released early).",
                                        label="extra dice", high=MAX_DICE, beside=True)] = 0) -> Answer:
    """The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage.

    The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage, before
    anyone rolls.
    """
    return attack_odds(game, fighter, move_of(game, index, move, fighter), target, defence=defence,
                       same_tick=same_tick, attacks=attacks, extra_dice=extra_dice)


@helper("clash-odds", title="Same-tick clash odds", rule="same-tick", formats=True,
        example='carddb play ssq clash-odds Mario "Red Fireball" Bowser "Bowser\'s Punch"')
def clash_odds_helper(game: GameDefinition, index: CardIndex, *,
                      first: Annotated[Card, Arg("The first fighter, e.g. Mario.", label="First fighter",
                                                 kinds=FIGHTER)],
                      first_move: Annotated[str, Arg("The first fighter's attack.", label="attack", names="move",
                                                     beside=True)],
                      second: Annotated[Card, Arg("The second fighter.", label="Second fighter", kinds=FIGHTER)],
                      second_move: Annotated[str, Arg("The second fighter's attack.", label="attack",
                                                      names="move", beside=True)],
                      extra_power: Annotated[list[int], Arg("Power each bought with Smash Points, e.g. 2:0.",
                                                            label="Power bought", sep=":", count=2,
                                                            high=99)] = ()  # type: ignore[assignment]
                      ) -> Answer:
    """The odds of a same-tick clash before the roll: who hits, how often they clash, the expected damage.

    Two fighters attacking each other on the same tick, before the roll: who hits, how often they clash.
    """
    if extra_power and len(extra_power) != 2:
        raise InputError("give the Power each bought, as 2:0")
    power_a, power_b = extra_power or (0, 0)
    return clash_odds(game, (first, move_of(game, index, first_move, first), power_a),
                      (second, move_of(game, index, second_move, second), power_b))


@helper(title="Items held", rule="items", example='carddb play ssq items Link "Beam Sword"')
def items(game: GameDefinition, index: CardIndex, *,
          fighter: Annotated[Card, Arg("The fighter.", label="Fighter", kinds=FIGHTER)],
          items: Annotated[list[str], Arg("The items the fighter holds.", label="Item", names="weapon",
                                          metavar="ITEMS", count=3)]) -> Answer:
    """One held item at a time (the Smash Dex and badges do not count).

    One held item at a time; the Smash Dex and badges do not count.
    """
    weapons = [c for c in index.cards if c.kind == "move" and c.get("move_type") == "weapon"]
    return held_items(game, fighter, list(items or []), weapons)


@helper("reach", title="Movement in a turn", rule="movement",
        example='carddb play ssq reach Bowser dash "Bowser\'s Punch" "Koopa Klaw" --tick 4')
def reach_helper(game: GameDefinition, index: CardIndex, *,
                 fighter: Annotated[Card, Arg("The fighter moving, e.g. Mario.", label="Fighter", kinds=FIGHTER)],
                 actions: Annotated[list[str], Arg(
                     "The turn's actions in order: walk, dash, jump, double jump, or a move (an Up+B is the triple "
                     "jump). None: what each move action covers.", label="Action", names="move", count=4)] = (),
                 tick: Annotated[int, Arg("The tick the turn is on.", label="tick", short="-t", beside=True)] = 0
                 ) -> Answer:
    """How far a fighter gets in a turn: walk half its Movement, dash its Movement, jump its Jump, double and
    triple jumps, within the lowest Rate; and the next tick.

    How far a fighter gets: a walk is half its Movement, a dash its Movement, a jump its Jump; a double jump straight
    after a jump, a triple jump with an Up+B move; all within the turn's lowest Rate. Write walk, dash, jump or
    double jump, or a move's name; leave the actions empty for the farthest turn.
    """
    names = list(actions or [])
    for name in names:
        known = MOVE_WORDS.get(normalise_name(name).replace("-", " ")) or MOVE_WORDS.get(normalise_name(name))
        if known is None and not index.names.by_norm.get(normalise_name(name)):
            find_card(game, index, name, ("move",), "move or move action (walk, dash, jump, double jump)")
    if len(names) > 20:
        raise InputError(f"{len(names)} actions: a turn holds far fewer (the lowest Rate, at most 4 for moving)")
    up_b = [c for c in index.cards if c.kind == "move" and triple_jump_height(c) is not None
            and normalise_name(str(c.get("fighter") or "")) == normalise_name(fighter.name)]
    return reach(game, fighter, plan(game, fighter, names, index.cards), tick=tick, up_b=up_b)


@helper("percentile", title="Percentile moves and Luck", rule="percentile-rolls",
        example='carddb play ssq percentile "Judgment Hammer"')
def percentile_helper(game: GameDefinition, index: CardIndex, *,
                      move: Annotated[str, Arg("A move whose Power a percentile roll decides: Item Pull, Judgment "
                                               "Hammer.", label="Move", names="move")],
                      fighter: Annotated[Card | None, Arg("The fighter rolling (default: the move's own).",
                                                          label="Fighter (default: the move's own)", kinds=FIGHTER,
                                                          option="--fighter", beside=True)] = None,
                      luck: Annotated[int | None, Arg("The Luck added (default: the fighter's).",
                                                      label="Luck (default: the fighter's)", high=MAX_LUCK)] = None,
                      no_luck: Annotated[bool, Arg("Do not add Luck (it may be added, not must).",
                                                   label="do not add Luck", beside=True)] = False,
                      roll: Annotated[int | None, Arg("The percentile rolled, 1 to 100: what it gives.",
                                                      label="roll (1 to 100)", low=1, high=100,
                                                      what="the percentile roll", beside=True)] = None,
                      faces: Annotated[list[int], Arg("The two d10 rolled, tens and units, e.g. 10:10 (100).",
                                                      sep=":", low=1, high=10, what="a d10's face",
                                                      form=False)] = ()  # type: ignore[assignment]
                      ) -> Answer:
    """The exact chance of each outcome of a percentile move for a fighter's Luck, or what a roll gives.

    The exact chance of each outcome of a move whose Power a percentile roll decides (Item Pull, Judgment Hammer),
    Luck added; give a roll to see what it pulls.
    """
    chosen = move_of(game, index, move, fighter)
    if fighter is None:
        owner = chosen.get("fighter")
        fighter = find_card(game, index, owner, FIGHTER, "fighter who rolls")
    if faces:
        if roll is not None or len(faces) != 2:
            raise InputError("give the roll or its two faces (tens and units, as 10 10), not both")
        roll, _ = percentile(faces=(faces[0], faces[1]))
    return percentile_move(game, fighter, chosen, luck=luck, add_luck=not no_luck, roll=roll)


@helper("lose-life", title="A life lost, Game Over", rule="death",
        example="carddb play ssq lose-life Mario --lives 1 --coins 125 --session 4")
def lose_life_helper(game: GameDefinition, index: CardIndex, *,
                     fighter: Annotated[Card, Arg("The fighter losing a life, e.g. Mario.", label="Fighter",
                                                  kinds=FIGHTER)],
                     cause: Annotated[Literal["fall", "hp", "smash", "star-finish"], Arg(
                         "fall (off a ledge), hp (0 HP in HP mode), smash (killed outright) or star-finish.",
                         label="How", beside=True, shown=CAUSE_WORDS)] = "fall",
                     lives: Annotated[int | None, Arg("Lives the fighter has before the loss (default: the fighter's "
                                                      "sheet).", label="lives before (empty: the fighter's)",
                                                      high=MAX_LIVES)] = None,
                     coins: Annotated[int | None, Arg("Coins the fighter holds (a Game Over loses half).",
                                                      label="coins held", high=MAX_COINS, beside=True)] = None,
                     session: Annotated[int | None, Arg("The number of the current session (to name the sessions "
                                                        "sat out).", label="this session's number", low=1,
                                                        high=MAX_SESSION, beside=True)] = None) -> Answer:
    """A life lost, and at none left the Game Over: half the coins, a session sat out, three lives on return.

    Lives left after a death; with none left, the Game Over: half the coins, the sessions sat out in the infirmary
    and the three lives a fighter comes back with.
    """
    return lose_life(game, fighter, lives=lives, coins=coins, cause=cause, session=session)


@helper("smash-powers", title="One Smash Power a turn", rule="smash-points",
        example='carddb play ssq smash-powers Mario "Bubble Shield" --between "Bubble Shield"')
def smash_powers_helper(game: GameDefinition, index: CardIndex, *,
                        fighter: Annotated[Card, Arg("The fighter whose turn it is, e.g. Mario.", label="Fighter",
                                                     kinds=FIGHTER)],
                        turn: Annotated[list[str], Arg("The moves used on the turn, in order.",
                                                       label="Move on the turn", names="move", metavar="MOVES",
                                                       count=3)] = (),  # type: ignore[assignment]
                        between_turns: Annotated[list[str], Arg("A move used between the fighter's turns, e.g. "
                                                                "Bubble Shield.", label="Used between turns",
                                                                option="--between", names="move",
                                                                count=2)] = ()  # type: ignore[assignment]
                        ) -> Answer:
    """One Smash Power a turn: the turn's Smash Powers counted, defensive ones between turns not.

    The Smash Powers of one turn; defensive ones used between the fighter's turns, such as the Bubble Shield, do not
    count.
    """
    return smash_powers(game, fighter, [move_of(game, index, name, fighter) for name in turn or []],
                        [move_of(game, index, name, fighter) for name in between_turns or []])


#: In the order of the turn calculator page.
HELPERS: dict[str, Any] = {**TABLE_HELPERS, **helpers_of(sys.modules[__name__])}

#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"weapon": lambda c: c.get("move_type") == "weapon"}
