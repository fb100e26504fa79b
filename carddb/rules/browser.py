"""The entry points the site's Pyodide worker calls: strings in, a JSON string out. Pure standard library.

The worker holds the game's ``game.toml`` text and its cards as JSON (a list of ``Card.to_dict()``), and
calls these for each check; the game and its card index are parsed once and cached by the text they came
from, so a check in the browser costs what it costs in process. Nothing here raises: a broken input comes
back as ``{"error": "..."}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from carddb.errors import CarddbError
from carddb.rules.cards import Card
from carddb.rules.checker import CardIndex, check_deck
from carddb.rules.deck import Deck
from carddb.rules.game import GameDefinition, load_game_text
from carddb.rules.problems import Problem

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


# ----------------------------------------------------------------------- between and around turns (ssq_fight)
# Each takes ``request_json`` (an object of the command's options, named below) and returns the same JSON object
# as the matching ``carddb ssq <cmd> --json``: the numbers, ``legal``, ``working`` and ``problems``.

def _whole(request: dict[str, Any], key: str, default: int | None = None) -> int | None:
    """A whole number of the request; an absent or empty one is ``default`` (a form's empty field)."""
    value = request.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{key} must be a whole number, not {value!r}")
    return int(value)


def _needed(request: dict[str, Any], key: str) -> int:
    value = _whole(request, key)
    if value is None:
        raise ValueError(f"{key} is missing")
    return value


def _fight_json(game_toml: str, cards_json: str, request_json: str, format_id: str | None,
                answer: Callable[[GameDefinition, list[Card], dict[str, Any]], Any]) -> str:
    try:
        game = _game(game_toml, format_id)
        request = json.loads(request_json)
        if not isinstance(request, dict):
            raise ValueError("the request is not a JSON object")
        return json.dumps(answer(game, _index(game, cards_json).cards, request).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return _error(f"the request could not be read ({exc})")


def ssq_clash_json(game_toml: str, cards_json: str, request_json: str, format_id: str | None = None) -> str:
    """``carddb ssq clash``: ``{"first": {"fighter", "move", "successes", "extra_power"}, "second": {...}}``."""
    from carddb.rules.ssq import find_fighter, find_move
    from carddb.rules.ssq_fight import ClashSide, same_tick_clash

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        sides = []
        for key in ("first", "second"):
            side = request[key]
            fighter = find_fighter(cards, str(side["fighter"]))
            sides.append(ClashSide(fighter, find_move(cards, str(side["move"]), fighter), _needed(side, "successes"),
                                   _whole(side, "extra_power", 0) or 0))
        return same_tick_clash(game, sides[0], sides[1])

    return _fight_json(game_toml, cards_json, request_json, format_id, answer)


def ssq_charge_json(game_toml: str, cards_json: str, request_json: str) -> str:
    """``carddb ssq charge``: ``{"fighter", "move", "tick", "ticks", "used": [move names], "event", "at"}``."""
    from carddb.rules.ssq import find_fighter, find_move
    from carddb.rules.ssq_fight import charge

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        fighter = find_fighter(cards, str(request["fighter"]))
        used = [find_move(cards, str(name), fighter) for name in request.get("used") or [] if name]
        return charge(game, fighter, find_move(cards, str(request["move"]), fighter), tick=_needed(request, "tick"),
                      ticks=_needed(request, "ticks"), used=used, event=str(request.get("event") or "resume"),
                      at=_whole(request, "at"))

    return _fight_json(game_toml, cards_json, request_json, None, answer)


def ssq_sp_json(game_toml: str, cards_json: str, request_json: str) -> str:
    """``carddb ssq sp``: ``{"fighter", "sp", "from", "to"}`` (the maximum is the fighter's SP)."""
    from carddb.rules.ssq import find_fighter
    from carddb.rules.ssq_fight import regain_sp, sp_for_new_fight

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        fighter = find_fighter(cards, str(request["fighter"]))
        return regain_sp(game, _needed(request, "sp"), sp_for_new_fight(fighter), _needed(request, "from"),
                         _needed(request, "to"))

    return _fight_json(game_toml, cards_json, request_json, None, answer)


def ssq_recovery_json(game_toml: str, cards_json: str, request_json: str) -> str:
    """``carddb ssq recovery``: ``{"fighter", "damage", "hit", "attack_successes", "defence_successes", "ledge",
    "roll", "up_b", "up_b_roll", "walls", "sheltered", "pit"}``; nothing is rolled (a roll not given stays open)."""
    from carddb.rules.ssq import find_fighter, find_move
    from carddb.rules.ssq_fight import SmashHit, smash_hit

    def answer(game: GameDefinition, cards: list[Card], request: dict[str, Any]) -> Any:
        fighter = find_fighter(cards, str(request["fighter"]))
        attack, defence = _whole(request, "attack_successes"), _whole(request, "defence_successes")
        if (attack is None) != (defence is None):
            raise ValueError("give both the attack and the defence successes for the star finish, or neither")
        up_b = request.get("up_b")
        hit = SmashHit(taken=_needed(request, "damage"), hit_damage=_whole(request, "hit", 0) or 0,
                       ledge=_whole(request, "ledge", 0) or 0, attack_successes=attack, defence_successes=defence,
                       recovery_roll=_whole(request, "roll"),
                       up_b=find_move(cards, str(up_b), fighter) if up_b else None,
                       up_b_roll=_whole(request, "up_b_roll"), walls=_whole(request, "walls", 0) or 0,
                       sheltered=bool(request.get("sheltered", False)), pit=bool(request.get("pit", True)))
        return smash_hit(game, fighter, hit)

    return _fight_json(game_toml, cards_json, request_json, None, answer)


# ------------------------------------------------------------------------------------- play helpers (play.py)
def play_json(game_toml: str, cards_json: str, helper: str, request_json: str, format_id: str | None = None) -> str:
    """``carddb play <game> <helper> --json``: ``request_json`` is the helper's request (each game's ``HELPERS``)."""
    from carddb.rules.play import answer

    try:
        game = _game(game_toml, format_id)
        request = json.loads(request_json)
        return json.dumps(answer(game, _index(game, cards_json), helper, request).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return _error(f"the request could not be read ({exc})")


# ----------------------------------------------------------------------------------------- the site's deck builder
# The builder keeps a deck as entries ``[{"zone", "key", "count"}, ...]`` (a card's key: its name, plus its version
# in brackets when same-named cards differ). These check it, write it as a deck file and read a deck file into it,
# with the same functions as ``carddb deck check`` and ``carddb deck convert``.

def _builder_deck(game: GameDefinition, index: CardIndex, entries_json: str, name: str = "") -> Deck:
    from carddb.rules.deck import Deck, DeckEntry

    by_key = {card.key: card for card in index.cards}
    entries = []
    for number, item in enumerate(json.loads(entries_json), start=1):
        key, zone, count = str(item["key"]), str(item["zone"]), int(item["count"])
        if count <= 0:
            continue
        card = by_key.get(key)
        name_part, qualifier = (card.name, card.qualifier) if card is not None else (key, "")
        entries.append(DeckEntry(zone=zone, count=count, name=name_part, qualifier=qualifier, line=number,
                                 text=f"{count} {key}"))
    return Deck(game=game.id, entries=entries, name=name)


def builder_deck(game_toml: str, cards_json: str, entries_json: str,
                 name: str = "") -> tuple[GameDefinition, CardIndex, Deck]:
    """The game, its card index and the builder's deck (for the site's printing entry point)."""
    game = _game(game_toml, None)
    index = _index(game, cards_json)
    return game, index, _builder_deck(game, index, entries_json, name)


def builder_check_json(game_toml: str, cards_json: str, entries_json: str, format_id: str | None = None) -> str:
    """The ``deck check --json`` object of the builder's deck; a problem's ``line`` is its entry's place (1 up)."""
    from carddb.rules.report import DeckReport

    try:
        base = _game(game_toml, None)
        # A shared link may name a format the game does not have: the deck is checked under the game's default and
        # the format is one more problem, so the rest of the verdict still shows.
        unknown_format = bool(format_id) and format_id not in base.formats
        game = base if unknown_format or not format_id else _game(game_toml, format_id)
        index = _index(game, cards_json)
        deck = _builder_deck(game, index, entries_json)
        problems = check_deck(deck, game, index)
        if unknown_format:
            problems = sorted([*problems, _unknown_format(game, str(format_id))], key=Problem.sort_key)
        return json.dumps(DeckReport(game, deck, problems).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the deck could not be read ({exc})")


def _unknown_format(game: GameDefinition, format_id: str) -> Problem:
    names = ", ".join(f"{f.label} ({f.id})" for f in game.formats.values())
    default = game.formats[game.default_format].label if game.default_format in game.formats else game.default_format
    return Problem(code="unknown-format", rule=game.rule_link(""),
                   message=f"{game.name} has no format {format_id!r} (it has {names}); the deck is checked as "
                           f"{default}.")


def builder_write_json(game_toml: str, cards_json: str, entries_json: str, fmt: str, deck_name: str = "") -> str:
    """The builder's deck as a deck file, as ``carddb deck convert --to text|lackey|apprentice`` writes it:
    ``{"text", "suffix"}``."""
    from carddb.rules.deckwrite import SUFFIXES, write_deck

    try:
        game = _game(game_toml, None)
        deck = _builder_deck(game, _index(game, cards_json), entries_json, deck_name)
        return json.dumps({"text": write_deck(deck, game, fmt), "suffix": SUFFIXES[fmt]}, ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the deck could not be written ({exc})")


def builder_read_json(game_toml: str, cards_json: str, deck_text: str, filename: str = "") -> str:
    """A deck file (any format ``carddb deck check`` reads) as builder entries; what cannot be placed (a line
    that does not read, a name that names no card or several) is listed in ``skipped`` with the reason."""
    from carddb.rules.deckparse import parse_deck

    try:
        game = _game(game_toml, None)
        index = _index(game, cards_json)
        deck = parse_deck(deck_text, game, filename)
        entries: list[dict[str, Any]] = []
        skipped = [p.message for p in deck.problems]
        for entry in deck.entries:
            found = index.names.resolve(entry.name, entry.qualifier, entry.set_hint)
            if found.card is None:
                why = {"unknown": "no such card", "ambiguous": "several cards have this name",
                       "no-version": "no card of this name has that version"}.get(found.status, found.status)
                where = f"line {entry.line}: " if entry.line else ""
                skipped.append(f"{where}{entry.count} {entry.written}: {why}")
                continue
            entries.append({"zone": entry.zone, "key": found.card.key, "count": entry.count})
        return json.dumps({"entries": entries, "skipped": skipped, "name": deck.name}, ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the deck could not be read ({exc})")


def playtest_deal_json(game_toml: str, cards_json: str, entries_json: str, seed: int) -> str:
    """The builder's deck shuffled and dealt as the rulebook starts a game (``carddb.rules.playtest``): the keys
    of what the setup took, of the hand and of the deck left (top first), and how the start was dealt."""
    import random

    from carddb.rules.playtest import deal, how_dealt, library

    try:
        game = _game(game_toml, None)
        index = _index(game, cards_json)
        lib = library(_builder_deck(game, index, entries_json), game, index)
        if game.playtest is None or not lib.cards:
            return _error(lib.problems[0] if lib.problems else "The deck has no cards to draw.")
        opening = deal(lib, random.Random(seed))
        return json.dumps({"setup": [c.key for c in opening.setup], "hand": [c.key for c in opening.hand],
                           "deck": [c.key for c in opening.deck], "deals": opening.deals, "per_turn": lib.per_turn,
                           "dealt": how_dealt(lib), "problems": lib.problems}, ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the deck could not be dealt ({exc})")


def playtest_odds_json(game_toml: str, cards_json: str, entries_json: str, request_json: str) -> str:
    """The ``carddb deck odds --json`` object of the builder's deck; ``request``: ``{"card"|"kind", "by_turn",
    "second"}``."""
    from carddb.rules.playtest import library, odds_data, odds_for

    try:
        game = _game(game_toml, None)
        index = _index(game, cards_json)
        request = json.loads(request_json)
        by_turn = _whole(request, "by_turn", 3)
        if by_turn is None or not 0 <= by_turn <= 200:
            return _error("the turn must be a whole number from 0 to 200")
        lib = library(_builder_deck(game, index, entries_json), game, index)
        if game.playtest is None:
            return _error(lib.problems[0])
        first = not request.get("second", False)
        rows = odds_for(lib, str(request.get("card") or ""), str(request.get("kind") or ""), by_turn, first)
        return json.dumps(odds_data(lib, rows, by_turn, first), ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return _error(f"the odds could not be counted ({exc})")


def search_cards_json(game_toml: str, cards_json: str, query: str) -> str:
    """The gallery's search box: the keys of the cards ``query`` finds, as ``carddb cards search`` finds them."""
    from carddb.rules.search_query import search_cards

    try:
        game = _game(game_toml, None)
        index = _index(game, cards_json)
        found = search_cards(query, index.cards, game.fields, {s.code: s.name for s in game.sets})
        return json.dumps({"keys": [card.key for card in found]}, ensure_ascii=False)
    except CarddbError as exc:
        return _error(str(exc))
