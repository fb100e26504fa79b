"""game-icons.net's icons (CC BY 3.0), drawn as a card's symbolic art where the card has no picture.

The set comes from the npm registry as ``@iconify-json/game-icons``, installed with the site's Pyodide by ``npm ci
--prefix site`` (``make`` runs it); it is never part of carddb or of a workspace's files. Each of its 4,000 icons
is one SVG path on a 512-unit square, which ``svg_path`` flattens into polygons. Without it (carddb installed with
pip alone) a template's ``symbol`` is not drawn: the art box keeps its generated placeholder and the render says
so once (``TemplateSet.notes``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from carddb.layout.svg_path import Contour, PathError, flatten

PACKAGE = "@iconify-json/game-icons"
#: The set's files, under the workspace's ``site/node_modules``.
FOLDER = ("site", "node_modules", "@iconify-json", "game-icons")
#: What the exports and the site say of the icons (the set's own licence file names these authors).
CREDIT = ("Symbols from game-icons.net by Lorc, Delapouite and their fellow contributors, "
          "CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/)")
_PATH = re.compile(r'<path\b[^>]*\bd="([^"]*)"')


@dataclass(frozen=True)
class IconSet:
    """The icons' SVG markup by name (an alias by its parent's), and the square they are drawn on. The path data
    is read out of an icon's markup only when it is drawn: a process drawing faces needs a few dozen of 4,000."""

    file: Path
    bodies: dict[str, str]
    size: float

    def contours(self, name: str) -> tuple[Contour, ...] | None:
        """The icon's outlines in a unit square (0..1 across and down), or None when the set has no such icon."""
        body = self.bodies.get(name.strip().casefold())
        if body is None:
            return None
        return _unit_contours(" ".join(_PATH.findall(body)), self.size)  # every path of the icon, drawn as one


def icon_set_file(workspace_root: str | Path) -> Path:
    return Path(workspace_root, *FOLDER, "icons.json")


def load_icon_set(workspace_root: str | Path) -> IconSet | None:
    """The workspace's installed icon set, or None when it is not installed (or cannot be read)."""
    file = icon_set_file(workspace_root)
    try:
        stat = file.stat()
    except OSError:
        return None
    return _read(str(file), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _read(file: str, _mtime: int, _size: int) -> IconSet | None:
    try:
        raw = json.loads(Path(file).read_text(encoding="utf-8"))
        bodies = {name.casefold(): str(icon["body"]) for name, icon in raw["icons"].items()}
        for name, alias in (raw.get("aliases") or {}).items():
            if alias.get("parent", "").casefold() in bodies:
                bodies.setdefault(name.casefold(), bodies[alias["parent"].casefold()])
        size = float(raw.get("height") or raw.get("width") or 512)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return IconSet(Path(file), bodies, size)


@lru_cache(maxsize=512)
def _unit_contours(body: str, size: float) -> tuple[Contour, ...]:
    try:
        contours = flatten(body)
    except PathError:
        return ()
    return tuple(tuple((round(x / size, 6), round(y / size, 6)) for x, y in contour) for contour in contours)


def subset(workspace_root: str | Path, names: set[str]) -> bytes | None:
    """The installed set cut down to ``names`` (those it has), in its own format: what the site's printing engine
    carries so the browser draws the same symbols as the command line. None when the set is not installed."""
    file = icon_set_file(workspace_root)
    if load_icon_set(workspace_root) is None:
        return None
    raw = json.loads(file.read_text(encoding="utf-8"))
    aliases = {name: alias["parent"] for name, alias in (raw.get("aliases") or {}).items()
               if name.casefold() in names and alias.get("parent") in raw["icons"]}
    wanted = names | {parent.casefold() for parent in aliases.values()}
    kept = {name: raw["icons"][name] for name in sorted(raw["icons"]) if name.casefold() in wanted}
    small = {key: raw[key] for key in ("prefix", "width", "height") if key in raw}
    return json.dumps({**small, "icons": kept, "aliases": {name: {"parent": parent} for name, parent in
                                                            sorted(aliases.items())}},
                      sort_keys=True, separators=(",", ":")).encode()


def mtime_key(workspace_root: str | Path) -> str:
    """A cheap key that changes when the set is installed, removed or replaced (its size and time)."""
    try:
        stat = os.stat(icon_set_file(workspace_root))
    except OSError:
        return "not installed"
    return f"{stat.st_size}:{stat.st_mtime_ns}"
