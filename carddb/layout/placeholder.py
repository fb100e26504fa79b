"""The picture drawn where a card has no art: a plain hatch with the card's name written on a plaque.

It must read as "no picture yet" and never as game information, so it has no stars, suns, diamonds or any
other shape a game uses as a symbol (a minibattle star is the rarity, an ssbm emblem the character). It is
drawn in tints of the box's colour (the card's type), so a FIRE monster's is reddish and a WATER one's blue.
The hatch is the same for every card; only the name and the colour change. The name is the card's own, so
it never reads as a second statement of anything on the face.
"""

from __future__ import annotations

import math
from functools import lru_cache

from carddb.layout import text
from carddb.layout.colours import luminance, mix
from carddb.layout.fonts import FontBook
from carddb.layout.ops import PT_MM, Op, Polygon, Rect

HATCH_STEP_MM = 4.0
HATCH_WIDTH_MM = 1.4
LABEL_PT = 7.0
LABEL_STYLE = "bold-italic"


def placeholder_ops(x: float, y: float, w: float, h: float, colour: str, label: str,
                    fonts: FontBook) -> list[Op]:
    ground = mix(colour, "#ffffff", 0.75)
    ink = mix(colour, "#ffffff", 0.58) if luminance(colour) < 0.9 else mix(colour, "#000000", 0.12)
    ops: list[Op] = [Rect(x, y, w, h, fill=ground)]
    ops.extend(hatch(x, y, w, h, ink))
    words = " ".join(label.split())
    if words:
        ops.extend(_plaque(words, x, y, w, h, colour, ground, fonts))
    return ops


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


def _plaque(words: str, x: float, y: float, w: float, h: float, colour: str, ground: str,
            fonts: FontBook) -> list[Op]:
    """The words centred on a plain rounded plaque: 7 pt, smaller (6 pt at the least) or on two lines when the
    box is narrow, cut when even that does not fit."""
    pad_x, pad_y = 2.0, 1.1
    main = fonts.main(LABEL_STYLE)
    inner_w, inner_h = max(w - 2 * pad_x - 4.0, 1.0), max(min(h - 2 * pad_y - 2.0, 9.0), 1.0)
    paragraphs = text.parse(words, LABEL_STYLE, fonts, lambda _name: False, set())
    fitted = text.fit(paragraphs, inner_w / PT_MM, inner_h / PT_MM, LABEL_PT, 6.0, 1.15, main.ascent, main.descent,
                      False, main.path)
    size = fitted.size
    widest = max((sum((wd.space + wd.width) * size for wd in line) for line in fitted.lines), default=0.0) * PT_MM
    block = text.block_height(len(fitted.lines), size, 1.15, main.ascent, main.descent) * PT_MM
    plaque_w, plaque_h = widest + 2 * pad_x, block + 2 * pad_y
    px, py = x + (w - plaque_w) / 2, y + (h - plaque_h) / 2
    ink = mix(colour, "#000000", 0.45)
    ops: list[Op] = [Rect(round(px, 4), round(py, 4), round(plaque_w, 4), round(plaque_h, 4), fill=ground,
                          stroke=mix(colour, "#000000", 0.25), stroke_width=0.25, radius=1.0)]
    ops.extend(text.place(fitted, px + pad_x, py + pad_y, widest, block, align="center", valign="top", leading=1.15,
                          ascent=main.ascent, cap_height=main.cap_height, descent=main.descent, colour=ink,
                          draw_icon=lambda *_args: [], role="label"))
    return ops
