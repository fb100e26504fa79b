"""ssq: dice, percentiles, initiative and the turn checker, with the rulebook's worked examples exactly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from carddb.core.play import dice
from carddb.errors import InputError
from carddb.games.ssq import turn as ssq
from tests.core.decks import starter

REPO = Path(__file__).resolve().parents[2]


def game_and_cards(format_id: str | None = None):  # type: ignore[no-untyped-def]
    return starter("ssq", format_id)


def test_successes_seven_eight_nine_one_ten_two() -> None:
    game, _ = game_and_cards()
    assert dice.count_successes([1, 6, 7, 8, 9, 10], game) == 5
    assert dice.roll_pool(7, game, faces=[10, 10, 3, 7, 1, 2, 6]).successes == 5


def test_a_seeded_pool_is_repeatable() -> None:
    game, _ = game_and_cards()
    first = dice.roll_pool(7, game, random.Random(42))
    assert first == dice.roll_pool(7, game, random.Random(42))
    assert len(first.faces) == 7 and first.successes == dice.count_successes(first.faces, game)


def test_percentile() -> None:
    assert dice.percentile(faces=(10, 10)) == (100, (10, 10))
    assert dice.percentile(faces=(10, 5))[0] == 5
    assert dice.percentile(faces=(3, 10))[0] == 30
    assert dice.percentile(faces=(4, 2), luck=2)[0] == 44


def test_parse_pool() -> None:
    assert dice.parse_pool("7d10") == (7, 10)
    assert dice.parse_pool("d10") == (1, 10)
    assert dice.parse_pool("d%") == (2, None)
    with pytest.raises(InputError):
        dice.parse_pool("seven")


def test_initiative_example() -> None:
    assert ssq.initiative_ticks({"Pikachu": 5, "Mario": 3, "Link": 3, "Bowser": 1}) == {
        "Pikachu": 0, "Mario": 2, "Link": 2, "Bowser": 4}


def test_initiative_pool_is_agi_plus_movement() -> None:
    _, cards = game_and_cards()
    assert ssq.initiative_pool(ssq.find_fighter(cards, "Mario")) == 7


def test_red_fireball_on_bowser_deals_two() -> None:
    game, cards = game_and_cards()
    mario, bowser = ssq.find_fighter(cards, "Mario"), ssq.find_fighter(cards, "Bowser")
    fireball = ssq.find_move(cards, "Red Fireball", mario)
    report = ssq.check_turn(game, mario, [ssq.Action("attack", fireball, successes=3, defence_successes=1)],
                            tick=2, target=bowser)
    attack = report.attacks[0]
    assert (attack.pool, attack.defence_pool, attack.hit, attack.power, attack.damage) == (5, 3, True, 3, 2)
    assert attack.working == "3 + 2 - 4 = 1, x2 = 2 damage"
    assert (report.next_tick, report.legal, report.sp_used) == (6, True, 1)


def test_rule_text_format_subtracts_end_first() -> None:
    game, cards = game_and_cards("rule-text")
    mario, bowser = ssq.find_fighter(cards, "Mario"), ssq.find_fighter(cards, "Bowser")
    fireball = ssq.find_move(cards, "Red Fireball", mario)
    report = ssq.check_turn(game, mario, [ssq.Action("attack", fireball, successes=3, defence_successes=1)],
                            target=bowser)
    assert report.attacks[0].damage == 6


def test_bowser_punch_and_koopa_klaw_next_turn_tick_ten() -> None:
    game, cards = game_and_cards()
    bowser, mario = ssq.find_fighter(cards, "Bowser"), ssq.find_fighter(cards, "Mario")
    punch, klaw = ssq.find_move(cards, "Bowser's Punch", bowser), ssq.find_move(cards, "Koopa Klaw", bowser)
    report = ssq.check_turn(game, bowser, [ssq.Action("move"), ssq.Action("attack", punch, 2, 3),
                                           ssq.Action("attack", klaw, 3, 1)], tick=4, target=mario)
    assert (report.next_tick, report.actions, report.max_actions, report.legal) == (10, 3, 3, True)
    assert [(a.pool, a.penalty, a.defence_pool, a.hit) for a in report.attacks] == [(3, 2, 5, False), (3, 2, 5, True)]


def test_a_fourth_action_breaks_the_rate() -> None:
    game, cards = game_and_cards()
    bowser = ssq.find_fighter(cards, "Bowser")
    punch = ssq.find_move(cards, "Bowser's Punch", bowser)
    report = ssq.check_turn(game, bowser, [ssq.Action("move"), ssq.Action("jump"), ssq.Action("attack", punch),
                                           ssq.Action("attack", punch)])
    assert [p.code for p in report.problems] == ["rate"]
    assert report.problems[0].message == "4 actions, but the lowest Rate of this turn is 3."


def test_one_smash_power_a_turn_and_sp_for_specials() -> None:
    game, cards = game_and_cards()
    mario = ssq.find_fighter(cards, "Mario")
    shield = ssq.find_move(cards, "Bubble Shield", mario)
    report = ssq.check_turn(game, mario, [ssq.Action("attack", shield), ssq.Action("attack", shield)])
    assert "smash-power" in [p.code for p in report.problems]
    fireball = ssq.find_move(cards, "Red Fireball", mario)
    short = ssq.check_turn(game, mario, [ssq.Action("attack", fireball)], sp=0)
    assert [p.code for p in short.problems] == ["sp"] and short.sp_left == -1


def test_same_tick_defender_rolls_agi_alone_and_a_tie_misses() -> None:
    game, cards = game_and_cards()
    mario, bowser = ssq.find_fighter(cards, "Mario"), ssq.find_fighter(cards, "Bowser")
    fireball = ssq.find_move(cards, "Red Fireball", mario)
    report = ssq.check_turn(game, mario, [ssq.Action("attack", fireball, 2, 2)], target=bowser, same_tick=True)
    assert (report.attacks[0].defence_pool, report.attacks[0].hit, report.attacks[0].damage) == (1, False, None)


def test_more_successes_than_the_dice_can_roll_is_refused() -> None:
    # Red Fireball rolls 5 dice (at most 10 successes); Bowser's dodge 3 dice (at most 6).
    game, cards = game_and_cards()
    mario, bowser = ssq.find_fighter(cards, "Mario"), ssq.find_fighter(cards, "Bowser")
    fireball = ssq.find_move(cards, "Red Fireball", mario)
    report = ssq.check_turn(game, mario, [ssq.Action("attack", fireball, successes=11, defence_successes=7)],
                            tick=2, target=bowser)
    assert not report.legal
    assert [(p.code, p.message) for p in report.problems if p.code == "impossible-roll"] == [
        ("impossible-roll", "Red Fireball: 11 attack successes cannot come from 5 dice; the most is 10 (2 a die)."),
        ("impossible-roll", "Red Fireball: 7 defence successes cannot come from 3 dice; the most is 6 (2 a die)."),
    ]
    fine = ssq.check_turn(game, mario, [ssq.Action("attack", fireball, successes=10, defence_successes=6)],
                          tick=2, target=bowser)
    assert all(p.code != "impossible-roll" for p in fine.problems)


def test_a_pool_of_one_is_one_die() -> None:
    assert (dice.dice_count(1), dice.dice_count(0), dice.dice_count(3)) == ("1 die", "0 dice", "3 dice")
