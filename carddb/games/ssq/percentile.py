"""Super Smash Quest Skirmish: the moves whose Power a percentile roll decides (``carddb play ssq percentile``),
Peach's Item Pull and Mr. Game & Watch's Judgment Hammer. Pure standard library.

A percentile is two d10, tens and units, 10-10 reading 100 (``carddb.core.play.dice.percentile``), and the roller
may add their Luck. Each of the 100 rolls is equally likely, so the chance of an outcome is the number of rolls
that give it over 100, counted roll by roll (``tests/games/test_ssq_percentile.py`` counts them again).

What a total gives is the game's data, ``[play] percentile_moves`` of ``rules/ssq/game.toml``, so a house table
replaces ours: a move either divides the total (``divide_by``: Judgment Hammer's card prints "Percentile roll / 10,
rounded up") or reads a table of rows (``table``: the first total of each row, the item and its Power; a total
past 100, with Luck, reads the last row). The rulebook names Item Pull but prints no table: ours is a sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.dice import percentile
from carddb.core.play.helpers import Answer, chance, percent_text, setting
from carddb.errors import DefinitionError

#: Every pair of faces of the two d10, tens first: the 100 equally likely percentile rolls.
FACES = [(tens, units) for tens in range(1, 11) for units in range(1, 11)]
MAX_LUCK = 99


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a percentile total gives: the item (empty for a plain Power) and the move's Power."""

    item: str
    power: int

    @property
    def label(self) -> str:
        return f"{self.item}, Power {self.power}" if self.item else f"Power {self.power}"


def percentile_rule(game: GameDefinition, move: Card) -> Mapping[str, Any] | None:
    """The move's entry in ``[play] percentile_moves`` (None: its Power is no percentile roll)."""
    moves = setting(game, "percentile_moves")
    for name, rule in moves.items():
        if normalise_name(name) == normalise_name(move.name):
            if not isinstance(rule, Mapping) or not (isinstance(rule.get("divide_by"), int)
                                                     or isinstance(rule.get("table"), list)):
                raise DefinitionError(f"ssq's game.toml: [play] percentile_moves.{name} needs divide_by (a "
                                      f"whole number) or table (rows of from, item, power)")
            return rule
    return None


def outcome(rule: Mapping[str, Any], total: int) -> Outcome:
    """What a percentile total (Luck added) gives under the move's rule."""
    if isinstance(rule.get("divide_by"), int):
        return Outcome("", -(-total // rule["divide_by"]))  # "/ 10, rounded up"
    found = None
    for row in sorted(rule["table"], key=lambda r: int(r["from"])):
        if total >= int(row["from"]):
            found = row
    row = found if found is not None else min(rule["table"], key=lambda r: int(r["from"]))
    return Outcome(str(row.get("item") or ""), int(row["power"]))


def totals_by_outcome(rule: Mapping[str, Any], luck: int) -> dict[Outcome, list[int]]:
    """Each outcome and the totals that give it, over the 100 rolls with ``luck`` added, lowest first."""
    found: dict[Outcome, list[int]] = {}
    for faces in FACES:
        total, _ = percentile(faces=faces, luck=luck)
        found.setdefault(outcome(rule, total), []).append(total)
    return dict(sorted(found.items(), key=lambda item: min(item[1])))


def distribution(rule: Mapping[str, Any], luck: int) -> dict[Outcome, Fraction]:
    """Each outcome and its exact chance: the rolls that give it over the 100."""
    return {result: Fraction(len(totals), len(FACES)) for result, totals in totals_by_outcome(rule, luck).items()}


def _span(totals: list[int]) -> str:
    low, high = min(totals), max(totals)
    return f"{low}" if low == high else f"{low}-{high}"


def percentile_move(game: GameDefinition, fighter: Card, move: Card, *, luck: int | None = None,
                    add_luck: bool = True, roll: int | None = None) -> Answer:
    """The exact chance of each outcome of ``move``'s percentile roll for ``fighter`` (its Luck added unless
    ``add_luck`` is false, ``luck`` overriding the sheet's), the expected Power, and what ``roll`` gives."""
    out = Answer(game.id, "percentile")
    roll_rule, card_rule = game.rule_link("percentile-rolls"), game.rule_link("move-anatomy")
    rule = percentile_rule(game, move)
    owner = str(move.get("fighter") or "")
    if owner and normalise_name(owner) != normalise_name(fighter.name):
        out.problem(f"{move.name} is {owner}'s move, not {fighter.name}'s.", card_rule)
    if rule is None:
        out.problem(f"{move.name}'s Power is {move.get('power_rule') or 'fixed'}, not a percentile roll.", roll_rule)
        out.summary = f"{move.name} rolls no percentile."
        out.values = {"fighter": fighter.name, "move": move.name}
        return out
    sheet = int(fighter.get("luck") or 0)
    added = (sheet if luck is None else luck) if add_luck else 0
    out.say("Two d10, tens and units, 10-10 is 100: each of the 100 rolls 1/100.", roll_rule)
    if not add_luck:
        whose = "not added, by choice"
    elif luck is None:
        whose = f"{fighter.name}'s Luck"
    else:
        whose = f"given; {fighter.name}'s sheet has {sheet}"
    out.say(f"Luck {added} ({whose}): totals {1 + added} to {100 + added}.", roll_rule)
    if isinstance(rule.get("divide_by"), int):
        out.say(f"{move.name}: Power = the total / {rule['divide_by']}, rounded up, times Damage "
                f"{move.get('damage')}.", card_rule)
    else:
        last = max(rule["table"], key=lambda r: int(r["from"]))
        out.say(f"{move.name}: the total picks the highest row of the table it reaches ([play] percentile_moves; "
                f"{last['from']} or more: {last.get('item') or 'the last row'}).", card_rule)
    by_outcome = totals_by_outcome(rule, added)
    dist = {result: Fraction(len(totals), len(FACES)) for result, totals in by_outcome.items()}
    for result, totals in by_outcome.items():
        out.say(f"{_span(totals)}: {result.label}, {percent_text(dist[result])}.", roll_rule)
    expected = sum((result.power * p for result, p in dist.items()), Fraction(0))
    shown = str(expected.numerator) if expected.denominator == 1 else f"{float(expected):.2f}"
    exact = "" if expected.denominator == 1 else f"{expected.numerator}/{expected.denominator} = "
    out.say(f"Expected Power {exact}{shown}.", roll_rule)
    out.summary = f"{fighter.name}'s {move.name} with Luck {added}: expected Power {shown}."
    out.values = {"fighter": fighter.name, "move": move.name, "luck": added,
                  "outcomes": [{"item": r.item, "power": r.power, "totals": _span(t),
                                "probability": chance(dist[r])} for r, t in by_outcome.items()],
                  "expected_power": {"fraction": f"{expected.numerator}/{expected.denominator}",
                                     "value": round(float(expected), 4)}}
    if roll is not None:
        result = outcome(rule, roll + added)
        out.say(f"Rolled {roll} + Luck {added} = {roll + added}: {result.label}.", roll_rule)
        out.summary = f"{fighter.name} rolls {roll} + {added} = {roll + added}: {move.name} {result.label}."
        out.values["roll"] = {"rolled": roll, "total": roll + added, "item": result.item, "power": result.power}
    return out
