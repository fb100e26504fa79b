"""Every file under a folder, from one walk: ``os.scandir`` and plain strings, never a status call a file where the
folder's listing already says what an entry is (a game of 5,000 cards has 30,000 files in its site and 5,000 images
in each export, looked at in every build). Standard library only."""

from __future__ import annotations

import os


def files_below(root: str | os.PathLike[str], *, linked_files: bool) -> list[str]:
    """The files under ``root`` as paths relative to it with ``/`` between their parts, in no particular order. A
    linked folder is never entered (a link may loop, or lead out of ``root``); ``linked_files``: whether a link to a
    file counts as a file (as ``Path.is_file`` finds it), or only plain files do."""
    found: list[str] = []
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
                elif entry.is_file(follow_symlinks=linked_files):
                    found.append(prefix + entry.name)
            except OSError:
                continue
    return found
