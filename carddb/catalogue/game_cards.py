"""A game and all its cards, the quick way, for commands that only read (deck check, ssq, print).

``carddb deck check`` must answer in well under 200 ms as a whole process, and opening the catalogue through
SQLAlchemy costs about half a second; so a catalogue file is read with plain sqlite3 (``reader.py``). The
definition is the workspace's game.toml when it has one (``definitions.py``), as for every command. A game the
catalogue does not hold yet, or every game when the catalogue file does not exist yet (it is not created by
reading), is read from the workspace's card files as the next ``carddb build`` would load them, so a deck can
be checked before the first build.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from carddb.catalogue.definitions import unknown_game, workspace_definition
from carddb.catalogue.reader import SqliteReader, open_reader
from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.workspace import DB_ENV, Workspace


def game_and_cards(game_id: str, format_id: str | None = None, db: str | None = None,
                   root: str | None = None) -> tuple[GameDefinition, list[Card]]:
    """The game (under ``format_id``) and all its cards: from the catalogue, else from the workspace files."""
    import os

    workspace = Workspace.locate(root)
    db_name = db or os.environ.get(DB_ENV) or Workspace.find(root).default_db()
    found = workspace_definition(workspace, game_id)
    missing = "://" not in db_name and not Path(db_name).exists()
    if found is not None and workspace is not None:
        if missing:
            return from_workspace(workspace, game_id, format_id)
        reader = open_reader(db_name, root)
        if not _holds(reader, game_id):
            return from_workspace(workspace, game_id, format_id)
        return found[0].with_format(format_id), reader.cards(game_id)
    if missing:
        raise unknown_game(game_id, workspace, db_name, [])
    reader = open_reader(db_name, root)
    if not _holds(reader, game_id):
        raise unknown_game(game_id, workspace, db_name, _held(reader))
    return reader.game(game_id, format_id), reader.cards(game_id)


def _held(reader: object) -> list[str]:
    if isinstance(reader, SqliteReader):
        return reader.games()
    return reader.held_games()  # type: ignore[attr-defined]


def _holds(reader: object, game_id: str) -> bool:
    return game_id in _held(reader)


def from_workspace(workspace: Workspace, game_id: str, format_id: str | None = None
                   ) -> tuple[GameDefinition, list[Card]]:
    """A workspace game straight from its files, checked exactly as ``carddb build`` would load it."""
    from carddb.catalogue.workspace_cards import read_workspace_game

    found = read_workspace_game(workspace, game_id)  # UnknownGameError naming the games there
    return found.game.with_format(format_id), [card for card, _file in found.cards]


def other_games(game_id: str, db: str | None = None, root: str | None = None
                ) -> Iterator[tuple[GameDefinition, list[Card]]]:
    """Every other game of the workspace (or of the catalogue) with its cards, one at a time, read only when
    asked: what a deck that does not fit its game is compared with (``with_other_game_hint``). A game that cannot
    be read is passed over: a hint is never worth an error."""
    import os

    from carddb.errors import CarddbError

    workspace = Workspace.locate(root)
    ids = workspace.game_ids() if workspace is not None else []
    if not ids:
        db_name = db or os.environ.get(DB_ENV) or Workspace.find(root).default_db()
        if "://" in db_name or Path(db_name).exists():
            ids = _held(open_reader(db_name, root))
    for other in ids:
        if other == game_id:
            continue
        try:
            yield game_and_cards(other, None, db, root)
        except CarddbError:
            continue
