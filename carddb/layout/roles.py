"""What a text box is for, and the smallest size text of that kind may be printed at.

The floors are for a card held at arm's length after a home printer and a pair of scissors: 6 pt for labels
and stat values, 6.5 pt for rules text and reminders, 7 pt for the card's name. The layout engine never
shrinks text below its role's floor (a template's ``min_size`` under it is raised to it); text that still
does not fit is cut and reported, and so is any glyph under the floor, such as the letters of an icon drawn
too small. ``carddb render --strict`` fails on either.
"""

from __future__ import annotations

#: role -> the smallest size in points its text may be drawn at.
ROLE_MINIMUM_PT: dict[str, float] = {
    "title": 7.0,
    "rules": 6.5,
    "flavour": 6.0,
    "label": 6.0,
    "stat": 6.0,
    "symbol": 6.0,  # the letters inside an icon or an emblem
}
ROLES = tuple(ROLE_MINIMUM_PT)


def default_role(name: str, wraps: bool) -> str:
    """A text box without ``role``: ``title`` for the box named title, ``rules`` when it wraps, else ``label``."""
    if name == "title":
        return "title"
    return "rules" if wraps else "label"


def floor(role: str) -> float:
    return ROLE_MINIMUM_PT[role]
