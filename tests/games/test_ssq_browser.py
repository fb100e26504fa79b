"""The site's entry points for clash, charge, Smash Points and recovery give the library's answers as JSON, and a
broken request comes back as an error message, never an exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from carddb.games.ssq import turn as ssq
from carddb.games.ssq.browser import ssq_charge_json, ssq_clash_json, ssq_recovery_json, ssq_sp_json
from carddb.games.ssq.fight import ClashSide, SmashHit, charge, regain_sp, same_tick_clash, smash_hit
from tests.core.decks import starter

REPO = Path(__file__).resolve().parents[2]


def setup() -> tuple[Any, list[Any], str, str]:
    game, cards = starter("ssq", None)
    return game, cards, (REPO / "rules/ssq/game.toml").read_text(), json.dumps([c.to_dict() for c in cards])


def test_clash_equals_the_library() -> None:
    game, cards, toml, cards_json = setup()
    mario, bowser = ssq.find_fighter(cards, "Mario"), ssq.find_fighter(cards, "Bowser")
    expected = same_tick_clash(game, ClashSide(mario, ssq.find_move(cards, "Red Fireball", mario), 3),
                               ClashSide(bowser, ssq.find_move(cards, "Bowser's Punch", bowser), 2)).to_dict()
    request = {"first": {"fighter": "Mario", "move": "Red Fireball", "successes": 3, "extra_power": ""},
               "second": {"fighter": "Bowser", "move": "Bowser's Punch", "successes": 2}}
    assert json.loads(ssq_clash_json(toml, cards_json, json.dumps(request))) == expected
    assert (expected["winner"], expected["damage"]) == ("Mario", 2)


def test_charge_equals_the_library() -> None:
    game, cards, toml, cards_json = setup()
    pikachu = ssq.find_fighter(cards, "Pikachu")
    expected = charge(game, pikachu, ssq.find_move(cards, "Super Smash", pikachu), tick=9, ticks=3,
                      used=[ssq.find_move(cards, "Pikachu's Punch", pikachu)], event="release", at=11).to_dict()
    request = {"fighter": "Pikachu", "move": "Super Smash", "tick": 9, "ticks": 3, "used": ["Pikachu's Punch"],
               "event": "release", "at": 11}
    assert json.loads(ssq_charge_json(toml, cards_json, json.dumps(request))) == expected
    assert (expected["pool"], expected["next_tick"]) == (5, 18)


def test_sp_equals_the_library() -> None:
    game, _cards, toml, cards_json = setup()
    request = {"fighter": "Mario", "sp": 1, "from": 3, "to": 14}
    assert json.loads(ssq_sp_json(toml, cards_json, json.dumps(request))) == regain_sp(game, 1, 3, 3, 14).to_dict()


def test_recovery_equals_the_library() -> None:
    game, cards, toml, cards_json = setup()
    mario = ssq.find_fighter(cards, "Mario")
    hit = SmashHit(taken=75, hit_damage=10, ledge=1, recovery_roll=1,
                   up_b=ssq.find_move(cards, "Super Jump Punch", mario), up_b_roll=2)
    request = {"fighter": "Mario", "damage": 75, "hit": 10, "ledge": 1, "roll": 1, "up_b": "Super Jump Punch",
               "up_b_roll": 2, "attack_successes": "", "defence_successes": None, "walls": "", "pit": True}
    got = json.loads(ssq_recovery_json(toml, cards_json, json.dumps(request)))
    assert got == smash_hit(game, mario, hit).to_dict()
    assert got["outcome"] == "recovered"


def test_a_broken_request_is_an_error_message() -> None:
    _game, _cards, toml, cards_json = setup()
    assert json.loads(ssq_sp_json(toml, cards_json, '{"fighter": "Nobody", "sp": 1, "from": 0, "to": 5}'))[
        "error"].startswith("no fighter called 'Nobody'")
    assert json.loads(ssq_sp_json(toml, cards_json, '{"fighter": "Mario", "sp": 9, "from": 0, "to": 5}')) == {
        "error": "9 SP is not between 0 and the maximum 3"}
    assert json.loads(ssq_charge_json(toml, cards_json, '{"fighter": "Pikachu", "move": "Super Smash"}')) == {
        "error": "the request could not be read (tick is missing)"}
    assert json.loads(ssq_clash_json(toml, cards_json, "[1]")) == {
        "error": "the request could not be read (the request is not a JSON object)"}
    assert json.loads(ssq_recovery_json(toml, cards_json, '{"fighter": "Mario", "damage": 80, '
                                                          '"attack_successes": 3}'))["error"].startswith(
        "the request could not be read (give both")
