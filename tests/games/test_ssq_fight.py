"""ssq around turns: same-tick clashes, charging, Smash Points, recovery, wall hits and the star finish, with the
rulebook's numbers (Pikachu's Super Smash from tick 9 to 12; 1 SP every 5 ticks; 1 + 1 per 10 damage past the
threshold; walls x 2; more than double the defence)."""

from __future__ import annotations

import random

import pytest

from carddb.core.game.definition import load_game_text
from carddb.errors import DefinitionError, InputError
from carddb.games.ssq import turn as ssq
from carddb.games.ssq.fight import (
    ClashSide,
    SmashHit,
    attack_power_bonus,
    charge,
    is_star_finish,
    recovery_units,
    regain_sp,
    same_tick_clash,
    smash_hit,
    sp_for_new_fight,
)
from tests.core.decks import REPO, starter

GAME, CARDS = starter("ssq")


def fighter(name: str):  # type: ignore[no-untyped-def]
    return ssq.find_fighter(CARDS, name)


def move(name: str, who: str):  # type: ignore[no-untyped-def]
    return ssq.find_move(CARDS, name, fighter(who))


# ------------------------------------------------------------------------------------------------ same tick
def test_power_bonus_leaves_pow_out() -> None:
    assert attack_power_bonus(move("Red Fireball", "Mario"), fighter("Mario")) == 0  # Power: POW
    assert attack_power_bonus(move("Super Smash", "Bowser"), fighter("Bowser")) == 0  # shared: POW + 0


def test_clash_higher_total_hits_and_the_loser_cannot_continue() -> None:
    result = same_tick_clash(GAME, ClashSide(fighter("Mario"), move("Red Fireball", "Mario"), 3),
                             ClashSide(fighter("Bowser"), move("Bowser's Punch", "Bowser"), 2))
    assert (result.values["winner"], result.values["totals"], result.values["damage"]) == (
        "Mario", {"Mario": 3, "Bowser": 2}, 2)
    assert result.lines[-1] == ("Mario hits Bowser: 3 + 1 - 4 = 0 (at least 1), x2 = 2 damage; Bowser cannot "
                                "continue a combo.")


def test_power_bought_with_sp_turns_a_loss_into_a_hit() -> None:
    smash = ClashSide(fighter("Pikachu"), move("Super Smash", "Pikachu"), 1, extra_power=2)
    punch = ClashSide(fighter("Link"), move("Link's Punch", "Link"), 2)
    result = same_tick_clash(GAME, smash, punch)
    # Pikachu 1 + 2 = 3 against Link 2: Power 2 + 2 bought = 4, + 1 - END 3 = 2, x3 = 6.
    assert (result.values["winner"], result.values["damage"]) == ("Pikachu", 6)


def test_a_tie_clashes_harmlessly() -> None:
    result = same_tick_clash(GAME, ClashSide(fighter("Mario"), move("Mario's Punch", "Mario"), 2),
                             ClashSide(fighter("Link"), move("Link's Punch", "Link"), 2))
    assert (result.values["winner"], result.values["damage"]) == (None, None)
    assert result.lines[-1] == "Tie: the attacks clash harmlessly."


def test_same_tick_defender_rolls_agi_alone() -> None:
    report = ssq.check_turn(GAME, fighter("Bowser"), [ssq.Action("attack", move("Koopa Klaw", "Bowser"))],
                            target=fighter("Mario"), same_tick=True)
    assert report.attacks[0].defence_pool == 3  # Mario's AGI 3, no Dodge


# ------------------------------------------------------------------------------------------------- charging
def test_pikachu_super_smash_resumes_on_tick_twelve() -> None:
    result = charge(GAME, fighter("Pikachu"), move("Super Smash", "Pikachu"), tick=9, ticks=3,
                    used=[move("Pikachu's Punch", "Pikachu")])
    assert (result.values["resume_tick"], result.values["next_tick"], result.legal) == (12, None, True)


def test_a_hit_while_charging_loses_it_and_the_slowest_attack_sets_the_next_turn() -> None:
    result = charge(GAME, fighter("Pikachu"), move("Super Smash", "Pikachu"), tick=9, ticks=3,
                    used=[move("Pikachu's Punch", "Pikachu")], event="hit", at=11)
    assert (result.values["charge_kept"], result.values["charged_ticks"], result.values["next_tick"]) == (
        False, 2, 18)  # 11 + Speed 7 of the Super Smash (the punch has 5)


def test_releasing_early_gives_one_die() -> None:
    result = charge(GAME, fighter("Pikachu"), move("Super Smash", "Pikachu"), tick=9, ticks=3,
                    used=[move("Pikachu's Punch", "Pikachu")], event="release", at=10)
    assert result.values["pool"] == 5  # AGI 4 + Melee 2 - 2 combo + 1
    alone = charge(GAME, fighter("Samus"), move("Charge Shot", "Samus"), tick=0, ticks=4, event="release", at=1)
    assert alone.values["pool"] == 8  # AGI 3 + Ranged 4 + 1


def test_store_only_a_storable_charge_and_drop_only_a_super_smash() -> None:
    stored = charge(GAME, fighter("Samus"), move("Charge Shot", "Samus"), tick=0, ticks=4, event="store", at=2)
    assert (stored.legal, stored.values["charge_kept"], stored.values["next_tick"]) == (True, True, 8)
    smash = charge(GAME, fighter("Pikachu"), move("Super Smash", "Pikachu"), tick=0, ticks=4, event="store", at=2)
    assert smash.problems == ["Super Smash's charge cannot be stored (its Special does not say so)."]
    dropped = charge(GAME, fighter("Samus"), move("Charge Shot", "Samus"), tick=0, ticks=4, event="drop", at=2)
    assert dropped.problems == ["only a charged Super Smash (a smash move) can be dropped; Charge Shot is not one."]


def test_only_a_chargeable_move_and_only_between_the_ticks() -> None:
    fireball = charge(GAME, fighter("Mario"), move("Red Fireball", "Mario"), tick=2, ticks=1)
    assert fireball.problems == ["Red Fireball cannot be charged (its Special does not say so)."]
    same_tick = charge(GAME, fighter("Pikachu"), move("Super Smash", "Pikachu"), tick=9, ticks=3, event="hit",
                       at=12)
    assert not same_tick.legal and same_tick.values["next_tick"] is None
    with pytest.raises(InputError):
        charge(GAME, fighter("Pikachu"), move("Super Smash", "Pikachu"), tick=9, ticks=0)


# -------------------------------------------------------------------------------------------- smash points
def test_sp_regain_one_every_five_ticks_up_to_the_maximum() -> None:
    assert regain_sp(GAME, 1, 3, 3, 14).values["sp"] == 3  # ticks 5 and 10
    assert regain_sp(GAME, 0, 3, 5, 9).values["sp"] == 0
    capped = regain_sp(GAME, 2, 3, 0, 20)
    assert (capped.values["sp"], capped.values["regained"]) == (3, 1)
    assert capped.lines == ["2 SP on tick 0, +4 by tick 20 (1 every 5 ticks): 3 SP (the maximum is 3)."]
    assert sp_for_new_fight(fighter("Pikachu")) == 4
    with pytest.raises(InputError):
        regain_sp(GAME, 4, 3, 0, 5)
    with pytest.raises(InputError, match="tick 4 comes before tick 9"):
        regain_sp(GAME, 1, 3, 9, 4)


# ---------------------------------------------------------------------------------------- recovery, finish
def test_recovery_units() -> None:
    assert [recovery_units(GAME, taken, 60) for taken in (60, 61, 69, 70, 85, 100)] == [0, 1, 1, 2, 3, 5]


def test_star_finish_is_more_than_double() -> None:
    assert (is_star_finish(GAME, 5, 2), is_star_finish(GAME, 4, 2), is_star_finish(GAME, 1, 0)) == (True, False,
                                                                                                      True)


def test_not_past_the_threshold_no_recovery() -> None:
    result = smash_hit(GAME, fighter("Mario"), SmashHit(taken=60, hit_damage=30, attack_successes=9,
                                                        defence_successes=0))
    assert (result.values["in_danger"], result.values["outcome"]) == (False, "safe")


def test_recovery_roll_with_up_b_beats_the_units_less_the_ledge() -> None:
    hit = SmashHit(taken=75, hit_damage=10, ledge=1, recovery_roll=1, up_b=move("Super Jump Punch", "Mario"),
                   up_b_roll=2)
    result = smash_hit(GAME, fighter("Mario"), hit)
    assert (result.values["units"], result.values["needed"], result.values["roll"], result.values["outcome"]) == (
        3, 2, 3, "recovered")
    assert result.lines[-1] == "Recovery roll 1 + Super Jump Punch 2 = 3 beats 2: back to the ledge."


def test_a_failed_recovery_dies_over_a_pit_or_falls_short() -> None:
    pit = smash_hit(GAME, fighter("Mario"), SmashHit(taken=85, recovery_roll=1))
    assert (pit.values["units"], pit.values["outcome"]) == (3, "died")
    ground = smash_hit(GAME, fighter("Mario"), SmashHit(taken=85, recovery_roll=1, pit=False))
    assert (ground.values["outcome"], ground.values["distance"]) == ("fell-short", 2)


def test_far_enough_from_the_ledge_stays_on_the_stage() -> None:
    result = smash_hit(GAME, fighter("Mario"), SmashHit(taken=75, ledge=2))
    assert (result.values["units"], result.values["needed"], result.values["outcome"]) == (2, 0, "safe")


def test_wall_hits_deal_the_units_times_two_and_no_triple_jump() -> None:
    result = smash_hit(GAME, fighter("Mario"), SmashHit(taken=85, walls=2, recovery_roll=1))
    assert (result.values["wall_damage"], result.values["distance"]) == (12, 2)
    # The rulebook: off a wall "you won't get a triple jump ... you'll reduce the distance you fly to the
    # difference between the threshold and your roll": the Up+B move's successes are not added.
    with_up_b = smash_hit(GAME, fighter("Mario"), SmashHit(taken=85, walls=1, recovery_roll=1, up_b_roll=3,
                                                           up_b=move("Super Jump Punch", "Mario")))
    assert (with_up_b.values["roll"], with_up_b.values["distance"]) == (1, 2)
    assert with_up_b.problems == []
    assert "no triple jump: Super Jump Punch is not counted" in " ".join(with_up_b.lines)


def test_damage_at_hp_means_the_next_smash_kills_unless_sheltered() -> None:
    assert smash_hit(GAME, fighter("Mario"), SmashHit(taken=150)).values["outcome"] == "killed"
    assert smash_hit(GAME, fighter("Mario"), SmashHit(taken=150, sheltered=True)).values["outcome"] != "killed"


def test_star_finish_and_not() -> None:
    star = smash_hit(GAME, fighter("Bowser"), SmashHit(taken=81, attack_successes=5, defence_successes=2))
    assert star.values["outcome"] == "star-finish"
    plain = smash_hit(GAME, fighter("Bowser"), SmashHit(taken=81, attack_successes=4, defence_successes=2))
    assert (plain.values["outcome"], plain.values["units"]) == ("must-recover", 1)


def test_an_up_b_needs_the_recovery_keyword_and_a_seed_rolls() -> None:
    hit = SmashHit(taken=85, up_b=move("Red Fireball", "Mario"))
    result = smash_hit(GAME, fighter("Mario"), hit, random.Random(1))
    assert result.problems == ["Red Fireball has no Recovery keyword: it cannot help a recovery."]
    assert result.values["roll"] == smash_hit(GAME, fighter("Mario"), hit, random.Random(1)).values["roll"]


# ------------------------------------------------------------------------------------------ the parameters
def test_the_numbers_come_from_the_turn_table() -> None:
    text = (REPO / "rules/ssq/game.toml").read_text(encoding="utf-8")
    house = load_game_text(text.replace("recovery_damage_per_unit = 10", "recovery_damage_per_unit = 5")
                           .replace("wall_damage_multiplier = 2", "wall_damage_multiplier = 3"), "game.toml")
    assert recovery_units(house, 85, 60) == 6
    assert smash_hit(house, fighter("Mario"), SmashHit(taken=70, walls=1)).values["wall_damage"] == 9
    missing = load_game_text(text.replace("star_finish_multiple = 2\n", ""), "game.toml")
    with pytest.raises(DefinitionError):
        is_star_finish(missing, 5, 2)
    with pytest.raises(DefinitionError):
        load_game_text(text.replace("wall_damage_multiplier = 2", 'wall_damage_multiplier = "2"'), "game.toml")
