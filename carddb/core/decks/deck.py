"""The deck model: what a deck file says, line by line, before any card is looked up. Pure standard library.

A ``Deck`` keeps every entry with the zone it was listed under, the count, the name and qualifier exactly as
written, the line number and the line's text, so every problem can point at the line to fix. Lines that
could not be read are kept as ``parse`` problems; reading never stops at the first bad line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from carddb.core.problems import Problem


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of a deck (or, for a LackeyCCG ``.dek``, the copies of one card in one superzone).

    ``qualifier`` is the ``(X)``/``[X]`` the player wrote: it must match the card's version (the game's
    qualifier field) or a set code. ``set_hint`` is a set named by the file format itself (a ``.dek``'s
    ``<set>``): it only helps to tell same-named cards apart and is ignored when it matches nothing.
    """

    zone: str
    count: int
    name: str
    qualifier: str = ""
    line: int | None = None
    text: str = ""
    set_hint: str = ""

    @property
    def written(self) -> str:
        """The card as the player wrote it: ``Splash Page (Neutral)``."""
        return f"{self.name} ({self.qualifier})" if self.qualifier else self.name


@dataclass(slots=True)
class Deck:
    """A parsed deck: entries in file order, the problems met while reading, and what was read."""

    game: str
    entries: list[DeckEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    source_format: str = "text"
    name: str = ""

    def zone_counts(self, zone_ids: list[str] | tuple[str, ...] = ()) -> dict[str, int]:
        """Cards per zone, every zone of ``zone_ids`` present (with 0) and in that order."""
        counts = {zone: 0 for zone in zone_ids}
        for entry in self.entries:
            counts[entry.zone] = counts.get(entry.zone, 0) + entry.count
        return counts

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)
