"""What a hand-made or damaged shared link can hand the deck builder's checker: a zone the game does not have or
a format it does not have is a problem of its own (with the rest of the deck still checked), never a crash, and
the command line's checker gives the same problems for the same deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carddb.core.browser import builder_check_json
from carddb.core.checker.check import check_deck
from carddb.core.decks.deck import Deck, DeckEntry
from tests.core.decks import starter

REPO = Path(__file__).resolve().parents[2]


def shmod() -> tuple[Any, list[Any], str, str]:
    game, cards = starter("shmod", None)
    return game, cards, (REPO / "rules/shmod/game.toml").read_text(), json.dumps([c.to_dict() for c in cards])


def codes(result: dict[str, Any]) -> list[str]:
    return [p["code"] for p in result["problems"]]


def test_an_unknown_zone_is_a_problem_and_the_rest_is_still_checked() -> None:
    game, cards, toml, cards_json = shmod()
    monster = next(c for c in cards if c.kind == "monster")
    entries = [{"zone": "main", "key": monster.key, "count": 5}, {"zone": "graveyard", "key": monster.key, "count": 2}]
    result = json.loads(builder_check_json(toml, cards_json, json.dumps(entries)))
    assert "error" not in result
    assert sorted(codes(result)) == ["copy-limit", "unknown-zone", "zone-size"]
    unknown = next(p for p in result["problems"] if p["code"] == "unknown-zone")
    assert unknown["severity"] == "error" and unknown["zone"] == "graveyard" and unknown["line"] == 2
    assert unknown["message"].startswith(f"2 {monster.key} is in a zone Shmod does not have ('graveyard'); "
                                         "its zones are Main deck (main)")
    assert result["legal"] is False
    # The command line's checker (the same function the CLI calls) says the same of the same deck.
    deck = Deck(game="shmod", entries=[DeckEntry(zone=e["zone"], count=e["count"], name=monster.name, line=n,
                                                 text=f"{e['count']} {monster.key}")
                                       for n, e in enumerate(entries, start=1)])
    assert [(p.code, p.message) for p in check_deck(deck, game, cards)] == \
        [(p["code"], p["message"]) for p in result["problems"]]


def test_an_unknown_format_is_a_problem_and_the_deck_is_checked_as_the_default() -> None:
    _game, cards, toml, cards_json = shmod()
    monster = next(c for c in cards if c.kind == "monster")
    entries = json.dumps([{"zone": "main", "key": monster.key, "count": 1}])
    default = json.loads(builder_check_json(toml, cards_json, entries))
    result = json.loads(builder_check_json(toml, cards_json, entries, "no-such-format"))
    assert sorted(codes(result)) == sorted([*codes(default), "unknown-format"])
    problem = next(p for p in result["problems"] if p["code"] == "unknown-format")
    assert problem["message"] == ("Shmod has no format 'no-such-format' (it has Standard (standard), Open stack "
                                  "(house rule) (open-stack)); the deck is checked as Standard.")
    assert result["zones"] == default["zones"]


def test_a_known_format_still_changes_the_answer() -> None:
    _game, cards, toml, cards_json = shmod()
    entries = json.dumps([{"zone": "main", "key": c.key, "count": 1} for c in cards if c.kind == "fusion"][:1])
    standard = json.loads(builder_check_json(toml, cards_json, entries, "standard"))
    assert "unknown-format" not in codes(standard)
    assert "unknown-format" not in codes(json.loads(builder_check_json(toml, cards_json, entries, "open-stack")))


def test_a_checker_bug_raises_instead_of_passing_for_a_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: a bug reaches the crash report; the checker no longer turns it into a 'parse' problem."""
    from carddb.core.checker import check as checker
    from carddb.core.decks.parse import parse_deck

    game, cards = starter("shmod")

    def broken(*_args: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(checker, "_check", broken)
    with pytest.raises(ZeroDivisionError):
        checker.check_deck(parse_deck("1 Ember Whelp", game), game, cards)
