"""The drawing operations a face is made of, in millimetres from the top-left corner of the face.

The layout engine produces them; the raster and vector painters draw them and decide nothing. Colours
are ``#rrggbb`` strings; text sizes are in points (1 pt = 25.4/72 mm); fonts are font file paths, chosen
per run so a glyph the main font lacks is drawn from the fallback font.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PT_MM = 25.4 / 72.0


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    fill_to: str | None = None  # a gradient: ``fill`` fades into this colour, downwards or rightwards (``fade``)
    fade: str = "down"


@dataclass(frozen=True, slots=True)
class Ellipse:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True, slots=True)
class Contours:
    """Closed outlines filled together by the nonzero rule: a point is inside when the outlines wind around it
    (an icon's body with its holes, a frame's ring). Curves and arcs are flattened to points already
    (``carddb.layout.svg_path``), so both painters fill the same polygons."""

    contours: tuple[tuple[tuple[float, float], ...], ...]
    fill: str
    texture: bool = False  # a fine pattern: text on it is held to the contrast rule against it and what is under it
    bounds: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # left, top, right, bottom (``outlines``)

    def __hash__(self) -> int:
        # a texture is thousands of points, hashed again for every face that looks its frame up: what tells
        # outlines apart is hashed instead (equal outlines have equal bounds), and equality still compares them all
        return hash((self.fill, self.texture, self.bounds, len(self.contours)))


def outlines(contours: tuple[tuple[tuple[float, float], ...], ...], fill: str, *, texture: bool = False) -> Contours:
    """A ``Contours`` with its bounds measured once (the checks and the painters read them on every face)."""
    xs = [x for contour in contours for x, _ in contour]
    ys = [y for contour in contours for _, y in contour]
    return Contours(contours, fill, texture, (min(xs), min(ys), max(xs), max(ys)))


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str = "#000000"
    width: float = 0.3


@dataclass(frozen=True, slots=True)
class TextRun:
    """A run of text in one font, its left end on the baseline at (x, y)."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: str = "#000000"
    role: str = "symbol"  # what the text is for (roles.py): its size is never under that role's floor


@dataclass(frozen=True, slots=True)
class ImageOp:
    """An image file, cropped to ``crop`` (source pixels: left, top, right, bottom) and drawn over the box.

    ``fallback`` is drawn instead when the file cannot be decoded at paint time (a corrupt file whose header
    looked fine), so a face never goes missing.
    """

    path: str
    x: float
    y: float
    w: float
    h: float
    crop: tuple[int, int, int, int]
    fallback: tuple[Op, ...] = ()


Op = Rect | Ellipse | Polygon | Contours | Line | TextRun | ImageOp


@dataclass(frozen=True, slots=True)
class TextFit:
    """How a text box was fitted: the size it was drawn at, the size it asked for, and whether it overflowed."""

    box: str
    size: float
    wanted: float
    overflow: bool = False


@dataclass(frozen=True, slots=True)
class Problem:
    """A legibility rule a face breaks: which box, which rule, and by how much, in words for a designer.

    ``rule`` is ``overflow`` (text cut: it does not fit at its role's minimum size), ``too-small`` (a glyph
    under its role's minimum, such as the letters of an inline icon), ``repeat`` (the same text twice),
    ``safe-zone`` (a line or a letter too near the trim) or ``contrast`` (text under 4.5:1 on what is behind it).
    """

    box: str
    rule: str
    message: str


@dataclass(slots=True)
class FaceLayout:
    """A card face: its size (bleed included), the bleed on each side, the operations in drawing order."""

    width: float
    height: float
    bleed: float = 0.0
    ops: list[Op] = field(default_factory=list)
    fits: list[TextFit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    blocks: list[tuple[str, str]] = field(default_factory=list)  # (box, plain text) of every text box drawn
    #: the lowest contrast of each text box's runs against what is behind them (``print_checks.Contrast``)
    contrasts: list[Any] = field(default_factory=list)

    @property
    def shrunk(self) -> list[TextFit]:
        return [f for f in self.fits if f.size < f.wanted and not f.overflow]

    @property
    def overflowed(self) -> list[TextFit]:
        return [f for f in self.fits if f.overflow]

    @property
    def trim_size(self) -> tuple[float, float]:
        """The card size without bleed."""
        return self.width - 2 * self.bleed, self.height - 2 * self.bleed
