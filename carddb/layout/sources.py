"""Which files a game's faces are drawn from, found without compiling a template (and without Jinja, fonts or
the layout engine): what keys the incremental build, so a build whose faces are current loads none of those."""

from __future__ import annotations

import tomllib
from pathlib import Path


def template_files(workspace_root: str | Path, game_id: str) -> list[Path]:
    """Every file ``load_templates`` reads for the game (any of them can break loading them all)."""
    root = Path(workspace_root)
    return [root / "templates" / "icons.toml", *sorted((root / "templates" / game_id).glob("*.toml"))]


def template_sources(workspace_root: str | Path, game_id: str, kind: str | None) -> list[Path]:
    """The files a face of ``kind`` (None: the back) is drawn from, found without compiling anything: the icons,
    the reminders, the game's fonts.toml, the kind's template and every file it extends. Their contents key the
    incremental build; a file that cannot be read or parsed is still listed, and loading the templates reports
    it."""
    folder = (Path(workspace_root) / "templates" / game_id).resolve()
    found = [folder.parent / "icons.toml", folder / "icons.toml", folder / "reminders.toml", folder / "fonts.toml"]
    path: Path | None = (folder / f"{'back' if kind is None else kind}.toml").resolve()
    while path is not None and path not in found:
        found.append(path)
        try:
            parent = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            parent = None
        extended = (folder / parent).resolve() if isinstance(parent, str) else None
        path = extended if extended is not None and extended.parent == folder.resolve() else None
    return found
