"""The build with nothing to do: found from the files' status alone, before the catalogue is even opened.

After a complete build with no failure, ``carddb build`` keeps a *stamp*: a digest of the status (size,
modification and change times, inode) of every file of the workspace outside ``output/`` (the game folders,
templates, guides, site, art wherever it is, the fonts), of the catalogue file, of every output, and of carddb's
code, the libraries' versions, the build's options and the date. The next build computes the same digest first;
when it is equal, nothing any step reads has changed and no output was touched, so the build gives back what
the last one said, without importing the database layer or reading a card file.

Any write to a file changes its change time (``st_ctime_ns``, which no program sets back), so an edit, however
small and whatever its modification time says, changes the stamp and the build runs its steps, which compare
contents. The stamp is an optimisation with no say over what is made: a different stamp only means the steps
look. Standard library only.
"""

from __future__ import annotations

import datetime
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carddb.files.replacing import is_leftover
from carddb.incremental import PACKAGE, digest, library_versions

STAMP = Path(".carddb") / "build-stamp.json"  # inside output/
#: Never inputs of a build: its outputs, version control, environments, caches.
SKIPPED = {"output", ".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache",
           ".hypothesis", ".mypy_cache"}
#: In output/.carddb: the card studio's last edit, kept for its Undo across server starts (``site serve``).
STUDIO_UNDO_FILE = "studio-undo.json"
#: Inside output/.carddb: the old copy of each export the last build replaced, which the next one refills
#: (``carddb.files.replacing.keeping_old_copies``); not an output.
OLD_COPIES = "old-copies"
#: Files of output/ that a build does not make (or makes after the stamp): left out of the outputs' status.
NOT_OUTPUTS = {"catalogue.db", "catalogue.db-wal", "catalogue.db-shm", "build-stamp.json", "watch.json",
               STUDIO_UNDO_FILE}


@dataclass
class Stamp:
    """What a stamp keeps: its digest and what the build it describes said."""

    digest: str
    inputs: str = ""  # the inputs' part of it (``inputs_digest``)
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)  # the steps that ran (all of them up to date next time)


def _status(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def _tree_status(root: Path, skip: set[str], leave_out: set[str] | frozenset[str] = frozenset()) -> list[Any]:
    """The status of every file under ``root`` (its path relative to it), folders named in ``skip`` left out."""
    entries: list[Any] = []
    start = len(str(root)) + 1
    folders = [str(root)]
    while folders:
        folder = folders.pop()
        try:
            listing = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in listing:
            if is_leftover(entry.name):  # an old copy the build that just ended is deleting, or a killed run's
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in skip:
                        folders.append(entry.path)
                    continue
                if entry.name in leave_out:
                    continue
                st = entry.stat()
                entries.append((entry.path[start:], st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
            except OSError:
                entries.append((entry.path[start:], None))
    return entries


def inputs_digest(root: Path, catalogue_path: Path, options: Sequence[Any]) -> str:
    """The digest of everything a build could read, from the files' status (the outputs left out)."""
    from carddb.layout.fonts import BUILTIN_STYLES  # the fonts faces are drawn with (a test may name others)

    fonts = sorted({str(path) for chain in BUILTIN_STYLES.values() for path in chain})
    pyodide = root / "site" / "node_modules" / "pyodide"
    catalogue = [(str(catalogue_path) + suffix, _status(Path(str(catalogue_path) + suffix)))
                 for suffix in ("", "-wal")]  # -shm changes on every open, the data does not
    import carddb
    from carddb.site.precompress import QUICK_ENV  # a setting that changes the site's compressed copies

    code = _tree_status(PACKAGE, {"__pycache__"})  # carddb's own files, by status too
    return digest("inputs", carddb.__version__, code, library_versions(), sys.version, list(options),
                  os.environ.get(QUICK_ENV, ""),
                  datetime.date.today().isoformat(), str(root), catalogue,
                  _tree_status(root, SKIPPED), _tree_status(pyodide, set()) if pyodide.is_dir() else None,
                  [(font, _status(Path(font))) for font in fonts])


def stamp_digest(output: Path, inputs: str) -> str:
    """The digest of everything a build could read (``inputs``: ``inputs_digest``) and has made, from the files'
    status. The outputs are walked only when the inputs are as the last build left them: after an edit (the
    inputs changed) the build runs anyway, and 55,000 files of a game of 5,000 cards are not looked at twice."""
    return digest("stamp", inputs,
                  _tree_status(output, {"catalogue.db", OLD_COPIES}, NOT_OUTPUTS) if output.is_dir() else None)


def read_stamp(output: Path) -> Stamp | None:
    from carddb.errors import CarddbError
    from carddb.files.reading import read_json_file

    try:
        data = read_json_file(output / STAMP, what="build stamp")
    except (CarddbError, OSError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("digest"), str):
        return None
    lists = {name: data.get(name) for name in ("lines", "warnings", "steps")}
    if not all(isinstance(value, list) and all(isinstance(item, str) for item in value) for value in lists.values()):
        return None
    inputs = data.get("inputs")
    return Stamp(data["digest"], inputs if isinstance(inputs, str) else "", **lists)  # type: ignore[arg-type]


def write_stamp(output: Path, stamp: Stamp) -> None:
    import json

    from carddb.files.replacing import write_file

    write_file(output / STAMP, json.dumps({"digest": stamp.digest, "inputs": stamp.inputs, "lines": stamp.lines,
                                           "warnings": stamp.warnings, "steps": stamp.steps}, indent=1))


def forget_stamp(output: Path) -> None:
    (output / STAMP).unlink(missing_ok=True)


def catalogue_file(db: str) -> Path | None:
    """The SQLite file a catalogue names (a path or a ``sqlite:///`` URL); None for PostgreSQL, whose changes no
    file shows (a build on it always runs its steps), or for an in-memory database."""
    if "://" in db:
        if not db.startswith("sqlite:///"):
            return None
        db = db.removeprefix("sqlite:///").split("?", 1)[0].removeprefix("file:")
    if db in ("", ":memory:"):
        return None
    return Path(db).expanduser().absolute()
