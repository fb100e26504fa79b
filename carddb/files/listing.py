"""Every file under a folder, from one walk: ``os.scandir`` and plain strings, never a status call a file where the
folder's listing already says what an entry is (a game of 5,000 cards has 30,000 files in its site and 5,000 images
in each export, looked at in every build). Standard library only."""

from __future__ import annotations

import os


def plain_files(root: str | os.PathLike[str], *, linked_files: bool = False) -> dict[str, int]:
    """The files under ``root`` (paths relative to it with ``/`` between their parts, in no particular order), each
    with its inode number, which the folder's listing gives: what a folder refilled from an old copy compares its
    files with (``prune_to``). A linked folder is never entered (a link may loop, or lead out of ``root``);
    ``linked_files``: whether a link to a file counts as a file (as ``Path.is_file`` finds it; its number is then
    -1, no file's), or only plain files do."""
    found: dict[str, int] = {}
    folders = [(os.fspath(root), "")]
    while folders:
        folder, prefix = folders.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((entry.path, f"{prefix}{entry.name}/"))
                elif entry.is_file(follow_symlinks=False):
                    found[prefix + entry.name] = entry.inode()
                elif linked_files and entry.is_file():
                    found[prefix + entry.name] = -1
            except OSError:
                continue
    return found


def prune_to(root: str | os.PathLike[str], keep: dict[str, int]) -> set[str]:
    """Remove from the folder ``root`` everything but the plain files at the paths of ``keep`` (relative, ``/``
    between parts) that are the file of the inode number it gives (a hard link to it), and the folders left empty;
    return the paths of the files left. A refilled folder (``carddb.files.replacing``) is an old copy of what is
    built: what stays is what this build would link there anyway, and every other file is then written anew,
    never through a link to a file of the live copy."""
    left: set[str] = set()

    def prune(folder: str, prefix: str) -> bool:
        """Whether anything is left in ``folder``."""
        with os.scandir(folder) as scan:
            entries = list(scan)
        anything = False
        for entry in entries:
            relative = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if prune(entry.path, relative + "/"):
                    anything = True
                else:
                    os.rmdir(entry.path)  # emptied: a clean build may not make it
            elif entry.is_file(follow_symlinks=False) and keep.get(relative, -1) == entry.inode():
                left.add(relative)
                anything = True
            else:
                os.unlink(entry.path)
        return anything

    prune(os.fspath(root), "")
    return left
