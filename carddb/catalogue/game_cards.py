"""A game and all its cards, the quick way, for commands that only read (deck check, ssq, print).

``carddb deck check`` must answer in well under 200 ms as a whole process, and opening the catalogue through
SQLAlchemy costs about half a second; so a catalogue file is read with plain sqlite3 (``reader.py``). A game
the catalogue does not hold yet is read from the workspace's ``rules/<game>/`` files, so a new user can check
a deck before the first ``carddb build``.
"""

from __future__ import annotations

from pathlib import Path

from carddb.catalogue.reader import open_reader
from carddb.errors import UnknownGameError
from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition
from carddb.workspace import Workspace


def game_and_cards(game_id: str, format_id: str | None = None, db: str | None = None,
                   root: str | None = None) -> tuple[GameDefinition, list[Card]]:
    """The game (under ``format_id``) and all its cards: from the catalogue, else from the workspace files."""
    workspace = Workspace.find(root)
    db_name = db or workspace.default_db()
    if "://" not in db_name and not Path(db_name).is_file():
        return from_workspace(workspace, game_id, format_id)
    reader = open_reader(db_name)
    try:
        game = reader.game(game_id, format_id)
    except UnknownGameError:
        if (workspace.rules_dir / game_id / "game.toml").is_file():
            return from_workspace(workspace, game_id, format_id)
        raise
    return game, reader.cards(game_id)


def from_workspace(workspace: Workspace, game_id: str, format_id: str | None = None
                   ) -> tuple[GameDefinition, list[Card]]:
    """A workspace game straight from its files, checked exactly as ``carddb build`` would load it."""
    from carddb.catalogue.cardfiles import read_card_file
    from carddb.catalogue.validate import build_cards
    from carddb.rules.game import load_game

    folder = workspace.game_dir(game_id)  # UnknownGameError naming the games there
    game = load_game(folder / "game.toml")
    raws = []
    for card_file in workspace.card_files(game_id):
        raws.extend(read_card_file(card_file)[1])
    return game.with_format(format_id), build_cards(game, raws, str(folder / "cards"))
