"""What the browser's rules engine needs: Pyodide's runtime files, ``carddb/rules`` as a zip, and per game its
definition (TOML text) and cards (JSON), with a manifest that names them all.

File names carry a content hash (and Pyodide's folder its version), so a browser may cache them for ever and
a rebuilt site is never checked with a stale engine; only ``manifest.json`` is fetched without the cache.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from carddb.errors import InputError
from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition

#: The files of the npm ``pyodide`` package that run it in a browser (the rest are types, maps and demos).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: What the browser imports: the rules layer and the two modules it may import.
PACKAGE_FILES = ("carddb/__init__.py", "carddb/errors.py")
PACKAGE_DIRS = ("carddb/rules",)
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Pyodide:
    version: str
    folder: Path

    def files(self) -> list[Path]:
        return [self.folder / name for name in PYODIDE_FILES]


def find_pyodide(site_dir: Path) -> Pyodide:
    """The Pyodide that ``site/package.json`` pins, installed by ``npm ci --prefix site``.

    Refuses an installed version other than the pinned one, so the site never ships an engine nobody tested.
    """
    try:
        pinned = json.loads((site_dir / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"{site_dir / 'package.json'} does not pin a pyodide version ({exc})") from None
    folder = site_dir / "node_modules" / "pyodide"
    hint = f"run `npm ci --prefix {site_dir}` to install it from the npm registry"
    try:
        installed = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        raise InputError(f"Pyodide {pinned} is not installed in {folder}", hint=hint) from None
    if installed != pinned:
        raise InputError(f"{folder} holds Pyodide {installed} but site/package.json pins {pinned}", hint=hint)
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise InputError(f"Pyodide in {folder} lacks {', '.join(missing)}", hint=hint)
    return Pyodide(version=installed, folder=folder)


def rules_zip(package_root: Path) -> bytes:
    """``carddb/rules`` (with ``carddb/__init__.py`` and ``carddb/errors.py``) as a reproducible zip."""
    paths = [package_root / p for p in PACKAGE_FILES]
    for folder in PACKAGE_DIRS:
        paths += sorted((package_root / folder).rglob("*.py"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in paths:
            info = zipfile.ZipInfo(path.relative_to(package_root).as_posix(), _FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def cards_json(cards: Sequence[Card]) -> str:
    return json.dumps([card.to_dict() for card in cards], ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def game_entry(game: GameDefinition, toml_file: str, cards_file: str, deck_files: dict[str, str]) -> dict:
    """One game in ``manifest.json``: what the checker page needs to fill its pickers and call the engine."""
    return {
        "id": game.id, "name": game.name, "deck_game": game.deck_game, "default_format": game.default_format,
        "formats": [{"id": f.id, "label": f.label} for f in game.formats.values()],
        "zones": {z.id: z.label for z in game.zones.values()},
        "toml": toml_file, "cards": cards_file, "decks": deck_files,
    }
