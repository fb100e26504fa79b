"""Helpers for the checker tests: the starter catalogues (read from the workspace files, no database), and
decks written as text with legal filler so each test changes exactly one thing."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from carddb.catalogue.game_cards import from_workspace as _from_workspace
from carddb.core.cards.card import Card
from carddb.core.checker.check import check_deck
from carddb.core.decks.parse import parse_deck
from carddb.core.game.definition import GameDefinition
from carddb.core.problems import Problem
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]

#: Cards that break no rule in any legal deck of their game, with the count each may run.
FILLER = {
    "ssbm": [("Attack", 6), ("Taunt", 4), ("Jump", 5), ("Dash", 5), ("Charge", 4), ("Set-Up Attack", 4),
             ("Block", 4), ("Dodge: Ground", 4), ("Dodge: Air", 4), ("Dodge: Roll", 4), ("Recover", 3),
             ("Item: Throw", 4), ("Item: Equip", 4), ("Smash Attack", 3), ("Aerial Attack", 4), ("Grab", 4),
             ("Edge Guard", 3), ("Wall Jump", 3), ("Double Jump", 3)],
    "shmod": [("Wandering Golem", 4), ("Clockwork Sentry", 4), ("Mimic Chest", 4), ("Sudden Insight", 4),
              ("Fusion Rite", 4), ("Metamorphosis", 4), ("Flame Blade", 4), ("Tower Shield", 4),
              ("Sanctuary Ward", 4), ("Volcanic Caldera", 4), ("Sunken Reef", 4), ("Mana Surge", 4),
              ("Pitfall Snare", 4), ("Mirror Guard", 4), ("Counter Spark", 4), ("Chain Shackles", 4),
              ("Cursed Armor", 4)],
    "minibattle": [("Magnemite", 3), ("Squirtle", 3), ("Bulbasaur", 3), ("Geodude", 3), ("Ekans", 3)],
    "website": [("Guestbook", 4), ("Hit Counter", 4), ("Links Page", 4), ("Site Search", 4),
                ("Site Card: Comics Page", 4), ("Site Card: Downloads Page", 4), ("Site Card: Games Page", 4),
                ("Alan-Site Master", 4), ("Alan-Nonprocrastonator", 4), ("Natasha-The Defender", 4),
                ("Alan-The Programmer", 4), ("Kathleen-The Helper", 4), ("Jack-The Assistant", 4),
                ("Casual Surfer", 4), ("Web Designer Weekly", 4), ("Graphics Guru", 4), ("Code Reviewer", 4)],
}


@cache
def starter(game_id: str, format_id: str | None = None) -> tuple[GameDefinition, list[Card]]:
    return _from_workspace(Workspace(REPO), game_id, format_id)


def filler(game_id: str, cards: int, skip: tuple[str, ...] = (), reverse: bool = False) -> str:
    """Lines adding up to exactly ``cards`` cards of harmless filler (``reverse``: from the other end of the
    list, e.g. for a side deck that must not share cards with the main deck's filler)."""
    lines, left = [], cards
    for name, most in reversed(FILLER[game_id]) if reverse else FILLER[game_id]:
        if left <= 0:
            break
        if name in skip:
            continue
        take = min(most, left)
        lines.append(f"{take} {name}")
        left -= take
    assert left == 0, f"not enough filler for {cards} cards"
    return "\n".join(lines)


def check(game_id: str, text: str, format_id: str | None = None, **kwargs: object) -> list[Problem]:
    game, cards = starter(game_id, format_id)
    return check_deck(parse_deck(text, game), game, cards, **kwargs)  # type: ignore[arg-type]


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def only(problems: list[Problem], code: str) -> Problem:
    found = [p for p in problems if p.code == code]
    assert len(found) == 1, [p.to_dict() for p in problems]
    return found[0]
