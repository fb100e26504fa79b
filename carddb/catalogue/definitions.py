"""Game definitions as every catalogue knows them: the workspace's ``rules/<game>/game.toml`` first.

Every game whose game.toml is in the workspace is known to every catalogue, a new one included: reads use the
workspace's definition (so a changed game.toml counts at once), and the first write of a game registers it
in the catalogue, as the next write after a change updates it. A game the workspace does not hold is known by
the definition the catalogue keeps. Standard library and ``carddb.core`` only: ``deck check`` reads this
before anything heavy is imported.
"""

from __future__ import annotations

from functools import cache

from carddb.core.game.definition import GameDefinition, load_game_text
from carddb.errors import InputError, UnknownGameError
from carddb.files.reading import read_text_file
from carddb.workspace import Workspace


@cache
def parse_definition(text: str, path: str) -> GameDefinition:
    """Definitions are parsed often (every command reads one) and are immutable: each text is parsed once."""
    return load_game_text(text, path)


def workspace_definition(workspace: Workspace | None, game_id: str) -> tuple[GameDefinition, str] | None:
    """The workspace's definition of ``game_id`` and its text, or None when the workspace has no such game."""
    if workspace is None or not game_id or "/" in game_id or "\\" in game_id or game_id.startswith("."):
        return None
    path = workspace.rules_dir / game_id / "game.toml"
    if not path.is_file():
        return None
    text = read_text_file(path, what="game definition")
    game = parse_definition(text, path.relative_to(workspace.root).as_posix())
    if game.id != game_id:
        raise InputError(f"{path}: declares id {game.id!r} but lives in folder {game_id!r}")
    return game, text


def unknown_game(game_id: str, workspace: Workspace | None, db: str, held: list[str]) -> UnknownGameError:
    """The error for a game neither the workspace nor the catalogue has, naming the games there are."""
    games = sorted({*(workspace.game_ids() if workspace else []), *held})
    where = (f"neither the workspace nor the catalogue {db} has it" if workspace
             else f"the catalogue {db} does not have it, and no workspace is named")
    return UnknownGameError(f"unknown game {game_id!r}: {where} (games: {', '.join(games) or 'none'})")
