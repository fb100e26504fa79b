"""Paper and card sizes and the printer's margins: presets, custom sizes in mm, cm or inches, and messages
that say what exists. Pure (no drawing, no I/O); ``impose`` lays cards out with these.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from carddb.errors import InputError

MM_PER_INCH = 25.4

#: Card trim sizes in millimetres (width x height, portrait).
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "yugioh": (59.0, 86.0),
    "euro": (59.0, 92.0),
    "mini": (41.0, 63.0),
    "mini-usa": (41.0, 63.0),
    "mini-euro": (44.0, 68.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

#: Paper sizes in millimetres, portrait.
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}


def rounded(value: float) -> float:
    """Round to a micrometre fraction so that exact tests are not defeated by float noise."""
    return round(value, 6) + 0.0


@dataclass(frozen=True)
class Size:
    """A named width x height in millimetres."""

    name: str
    width: float
    height: float

    def describe(self) -> str:
        return f"{self.name} ({mm_text(self.width)} x {mm_text(self.height)} mm)"


def mm_text(value: float) -> str:
    """A length for a message: ``63``, ``215.9``, ``12.55``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


_SIZE_TEXT = re.compile(
    r"^\s*(?P<w>\d+(?:\.\d+)?)\s*(?:x|×|\*)\s*(?P<h>\d+(?:\.\d+)?)\s*(?P<unit>mm|cm|in|inch|inches|\")?\s*$", re.I)


def _parse_custom(text: str) -> tuple[float, float] | None:
    match = _SIZE_TEXT.match(text)
    if not match:
        return None
    unit = (match["unit"] or "mm").lower()
    factor = {"mm": 1.0, "cm": 10.0}.get(unit, MM_PER_INCH)
    width, height = float(match["w"]) * factor, float(match["h"]) * factor
    if width <= 0 or height <= 0:
        return None
    return rounded(width), rounded(height)


#: The smallest and largest side of a custom card, mm: a 999 x 999 mm card would be a gigapixel image at 300 dpi.
CARD_SIDE_MM = (20.0, 300.0)


def card_size(text: str) -> Size:
    """A card size from a preset name (``poker``) or a custom ``WxH`` in mm, cm or inches (``2.5x3.5in``),
    each side from 20 to 300 mm."""
    key = text.strip().lower()
    if key in CARD_SIZES:
        return Size(key, *CARD_SIZES[key])
    hint = f"use one of {', '.join(CARD_SIZES)} or WxH in mm or in (e.g. 63x88, 2.5x3.5in)"
    custom = _parse_custom(text)
    if custom is None:
        raise InputError(f"unknown card size {text!r}", hint=hint)
    least, most = CARD_SIDE_MM
    if not all(least <= side <= most for side in custom):
        raise InputError(f"a card of {mm_text(custom[0])} x {mm_text(custom[1])} mm is out of range: each side "
                         f"must be {least:g} to {most:g} mm", hint=hint)
    return Size(f"{mm_text(custom[0])} x {mm_text(custom[1])} mm card", *custom)


def paper_size(text: str) -> Size:
    """A paper size from a preset name (``A4``, ``Letter``) or a custom ``WxH`` in mm, cm or inches."""
    key = text.strip().lower()
    if key in PAPER_SIZES:
        return Size(text.strip() if key != "a4" and key != "a3" else key.upper(), *PAPER_SIZES[key])
    custom = _parse_custom(text)
    if custom is None:
        names = ", ".join(name.capitalize() if name[0] != "a" else name.upper() for name in PAPER_SIZES)
        raise InputError(f"unknown paper size {text!r}", hint=f"use one of {names} or WxH in mm or in")
    return Size(f"{mm_text(custom[0])} x {mm_text(custom[1])} mm paper", *custom)


@dataclass(frozen=True)
class Margins:
    """The unprintable edge of the printer, per edge, in millimetres."""

    top: float
    right: float
    bottom: float
    left: float

    @classmethod
    def uniform(cls, value: float) -> Margins:
        return cls(value, value, value, value)

    @classmethod
    def parse(cls, text: str) -> Margins:
        """``5`` (all edges), ``5,8`` (top/bottom, left/right) or ``5,4,12,4`` (top, right, bottom, left), in mm."""
        parts = [p.strip().removesuffix("mm").strip() for p in text.split(",")]
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise InputError(f"margins {text!r} are not numbers",
                             hint="give one value, two (top/bottom, left/right) or four (top, right, bottom, left)"
                             " in mm") from None
        if any(v < 0 or math.isnan(v) or math.isinf(v) for v in values):
            raise InputError(f"margins {text!r} must be zero or more millimetres")
        if len(values) == 1:
            return cls.uniform(values[0])
        if len(values) == 2:
            return cls(values[0], values[1], values[0], values[1])
        if len(values) == 4:
            return cls(*values)
        raise InputError(f"margins {text!r} need one, two or four values")

    def rotated(self) -> Margins:
        """The same printer margins seen on a page turned a quarter (landscape content on portrait paper).

        Margins are given for the paper as it goes through the printer (portrait). Drivers print a landscape
        page turned a quarter counter-clockwise, so the page's top edge lies on the paper's left edge, its left
        edge on the paper's bottom, and so on round.
        """
        return Margins(top=self.left, right=self.top, bottom=self.right, left=self.bottom)
