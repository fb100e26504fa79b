"""The picture drawn where a card has no art: a plain hatch with a soft motif of the card's kind, and no words.

It must read as "no picture yet" and never as game information, so it has no stars, suns, diamonds or any
other shape a game uses as a symbol (a minibattle star is the rarity, an ssbm emblem the character), and no
text: the card's name is already in its title, and a second copy in the picture was one more thing to read.
The template's art box says which motif (``motif``): ``figure`` (a head and shoulders, for a card that is a
character, a fighter, a monster) or ``landscape`` (two hills, for the rest). It is drawn in tints of the
box's colour (the card's type), so a FIRE monster's is reddish and a WATER one's blue.
"""

from __future__ import annotations

import math
from functools import lru_cache

from carddb.layout.colours import luminance, mix
from carddb.layout.ops import Ellipse, Op, Polygon, Rect

MOTIFS = ("figure", "landscape")
HATCH_STEP_MM = 4.0
HATCH_WIDTH_MM = 1.4


def placeholder_ops(x: float, y: float, w: float, h: float, colour: str, motif: str = "landscape") -> list[Op]:
    ground = mix(colour, "#ffffff", 0.75)
    light = luminance(colour) >= 0.9
    ink = mix(colour, "#ffffff", 0.58) if not light else mix(colour, "#000000", 0.12)
    shade = mix(colour, "#ffffff", 0.3) if not light else mix(colour, "#000000", 0.3)
    ops: list[Op] = [Rect(x, y, w, h, fill=ground)]
    ops.extend(hatch(x, y, w, h, ink))
    ops.extend(_motif(motif, x, y, w, h, shade))
    return ops


@lru_cache(maxsize=256)
def _motif(motif: str, x: float, y: float, w: float, h: float, colour: str) -> tuple[Op, ...]:
    """The motif centred in the box, as tall as half the box (and never wider than it)."""
    side = min(h * 0.5, w * 0.7)
    cx, cy = x + w / 2, y + h / 2
    if motif == "figure":
        head = side * 0.34
        shoulders = _half_ellipse(cx, cy + side / 2, side * 0.5, side * 0.42)
        return (Ellipse(round(cx - head / 2, 4), round(cy - side / 2, 4), round(head, 4), round(head, 4), colour),
                Polygon(shoulders, colour))
    base = cy + side * 0.3
    big = ((cx - side * 0.55, base), (cx - side * 0.05, base - side * 0.62), (cx + side * 0.3, base))
    small = ((cx + side * 0.05, base), (cx + side * 0.3, base - side * 0.4), (cx + side * 0.55, base))
    return tuple(Polygon(tuple((round(px, 4), round(py, 4)) for px, py in hill), colour) for hill in (big, small))


def _half_ellipse(cx: float, bottom: float, rx: float, ry: float, steps: int = 16) -> tuple[tuple[float, float], ...]:
    """The top half of an ellipse standing on ``bottom``: shoulders."""
    angles = [math.pi * i / steps for i in range(steps + 1)]
    return tuple((round(cx - rx * math.cos(a), 4), round(bottom - ry * math.sin(a), 4)) for a in angles)


@lru_cache(maxsize=256)
def hatch(x: float, y: float, w: float, h: float, colour: str) -> tuple[Polygon, ...]:
    """Stripes at 45 degrees (rising to the right) across the box, each a polygon clipped to it exactly.

    Stripes are filled shapes rather than stroked lines so that a raster at any resolution covers the same
    area as the vector painter does (a line's width would be rounded to whole pixels).
    """
    band = HATCH_WIDTH_MM * math.sqrt(2)  # the stripe's width measured along x + y
    corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    stripes: list[Polygon] = []
    k = 1
    while k * HATCH_STEP_MM - band / 2 < w + h:
        low, high = k * HATCH_STEP_MM - band / 2, k * HATCH_STEP_MM + band / 2
        shape = _clip(_clip(corners, low, keep_above=True), high, keep_above=False)
        if len(shape) >= 3:
            stripes.append(Polygon(tuple((round(x + px, 4), round(y + py, 4)) for px, py in shape), fill=colour))
        k += 1
    return tuple(stripes)  # a template draws the same box on every card: computed once


def _clip(points: list[tuple[float, float]], level: float, *, keep_above: bool) -> list[tuple[float, float]]:
    """The part of a convex polygon where x + y >= level (``keep_above``) or x + y <= level."""

    def inside(p: tuple[float, float]) -> bool:
        return (p[0] + p[1] >= level) if keep_above else (p[0] + p[1] <= level)

    out: list[tuple[float, float]] = []
    for i, current in enumerate(points):
        previous = points[i - 1]
        if inside(current):
            if not inside(previous):
                out.append(_cross(previous, current, level))
            out.append(current)
        elif inside(previous):
            out.append(_cross(previous, current, level))
    return out


def _cross(a: tuple[float, float], b: tuple[float, float], level: float) -> tuple[float, float]:
    sa, sb = a[0] + a[1], b[0] + b[1]
    t = (level - sa) / (sb - sa)
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
