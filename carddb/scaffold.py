"""``carddb init``: a new game in a workspace, with files that already build, check and render.

The new game is a copy of ``carddb/starter/``: real files a designer can read before running ``init``
(``rules/`` becomes ``rules/<id>/``, ``templates/`` becomes ``templates/<id>/``); ``$id`` and ``$name`` in
the game definition and the rulebook are replaced by the new game's id and name.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from carddb.errors import ConflictError, InputError

GAME_ID = re.compile(r"^[a-z][a-z0-9-]{1,31}$")
STARTER = Path(__file__).resolve().parent / "starter"
_FILLED_IN = {"game.toml", "rulebook.md"}


def scaffold_game(root: str | Path, game_id: str, name: str | None = None) -> list[Path]:
    """Create ``rules/<game_id>/`` and ``templates/<game_id>/`` under ``root``; refuse (changing nothing) if
    either exists."""
    if not GAME_ID.match(game_id):
        raise InputError(f"game id {game_id!r}: use 2 to 32 lower-case letters, digits or '-', starting with a letter")
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file, not a folder")
    targets = {"rules": root / "rules" / game_id, "templates": root / "templates" / game_id}
    for existing in targets.values():
        if existing.exists():
            raise ConflictError(f"{existing} already exists; nothing was changed")
    title = name or game_id.replace("-", " ").title()
    values = {"id": game_id, "name": title.replace('"', "'")}
    created = []
    for source in sorted(p for p in STARTER.rglob("*") if p.is_file()):
        top, *rest = source.relative_to(STARTER).parts
        path = targets[top].joinpath(*rest)
        text = source.read_text(encoding="utf-8")
        if source.name in _FILLED_IN:
            text = Template(text).substitute(values)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        created.append(path)
    return created
