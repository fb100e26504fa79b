"""Super Smash Quest Skirmish between and around turns: same-tick clashes, charging, Smash Points, recovery and
the star finish. Pure standard library; every number of the rules comes from the game's ``[turn]`` table.

The readings taken where the rulebook is unclear are stated in ``rules/ssq/rulebook.md`` and in the
``[[readings]]`` of ``rules/ssq/game.toml``; each function's docstring names the ones it follows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.core.play.dice import roll_pool
from carddb.errors import DefinitionError, InputError
from carddb.games.ssq.turn import damage, dice_pool, move_power

CHARGE_EVENTS = ("resume", "hit", "release", "store", "drop")


def turn_number(game: GameDefinition, key: str) -> int:
    """A number of the rules from ``[turn]``; a game that lacks it cannot answer (no number is guessed here)."""
    value = game.turn.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise DefinitionError(f"{game.id}'s game.toml has no [turn] {key}; the rule needs it",
                              hint="if rules/ssq/game.toml has it, rebuild the catalogue with `carddb build`")
    return value


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _says(move: Card, words: str) -> bool:
    return words in f"{move.text} {move.get('special') or ''}".lower()


def _keyword(move: Card, keyword: str) -> bool:
    return keyword.lower() in (str(k).lower() for k in move.get("keywords") or [])


@dataclass(slots=True)
class Outcome:
    """What a helper found: the numbers (``values``), a sentence per step, and problems with the request."""

    values: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {**self.values, "legal": self.legal, "working": list(self.lines), "problems": list(self.problems)}

    def text(self) -> str:
        return "".join(f"{line}\n" for line in self.lines) + "".join(f"problem: {p}\n" for p in self.problems)


# ------------------------------------------------------------------------------------------------ same tick
@dataclass(frozen=True, slots=True)
class ClashSide:
    fighter: Card
    move: Card
    successes: int
    extra_power: int = 0  # Power bought with Smash Points (the move says how much)


def attack_power_bonus(move: Card, fighter: Card) -> int:
    """An attack's own Power without the fighter's POW: its bonus or penalty (0 for a plain "Power: POW")."""
    return move_power(move, fighter) - _int(fighter.get("pow"))


def same_tick_clash(game: GameDefinition, first: ClashSide, second: ClashSide) -> Outcome:
    """Two fighters attacking each other on the same tick: each adds its attack's Power bonus (not POW, plus any
    Power bought with SP) to its successes; the higher total hits, a tie clashes harmlessly.

    Readings: the total is never below 0 (a Power penalty cannot take successes below none); the hit's damage
    counts the successes by which the winner's total beat the loser's, with the winner's full Power.
    """
    out = Outcome()
    totals = []
    for side in (first, second):
        bonus = attack_power_bonus(side.move, side.fighter) + side.extra_power
        total = max(0, side.successes + bonus)
        totals.append(total)
        out.lines.append(f"{side.fighter.name}, {side.move.name}: {side.successes} successes {bonus:+d} Power "
                         f"= {total}")
    out.values = {"totals": {first.fighter.name: totals[0], second.fighter.name: totals[1]}, "winner": None,
                  "damage": None}
    if totals[0] == totals[1]:
        out.lines.append("Tie: the attacks clash harmlessly.")
        return out
    win, lose = (first, second) if totals[0] > totals[1] else (second, first)
    power = move_power(win.move, win.fighter) + win.extra_power
    multiplier = _int(win.move.get("damage")) if win.move.get("damage") is not None else 1
    dealt, working = damage(game, power, abs(totals[0] - totals[1]), _int(lose.fighter.get("end")), multiplier)
    out.values.update(winner=win.fighter.name, damage=dealt)
    out.lines.append(f"{win.fighter.name} hits {lose.fighter.name}: {working}; {lose.fighter.name} cannot "
                     f"continue a combo.")
    return out


# ------------------------------------------------------------------------------------------------- charging
def charge(game: GameDefinition, fighter: Card, move: Card, *, tick: int, ticks: int, used: Sequence[Card] = (),
           event: str = "resume", at: int | None = None) -> Outcome:
    """A charged attack started on ``tick`` for ``ticks`` ticks, and what ends it.

    ``event``: ``resume`` (nobody hit: the turn resumes on the release tick), ``hit`` (hit on tick ``at``: the
    charge is lost), ``release`` (unleashed early on ``at`` at the attacker, +1 die), ``store`` (a storable
    charge kept for a later turn), ``drop`` (a Super Smash dropped, losing its charge and SP). ``used``: the
    attacks already made this turn. Readings: only a turn on a tick strictly between the start and the
    release can interrupt (a turn on either tick is the same tick); the charged attack counts among the attacks
    used, so a turn cut short ends the highest Speed of them after ``at``; a released attack keeps the turn's
    combo penalty for the attacks made before it.
    """
    if event not in CHARGE_EVENTS:
        raise InputError(f"unknown charge event {event!r}; use {', '.join(CHARGE_EVENTS)}")
    if ticks < 1:
        raise InputError(f"a charge lasts at least 1 tick, not {ticks}")
    out = Outcome()
    release = tick + ticks
    out.values = {"fighter": fighter.name, "move": move.name, "tick": tick, "release_tick": release,
                  "event": event, "charged_ticks": ticks, "charge_kept": event in ("resume", "release", "store"),
                  "resume_tick": None, "next_tick": None, "pool": None}
    out.lines.append(f"{fighter.name} charges {move.name} from tick {tick} to tick {release}.")
    if not _says(move, "can be charged"):
        out.problems.append(f"{move.name} cannot be charged (its Special does not say so).")
    if event == "resume":
        out.values["resume_tick"] = release
        out.lines.append(f"Not hit: the turn resumes on tick {release}; the rest of it counts from there "
                         f"(carddb play ssq turn --tick {release}).")
        return out
    if at is None or not tick < at < release:
        out.problems.append(f"{event}: give the tick of the interrupting turn, after {tick} and before {release} "
                            f"(a turn on either of those ticks is the same tick and cannot interrupt).")
        return out
    speed = max(_int(m.get("speed")) for m in (*used, move))
    out.values.update(charged_ticks=at - tick, next_tick=at + speed)
    if event == "hit":
        out.lines.append(f"Hit on tick {at}: the charge is lost and the turn is over.")
    elif event == "release":
        bonus = turn_number(game, "charge_release_bonus_dice")
        penalty = turn_number(game, "combo_penalty") * len(used)
        pool = max(0, dice_pool(game, fighter, str(move.get("accuracy") or ""))[0] - penalty + bonus)
        out.values["pool"] = pool
        out.lines.append(f"Released early on tick {at} after {at - tick} ticks of charge: {pool} dice "
                         f"({move.get('accuracy')}{f' -{penalty} combo' if penalty else ''} +{bonus} for being "
                         f"prepared) at the attacker; the turn is over.")
    elif event == "store":
        if not _says(move, "stored"):
            out.problems.append(f"{move.name}'s charge cannot be stored (its Special does not say so).")
        out.lines.append(f"Stored on tick {at} with {at - tick} ticks of charge, keeping the ability to dodge or "
                         f"guard; charging may resume on a later turn. The turn is over.")
    else:
        if move.get("move_type") != "smash":
            out.problems.append(f"only a charged Super Smash (a smash move) can be dropped; {move.name} is not one.")
        out.lines.append(f"Dropped on tick {at}: the charge and any Smash Points put into it are lost, the ability "
                         f"to dodge or guard is kept. The turn is over.")
    out.lines.append(f"Next turn on tick {at + speed} ({at} + Speed {speed}, the slowest attack used).")
    return out


# -------------------------------------------------------------------------------------------- smash points
def regain_sp(game: GameDefinition, sp: int, maximum: int, from_tick: int, to_tick: int) -> Outcome:
    """Smash Points regained from ``from_tick`` to ``to_tick``: 1 every ``sp_regen_ticks`` up to the maximum.

    Reading: the points come back on the fight's clock, on every tick that is a multiple of 5 (5, 10, 15, ...)
    passed after ``from_tick`` up to and including ``to_tick``, whoever spent them and when.
    """
    every = turn_number(game, "sp_regen_ticks")
    if not 0 <= sp <= maximum:
        raise InputError(f"{sp} SP is not between 0 and the maximum {maximum}")
    if from_tick < 0:
        raise InputError(f"a fight's ticks start at 0, not {from_tick}")
    if to_tick < from_tick:
        raise InputError(f"tick {to_tick} comes before tick {from_tick}")
    regained = to_tick // every - from_tick // every
    now = min(maximum, sp + regained)
    out = Outcome(values={"sp": now, "maximum": maximum, "regained": now - sp, "from_tick": from_tick,
                          "to_tick": to_tick})
    capped = f" (the maximum is {maximum})" if sp + regained > maximum else ""
    out.lines.append(f"{sp} SP on tick {from_tick}, +{regained} by tick {to_tick} (1 every {every} ticks): "
                     f"{now} SP{capped}.")
    return out


def sp_for_new_fight(fighter: Card) -> int:
    """Smash Points refill completely between fights."""
    return _int(fighter.get("sp"))


# ---------------------------------------------------------------------------------------- recovery, finish
def recovery_units(game: GameDefinition, taken: int, threshold: int) -> int:
    """The recovery threshold: 1 + 1 per full 10 damage past the damage threshold (0 when not past it)."""
    if taken <= threshold:
        return 0
    return turn_number(game, "recovery_base_units") + (taken - threshold) // turn_number(game,
                                                                                          "recovery_damage_per_unit")


def is_star_finish(game: GameDefinition, attack_successes: int, defence_successes: int) -> bool:
    """More than double the defence roll's successes (so any success beats a defence of none)."""
    return attack_successes > turn_number(game, "star_finish_multiple") * defence_successes


@dataclass(slots=True)
class SmashHit:
    """A hit by an attack with the Smash keyword on ``fighter``, who had taken ``taken`` damage before it."""

    taken: int
    hit_damage: int = 0
    ledge: int = 0  # units between the fighter and the ledge the hit knocks them towards
    attack_successes: int | None = None
    defence_successes: int | None = None
    recovery_roll: int | None = None  # successes of AGI + Jump
    up_b: Card | None = None  # an Up+B move with the Recovery keyword (a triple jump)
    up_b_roll: int | None = None  # successes of its Accuracy
    walls: int = 0  # walls (ceilings, floors) the flight hits
    sheltered: bool = False  # cannot be knocked out of the arena (a cave, a hit in the wrong direction)
    pit: bool = True  # over the ledge is a bottomless pit or the arena's edge


def smash_hit(game: GameDefinition, fighter: Card, hit: SmashHit, rng: random.Random | None = None) -> Outcome:
    """What a Smash hit does to a fighter past the damage threshold: the instant kill once damage has reached HP,
    the star finish, the units flown, the recovery roll or the wall hits.

    Readings: "past the threshold" and "damage equals HP" are judged on the damage taken before this hit, the
    units count the damage with this hit's; damage "equal" to HP means equal or more; a fighter who is at
    least as many units from the ledge as the hit sends them stays on the stage; every wall of one flight
    deals the units x 2 (the recovery threshold when the hit landed).
    """
    threshold, hp = _int(fighter.get("threshold")), _int(fighter.get("hp"))
    after = hit.taken + hit.hit_damage
    out = Outcome(values={"fighter": fighter.name, "taken": hit.taken, "damage_after": after, "in_danger": False,
                          "outcome": "safe", "units": 0, "needed": None, "roll": None, "wall_damage": 0,
                          "distance": 0})
    if hit.taken <= threshold:
        out.lines.append(f"{fighter.name} has taken {hit.taken} damage, not past the damage threshold {threshold}: "
                         f"no recovery.")
        return out
    out.values["in_danger"] = True
    if hit.up_b is not None and not _keyword(hit.up_b, "Recovery"):
        out.problems.append(f"{hit.up_b.name} has no Recovery keyword: it cannot help a recovery.")
    if hp and hit.taken >= hp and not hit.sheltered:
        out.values["outcome"] = "killed"
        out.lines.append(f"{fighter.name}'s damage {hit.taken} has reached HP {hp}: the Smash kills outright.")
        return out
    if hit.attack_successes is not None and hit.defence_successes is not None:
        multiple = turn_number(game, "star_finish_multiple")
        if is_star_finish(game, hit.attack_successes, hit.defence_successes):
            out.values["outcome"] = "star-finish"
            out.lines.append(f"Star finish: {hit.attack_successes} successes are more than {multiple} x "
                             f"{hit.defence_successes}; {fighter.name} blasts off and cannot recover.")
            return out
        out.lines.append(f"No star finish: {hit.attack_successes} successes are not more than {multiple} x "
                         f"{hit.defence_successes}.")
    units = recovery_units(game, after, threshold)
    out.values["units"] = units
    out.lines.append(f"{after} damage, {after - threshold} past the threshold {threshold}: sent flying {units} "
                     f"unit{'s' if units != 1 else ''}.")
    # "you won't get a triple jump" off a wall: the Up+B move's successes are not added to the roll
    counted = replace(hit, up_b=None, up_b_roll=None) if hit.walls else hit
    roll, parts = _recovery_successes(game, fighter, counted, rng)
    out.values["roll"] = roll
    if hit.walls and hit.up_b is not None:
        out.lines.append(f"A recovery from a wall hit gets no triple jump: {hit.up_b.name} is not counted.")
    if hit.walls:
        return _walls(game, out, units, hit.walls, roll)
    needed = units - hit.ledge
    out.values["needed"] = max(0, needed)
    if needed <= 0:
        out.lines.append(f"{hit.ledge} units from the ledge: {fighter.name} stays on the stage.")
        return out
    if roll is None:
        out.values["outcome"] = "must-recover"
        out.lines.append(f"Recovery roll (AGI + Jump{', plus Up+B' if hit.up_b else ''}) must beat {needed}.")
    elif roll > needed:
        out.values["outcome"] = "recovered"
        out.lines.append(f"Recovery roll {parts} beats {needed}: back to the ledge.")
    else:
        out.values["distance"] = needed - roll
        out.values["outcome"] = "died" if hit.pit else "fell-short"
        where = "falls into the pit and dies (a life lost)" if hit.pit else \
            f"falls {needed - roll} unit{'s' if needed - roll != 1 else ''} short and lands anywhere short of that"
        out.lines.append(f"Recovery roll {parts} does not beat {needed}: {fighter.name} {where}.")
    return out


def _recovery_successes(game: GameDefinition, fighter: Card, hit: SmashHit,
                        rng: random.Random | None) -> tuple[int | None, str]:
    """AGI + Jump successes plus the Up+B move's accuracy successes (rolled with ``rng`` where not given), and
    how they add up."""
    roll = hit.recovery_roll
    if roll is None and rng is not None:
        roll = roll_pool(dice_pool(game, fighter, "AGI + Jump")[0], game, rng).successes
    if roll is None or hit.up_b is None:
        return roll, str(roll)
    extra = hit.up_b_roll
    if extra is None and rng is not None:
        extra = roll_pool(dice_pool(game, fighter, str(hit.up_b.get("accuracy") or ""))[0], game, rng).successes
    extra = extra or 0
    return roll + extra, f"{roll} + {hit.up_b.name} {extra} = {roll + extra}"


def _walls(game: GameDefinition, out: Outcome, units: int, walls: int, roll: int | None) -> Outcome:
    multiplier = turn_number(game, "wall_damage_multiplier")
    out.values["wall_damage"] = units * multiplier * walls
    out.values["outcome"] = "ricochet"
    out.lines.append(f"{walls} wall hit{'s' if walls != 1 else ''}: {units} x {multiplier}"
                     f"{f' x {walls}' if walls != 1 else ''} = {units * multiplier * walls} damage.")
    distance = units if roll is None else max(0, units - roll)
    out.values["distance"] = distance
    if roll is not None:
        out.lines.append(f"Recovery roll {roll} against {units}: flies {distance} unit{'s' if distance != 1 else ''}"
                         + (" (beaten: the flight stops)." if roll > units else "."))
    return out
