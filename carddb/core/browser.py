"""The entry points the site's Pyodide worker calls: strings in, a JSON string out. Pure standard library.

The worker holds the game's ``game.toml`` text and its cards as JSON (a list of ``Card.to_dict()``), and
calls these for each check; the game and its card index are parsed once and cached by the text they came
from, so a check in the browser costs what it costs in process. Nothing here raises: a broken input comes
back as ``{"error": "..."}``.
"""

from __future__ import annotations

import json
from typing import Any

from carddb.core.cards.card import Card
from carddb.core.checker.check import CardIndex, check_deck
from carddb.core.decks.deck import Deck
from carddb.core.game.definition import GameDefinition, load_game_text
from carddb.core.problems import Problem
from carddb.errors import CarddbError

_GAMES: dict[tuple[int, str, str], GameDefinition] = {}
_CARDS: dict[tuple[int, int], tuple[str, CardIndex]] = {}


def game_of(game_toml: str, format_id: str | None) -> GameDefinition:
    key = (hash(game_toml), game_toml[:64], format_id or "")
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 16:
            _GAMES.clear()
        game = _GAMES[key] = load_game_text(game_toml, "game.toml", format_id)
    return game


def index_of(game: GameDefinition, cards_json: str) -> CardIndex:
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


def error_json(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)


def whole_value(request: dict[str, Any], key: str, default: int | None = None) -> int | None:
    """A whole number of the request; an absent or empty one is ``default`` (a form's empty field)."""
    value = request.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{key} must be a whole number, not {value!r}")
    return int(value)


def needed_value(request: dict[str, Any], key: str) -> int:
    value = whole_value(request, key)
    if value is None:
        raise ValueError(f"{key} is missing")
    return value


def check_deck_json(game_toml: str, cards_json: str, deck_text: str, format_id: str | None = None,
                    filename: str = "") -> str:
    """The same JSON object as ``carddb deck check --json``."""
    from carddb.core.checker.report import check_deck_text

    try:
        game = game_of(game_toml, format_id)
        if not game.deck_game:
            return error_json(f"{game.name} has no decks.")
        index = index_of(game, cards_json)
        return json.dumps(check_deck_text(deck_text, game, index, filename).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the cards or the deck could not be read ({exc})")


# ------------------------------------------------------------------------------------- play helpers (carddb.core.play)
def play_json(game_toml: str, cards_json: str, helper: str, request_json: str, format_id: str | None = None) -> str:
    """``carddb play <game> <helper> --json``: ``request_json`` is the helper's request (each game's ``HELPERS``)."""
    from carddb.core.play.helpers import answer

    try:
        game = game_of(game_toml, format_id)
        request = json.loads(request_json)
        return json.dumps(answer(game, index_of(game, cards_json), helper, request).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return error_json(f"the request could not be read ({exc})")


# ----------------------------------------------------------------------------------------- the site's deck builder
# The builder keeps a deck as entries ``[{"zone", "key", "count"}, ...]`` (a card's key: its name, plus its version
# in brackets when same-named cards differ). These check it, write it as a deck file and read a deck file into it,
# with the same functions as ``carddb deck check`` and ``carddb deck convert``.

def _builder_deck(game: GameDefinition, index: CardIndex, entries_json: str, name: str = "") -> Deck:
    from carddb.core.decks.deck import Deck, DeckEntry

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
    game = game_of(game_toml, None)
    index = index_of(game, cards_json)
    return game, index, _builder_deck(game, index, entries_json, name)


def builder_check_json(game_toml: str, cards_json: str, entries_json: str, format_id: str | None = None) -> str:
    """The ``deck check --json`` object of the builder's deck; a problem's ``line`` is its entry's place (1 up)."""
    from carddb.core.checker.report import DeckReport

    try:
        base = game_of(game_toml, None)
        # A shared link may name a format the game does not have: the deck is checked under the game's default and
        # the format is one more problem, so the rest of the verdict still shows.
        unknown_format = bool(format_id) and format_id not in base.formats
        game = base if unknown_format or not format_id else game_of(game_toml, format_id)
        index = index_of(game, cards_json)
        deck = _builder_deck(game, index, entries_json)
        problems = check_deck(deck, game, index)
        if unknown_format:
            problems = sorted([*problems, _unknown_format(game, str(format_id))], key=Problem.sort_key)
        return json.dumps(DeckReport(game, deck, problems).to_dict(), ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the deck could not be read ({exc})")


def _unknown_format(game: GameDefinition, format_id: str) -> Problem:
    names = ", ".join(f"{f.label} ({f.id})" for f in game.formats.values())
    default = game.formats[game.default_format].label if game.default_format in game.formats else game.default_format
    return Problem(code="unknown-format", rule=game.rule_link(""),
                   message=f"{game.name} has no format {format_id!r} (it has {names}); the deck is checked as "
                           f"{default}.")


def builder_write_json(game_toml: str, cards_json: str, entries_json: str, fmt: str, deck_name: str = "") -> str:
    """The builder's deck as a deck file, as ``carddb deck convert --to text|lackey|apprentice`` writes it:
    ``{"text", "suffix"}``."""
    from carddb.core.decks.write import SUFFIXES, write_deck

    try:
        game = game_of(game_toml, None)
        deck = _builder_deck(game, index_of(game, cards_json), entries_json, deck_name)
        return json.dumps({"text": write_deck(deck, game, fmt), "suffix": SUFFIXES[fmt]}, ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the deck could not be written ({exc})")


def builder_read_json(game_toml: str, cards_json: str, deck_text: str, filename: str = "") -> str:
    """A deck file (any format ``carddb deck check`` reads) as builder entries; what cannot be placed (a line
    that does not read, a name that names no card or several) is listed in ``skipped`` with the reason."""
    from carddb.core.decks.parse import parse_deck

    try:
        game = game_of(game_toml, None)
        index = index_of(game, cards_json)
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
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the deck could not be read ({exc})")


def playtest_deal_json(game_toml: str, cards_json: str, entries_json: str, seed: int) -> str:
    """The builder's deck shuffled and dealt as the rulebook starts a game (``carddb.core.play.playtest``): the keys
    of what the setup took, of the hand and of the deck left (top first), and how the start was dealt."""
    import random

    from carddb.core.play.playtest import deal, how_dealt, library

    try:
        game = game_of(game_toml, None)
        index = index_of(game, cards_json)
        lib = library(_builder_deck(game, index, entries_json), game, index)
        if game.playtest is None or not lib.cards:
            return error_json(lib.problems[0] if lib.problems else "The deck has no cards to draw.")
        opening = deal(lib, random.Random(seed))
        return json.dumps({"setup": [c.key for c in opening.setup], "hand": [c.key for c in opening.hand],
                           "deck": [c.key for c in opening.deck], "deals": opening.deals, "per_turn": lib.per_turn,
                           "dealt": how_dealt(lib), "problems": lib.problems}, ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the deck could not be dealt ({exc})")


def playtest_odds_json(game_toml: str, cards_json: str, entries_json: str, request_json: str) -> str:
    """The ``carddb deck odds --json`` object of the builder's deck; ``request``: ``{"card"|"kind", "by_turn",
    "second"}``."""
    from carddb.core.play.playtest import library, odds_data, odds_for

    try:
        game = game_of(game_toml, None)
        index = index_of(game, cards_json)
        request = json.loads(request_json)
        by_turn = whole_value(request, "by_turn", 3)
        if by_turn is None or not 0 <= by_turn <= 200:
            return error_json("the turn must be a whole number from 0 to 200")
        lib = library(_builder_deck(game, index, entries_json), game, index)
        if game.playtest is None:
            return error_json(lib.problems[0])
        first = not request.get("second", False)
        rows = odds_for(lib, str(request.get("card") or ""), str(request.get("kind") or ""), by_turn, first)
        return json.dumps(odds_data(lib, rows, by_turn, first), ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
    except (ValueError, KeyError, TypeError) as exc:
        return error_json(f"the odds could not be counted ({exc})")


def search_cards_json(game_toml: str, cards_json: str, query: str) -> str:
    """The gallery's search box: the keys of the cards ``query`` finds, as ``carddb cards search`` finds them."""
    from carddb.core.search.query import search_cards

    try:
        game = game_of(game_toml, None)
        index = index_of(game, cards_json)
        found = search_cards(query, index.cards, game.fields, {s.code: s.name for s in game.sets})
        return json.dumps({"keys": [card.key for card in found]}, ensure_ascii=False)
    except CarddbError as exc:
        return error_json(str(exc))
