"""The turn calculator of Super Smash Quest Skirmish (a game with no decks): filled in below."""

from __future__ import annotations

from carddb.rules.game import GameDefinition
from carddb.site.markup import md_text


def turn_page(game: GameDefinition) -> str:
    return f"# {md_text(game.name)}: turn calculator\n\nThe calculator runs the rules engine in your browser.\n"
