"""ssq before the roll: exact hit chances checked against every face of every die, the expected damage against an
enumeration of every die's successes, the rulebook's pools (Red Fireball 5 dice against Bowser's 3; Bowser's combo
at 5 - 2 = 3 dice; AGI alone on the same tick), clash odds against ``same_tick_clash``, and one held item."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from carddb.core.game.definition import load_game_text
from carddb.core.play.helpers import answer
from carddb.games.ssq import turn as ssq
from carddb.games.ssq.fight import ClashSide, same_tick_clash
from carddb.games.ssq.play import beats, die_distribution, pool_distribution
from tests.core.decks import REPO, starter

GAME, CARDS = starter("ssq")
SUCCESSES = {7: 1, 8: 1, 9: 1, 10: 2}


def brute_pool(dice: int) -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 11), repeat=dice):
        hits = sum(SUCCESSES.get(f, 0) for f in faces)
        counts[hits] = counts.get(hits, 0) + 1
    return {k: Fraction(v, 10 ** dice) for k, v in counts.items()}


def brute_hit(attack: int, defence: int) -> Fraction:
    """Every face of every die of both pools: more attack successes hit, a tie misses."""
    hits = 0
    for faces in itertools.product(range(1, 11), repeat=attack + defence):
        a = sum(SUCCESSES.get(f, 0) for f in faces[:attack])
        d = sum(SUCCESSES.get(f, 0) for f in faces[attack:])
        hits += a > d
    return Fraction(hits, 10 ** (attack + defence))


def by_die(dice: int) -> dict[int, Fraction]:
    """Every die's outcome (none 6/10, one 3/10, two 1/10), enumerated die by die: for pools too big for faces."""
    weights = {0: Fraction(6, 10), 1: Fraction(3, 10), 2: Fraction(1, 10)}
    out: dict[int, Fraction] = {}
    for outcome in itertools.product(weights, repeat=dice):
        p = Fraction(1)
        for hits in outcome:
            p *= weights[hits]
        out[sum(outcome)] = out.get(sum(outcome), Fraction(0)) + p
    return out


def test_one_die() -> None:
    assert die_distribution(GAME) == {0: Fraction(3, 5), 1: Fraction(3, 10), 2: Fraction(1, 10)}


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_pool_distribution_equals_every_face(dice: int) -> None:
    assert pool_distribution(dice, GAME) == brute_pool(dice)
    assert sum(pool_distribution(dice, GAME).values()) == 1


@pytest.mark.parametrize(("attack", "defence"), [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (2, 3)])
def test_hit_chance_equals_every_face(attack: int, defence: int) -> None:
    assert beats(pool_distribution(attack, GAME), pool_distribution(defence, GAME)) == brute_hit(attack, defence)


def test_a_tie_misses() -> None:
    # One die each: a hit needs more successes; 1 against 1 and 0 against 0 miss.
    assert beats(pool_distribution(1, GAME), pool_distribution(1, GAME)) == (
        Fraction(3, 10) * Fraction(6, 10) + Fraction(1, 10) * Fraction(9, 10))


def odds(**request):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, "odds", request)


def test_red_fireball_on_bowser_is_the_rulebooks_5_dice_against_3() -> None:
    result = odds(fighter="Mario", move="Red Fireball", target="Bowser")
    assert (result.values["pool"], result.values["defence_pool"]) == (5, 3)
    hit = beats(by_die(5), by_die(3))
    assert Fraction(result.values["hit"]["fraction"]) == hit == Fraction(2395759, 4000000)
    # Expected damage by every die's successes: Power 3 + margin - END 4, at least 1, x2 (3 against 1: 2 damage).
    expected = sum((p * q * 2 * max(1, 3 + (a - d) - 4) for a, p in by_die(5).items() for d, q in by_die(3).items()
                    if a > d), Fraction(0))
    assert Fraction(result.values["expected_damage"]["fraction"]) == expected
    assert "Mario, Red Fireball: AGI 3 + Ranged 2 = 5 dice." in [s.text for s in result.working]
    by_margin_2 = next(s.text for s in result.working if s.text.startswith("Beats the defence by 2,"))
    assert by_margin_2.endswith(": 3 + 2 - 4 = 1, x2 = 2 damage.")  # the worked example: Mario 3, Bowser 1
    assert sum(Fraction(row["probability"]["fraction"]) for row in result.values["damage"]) == hit


def test_combo_penalty_same_tick_and_extra_dice() -> None:
    # Bowser's punch and Koopa Klaw in one turn: 5 - 2 = 3 dice each, against Mario's AGI 3 + Dodge 2 = 5.
    combo = odds(fighter="Bowser", move="Koopa Klaw", target="Mario", attacks=2)
    assert (combo.values["pool"], combo.values["defence_pool"]) == (3, 5)
    assert Fraction(combo.values["hit"]["fraction"]) == beats(by_die(3), by_die(5))
    same_tick = odds(fighter="Bowser", move="Koopa Klaw", target="Mario", same_tick=True)
    assert same_tick.values["defence_pool"] == 3  # AGI alone
    guard = odds(fighter="Mario", move="Red Fireball", target="Bowser", defence="guard")
    assert guard.values["defence_pool"] == 4  # Bowser AGI 1 + Guard 3
    released = odds(fighter="Mario", move="Red Fireball", target="Bowser", extra_dice=1)
    assert released.values["pool"] == 6


def test_the_rule_text_format_changes_the_damage_not_the_hit() -> None:
    text = (REPO / "rules" / "ssq" / "game.toml").read_text(encoding="utf-8")
    rule_text = load_game_text(text, "game.toml", "rule-text")
    standard = odds(fighter="Mario", move="Red Fireball", target="Bowser")
    other = answer(rule_text, CARDS, "odds", {"fighter": "Mario", "move": "Red Fireball", "target": "Bowser"})
    assert other.values["hit"] == standard.values["hit"]
    # max(1, 3 - 4) + margin: a margin of 2 deals (1 + 2) x 2 = 6 instead of 2.
    assert {r["damage"] for r in other.values["damage"]} >= {4, 6}
    assert other.values["expected_damage"] != standard.values["expected_damage"]


def test_clash_odds_sum_every_roll_through_same_tick_clash() -> None:
    result = answer(GAME, CARDS, "clash-odds", {"first": "Pikachu", "first_move": "Super Smash", "second": "Link",
                                                "second_move": "Link's Punch", "extra_power": [2, 0]})
    pikachu, link = ssq.find_fighter(CARDS, "Pikachu"), ssq.find_fighter(CARDS, "Link")
    smash, punch = ssq.find_move(CARDS, "Super Smash", pikachu), ssq.find_move(CARDS, "Link's Punch", link)
    pool_a = ssq.dice_pool(GAME, pikachu, str(smash.get("accuracy")))[0]
    pool_b = ssq.dice_pool(GAME, link, str(punch.get("accuracy")))[0]
    wins = {"Pikachu": Fraction(0), "Link": Fraction(0), None: Fraction(0)}
    for a, p in by_die(pool_a).items():
        for b, q in by_die(pool_b).items():
            winner = same_tick_clash(GAME, ClashSide(pikachu, smash, a, 2), ClashSide(link, punch, b)).values["winner"]
            wins[winner] += p * q
    assert Fraction(result.values["first"]["hits"]["fraction"]) == wins["Pikachu"]
    assert Fraction(result.values["second"]["hits"]["fraction"]) == wins["Link"]
    assert Fraction(result.values["clash"]["fraction"]) == wins[None]
    assert sum(wins.values()) == 1


def test_one_held_item_at_a_time() -> None:
    one = answer(GAME, CARDS, "items", {"fighter": "Link", "items": ["Beam Sword", "Smash Dex", "Speed Badge"]})
    assert one.legal and one.values["held"] == ["Beam Sword"]
    assert one.values["not_counted"] == ["Smash Dex", "Speed Badge"]
    two = answer(GAME, CARDS, "items", {"fighter": "Link", "items": ["beam sword", "Green Shell"]})
    assert not two.legal
    assert two.problems[0].text == "Link holds 2 items; a fighter holds 1 at a time."
    assert two.values["held"] == ["Beam Sword", "Green Shell"]  # the catalogue's weapon, as it is spelled
