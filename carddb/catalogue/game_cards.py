"""A game's definition and cards for the deck checker, fast: a JSON snapshot beside the catalogue file.

``carddb deck check`` must answer in well under 200 ms as a whole process, and opening the catalogue means
importing SQLAlchemy (about half a second). So the first check of a game writes ``<db>.checker-<game>.json``
(the definition and ``Card.to_dict()`` of every card) and later checks read it, as long as the database
file and its WAL are unchanged (size and modification time). A database URL is never cached. A game the
catalogue does not hold yet is read from the workspace's ``rules/<game>/`` files, so a new user can check a
deck before the first ``carddb build``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from carddb.errors import UnknownGameError
from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition, parse_game
from carddb.workspace import Workspace

CACHE_VERSION = 1


def _stamp(db: Path) -> str:
    parts = []
    for path in (db, db.with_name(db.name + "-wal")):
        try:
            st = path.stat()
            parts.append(f"{st.st_mtime_ns}:{st.st_size}")
        except OSError:
            parts.append("-")
    return "|".join(parts)


def _cache_path(db: Path, game_id: str) -> Path:
    return db.with_name(f"{db.name}.checker-{game_id}.json")


def _from_snapshot(data: dict, format_id: str | None) -> tuple[GameDefinition, list[Card]]:
    game = parse_game(data["definition"], data["path"], format_id=format_id)
    return game, [Card.from_dict(c) for c in data["cards"]]


def game_and_cards(game_id: str, format_id: str | None = None, db: str | None = None,
                   root: str | None = None) -> tuple[GameDefinition, list[Card]]:
    """The game (under ``format_id``) and all its cards, from the snapshot when it is current."""
    workspace = Workspace.find(root)
    db_name = db or workspace.default_db()
    db_path = Path(db_name) if "://" not in db_name else None
    if db_path is not None and db_path.is_file():
        cache = _cache_path(db_path, game_id)
        try:
            data = json.loads(cache.read_text(encoding="utf-8"))
            if data.get("version") == CACHE_VERSION and data.get("stamp") == _stamp(db_path):
                return _from_snapshot(data, format_id)
        except (OSError, ValueError, KeyError):
            pass
    if db_path is not None and not db_path.is_file():
        return _from_workspace(workspace, game_id, format_id)
    from carddb.catalogue.api import open_catalogue  # heavy: SQLAlchemy

    catalogue = open_catalogue(db_name, root)
    try:
        game = catalogue.game(game_id)
    except UnknownGameError:
        if (workspace.rules_dir / game_id / "game.toml").is_file():
            return _from_workspace(workspace, game_id, format_id)
        raise
    cards = catalogue.cards(game_id)
    catalogue.engine.dispose()
    if db_path is not None:
        _write_snapshot(_cache_path(db_path, game_id), {
            "version": CACHE_VERSION, "stamp": _stamp(db_path), "path": game.path, "definition": game.raw,
            "cards": [c.to_dict() for c in cards]})
    return game.with_format(format_id), cards


def _from_workspace(workspace: Workspace, game_id: str, format_id: str | None) -> tuple[GameDefinition, list[Card]]:
    from carddb.catalogue.cardfiles import read_card_file
    from carddb.catalogue.validate import build_cards
    from carddb.rules.game import load_game

    folder = workspace.game_dir(game_id)  # UnknownGameError naming the games there
    game = load_game(folder / "game.toml")
    raws = []
    for card_file in workspace.card_files(game_id):
        raws.extend(read_card_file(card_file)[1])
    return game.with_format(format_id), build_cards(game, raws, str(folder / "cards"))


def _write_snapshot(path: Path, data: dict) -> None:
    """Whole or not at all; a cache that cannot be written is only a slower next check."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
