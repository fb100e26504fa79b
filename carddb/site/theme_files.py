"""The theme's static files found without walking its hidden folders.

Before each build MkDocs lists every file of the theme (``Environment.list_templates``) and drops, by ``fnmatch``
against a dozen patterns, whatever is not a static file. Material's theme holds 14,000 files, nearly all icons under
``.icons/``, so a build spent a third of a second (more than building a changed card's pages) listing and dropping
icons. MkDocs' first two patterns (``.*`` and ``*/.*``) drop every name with a hidden part at any depth, so this
listing leaves those folders unwalked: what MkDocs then keeps is the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any


def without_hidden_files(theme: Any) -> None:
    """Make ``theme.get_env()`` give environments whose ``list_templates`` skips hidden files and folders."""
    make_env = theme.get_env

    def get_env() -> Any:
        env = make_env()
        searchpath = list(getattr(env.loader, "searchpath", None) or [])
        if not searchpath:  # not MkDocs' file system loader: leave it as it is
            return env

        def list_templates(extensions: Iterable[str] | None = None,
                           filter_func: Callable[[str], bool] | None = None) -> list[str]:
            names = visible_files(searchpath)
            if extensions is not None:
                wanted = tuple(f".{extension}" for extension in extensions)
                names = [name for name in names if name.endswith(wanted)]
            return [name for name in names if filter_func(name)] if filter_func is not None else names

        env.list_templates = list_templates
        return env

    theme.get_env = get_env


def visible_files(folders: Iterable[str]) -> list[str]:
    """Every file under ``folders`` as a ``/``-separated name relative to its folder, none hidden or under a hidden
    folder, sorted, each name once (as Jinja's ``FileSystemLoader.list_templates``, less the hidden ones)."""
    found: set[str] = set()
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
            dirnames[:] = [name for name in dirnames if not name.startswith(".")]
            relative = os.path.relpath(dirpath, folder).replace(os.sep, "/")
            prefix = "" if relative == "." else relative + "/"
            found.update(prefix + name for name in filenames if not name.startswith("."))
    return sorted(found)
