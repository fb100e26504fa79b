"""The content ``carddb site build`` hands to the MkDocs run it starts, for the hook (``carddb.site.hook``) to
add. Held here, below both, so that the build and the hook do not import each other."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carddb.site.pages import SiteContent

_provided: SiteContent | None = None
_pages_written: list[str] | None = None


def provide(content: SiteContent | None) -> None:
    """Hand the next MkDocs build its content (None clears it, and what ``note_pages_written`` noted)."""
    global _provided, _pages_written
    _provided = content
    _pages_written = None


def note_pages_written(pages: list[str]) -> None:
    """The HTML files this build wrote (every other one was kept from the previous site, with its compressed
    copies): carddb's rebuild tells the hook, which then compresses these alone, not every page of the site."""
    global _pages_written
    _pages_written = pages


def pages_written() -> list[str] | None:
    """What ``note_pages_written`` noted in this build, or None (a plain ``mkdocs build``: every page is new)."""
    return _pages_written


def provided() -> SiteContent | None:
    """What ``provide`` handed over, or None: a plain ``mkdocs build`` generates it from the workspace."""
    return _provided
