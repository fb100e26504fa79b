"""The content ``carddb site build`` hands to the MkDocs run it starts, for the hook (``carddb.site.hook``) to
add. Held here, below both, so that the build and the hook do not import each other."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carddb.site.pages import SiteContent

_provided: SiteContent | None = None


def provide(content: SiteContent | None) -> None:
    """Hand the next MkDocs build its content (None clears it)."""
    global _provided
    _provided = content


def provided() -> SiteContent | None:
    """What ``provide`` handed over, or None: a plain ``mkdocs build`` generates it from the workspace."""
    return _provided
