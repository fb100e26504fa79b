"""The ssq entry points the site's Pyodide worker calls (the turn calculator page, ``javascripts/ssq.js``):
strings in, a JSON string out, the same objects as ``carddb play ssq <command> --json``. Nothing here raises: a broken
input comes back as ``{"error": "..."}``. Pure standard library.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from carddb.core.browser import error_json, game_of, index_of, needed_value, whole_value
from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.errors import CarddbError
from carddb.games.ssq.turn import initiative_ticks, turn_from_request


def ssq_turn_json(game_toml: str, cards_json: str, request_json: str, format_id: str | None = None) -> str:
    """The ssq turn calculator: ``request_json`` as ``carddb play ssq turn --json`` takes it (see ``turn.py``)."""
    try:
        game = game_of(game_toml, format_id)
        index = index_of(game, cards_json)
        request: dict[str, Any] = json.loads(request_json)
        return json.dumps(turn_from_request(game, index.cards, request).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the turn could not be read ({exc})")


def ssq_initiative_json(game_toml: str, successes_json: str) -> str:
    """Initiative from successes: ``{"Pikachu": 5, "Mario": 3}`` -> ``{"ticks": {"Pikachu": 0, ...}}``."""
    try:
        successes = json.loads(successes_json)
        order = initiative_ticks({str(k): int(v) for k, v in successes.items()})
        return json.dumps({"ticks": order}, ensure_ascii=False)
    except (ValueError, TypeError, AttributeError) as exc:
        return error_json(f"the initiative rolls could not be read ({exc})")


# ----------------------------------------------------------------------- between and around turns (fight.py)
# Each takes ``request_json`` (an object of the command's options, named below) and returns the same JSON object
# as the matching ``carddb play ssq <cmd> --json``: the numbers, ``legal``, ``working`` and ``problems``.

def _fight_json(game_toml: str, cards_json: str, request_json: str, format_id: str | None,
                answer: Callable[[GameDefinition, list[Card], dict[str, Any]], Any]) -> str:
    try:
        game = game_of(game_toml, format_id)
        request = json.loads(request_json)
        if not isinstance(request, dict):
            raise ValueError("the request is not a JSON object")
        return json.dumps(answer(game, index_of(game, cards_json).cards, request).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return error_json(f"the request could not be read ({exc})")


def ssq_clash_json(game_toml: str, cards_json: str, request_json: str, format_id: str | None = None) -> str:
    """``carddb play ssq clash``: ``{"first": {"fighter", "move", "successes", "extra_power"}, "second": {...}}``."""
    from carddb.games.ssq.fight import ClashSide, same_tick_clash
    from carddb.games.ssq.turn import find_fighter, find_move

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        sides = []
        for key in ("first", "second"):
            side = request[key]
            fighter = find_fighter(cards, str(side["fighter"]))
            move = find_move(cards, str(side["move"]), fighter)
            sides.append(ClashSide(fighter, move, needed_value(side, "successes"),
                                   whole_value(side, "extra_power", 0) or 0))
        return same_tick_clash(game, sides[0], sides[1])

    return _fight_json(game_toml, cards_json, request_json, format_id, answer)


def ssq_charge_json(game_toml: str, cards_json: str, request_json: str) -> str:
    """``carddb play ssq charge``: ``{"fighter", "move", "tick", "ticks", "used": [move names], "event", "at"}``."""
    from carddb.games.ssq.fight import charge
    from carddb.games.ssq.turn import find_fighter, find_move

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        fighter = find_fighter(cards, str(request["fighter"]))
        used = [find_move(cards, str(name), fighter) for name in request.get("used") or [] if name]
        move = find_move(cards, str(request["move"]), fighter)
        return charge(game, fighter, move, tick=needed_value(request, "tick"),
                      ticks=needed_value(request, "ticks"), used=used, event=str(request.get("event") or "resume"),
                      at=whole_value(request, "at"))

    return _fight_json(game_toml, cards_json, request_json, None, answer)


def ssq_sp_json(game_toml: str, cards_json: str, request_json: str) -> str:
    """``carddb play ssq sp``: ``{"fighter", "sp", "from", "to"}`` (the maximum is the fighter's SP)."""
    from carddb.games.ssq.fight import regain_sp, sp_for_new_fight
    from carddb.games.ssq.turn import find_fighter

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        fighter = find_fighter(cards, str(request["fighter"]))
        return regain_sp(game, needed_value(request, "sp"), sp_for_new_fight(fighter), needed_value(request, "from"),
                         needed_value(request, "to"))

    return _fight_json(game_toml, cards_json, request_json, None, answer)


def ssq_recovery_json(game_toml: str, cards_json: str, request_json: str) -> str:
    """``carddb play ssq recovery``: ``{"fighter", "damage", "hit", "attack_successes", "defence_successes", "ledge",
    "roll", "up_b", "up_b_roll", "walls", "sheltered", "pit"}``; nothing is rolled (a roll not given stays open)."""
    from carddb.games.ssq.fight import SmashHit, smash_hit
    from carddb.games.ssq.turn import find_fighter, find_move

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        fighter = find_fighter(cards, str(request["fighter"]))
        attack, defence = whole_value(request, "attack_successes"), whole_value(request, "defence_successes")
        if (attack is None) != (defence is None):
            raise ValueError("give both the attack and the defence successes for the star finish, or neither")
        up_b = request.get("up_b")
        hit = SmashHit(taken=needed_value(request, "damage"), hit_damage=whole_value(request, "hit", 0) or 0,
                       ledge=whole_value(request, "ledge", 0) or 0, attack_successes=attack, defence_successes=defence,
                       recovery_roll=whole_value(request, "roll"),
                       up_b=find_move(cards, str(up_b), fighter) if up_b else None,
                       up_b_roll=whole_value(request, "up_b_roll"), walls=whole_value(request, "walls", 0) or 0,
                       sheltered=bool(request.get("sheltered", False)), pit=bool(request.get("pit", True)))
        return smash_hit(game, fighter, hit)

    return _fight_json(game_toml, cards_json, request_json, None, answer)
