"""The entry points the site's Pyodide worker calls: strings in, a JSON string out. Pure standard library.

The worker holds the game's ``game.toml`` text and its cards as JSON (a list of ``Card.to_dict()``), and
calls these for each check; the game and its card index are parsed once and cached by the text they came
from, so a check in the browser costs what it costs in process. Nothing here raises: a broken input comes
back as ``{"error": "..."}``.
"""

from __future__ import annotations

import json
from typing import Any

from carddb.errors import CarddbError
from carddb.rules.cards import Card
from carddb.rules.checker import CardIndex
from carddb.rules.game import GameDefinition, load_game_text

_GAMES: dict[tuple[int, str, str], GameDefinition] = {}
_CARDS: dict[tuple[int, int], tuple[str, CardIndex]] = {}


def _game(game_toml: str, format_id: str | None) -> GameDefinition:
    key = (hash(game_toml), game_toml[:64], format_id or "")
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 16:
            _GAMES.clear()
        game = _GAMES[key] = load_game_text(game_toml, "game.toml", format_id)
    return game


def _index(game: GameDefinition, cards_json: str) -> CardIndex:
    key = (id(game), hash(cards_json))
    hit = _CARDS.get(key)
    if hit is not None and hit[0] == cards_json:
        return hit[1]
    if len(_CARDS) > 16:
        _CARDS.clear()
    cards = [Card.from_dict(c) for c in json.loads(cards_json)]
    index = CardIndex(game, cards)
    _CARDS[key] = (cards_json, index)
    return index


def _error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)


def check_deck_json(game_toml: str, cards_json: str, deck_text: str, format_id: str | None = None,
                    filename: str = "") -> str:
    """The same JSON object as ``carddb deck check --json``."""
    from carddb.rules.report import check_deck_text

    try:
        game = _game(game_toml, format_id)
        if not game.deck_game:
            return _error(f"{game.name} has no decks.")
        index = _index(game, cards_json)
        return json.dumps(check_deck_text(deck_text, game, index, filename).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the cards or the deck could not be read ({exc})")


def ssq_turn_json(game_toml: str, cards_json: str, request_json: str, format_id: str | None = None) -> str:
    """The ssq turn calculator: ``request_json`` as ``carddb ssq turn --json`` takes it (see ``ssq.py``)."""
    from carddb.rules import ssq

    try:
        game = _game(game_toml, format_id)
        index = _index(game, cards_json)
        request: dict[str, Any] = json.loads(request_json)
        return json.dumps(ssq.turn_from_request(game, index.cards, request).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the turn could not be read ({exc})")


def ssq_initiative_json(game_toml: str, successes_json: str) -> str:
    """Initiative from successes: ``{"Pikachu": 5, "Mario": 3}`` -> ``{"ticks": {"Pikachu": 0, ...}}``."""
    from carddb.rules import ssq

    try:
        successes = json.loads(successes_json)
        order = ssq.initiative_ticks({str(k): int(v) for k, v in successes.items()})
        return json.dumps({"ticks": order}, ensure_ascii=False)
    except (ValueError, TypeError, AttributeError) as exc:
        return _error(f"the initiative rolls could not be read ({exc})")
