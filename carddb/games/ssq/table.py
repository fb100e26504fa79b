"""Super Smash Quest's helpers of a turn and around it, each described once by its typed signature (its command
``carddb play ssq ...``, its form on the turn calculator page and the check of its request come from it): a turn
checked (``turn.py``), initiative, and what ``fight.py`` works out (a same-tick clash, charging, Smash Points, a Smash
hit past the threshold). Pure standard library.

Their engines say their working as plain lines (``turn.TurnReport``, ``fight.Outcome``); ``_answered`` makes each an
``Answer`` like every other helper's, its steps linked to the rulebook section the helper follows.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.dice import roll_pool
from carddb.core.play.helpers import Answer, find_card
from carddb.core.play.signature import Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.ssq.fight import ClashSide, Outcome, SmashHit, charge, regain_sp, same_tick_clash, sp_for_new_fight
from carddb.games.ssq.fight import smash_hit as smash_hit_outcome
from carddb.games.ssq.turn import (
    Action,
    TurnReport,
    check_turn,
    find_move,
    initiative_pool,
    initiative_ticks,
    plain_action,
)

FIGHTER = ("fighter",)
DEFENCES = (("dodge", "dodge (AGI + Dodge)"), ("guard", "guard (AGI + Guard)"))
#: The rulebook section of each problem of a turn, by its code.
TURN_RULES = {"rate": "actions-and-rate", "smash-power": "smash-points", "sp": "smash-points",
              "not-their-move": "move-anatomy", "accuracy": "attacking-and-defending"}


def move_of(game: GameDefinition, index: CardIndex, name: Any, fighter: Card | None, what: str = "move") -> Card:
    """A move by name, with the deck checker's suggestions; a name several fighters' moves share (Punch) is the
    fighter's own."""
    if len(index.names.by_norm.get(normalise_name(str(name or "")), [])) <= 1:
        find_card(game, index, name, ("move",), what)
    return find_move(index.cards, str(name), fighter)


def _answered(game: GameDefinition, helper: str, outcome: Outcome, rule: str) -> Answer:
    """``fight.py``'s lines as an answer: the last line says the outcome, each line before it is a step."""
    link = game.rule_link(rule)
    out = Answer(game.id, helper, values=dict(outcome.values))
    lines = list(outcome.lines)
    out.summary = lines[-1] if lines else (outcome.problems[0] if outcome.problems else "")
    for line in lines[:-1] or lines:
        out.say(line, link)
    for problem in outcome.problems:
        out.problem(problem, link)
    return out


# ------------------------------------------------------------------------------------------------------ turn
@dataclass(frozen=True)
class TurnAction:
    action: Annotated[str, Arg("A move's name, or move, jump or grab-item.", label="Action", names="move")]
    successes: Annotated[int | None, Arg("The attack roll's successes (empty: the dice pools alone).",
                                         label="successes", high=99, cli=False)] = None
    defence_successes: Annotated[int | None, Arg("The defence roll's successes.", label="defence", high=99,
                                                 cli=False)] = None


def _pair(text: str, option: str) -> tuple[int, int]:
    first, sep, second = (part.strip() for part in text.partition(":"))
    if not sep or not first.isdigit() or not second.isdigit():
        raise InputError(f"{option} {text!r}: write attack and defence successes as 3:1")
    return int(first), int(second)


def _turn_answer(game: GameDefinition, report: TurnReport) -> Answer:
    lines = report.text().splitlines()
    out = Answer(game.id, "turn", summary=lines[0], values={k: v for k, v in report.to_dict().items()
                                                            if k not in ("legal", "problems")})
    out.say(lines[1].strip(), game.rule_link("actions-and-rate"))
    for line in lines[2:2 + len(report.attacks)]:
        out.say(line.strip(), game.rule_link("damage"))
    for problem in report.problems:
        out.problem(problem.message, game.rule_link(TURN_RULES.get(problem.code, "actions-and-rate")))
    return out


@helper(title="A turn", rule="actions-and-rate", formats=True,
        example='carddb play ssq turn Mario "Red Fireball" --tick 2 --target Bowser --result 3:1')
def turn(game: GameDefinition, index: CardIndex, *,
         fighter: Annotated[Card, Arg("The fighter taking the turn, e.g. Bowser.", label="Fighter", kinds=FIGHTER)],
         tick: Annotated[int, Arg("The tick the turn is on.", label="Tick", short="-t", beside=True)] = 0,
         sp: Annotated[int | None, Arg("Smash Points the fighter has now (default: the maximum).", label="SP now",
                                       high=99, beside=True)] = None,
         target: Annotated[Card | None, Arg("The fighter attacked (for defence pools and damage).", label="Target",
                                            kinds=FIGHTER)] = None,
         defence: Annotated[Literal["dodge", "guard"], Arg("How the target defends: dodge (AGI + Dodge) or guard "
                                                           "(AGI + Guard).", label="Defence", option="--guard",
                                                           sets="guard", beside=True, shown=DEFENCES)] = "dodge",
         same_tick: Annotated[bool, Arg("The target acts on the same tick: it rolls AGI alone.",
                                        label="same tick (the target rolls AGI alone)", beside=True)] = False,
         actions: Annotated[list[TurnAction], Arg("The turn's actions in order: move names, or move, jump, "
                                                  "grab-item.", what="action", metavar="ACTIONS...", count=6)],
         results: Annotated[list[str], Arg("Attack:defence successes of each attack in order, e.g. 3:1.",
                                           option="--result", short="-r", form=False)] = (),  # type: ignore
         seed: Annotated[int | None, Arg("Roll the dice of attacks with no --result, from this seed.",
                                         form=False)] = None) -> Answer:
    """Check a planned turn: actions against the lowest Rate, one Smash Power, SP, the combo penalty, the next
    tick; each attack's dice pool, and its damage for the given (or rolled) successes.

    The actions against the lowest Rate, one Smash Power, SP, the combo penalty and the next tick; each attack's dice
    pools and, given the successes each attack and defence rolled, its damage.
    """
    given = [_pair(text, "--result") for text in results or []]
    planned = []
    for row in actions or []:
        kind = plain_action(row.action)
        if kind is not None:
            planned.append(Action(kind))
            continue
        hits, defended = row.successes, row.defence_successes
        if hits is None and defended is None and given:
            hits, defended = given.pop(0)
        planned.append(Action("attack", move_of(game, index, row.action, fighter, "move or action (move, jump, "
                                                "grab-item)"), hits, defended))
    if given:
        raise InputError(f"{len(results)} --result values for fewer attacks")
    if not planned:
        raise InputError("name the turn's actions: moves, or move, jump, grab-item")
    report = check_turn(game, fighter, planned, tick=tick, target=target, defence=defence, same_tick=same_tick,
                        sp=sp, rng=random.Random(seed) if seed is not None else None)
    return _turn_answer(game, report)


@dataclass(frozen=True)
class Initiative:
    fighter: Annotated[Card, Arg("A fighter.", label="Fighter", kinds=FIGHTER)]
    successes: Annotated[int | None, Arg("Its AGI + Movement successes (empty: rolled).", label="successes",
                                         high=99, what="{fighter}'s successes")] = None


@helper(title="Initiative", rule="initiative", example="carddb play ssq initiative Pikachu=5 Mario=3 Bowser=1")
def initiative(game: GameDefinition, index: CardIndex, *,
               fighters: Annotated[list[Initiative], Arg(
                   "Name=successes (Pikachu=5), or a name alone to roll its AGI + Movement.", what="fighter",
                   metavar="FIGHTERS...", example="Pikachu=5", count=4)],
               seed: Annotated[int | None, Arg("Seed for the rolls.", form=False)] = None) -> Answer:
    """Order fighters into ticks: the most successes on tick 0, the others (best - theirs) ticks later.

    Each fighter rolls AGI + Movement; the most successes act on tick 0, each other fighter that many ticks later.
    """
    if not fighters:
        raise InputError("name the fighters, each with its successes (Pikachu=5) or alone to roll them")
    rng = random.Random(seed)
    successes: dict[str, int] = {}
    rolled: dict[str, str] = {}
    for row in fighters:
        if row.successes is None:
            roll = roll_pool(initiative_pool(row.fighter), game, rng)
            successes[row.fighter.name] = roll.successes
            rolled[row.fighter.name] = f" ({len(roll.faces)} dice {' '.join(map(str, roll.faces))})"
        else:
            successes[row.fighter.name] = row.successes
    ticks = initiative_ticks(successes)
    rule = game.rule_link("initiative")
    first = [name for name, tick in ticks.items() if tick == 0]
    out = Answer(game.id, "initiative", values={"successes": successes, "ticks": ticks},
                 summary=f"{' and '.join(first)} {'acts' if len(first) == 1 else 'act'} first, on tick 0.")
    for name, tick in ticks.items():
        noun = "success" if successes[name] == 1 else "successes"
        out.say(f"Tick {tick}: {name}, {successes[name]} {noun}{rolled.get(name, '')}.", rule)
    return out


# ------------------------------------------------------------------------------------------------ same tick
def _two(values: Sequence[int] | None, what: str, default: tuple[int, int] | None = None) -> tuple[int, int]:
    if not values and default is not None:
        return default
    if not values or len(values) != 2:
        raise InputError(f"give the {what} of the two attacks, as 3:2")
    return values[0], values[1]


@helper(title="Same tick", rule="same-tick", formats=True,
        example='carddb play ssq clash Mario "Red Fireball" Bowser "Bowser\'s Punch" --result 3:2')
def clash(game: GameDefinition, index: CardIndex, *,
          first: Annotated[Card, Arg("The first fighter, e.g. Mario.", label="First fighter", kinds=FIGHTER)],
          first_move: Annotated[str, Arg("The first fighter's attack.", label="attack", names="move", beside=True)],
          second: Annotated[Card, Arg("The second fighter.", label="Second fighter", kinds=FIGHTER)],
          second_move: Annotated[str, Arg("The second fighter's attack.", label="attack", names="move", beside=True)],
          result: Annotated[list[int], Arg("Successes of the two attack rolls, e.g. 3:2.", label="Successes",
                                           option="--result", short="-r", sep=":", count=2, high=99)],
          extra_power: Annotated[list[int], Arg("Power each bought with Smash Points, e.g. 2:0.",
                                                label="Power bought", sep=":", count=2,
                                                high=99)] = ()  # type: ignore[assignment]
          ) -> Answer:
    """Two fighters attacking each other on the same tick: attack Power (not POW) adds automatic successes.

    Each attack's Power (not POW) adds to its successes, the higher total hits.
    """
    (hits_a, hits_b), (power_a, power_b) = _two(result, "successes"), _two(extra_power, "Power bought", (0, 0))
    sides = [ClashSide(fighter, move_of(game, index, move, fighter), hits, power)
             for fighter, move, hits, power in ((first, first_move, hits_a, power_a),
                                                (second, second_move, hits_b, power_b))]
    return _answered(game, "clash", same_tick_clash(game, sides[0], sides[1]), "same-tick")


# ------------------------------------------------------------------------------------------------- charging
@helper("charge", title="Charging", rule="charging",
        example='carddb play ssq charge Pikachu "Super Smash" --tick 9 --ticks 3 --event release --at 11')
def charge_helper(game: GameDefinition, index: CardIndex, *,
                  fighter: Annotated[Card, Arg("The fighter charging, e.g. Pikachu.", label="Fighter",
                                               kinds=FIGHTER)],
                  move: Annotated[str, Arg("The charged move, e.g. Super Smash.", label="charged move",
                                           names="move", beside=True)],
                  tick: Annotated[int, Arg("The tick the charge starts on.", label="from tick", option="--tick",
                                           short="-t")],
                  ticks: Annotated[int, Arg("How many ticks the move is charged for.", label="for ticks",
                                            option="--ticks", low=1, high=99, beside=True)],
                  event: Annotated[Literal["resume", "hit", "release", "store", "drop"], Arg(
                      "What ends the charge: resume, hit, release, store or drop.", label="ends by",
                      beside=True)] = "resume",
                  at: Annotated[int | None, Arg("The tick of the interrupting turn (hit, release, store, drop).",
                                                label="on tick", beside=True)] = None,
                  used: Annotated[list[str], Arg("An attack already made this turn.", label="attack used",
                                                 option="--used", names="move", count=3)] = ()  # type: ignore
                  ) -> Answer:
    """A charged attack: the tick the turn resumes on, or what a hit, an early release, storing or dropping does.

    A charged attack: the tick the turn resumes on, or what a hit, an early release, storing or dropping the charge
    does.
    """
    made = [move_of(game, index, name, fighter) for name in used or []]
    return _answered(game, "charge", charge(game, fighter, move_of(game, index, move, fighter), tick=tick,
                                            ticks=ticks, used=made, event=event, at=at), "charging")


# -------------------------------------------------------------------------------------------- smash points
@helper("sp", title="Smash Points", rule="smash-points",
        example="carddb play ssq sp Mario --sp 1 --from-tick 3 --to-tick 14")
def sp_helper(game: GameDefinition, index: CardIndex, *,
              fighter: Annotated[Card, Arg("The fighter, e.g. Mario (the maximum is the fighter's SP).",
                                           label="Fighter", kinds=FIGHTER)],
              sp: Annotated[int, Arg("Smash Points the fighter has on the --from-tick tick.", label="SP",
                                     option="--sp", high=99, beside=True)],
              from_tick: Annotated[int | None, Arg("The tick of --sp.", label="on tick", old="--from",
                                                   beside=True)] = None,
              to_tick: Annotated[int | None, Arg("The tick asked about.", label="by tick", old="--to",
                                                 beside=True)] = None
              ) -> Answer:
    """Smash Points regained over ticks: 1 every 5 ticks up to the maximum (they refill between fights).

    Smash Points come back 1 every 5 ticks of the fight, up to the fighter's SP.
    """
    if from_tick is None or to_tick is None:
        raise InputError("say the ticks with --from-tick and --to-tick")
    return _answered(game, "sp", regain_sp(game, sp, sp_for_new_fight(fighter), from_tick, to_tick),
                     "smash-points")


# ------------------------------------------------------------------------------------------------- recovery
@helper(title="Recovery, wall hits, star finish", rule="recovery",
        example="carddb play ssq recovery Mario --damage 85 --walls 2 --roll 1")
def recovery(game: GameDefinition, index: CardIndex, *,
             fighter: Annotated[Card, Arg("The fighter hit by a Smash attack, e.g. Mario.", label="Fighter",
                                          kinds=FIGHTER)],
             taken: Annotated[int, Arg("Damage the fighter had taken before the hit.", label="damage before",
                                       option="--damage", short="-d", key="damage", high=999, beside=True)],
             hit: Annotated[int, Arg("The damage of this Smash hit.", label="hit damage", high=999, beside=True)] = 0,
             result: Annotated[list[int], Arg("Attack:defence successes, for the star finish.",
                                              label="attack and defence successes", option="--result", short="-r",
                                              sep=":", count=2, high=99)] = (),  # type: ignore[assignment]
             ledge: Annotated[int, Arg("Units between the fighter and the ledge.", label="units to the ledge",
                                       high=99)] = 0,
             roll: Annotated[int | None, Arg("Successes of the AGI + Jump recovery roll.", label="AGI + Jump "
                                             "successes", high=99, beside=True)] = None,
             up_b: Annotated[str | None, Arg("An Up+B move with the Recovery keyword (triple jump).", label="Up+B",
                                             names="move", beside=True)] = None,
             up_b_roll: Annotated[int | None, Arg("Successes of the Up+B move's accuracy roll.",
                                                  label="Up+B successes", high=99, beside=True)] = None,
             walls: Annotated[int, Arg("Walls, ceilings or floors the flight hits.", label="walls hit",
                                       high=99)] = 0,
             sheltered: Annotated[bool, Arg("The fighter cannot be knocked out of the arena.",
                                            label="sheltered", beside=True)] = False,
             no_pit: Annotated[bool, Arg("Below the ledge is ground, not a pit or the arena's edge.",
                                         label="ground below (no pit)", beside=True)] = False,
             seed: Annotated[int | None, Arg("Roll the recovery dice not given, from this seed.",
                                             form=False)] = None) -> Answer:
    """A Smash hit past the damage threshold: instant kill, star finish, units flown, recovery roll, wall hits.

    A Smash hit on a fighter past the damage threshold. Leave a roll empty to see what it must beat.
    """
    attack, defence = _two(result, "attack and defence successes") if result else (None, None)
    smash = SmashHit(taken=taken, hit_damage=hit, ledge=ledge, attack_successes=attack, defence_successes=defence,
                     recovery_roll=roll, up_b=move_of(game, index, up_b, fighter) if up_b else None,
                     up_b_roll=up_b_roll, walls=walls, sheltered=sheltered, pit=not no_pit)
    outcome = smash_hit_outcome(game, fighter, smash, random.Random(seed) if seed is not None else None)
    return _answered(game, "recovery", outcome, "recovery")


#: In the order of the turn calculator page (before ``play.py``'s).
HELPERS = helpers_of(sys.modules[__name__])
