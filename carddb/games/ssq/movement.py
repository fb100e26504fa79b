"""Super Smash Quest Skirmish: how far a fighter gets in a turn (``carddb play ssq reach``). Pure standard library.

The rulebook's Movement table: a dash (run) covers the fighter's Movement in units, a walk half of it, a jump its
Jump; a second jump straight after the first is a double jump, and a third is made with an Up+B special move whose
height the move gives (our move cards print it in their text, "a triple jump of 3 units"). Every move action has
Speed 4 and Rate 4 (``[turn] move_speed``, ``move_rate``), so a turn's actions are bounded by the lowest Rate of
everything in it, and the next turn comes after the highest Speed, as in ``carddb play ssq turn``.

Readings (docs/ssq.md): a walk of an odd Movement rounds down to whole units (``[play] walk_rounding``); only a jump
right after a jump is a double jump, anything else in between lands the fighter first.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, choice, plural
from carddb.games.ssq.turn import find_move

#: The move actions a player names, by the word they use.
MOVE_WORDS = {"walk": "walk", "dash": "dash", "run": "dash", "jump": "jump", "double jump": "double jump",
              "grab item": "grab item", "grab-item": "grab item"}
#: The jumps that may follow one another before the fighter lands: jump, double jump, then an Up+B.
JUMPS_IN_A_ROW = 3
_HEIGHT = re.compile(r"triple jump of (\d+) units?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the turn: its kind (walk, dash, jump, double jump, up-b, grab item, attack) and units."""

    name: str
    kind: str
    units: int = 0
    move: Card | None = None


def triple_jump_height(move: Card) -> int | None:
    """The height of an Up+B move's triple jump, as its card gives it; None for a move that is no triple jump."""
    for text in (move.get("text"), move.get("special")):
        found = _HEIGHT.search(str(text or ""))
        if found:
            return int(found[1])
    return None


def unit_table(game: GameDefinition, fighter: Card) -> dict[str, int]:
    """Units of one walk, dash and jump for this fighter (the rulebook's Movement table)."""
    movement, jump = int(fighter.get("movement") or 0), int(fighter.get("jump") or 0)
    rounding = choice(game, "walk_rounding", ("down", "up"))
    walk = movement // 2 if rounding == "down" else -(-movement // 2)
    return {"walk": walk, "dash": movement, "jump": jump, "double jump": jump}


def plan(game: GameDefinition, fighter: Card, names: Sequence[str], cards: Sequence[Card]) -> list[Step]:
    """The actions a player lists, read: move words, or moves (an Up+B with a height is a jump)."""
    units = unit_table(game, fighter)
    steps = []
    for name in names:
        word = MOVE_WORDS.get(normalise_name(name).replace("-", " ")) or MOVE_WORDS.get(normalise_name(name))
        if word is not None:
            steps.append(Step(word, word, units.get(word, 0)))
            continue
        move = find_move(cards, name, fighter)
        height = triple_jump_height(move)
        steps.append(Step(move.name, "up-b" if height is not None else "attack", height or 0, move))
    return steps


def reach(game: GameDefinition, fighter: Card, steps: Sequence[Step], *, tick: int = 0,
          up_b: Sequence[Card] = ()) -> Answer:
    """How far ``fighter`` gets with these actions; with none, what one action of each kind covers and the
    farthest a turn of move actions alone can go (tried over every such turn the Rate allows)."""
    out = Answer(game.id, "reach")
    if not steps:
        return _what_a_turn_reaches(game, fighter, up_b, out)
    move_rule, rate_rule = game.rule_link("movement"), game.rule_link("actions-and-rate")
    units = unit_table(game, fighter)
    out.say(f"{fighter.name}: Movement {units['dash']}, Jump {units['jump']}: a dash {plural(units['dash'], 'unit')} "
            f"(whatever its AGI), a walk {plural(units['walk'], 'unit')} (half), a jump "
            f"{plural(units['jump'], 'unit')}.", move_rule)
    ground = air = 0
    for step, label in zip(steps, _jump_labels(game, steps, out), strict=True):
        if step.kind in ("walk", "dash"):
            ground += step.units
            out.say(f"{_first_up(step.name)}: {plural(step.units, 'unit')} on the ground.", move_rule)
        elif step.kind in ("jump", "double jump", "up-b"):
            air += step.units
            how = f"{step.name}, {label}" if step.kind == "up-b" else label
            out.say(f"{_first_up(how)}: {plural(step.units, 'unit')} in the air.", move_rule)
        elif step.kind == "attack":
            out.say(f"{step.name}: an attack, no distance.", rate_rule)
        else:
            out.say("Grab an item: an action, no distance and no combo penalty.", rate_rule)
        if step.move is not None:
            _own_move(game, fighter, step.move, out)
    limit, next_tick = _rate_and_speed(game, steps, tick, out)
    specials = [s.move.name for s in steps if s.move is not None and s.move.get("move_type") == "special"]
    if specials:
        cost = int(game.turn.get("special_sp_cost", 1)) * len(specials)
        has = int(fighter.get("sp") or 0)
        out.say(f"{', '.join(specials)}: {cost} SP ({fighter.name} has {has}).", game.rule_link("special-moves"))
        if cost > has:
            out.problem(f"{plural(len(specials), 'special move')} cost{'s' if len(specials) == 1 else ''} {cost} SP; "
                        f"{fighter.name} has {has}.", game.rule_link("special-moves"))
    covers = (f"{plural(ground + air, 'unit')}: {ground} on the ground, {air} in the air, in "
              f"{plural(len(steps), 'action')}")
    out.summary = (f"{fighter.name} covers {covers}; next turn on tick {next_tick}." if out.legal
                   else f"Not a legal turn: {fighter.name} would cover {covers}.")
    out.values = {"fighter": fighter.name, "units": ground + air, "ground": ground, "air": air,
                  "actions": len(steps), "max_actions": limit, "tick": tick, "next_tick": next_tick,
                  "steps": [{"action": s.name, "kind": s.kind, "units": s.units} for s in steps]}
    return out


def _jump_labels(game: GameDefinition, steps: Sequence[Step], out: Answer) -> list[str]:
    """Each jump's place in its run of jumps (jump, double jump, triple jump); a run that breaks the rule is a
    problem: a double jump only straight after a jump, and only an Up+B after a double jump."""
    rule = game.rule_link("movement")
    labels, in_a_row = [], 0
    for step in steps:
        if step.kind not in ("jump", "double jump", "up-b"):
            in_a_row = 0
            labels.append("")
            continue
        in_a_row += 1
        labels.append(("jump", "double jump", "triple jump")[min(in_a_row, JUMPS_IN_A_ROW) - 1])
        if step.kind == "double jump" and in_a_row == 1:
            out.problem("A double jump comes straight after a jump; this one follows none.", rule)
        elif in_a_row == JUMPS_IN_A_ROW and step.kind != "up-b":
            out.problem("A third jump in a row is a triple jump, made with an Up+B special move.", rule)
        elif in_a_row > JUMPS_IN_A_ROW:
            out.problem(f"{_first_up(step.name)}: a fighter jumps at most three times in a row (jump, double "
                        f"jump, Up+B).", rule)
    return labels


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _own_move(game: GameDefinition, fighter: Card, move: Card, out: Answer) -> None:
    owner = str(move.get("fighter") or "")
    if owner and normalise_name(owner) != normalise_name(fighter.name):
        out.problem(f"{move.name} is {owner}'s move, not {fighter.name}'s.", game.rule_link("move-anatomy"))


def _rate_and_speed(game: GameDefinition, steps: Sequence[Step], tick: int, out: Answer) -> tuple[int, int]:
    """The most actions the lowest Rate allows, and the next turn's tick (the highest Speed)."""
    rule = game.rule_link("actions-and-rate")
    move_speed, move_rate = int(game.turn.get("move_speed", 4)), int(game.turn.get("move_rate", 4))
    rates, speeds = [], []
    for step in steps:
        if step.move is not None:
            rates.append((int(step.move.get("rate") or move_rate), step.move.name))
            speeds.append((int(step.move.get("speed") or 0), step.move.name))
        elif step.kind != "grab item":
            rates.append((move_rate, "moving"))
            speeds.append((move_speed, "moving"))
    rate, by = min(rates) if rates else (move_rate, "moving")
    speed, slowest = max(speeds) if speeds else (0, "")
    out.say(f"{plural(len(steps), 'action')}; the lowest Rate is {rate} ({by}).", rule)
    if len(steps) > rate:
        out.problem(f"{plural(len(steps), 'action')}, but the lowest Rate of this turn is {rate} ({by}).", rule)
    if speeds:
        out.say(f"The highest Speed is {speed} ({slowest}): next turn on tick {tick} + {speed} = {tick + speed}.",
                rule)
    return rate, tick + speed


def _what_a_turn_reaches(game: GameDefinition, fighter: Card, up_b: Sequence[Card], out: Answer) -> Answer:
    rule = game.rule_link("movement")
    units = unit_table(game, fighter)
    out.say(f"{fighter.name}: a walk {plural(units['walk'], 'unit')} (half of Movement {units['dash']}), a dash "
            f"{plural(units['dash'], 'unit')}, a jump {plural(units['jump'], 'unit')}, a double jump "
            f"{plural(units['jump'], 'unit')} more.", rule)
    for move in up_b:
        out.say(f"{move.name} (Up+B): a triple jump of {plural(triple_jump_height(move) or 0, 'unit')}, Speed "
                f"{move.get('speed')}, Rate {move.get('rate')}.", rule)
    best: tuple[int, list[Step]] = (0, [])
    kinds = [Step(k, k, units[k]) for k in ("walk", "dash", "jump", "double jump")]
    kinds += [Step(m.name, "up-b", triple_jump_height(m) or 0, m) for m in up_b]
    most = int(game.turn.get("move_rate", 4))
    for length in range(1, most + 1):  # every turn of move actions alone; the Rate and jump rules decide
        for turn in itertools.product(kinds, repeat=length):
            trial = Answer(game.id, "reach")
            _jump_labels(game, turn, trial)
            _rate_and_speed(game, turn, 0, trial)
            if trial.legal and sum(s.units for s in turn) > best[0]:
                best = (sum(s.units for s in turn), list(turn))
    farthest = ", ".join(s.name for s in best[1])
    out.say(f"The farthest turn of move actions alone: {farthest} = {plural(best[0], 'unit')}.",
            game.rule_link("actions-and-rate"))
    out.summary = (f"{fighter.name} walks {units['walk']}, dashes {units['dash']} and jumps {units['jump']} units an "
                   f"action; at most {plural(best[0], 'unit')} in one turn ({farthest}).")
    out.values = {"fighter": fighter.name, "walk": units["walk"], "dash": units["dash"], "jump": units["jump"],
                  "triple_jumps": {m.name: triple_jump_height(m) for m in up_b},
                  "farthest": {"units": best[0], "actions": [s.name for s in best[1]]}}
    return out
