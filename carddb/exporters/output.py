"""Writing a whole export folder at once: build beside the target, then swap it in.

An export is many files; a player must never find half of them. The folder is built in a hidden sibling
and swapped in only once it is complete, by ``carddb.files.replacing`` (the target is never missing, even
when the run is killed). An existing output folder is replaced only if it holds carddb's marker file (a
previous export) or nothing at all; any other folder is refused, since replacing it would delete a user's
files. Every path written goes through ``inside``, so no card or set name can lead a write outside the folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from carddb.errors import OutputError
from carddb.files.replacing import replacing_folder

MARKER = "carddb-export.json"


def inside(root: Path, relative: str, plain: set[str] | None = None, *, replaced: bool = False) -> Path:
    """``root / relative``, refusing any path that would land outside ``root`` (``..``, absolute, drive).
    ``plain``: folders already found to be no links, by a caller writing or reading many files in one folder (each
    found so is added to it). ``replaced``: the caller removes the file before writing it, so a link there leads
    nowhere and only the folders on the way are looked at."""
    parts = relative.replace("\\", "/").split("/")
    if relative.startswith("/") or any(p in ("", ".", "..") or ":" in p for p in parts):
        raise OutputError(f"refusing to write {relative!r}: not a plain path inside the output folder")
    path = root.joinpath(*parts)
    if replaced:
        if _link_below(root, parts[:-1], plain, last_is_file=False):
            folder, top = path.parent.resolve(), root.resolve()
            if folder != top and top not in folder.parents:
                raise OutputError(f"refusing to write {relative!r}: it resolves outside {root}")
        return path
    if _link_below(root, parts, plain) and root.resolve() not in path.resolve().parents:
        raise OutputError(f"refusing to write {relative!r}: it resolves outside {root}")
    return path


def _link_below(root: Path, parts: list[str], plain: set[str] | None = None, *, last_is_file: bool = True) -> bool:
    """Whether a name on the way from ``root`` to ``root/parts`` is a symbolic link. With plain parts and no link,
    the path is inside ``root`` whatever ``root`` itself resolves to: a few ``lstat`` calls a file, where resolving
    both paths cost two dozen (every file of an export of 5,000 images goes through ``inside``); one a file, with
    ``plain`` (the folders on the way are looked at once)."""
    current = os.fspath(root)
    last = len(parts) - 1 if last_is_file else len(parts)  # the parts before it are folders
    for index, part in enumerate(parts):
        current = os.path.join(current, part)
        if plain is not None and current in plain:
            continue
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return True
        except OSError:  # not there: nothing below it is either
            return False
        if plain is not None and index < last:
            plain.add(current)
    return False


def check_target(out_dir: Path) -> None:
    """Refuse an output folder that holds anything but a previous carddb export."""
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"{out_dir} exists and is not a folder")
    if out_dir.is_dir():
        entries = list(out_dir.iterdir())
        if entries and not (out_dir / MARKER).is_file():
            raise OutputError(
                f"{out_dir} already holds other files ({len(entries)} entries, e.g. {entries[0].name}) and is "
                f"not a previous carddb export; choose an empty or new folder",
                hint=f"a carddb export folder carries {MARKER}; carddb only ever replaces such a folder")


@contextlib.contextmanager
def staged_folder(out_dir: Path, marker: dict[str, object], *, refill: bool = False) -> Iterator[Path]:
    """Yield an empty folder to build the export in; on success it replaces ``out_dir`` whole. With ``refill``
    (``carddb.files.replacing``), the folder may hold an old copy of the export, which the caller brings up to date.

    On any error the staging folder is removed and ``out_dir`` is left exactly as it was.
    """
    out_dir = Path(out_dir)
    check_target(out_dir)
    with replacing_folder(out_dir, refill=refill) as stage:
        yield stage
        write_bytes(stage, MARKER, (json.dumps(marker, indent=2, sort_keys=True) + "\n").encode("utf-8"))
        check_target(out_dir)  # checked again: another process may have filled it meanwhile


class Kept:
    """A file of the previous export (``source``), taken as it is: written as a hard link to it, so an export of
    5,000 images that one card changed writes one image, not 5,000 (a file system without links gets a copy). Its
    bytes are read only where they are needed (``contents``): an export that links them never reads them."""

    __slots__ = ("inode", "source")

    def __init__(self, source: Path, inode: int | None = None) -> None:
        self.source = source
        self.inode = inode  # its inode number, when the listing that found it said (a refilled folder compares it)

    def read(self) -> bytes:
        return self.source.read_bytes()


#: What an exporter writes into a file: its bytes, or a file of the previous export taken as it is.
Contents = bytes | Kept


def contents(data: Contents) -> bytes:
    """The bytes of ``data``, read from the previous export's file when it is one."""
    return data.read() if isinstance(data, Kept) else data


def write_bytes(root: Path, relative: str, data: Contents, plain: set[str] | None = None) -> Path:
    path = inside(root, relative, plain, replaced=True)
    folder = os.path.dirname(path)
    if plain is None or folder not in plain:
        path.parent.mkdir(parents=True, exist_ok=True)
        if plain is not None:
            plain.add(folder)  # made here: a folder, no link
    try:
        _create(path, data)
    except FileExistsError:  # never written through: a file placed before may be a link to the previous export
        path.unlink()
        _create(path, data)
    return path


def _create(path: Path, data: Contents) -> None:
    """``data`` into a new file at ``path`` (``FileExistsError`` when something is there): one system call less a
    file than removing first, in the usual case of a folder being filled."""
    if isinstance(data, Kept):
        try:
            os.link(data.source, path)
            return
        except FileExistsError:
            raise
        except OSError:  # no hard links here: a copy
            data = data.read()
    with open(path, "xb") as file:
        file.write(data)


def write_text(root: Path, relative: str, text: str, *, encoding: str = "utf-8", newline: str = "\n") -> Path:
    """Write text with the given line ending; ``text`` uses ``\\n`` and is converted."""
    return write_bytes(root, relative, text.replace("\n", newline).encode(encoding))


def listing(root: Path) -> list[str]:
    """Every file under ``root`` as a sorted relative POSIX path (the marker excluded)."""
    return [relative for relative, path in files_under(root) if path.name != MARKER]


def files_under(root: Path) -> list[tuple[str, Path]]:
    """Every file under ``root`` (following links, as ``rglob`` and ``is_file`` do) as (relative POSIX path, path),
    sorted by that path. Plain strings and ``os.scandir``: pathlib's ``rglob`` and ``relative_to`` cost a
    millisecond a file in every export of a game of thousands of cards."""
    found: list[tuple[str, Path]] = []
    folders = [(os.fspath(root), "")]
    while folders:
        folder, prefix = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            relative = prefix + entry.name
            try:
                if entry.is_dir():
                    folders.append((entry.path, relative + "/"))
                elif entry.is_file():
                    found.append((relative, Path(entry.path)))
            except OSError:
                continue
    found.sort(key=lambda item: item[0])
    return found
