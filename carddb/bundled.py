"""Where the bundled workspace files are: the five games (``rules/``, ``templates/``), the site's sources
(``site/``) and the docs (``docs/``).

In a clone (an editable install) they are the repository's own folders, beside the package; an installed wheel
carries copies in ``carddb/bundled/`` (setup.py puts them there).
"""

from __future__ import annotations

from pathlib import Path

from carddb.errors import InputError

_PACKAGE = Path(__file__).resolve().parent


def bundled_root() -> Path:
    """The folder holding the bundled ``rules/``, ``templates/``, ``site/`` and ``docs/``."""
    for candidate in (_PACKAGE / "bundled", _PACKAGE.parent):
        if (candidate / "rules").is_dir() and (candidate / "site" / "mkdocs.yml").is_file():
            return candidate
    raise InputError(f"this carddb has no bundled games (neither {_PACKAGE / 'bundled'} nor {_PACKAGE.parent} "
                     "holds rules/ and site/mkdocs.yml); reinstall it from a wheel or a clone")


def bundled_games() -> list[str]:
    """The ids of the bundled games (``shmod``, ``ssbm``...), in name order."""
    return sorted(p.parent.name for p in (bundled_root() / "rules").glob("*/game.toml"))
