"""What a build reads, seen by the watcher: which saved files can change an output, which games they belong to,
and which folders must be watched to see them (``carddb.app.watch``).

Most inputs are in the watched folders (``rules/``, ``templates/``, ``docs/``, ``site/``), and a file inside a
game's own folders (``rules/<game>/``, ``templates/<game>/``) is that game's. The others are named by what the
folders hold: a card's art may be a path from the workspace root (``art: art/mario.png``), a game's rulebook a
path out of its folder, and the fonts are files of installed packages. Those are found from the game
definitions and the catalogue's cards (``ReadFiles``), each with the games that read it, and their folders are
watched one by one (not recursively), so a save there builds only the games that use the file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from carddb.workspace import Workspace

#: The folders of a workspace whose files a build reads.
WATCHED = ("rules", "templates", "docs", "site")
#: Never a reason to build: generated or installed files, version control, editors' scratch files.
IGNORED_PARTS = {"output", "node_modules", "__pycache__", ".git", ".venv", ".pytest_cache"}
#: The games that read a file: a set of game ids, or EVERY_GAME.
EVERY_GAME = None
Readers = frozenset[str] | None


def scratch(path: Path) -> bool:
    """An editor's backup, swap or lock file: never read by a build."""
    name = path.name
    return name.endswith(("~", ".swp", ".swx", ".tmp")) or name.startswith((".#", "#")) \
        or name == "4913"  # vim's test of whether it may write the folder


def ignored(path: Path, root: Path) -> bool:
    """Whether a change of ``path`` inside the watched folders cannot change any output (generated files, an
    editor's swap file), or ``path`` is outside them."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return True
    if len(parts) < 2 or parts[0] not in WATCHED:
        return True
    return bool(IGNORED_PARTS.intersection(parts)) or scratch(path)


class ReadFiles:
    """The files a build reads that the games name (art, rulebooks) and the fonts, each with the games reading it
    (wherever they are: inside a game's folder, elsewhere in the workspace, in an installed package)."""

    def __init__(self, root: Path, readers: Mapping[Path, Readers] | None = None) -> None:
        self.root = root
        self.readers: dict[Path, Readers] = dict(readers or {})
        # A folder holding an input, made, renamed or removed, changes what the build reads (the folder of
        # root-relative art made after the card naming it): each such folder, with its files' readers.
        self.folders: dict[Path, Readers] = {}
        for path, games in self.readers.items():
            if path.is_relative_to(root):
                for folder in path.parents:
                    if folder == root:
                        break
                    self.folders[folder] = _union(self.folders[folder], games) if folder in self.folders else games

    def reads(self, path: Path) -> bool:
        return path in self.readers or path in self.folders

    def games_reading(self, path: Path) -> Readers:
        """The games reading ``path`` (or files inside it); none when it is no input of theirs."""
        if path in self.readers:
            return self.readers[path]
        return self.folders.get(path, frozenset())


def _union(a: Readers, b: Readers) -> Readers:
    return EVERY_GAME if a is EVERY_GAME or b is EVERY_GAME else a | b


def read_files(root: Path, game_arts: Mapping[str, Iterable[str]], rulebooks: Mapping[str, str],
               fonts: Iterable[str | Path] = ()) -> ReadFiles:
    """The files of a build known from what the games name: each game's art (in every place it may be found,
    in the order ``carddb.layout.art`` looks: a file made at the first changes which one is drawn), its
    rulebook, and the fonts (read by every game). Nothing in ``output/`` counts: builds make it."""
    root = root.absolute()
    readers: dict[Path, Readers] = {}

    def add(path: Path, games: Readers) -> None:
        path = Path(os.path.normpath(path))  # rules/ssbm/../../art/x.png as the file it names
        if path.is_relative_to(root / "output"):
            return  # what a build writes is never what starts one
        readers[path] = _union(readers[path], games) if path in readers else games
        if path.is_symlink():  # the file a link names is the one saved (and the one digested)
            with contextlib.suppress(OSError, RuntimeError):  # a dangling link, a loop: drawn as a placeholder
                add(path.resolve(strict=True), games)

    for game_id, arts in game_arts.items():
        for art in arts:
            for candidate in (root / "rules" / game_id / art, root / art):
                if Path(os.path.normpath(candidate)).is_relative_to(root):  # art elsewhere is never drawn
                    add(candidate, frozenset({game_id}))
    for game_id, rulebook in rulebooks.items():
        add(root / "rules" / game_id / rulebook, frozenset({game_id}))
    for font in fonts:
        add(Path(font), EVERY_GAME)
    return ReadFiles(root, readers)


def games_touched(paths: Iterable[Path], workspace: Workspace, inputs: ReadFiles | None = None) -> list[str] | None:
    """The games a change of ``paths`` can change, or None when it can change every game (a shared template,
    the site, the docs, a new or renamed game, a font). A path inside a game's own folders (``rules/<game>``,
    ``templates/<game>``) is that game's; a file the build reads elsewhere (root-relative art) belongs to the
    games that read it; anything else in the watched folders to every game; anything else to none."""
    games: set[str] = set()
    known = set(workspace.game_ids())
    root = workspace.root
    for path in paths:
        readers = inputs.games_reading(path) if inputs is not None else frozenset()
        if readers is EVERY_GAME:
            return None
        games |= readers
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            continue
        if len(parts) >= 3 and parts[0] in ("rules", "templates") and parts[1] in known:
            games.add(parts[1])
        elif parts and parts[0] in WATCHED and not (inputs is not None and inputs.reads(path)):
            return None
    return sorted(games)


def watch_plan(root: Path, inputs: ReadFiles, files: Iterable[Path] = ()) -> dict[Path, bool]:
    """The folders to watch, each recursively (True) or not: the workspace itself (a watched folder made, renamed
    or removed), each watched folder (around an installed ``node_modules``, which is never watched), and the
    folder of every input elsewhere and of ``files`` (the catalogue's), or, while that folder does not exist,
    the nearest one above it that does."""
    plan = {root: False}
    for name in WATCHED:
        folder = root / name
        if not folder.is_dir():
            continue
        children = [child for child in folder.iterdir() if child.is_dir() and not child.is_symlink()]
        if not any(child.name in IGNORED_PARTS for child in children):
            plan[folder] = True  # a recursive watch never follows a link (site/node_modules linked in)
            continue
        plan[folder] = False
        plan.update({child: True for child in children if child.name not in IGNORED_PARTS})
    for path in [*inputs.readers, *files]:
        folder = _nearest_folder(path.parent, root)
        if folder is not None and not _covered(folder, plan):
            plan[folder] = False
    return plan


def _nearest_folder(folder: Path, root: Path) -> Path | None:
    """``folder``, or the nearest folder above it that exists (inside the workspace: never above it)."""
    inside = folder.is_relative_to(root)
    while not folder.is_dir():
        if folder.parent == folder or (inside and folder == root) or not inside:
            return None
        folder = folder.parent
    return folder


def _covered(folder: Path, plan: dict[Path, bool]) -> bool:
    return folder in plan or any(plan.get(parent, False) for parent in folder.parents)
