"""The Jinja environments MkDocs makes from the theme, made cheaper to start: each build made two of them (the
pages', and the search plugin's to translate its labels) and in each compiled Material's templates and listed the
theme's 14,000 files, more than building a changed card's pages costs.

* Compiled templates are kept in a folder (Jinja's bytecode cache, keyed by each template's source).
* The theme's static files are found without walking its hidden folders. MkDocs lists every file of the theme
  (``Environment.list_templates``) and drops by ``fnmatch`` whatever is not a static file; nearly all of Material's
  files are icons under ``.icons/``, and MkDocs' first two patterns (``.*`` and ``*/.*``) drop every name with a
  hidden part at any depth, so leaving those folders unwalked keeps exactly what MkDocs kept.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def quicker_environments(theme: Any, compiled: Path | None) -> None:
    """Make ``theme.get_env()`` give environments that keep compiled templates in ``compiled`` (None: nowhere) and
    whose ``list_templates`` skips hidden files and folders."""
    make_env = theme.get_env

    def get_env() -> Any:
        env = make_env()
        if compiled is not None:
            from jinja2 import FileSystemBytecodeCache

            compiled.mkdir(parents=True, exist_ok=True)
            env.bytecode_cache = FileSystemBytecodeCache(str(compiled))
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
