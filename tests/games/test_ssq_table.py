"""ssq's helpers of a turn and around it (``carddb/games/ssq/table.py``) answer through the one path of every game's
helpers: the browser's ``play_json`` gives the engine's numbers for the form's request, each step linked to its
rulebook section, and a broken request comes back as an error message, never an exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from carddb.core.browser import play_json
from carddb.games.ssq import turn as ssq
from carddb.games.ssq.fight import ClashSide, SmashHit, charge, regain_sp, same_tick_clash, smash_hit
from tests.core.decks import starter

REPO = Path(__file__).resolve().parents[2]
TOML = (REPO / "rules/ssq/game.toml").read_text(encoding="utf-8")


def ask(helper: str, request: dict[str, Any] | str) -> dict[str, Any]:
    _, cards = starter("ssq", None)
    text = request if isinstance(request, str) else json.dumps(request)
    return json.loads(play_json(TOML, json.dumps([c.to_dict() for c in cards]), helper, text))


def numbers(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in ("game", "helper", "answer", "legal", "working", "problems")}


def test_clash_equals_the_library() -> None:
    game, cards = starter("ssq", None)
    mario, bowser = ssq.find_fighter(cards, "Mario"), ssq.find_fighter(cards, "Bowser")
    expected = same_tick_clash(game, ClashSide(mario, ssq.find_move(cards, "Red Fireball", mario), 3),
                               ClashSide(bowser, ssq.find_move(cards, "Bowser's Punch", bowser), 2))
    got = ask("clash", {"first": "Mario", "first_move": "Red Fireball", "second": "Bowser",
                        "second_move": "Bowser's Punch", "result": [3, 2], "extra_power": []})
    assert numbers(got) == expected.values and got["answer"] == expected.lines[-1]
    assert [step["text"] for step in got["working"]] == expected.lines[:-1]
    assert {step["rule"] for step in got["working"]} == {"rules/ssq/rulebook.md#same-tick"}


def test_charge_equals_the_library() -> None:
    game, cards = starter("ssq", None)
    pikachu = ssq.find_fighter(cards, "Pikachu")
    expected = charge(game, pikachu, ssq.find_move(cards, "Super Smash", pikachu), tick=9, ticks=3,
                      used=[ssq.find_move(cards, "Pikachu's Punch", pikachu)], event="release", at=11)
    got = ask("charge", {"fighter": "Pikachu", "move": "Super Smash", "tick": 9, "ticks": 3,
                         "used": ["Pikachu's Punch"], "event": "release", "at": 11})
    assert numbers(got) == expected.values and (got["pool"], got["next_tick"]) == (5, 18)


def test_sp_equals_the_library() -> None:
    game, _ = starter("ssq", None)
    got = ask("sp", {"fighter": "Mario", "sp": 1, "from_tick": 3, "to_tick": 14})
    assert numbers(got) == regain_sp(game, 1, 3, 3, 14).values


def test_recovery_equals_the_library() -> None:
    game, cards = starter("ssq", None)
    mario = ssq.find_fighter(cards, "Mario")
    hit = SmashHit(taken=75, hit_damage=10, ledge=1, recovery_roll=1,
                   up_b=ssq.find_move(cards, "Super Jump Punch", mario), up_b_roll=2)
    got = ask("recovery", {"fighter": "Mario", "damage": 75, "hit": 10, "ledge": 1, "roll": 1,
                           "up_b": "Super Jump Punch", "up_b_roll": 2, "result": [], "walls": None})
    assert numbers(got) == smash_hit(game, mario, hit).values and got["outcome"] == "recovered"


def test_the_turn_and_initiative() -> None:
    got = ask("turn", {"fighter": "Mario", "tick": 2, "target": "Bowser",
                       "actions": [{"action": "Red Fireball", "successes": 3, "defence_successes": 1}]})
    assert (got["next_tick"], got["attacks"][0]["damage"], got["legal"]) == (6, 2, True)
    assert got["answer"] == "Mario's turn on tick 2: LEGAL"
    order = ask("initiative", {"fighters": [{"fighter": "Pikachu", "successes": 5},
                                            {"fighter": "Bowser", "successes": 1}]})
    assert order["ticks"] == {"Pikachu": 0, "Bowser": 4} and order["answer"] == "Pikachu acts first, on tick 0."


def test_a_broken_request_is_an_error_message() -> None:
    assert ask("sp", {"fighter": "Nobody", "sp": 1, "from_tick": 0, "to_tick": 5})["error"].startswith(
        "no fighter called 'Nobody'")
    assert ask("sp", {"fighter": "Mario", "sp": 9, "from_tick": 0, "to_tick": 5}) == {
        "error": "9 SP is not between 0 and the maximum 3"}
    assert ask("charge", {"fighter": "Pikachu", "move": "Super Smash"}) == {"error": "give the from tick"}
    assert ask("clash", "[1]") == {"error": "the request is not a JSON object"}
    assert ask("recovery", {"fighter": "Mario", "damage": 80, "result": [3]}) == {
        "error": "give the attack and defence successes of the two attacks, as 3:2"}
    assert ask("turn", {"fighter": "Nobody"})["error"].startswith("no fighter")
