"""Super Smash Quest Skirmish: initiative and checking a planned turn (its dice: ``carddb.core.play.dice``).
Pure standard library.

ssq has no decks: the rules checker checks a turn. Every number comes from the game definition (``[dice]``,
``[turn]``) and the fighter and move entries of the catalogue; rolls are injectable (a seeded
``random.Random`` or the faces themselves) so the rulebook's worked examples are exact tests:

- Mario's Red Fireball (AGI 3 + Ranged 2 = 5 dice) on Bowser dodging (AGI 1 + Dodge 2 = 3 dice), 3 successes
  against 1: Power 3 + 2 - END 4 = 1, times Damage 2 = 2 damage; from tick 2 his next turn is tick 6.
- Bowser on tick 4 dashes, punches and Koopa Klaws: 3 actions within Rate 3, each attack 5 - 2 = 3 dice, next
  turn tick 10 (the higher Speed, 6).
- Initiative successes Pikachu 5, Mario 3, Link 3, Bowser 1 put them on ticks 0, 2, 2, 4.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.dice import dice_count, most_successes, roll_pool, success_table
from carddb.errors import InputError

#: Actions that are not attacks: moving and jumping (Speed 4, Rate 4 by default) and grabbing an item.
PLAIN_ACTIONS = {"move": "move", "dash": "move", "walk": "move", "run": "move", "jump": "jump",
                 "double jump": "jump", "grab item": "grab-item", "grab-item": "grab-item", "item": "grab-item"}


# ---------------------------------------------------------------------------------------------- initiative
def initiative_pool(fighter: Card) -> int:
    """AGI + Move Speed (**Reading**: Move Speed is the Movement ability)."""
    return int(fighter.get("agi") or 0) + int(fighter.get("movement") or 0)


def initiative_ticks(successes: Mapping[str, int]) -> dict[str, int]:
    """The best roll goes on tick 0, everyone else (best - theirs) ticks later; ordered by tick."""
    if not successes:
        return {}
    best = max(successes.values())
    ticks = {name: best - value for name, value in successes.items()}
    return dict(sorted(ticks.items(), key=lambda item: item[1]))


# --------------------------------------------------------------------------------------------------- turns
@dataclass(frozen=True, slots=True)
class Action:
    """One action of a planned turn: an attack with a move, or a plain action (move, jump, grab-item).

    For an attack, the successes (or the faces rolled) of the attack and of the defence may be given; the
    damage is computed only when both are known.
    """

    kind: str  # attack | move | jump | grab-item
    move: Card | None = None
    successes: int | None = None
    defence_successes: int | None = None
    faces: tuple[int, ...] | None = None
    defence_faces: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class TurnProblem:
    code: str  # rate | smash-power | sp | not-their-move | accuracy
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(slots=True)
class AttackResult:
    move: str
    pool: int
    penalty: int
    defence_pool: int | None
    successes: int | None = None
    defence_successes: int | None = None
    hit: bool | None = None
    power: int = 0
    damage: int | None = None
    working: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "pool": self.pool, "penalty": self.penalty, "defence_pool": self.defence_pool,
                "successes": self.successes, "defence_successes": self.defence_successes, "hit": self.hit,
                "power": self.power, "damage": self.damage, "working": self.working}


@dataclass(slots=True)
class TurnReport:
    fighter: str
    target: str | None
    tick: int
    next_tick: int
    actions: int
    max_actions: int | None
    attacks: list[AttackResult] = field(default_factory=list)
    sp_used: int = 0
    sp_left: int | None = None
    problems: list[TurnProblem] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"fighter": self.fighter, "target": self.target, "legal": self.legal, "tick": self.tick,
                "next_tick": self.next_tick, "actions": self.actions, "max_actions": self.max_actions,
                "sp_used": self.sp_used, "sp_left": self.sp_left,
                "attacks": [a.to_dict() for a in self.attacks], "problems": [p.to_dict() for p in self.problems]}

    def text(self) -> str:
        head = f"{self.fighter}'s turn on tick {self.tick}: {'LEGAL' if self.legal else 'NOT LEGAL'}"
        rate = f" (Rate allows {self.max_actions})" if self.max_actions is not None else ""
        if self.sp_left is not None and self.sp_left < 0:  # more than the fighter has: never "-1 left"
            sp = f"SP needed {self.sp_used}, {-self.sp_left} more than the fighter has"
        else:
            sp = f"SP used {self.sp_used}" + (f", {self.sp_left} left" if self.sp_left is not None else "")
        lines = [head, f"  {self.actions} action{'s' if self.actions != 1 else ''}{rate}; next turn on tick "
                       f"{self.next_tick}; {sp}"]
        for attack in self.attacks:
            penalty = f" (combo penalty -{attack.penalty})" if attack.penalty else ""
            defence = f" against {dice_count(attack.defence_pool)}" if attack.defence_pool is not None else ""
            line = f"  {attack.move}: {dice_count(attack.pool)}{penalty}{defence}"
            if attack.hit is not None:
                line += f"; {attack.successes} vs {attack.defence_successes}: "
                line += f"hit, {attack.working}" if attack.hit else "miss"
            lines.append(line)
        lines.extend(f"  problem {p.code}: {p.message}" for p in self.problems)
        return "\n".join(lines) + "\n"


def _field_for(game: GameDefinition, term: str) -> str | None:
    wanted = normalise_name(term)
    for key, field_def in game.fields.items():
        if wanted in (normalise_name(key), normalise_name(field_def.label)):
            return key
    return None


def dice_pool(game: GameDefinition, fighter: Card, accuracy: str) -> tuple[int, list[str]]:
    """The dice of a pool such as ``AGI + Ranged`` for this fighter; unknown terms are listed."""
    total, unknown = 0, []
    for term in (t.strip() for t in accuracy.split("+")):
        if not term:
            continue
        if term.lstrip("-").isdigit():
            total += int(term)
            continue
        key = _field_for(game, term)
        value = fighter.get(key) if key else None
        if isinstance(value, int) and not isinstance(value, bool):
            total += value
        else:
            unknown.append(term)
    return total, unknown


def move_power(move: Card, fighter: Card) -> int:
    """A fighter's own move holds its Power in that fighter's hands; a shared move (no ``fighter``) holds the
    bonus added to the user's POW (0: Power = POW)."""
    power = move.get("power")
    power = power if isinstance(power, int) and not isinstance(power, bool) else 0
    if move.get("fighter"):
        return power
    return int(fighter.get("pow") or 0) + power


def damage(game: GameDefinition, power: int, beaten_by: int, target_end: int, multiplier: int) -> tuple[int, str]:
    """Damage of a hit and how it was worked out, by the game's ``turn.damage_formula``."""
    if game.turn.get("damage_formula", "worked-example") == "rule-text":
        base = max(1, power - target_end)
        total = base + beaten_by
        return total * multiplier, (f"max(1, {power} - {target_end}) + {beaten_by} = {total}, x{multiplier} = "
                                    f"{total * multiplier} damage")
    total = max(1, power + beaten_by - target_end)
    return total * multiplier, (f"{power} + {beaten_by} - {target_end} = {power + beaten_by - target_end}"
                                f"{' (at least 1)' if total != power + beaten_by - target_end else ''}, "
                                f"x{multiplier} = {total * multiplier} damage")


def check_turn(game: GameDefinition, fighter: Card, actions: Sequence[Action], *, tick: int = 0,
               target: Card | None = None, defence: str = "dodge", same_tick: bool = False,
               sp: int | None = None, rng: random.Random | None = None) -> TurnReport:
    """Check a planned turn and work out each attack's dice pool and, where rolls are known, its damage."""
    turn = game.turn
    move_speed, move_rate = int(turn.get("move_speed", 4)), int(turn.get("move_rate", 4))
    penalty_each = int(turn.get("combo_penalty", 2))
    sp_cost = int(turn.get("special_sp_cost", 1))
    smash_limit = int(turn.get("smash_powers_per_turn", 1))
    attacks = [a for a in actions if a.kind == "attack" and a.move is not None]
    penalty = penalty_each * max(0, len(attacks) - 1)
    speeds, rates = [], []
    for action in actions:
        if action.kind == "attack" and action.move is not None:
            speeds.append(int(action.move.get("speed") or 0))
            if isinstance(action.move.get("rate"), int):
                rates.append(int(action.move.get("rate")))
        elif action.kind in ("move", "jump"):
            speeds.append(move_speed)
            rates.append(move_rate)
    max_actions = min(rates) if rates else None
    available_sp = sp if sp is not None else fighter.get("sp")
    report = TurnReport(fighter=fighter.name, target=target.name if target else None, tick=tick,
                        next_tick=tick + (max(speeds) if speeds else 0), actions=len(actions),
                        max_actions=max_actions)
    if max_actions is not None and len(actions) > max_actions:
        report.problems.append(TurnProblem("rate", f"{len(actions)} actions, but the lowest Rate of this turn is "
                                                   f"{max_actions}."))
    smash_powers = [a.move.name for a in attacks if a.move.get("move_type") == "smash power"]
    if len(smash_powers) > smash_limit:
        names = ", ".join(smash_powers)
        report.problems.append(TurnProblem("smash-power", f"{len(smash_powers)} Smash Powers ({names}); one turn "
                                                          f"allows {smash_limit}."))
    specials = [a.move.name for a in attacks if a.move.get("move_type") == "special"]
    report.sp_used = sp_cost * len(specials)
    if isinstance(available_sp, int):
        report.sp_left = available_sp - report.sp_used
        if report.sp_left < 0:
            report.problems.append(TurnProblem("sp", f"{len(specials)} special moves cost {report.sp_used} SP; "
                                                     f"{fighter.name} has {available_sp}."))
    for action in attacks:
        report.attacks.append(_attack(game, fighter, action, penalty, target, defence, same_tick, report, rng))
    return report


def _attack(game: GameDefinition, fighter: Card, action: Action, penalty: int, target: Card | None,
            defence: str, same_tick: bool, report: TurnReport, rng: random.Random | None) -> AttackResult:
    move = action.move
    assert move is not None
    owner = move.get("fighter")
    if owner and normalise_name(str(owner)) != normalise_name(fighter.name):
        report.problems.append(TurnProblem("not-their-move", f"{move.name} is {owner}'s move, not {fighter.name}'s."))
    accuracy = str(move.get("accuracy") or "")
    base, unknown = dice_pool(game, fighter, accuracy)
    if unknown:
        report.problems.append(TurnProblem("accuracy", f"{move.name}: cannot read {', '.join(unknown)} in its "
                                                       f"Accuracy {accuracy!r}."))
    pool = max(0, base - penalty)
    defence_pool = None
    if target is not None:
        terms = "AGI" if same_tick else f"AGI + {'Guard' if defence == 'guard' else 'Dodge'}"
        defence_pool = dice_pool(game, target, terms)[0]
    result = AttackResult(move=move.name, pool=pool, penalty=penalty, defence_pool=defence_pool,
                          power=move_power(move, fighter))
    successes = action.successes
    if successes is None and action.faces is not None:
        successes = roll_pool(pool, game, faces=action.faces).successes
    elif successes is None and rng is not None:
        successes = roll_pool(pool, game, rng).successes
    against = action.defence_successes
    if against is None and action.defence_faces is not None:
        against = roll_pool(defence_pool or 0, game, faces=action.defence_faces).successes
    elif against is None and rng is not None and defence_pool is not None:
        against = roll_pool(defence_pool, game, rng).successes
    result.successes, result.defence_successes = successes, against
    for rolled, dice, who in ((successes, pool, "attack"), (against, defence_pool, "defence")):
        if rolled is not None and dice is not None and rolled > most_successes(dice, game):
            best = max(success_table(game).values())
            report.problems.append(TurnProblem(
                "impossible-roll", f"{move.name}: {rolled} {who} successes cannot come from {dice_count(dice)}; the "
                                   f"most is {most_successes(dice, game)} ({best} a die)."))
    if successes is not None and against is not None:
        result.hit = successes > against  # a tie misses
        if result.hit and target is not None:
            multiplier = move.get("damage")
            multiplier = multiplier if isinstance(multiplier, int) else 1
            result.damage, result.working = damage(game, result.power, successes - against,
                                                   int(target.get("end") or 0), multiplier)
        elif result.hit:
            result.working = "hit (name a target for the damage)"
    return result


# ---------------------------------------------------------------------------------------- lookups by name
def find_fighter(cards: Sequence[Card], name: str) -> Card:
    wanted = normalise_name(name)
    for card in cards:
        if card.kind == "fighter" and normalise_name(card.name) == wanted:
            return card
    known = ", ".join(c.name for c in cards if c.kind == "fighter")
    raise InputError(f"no fighter called {name!r} (fighters: {known})")


def find_move(cards: Sequence[Card], name: str, fighter: Card | None = None) -> Card:
    """A move by name, the fighter's own first (several fighters have a move called Punch)."""
    wanted = normalise_name(name)
    found = [c for c in cards if c.kind == "move" and normalise_name(c.name) == wanted]
    if fighter is not None and len(found) > 1:
        own = [c for c in found if normalise_name(str(c.get("fighter") or "")) == normalise_name(fighter.name)]
        found = own or [c for c in found if not c.get("fighter")] or found
    if found:
        return found[0]
    raise InputError(f"no move called {name!r}")


def plain_action(name: str) -> str | None:
    """``move``/``dash``/``walk`` -> move, ``jump`` -> jump, ``grab item`` -> grab-item, else None."""
    return PLAIN_ACTIONS.get(normalise_name(name).replace("-", " ")) or PLAIN_ACTIONS.get(normalise_name(name))
