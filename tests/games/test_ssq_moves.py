"""ssq movement and percentile rolls: the rulebook's Bowser's combo (a dash of his Movement, three actions within
Rate 3, next turn tick 10), every fighter's walk, dash and jump from its stats, the jump rules (double jump straight
after a jump, the third with an Up+B), the farthest turn checked against every legal turn; and Item Pull and
Judgment Hammer counted again over the 100 percentile rolls for every Luck, 10-10 reading 100."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction

import pytest

from carddb.core.play.helpers import answer
from carddb.games.ssq.movement import triple_jump_height
from tests.core.decks import starter

GAME, CARDS = starter("ssq")
FIGHTERS = [c for c in CARDS if c.kind == "fighter"]


def reach(request: dict) -> dict:  # type: ignore[type-arg]
    return answer(GAME, CARDS, "reach", request).to_dict()


def up_b_of(fighter: str) -> list[str]:
    return [c.name for c in CARDS if c.kind == "move" and c.get("fighter") == fighter
            and triple_jump_height(c) is not None]


# ---------------------------------------------------------------------------------------------------- movement
def test_bowsers_combo_from_the_rulebook() -> None:
    """Bowser dashes to Mario, punches, Koopa Klaws: three actions of Rate 3, next turn on tick 10."""
    got = reach({"fighter": "Bowser", "actions": ["dash", "Bowser's Punch", "Koopa Klaw"], "tick": 4})
    assert got["legal"] and (got["units"], got["ground"], got["air"]) == (3, 3, 0)
    assert (got["actions"], got["max_actions"], got["next_tick"]) == (3, 3, 10)
    assert got["answer"] == "Bowser covers 3 units: 3 on the ground, 0 in the air, in 3 actions; next turn on tick 10."
    assert {s["rule"] for s in got["working"]} >= {"rules/ssq/rulebook.md#movement",
                                                   "rules/ssq/rulebook.md#actions-and-rate"}


@pytest.mark.parametrize("fighter", FIGHTERS, ids=[f.name for f in FIGHTERS])
def test_each_move_action_covers_what_the_stats_say(fighter) -> None:  # type: ignore[no-untyped-def]
    movement, jump = fighter.get("movement"), fighter.get("jump")
    for action, units in (("walk", movement // 2), ("dash", movement), ("run", movement), ("jump", jump)):
        got = reach({"fighter": fighter.name, "actions": [action]})
        assert (got["units"], got["next_tick"], got["legal"]) == (units, 4, True), action
    double = reach({"fighter": fighter.name, "actions": ["jump", "double jump"]})
    assert (double["air"], double["legal"]) == (2 * jump, True)


def test_a_house_format_may_round_a_walk_up() -> None:
    house = replace(GAME, play={**GAME.play, "walk_rounding": "up"})
    assert answer(house, CARDS, "reach", {"fighter": "Bowser", "actions": ["walk"]}).values["units"] == 2
    assert reach({"fighter": "Bowser", "actions": ["walk"]})["units"] == 1  # Movement 3: half, rounded down


def test_jumps_in_a_row() -> None:
    triple = reach({"fighter": "Pikachu", "actions": ["jump", "jump", "Quick Attack"]})
    assert triple["legal"] and triple["air"] == 4 + 4 + 4 and triple["next_tick"] == 4
    assert [s["text"] for s in triple["working"]][1:4] == [
        "Jump: 4 units in the air.", "Double jump: 4 units in the air.",
        "Quick Attack, triple jump: 4 units in the air."]
    third = reach({"fighter": "Pikachu", "actions": ["jump", "jump", "jump"]})
    assert [p["message"] for p in third["problems"]] == [
        "A third jump in a row is a triple jump, made with an Up+B special move."]
    assert third["problems"][0]["rule"] == "rules/ssq/rulebook.md#movement"
    alone = reach({"fighter": "Mario", "actions": ["dash", "double jump"]})
    assert [p["message"] for p in alone["problems"]] == [
        "A double jump comes straight after a jump; this one follows none."]
    landed = reach({"fighter": "Mario", "actions": ["jump", "jump", "walk", "jump"]})
    assert landed["legal"] and (landed["ground"], landed["air"]) == (2, 9)


def test_the_lowest_rate_bounds_the_turn() -> None:
    five = reach({"fighter": "Mario", "actions": ["dash"] * 5})
    assert not five["legal"] and five["problems"][0]["message"] == \
        "5 actions, but the lowest Rate of this turn is 4 (moving)."
    assert five["problems"][0]["rule"] == "rules/ssq/rulebook.md#actions-and-rate"
    # Super Jump Punch has Rate 2: jump, double jump and the punch are one action too many
    mario = reach({"fighter": "Mario", "actions": ["jump", "jump", "Super Jump Punch"]})
    assert [p["message"] for p in mario["problems"]] == [
        "3 actions, but the lowest Rate of this turn is 2 (Super Jump Punch)."]
    other = reach({"fighter": "Mario", "actions": ["Quick Attack"]})
    assert other["problems"][0]["message"] == "Quick Attack is Pikachu's move, not Mario's."


@pytest.mark.parametrize("fighter", FIGHTERS, ids=[f.name for f in FIGHTERS])
def test_the_farthest_turn_is_the_farthest_legal_one(fighter) -> None:  # type: ignore[no-untyped-def]
    """Every turn of up to four move actions (and the fighter's Up+B), tried through the helper itself."""
    got = reach({"fighter": fighter.name})
    words = ["walk", "dash", "jump", "double jump", *up_b_of(fighter.name)]
    best = 0
    for length in range(1, 5):
        for turn in itertools.product(words, repeat=length):
            tried = reach({"fighter": fighter.name, "actions": list(turn)})
            if tried["legal"]:
                best = max(best, tried["units"])
    assert got["farthest"]["units"] == best
    assert best == 4 * fighter.get("movement")  # every fighter dashes at least as far as it jumps: four dashes
    again = reach({"fighter": fighter.name, "actions": got["farthest"]["actions"]})
    assert again["legal"] and again["units"] == best
    assert (got["walk"], got["dash"], got["jump"]) == (fighter.get("movement") // 2, fighter.get("movement"),
                                                       fighter.get("jump"))


# ------------------------------------------------------------------------------------------------- percentile
ITEM_PULL = [(1, "Turnip", 1), (51, "Smiling Turnip", 2), (76, "Winking Turnip", 4), (91, "Mr. Saturn", 3),
             (96, "Stitch-face Turnip", 6), (100, "Bob-omb", 8)]


def brute(move: str, luck: int) -> dict[tuple[str, int], Fraction]:
    """Each of the values 1 to 100 once, Luck added, read by the card's rule or the sample table."""
    counts: dict[tuple[str, int], int] = {}
    for value in range(1, 101):
        total = value + luck
        if move == "Judgment Hammer":
            result = ("", math.ceil(total / 10))
        else:
            result = next((item, power) for first, item, power in reversed(ITEM_PULL) if total >= first)
        counts[result] = counts.get(result, 0) + 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


def percentile(request: dict) -> dict:  # type: ignore[type-arg]
    return answer(GAME, CARDS, "percentile", request).to_dict()


@pytest.mark.parametrize("move", ["Judgment Hammer", "Item Pull"])
@pytest.mark.parametrize("luck", range(0, 12))
def test_every_outcome_counted_over_the_100_rolls(move: str, luck: int) -> None:
    got = percentile({"move": move, "luck": luck})
    chances = {(o["item"], o["power"]): Fraction(o["probability"]["fraction"]) for o in got["outcomes"]}
    assert chances == brute(move, luck) and sum(chances.values()) == 1
    expected = sum((power * p for (_, power), p in chances.items()), Fraction(0))
    assert Fraction(got["expected_power"]["fraction"]) == expected
    assert got["legal"] and got["luck"] == luck


def test_the_fighters_luck_is_added_unless_declined() -> None:
    hammer = percentile({"move": "Judgment Hammer"})  # Mr. Game & Watch, Luck 5
    assert (hammer["fighter"], hammer["luck"], hammer["answer"]) == (
        "Mr. Game & Watch", 5, "Mr. Game & Watch's Judgment Hammer with Luck 5: expected Power 6.")
    assert hammer["outcomes"][0] == {"item": "", "power": 1, "totals": "6-10",
                                     "probability": {"fraction": "1/20", "percent": 5.0}}
    assert hammer["outcomes"][-1]["totals"] == "101-105" and hammer["outcomes"][-1]["power"] == 11
    plain = percentile({"move": "Judgment Hammer", "no_luck": True})
    assert plain["luck"] == 0 and Fraction(plain["expected_power"]["fraction"]) == Fraction(55, 10)


def test_two_tens_make_100() -> None:
    """The rulebook: one die the tens, the other the units, two 10s make 100; Luck is added to it."""
    got = percentile({"move": "Item Pull", "faces": [10, 10], "no_luck": True})
    assert got["roll"] == {"rolled": 100, "total": 100, "item": "Bob-omb", "power": 8}
    assert percentile({"move": "Item Pull", "faces": [10, 3], "no_luck": True})["roll"]["rolled"] == 3
    assert percentile({"move": "Item Pull", "faces": [3, 10], "no_luck": True})["roll"]["rolled"] == 30
    pulled = percentile({"move": "Item Pull", "roll": 97})  # Peach, Luck 4
    assert pulled["answer"] == "Peach rolls 97 + 4 = 101: Item Pull Bob-omb, Power 8."


def test_the_card_and_the_table_agree() -> None:
    hammer = next(c for c in CARDS if c.name == "Judgment Hammer")
    assert hammer.get("power_rule") == "Percentile roll / 10, rounded up"
    assert GAME.play["percentile_moves"]["Judgment Hammer"] == {"divide_by": 10}
    rows = GAME.play["percentile_moves"]["Item Pull"]["table"]
    assert [(r["from"], r["item"], r["power"]) for r in rows] == ITEM_PULL


def test_a_house_table_replaces_ours() -> None:
    house = replace(GAME, play={**GAME.play, "percentile_moves": {
        "Item Pull": {"table": [{"from": 1, "item": "Turnip", "power": 1}, {"from": 91, "item": "Bob-omb",
                                                                             "power": 8}]}}})
    got = answer(house, CARDS, "percentile", {"move": "Item Pull", "no_luck": True}).to_dict()
    assert [(o["item"], o["probability"]["fraction"]) for o in got["outcomes"]] == [("Turnip", "9/10"),
                                                                                     ("Bob-omb", "1/10")]


def test_impossible_questions_are_refused_with_their_rule() -> None:
    fireball = percentile({"move": "Red Fireball", "fighter": "Mario"})
    assert not fireball["legal"] and fireball["problems"] == [
        {"message": "Red Fireball's Power is POW, not a percentile roll.",
         "rule": "rules/ssq/rulebook.md#percentile-rolls"}]
    borrowed = percentile({"move": "Judgment Hammer", "fighter": "Peach"})
    assert borrowed["problems"][0]["message"] == "Judgment Hammer is Mr. Game & Watch's move, not Peach's."


# ------------------------------------------------------------------------------------------------ command line
def test_the_command_line_answers_and_refuses(cli) -> None:  # type: ignore[no-untyped-def]
    ok = cli("play", "ssq", "reach", "Bowser", "dash", "Bowser's Punch", "Koopa Klaw", "--tick", "4")
    assert ok.exit_code == 0 and ok.stdout.splitlines()[0].endswith("next turn on tick 10.")
    assert cli("play", "ssq", "reach", "Mario", "dash", "dash", "dash", "dash", "dash").exit_code == 1
    assert cli("ssq", "percentile", "Red Fireball", "--fighter", "Mario").exit_code == 1
    hundred = cli("play", "ssq", "percentile", "Item Pull", "--faces", "10:10", "--no-luck")
    assert hundred.stdout.splitlines()[0] == "Peach rolls 100 + 0 = 100: Item Pull Bob-omb, Power 8."
    for args, message in (
            (["reach", "Mraio"], "Error: no fighter called 'Mraio' in Super Smash Quest Skirmish; did you mean "
                                 "'Mario'?"),
            (["reach", "Mario", "fly"], "Error: no move or move action (walk, dash, jump, double jump) called "
                                        "'fly' in Super Smash Quest Skirmish"),
            (["percentile", "Item Pull", "--roll", "101"], "Error: the percentile roll must be from 1 to 100, not 101"),
            (["percentile", "Item Pull", "--faces", "11:2"], "Error: a d10's face must be from 1 to 10, not 11"),
            (["percentile", "Judgment Hamer"], "Error: no move called 'Judgment Hamer' in Super Smash Quest "
                                               "Skirmish; did you mean 'Judgment Hammer'?")):
        result = cli("play", "ssq", *args)
        assert (result.exit_code, result.stdout, result.stderr.splitlines()) == (2, "", [message])
