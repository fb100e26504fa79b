"""A generated picture for a card without art: a small landscape of shapes, different for every card.

Everything comes from a hash of the card's game and name, so the same card always gets the same picture
and two cards never share one; the colours are tints and shades of the box's colour (the card's type), so
a FIRE monster's placeholder is red and a WATER monster's blue.
"""

from __future__ import annotations

import hashlib
import math

from carddb.layout.colours import mix
from carddb.layout.ops import Ellipse, Op, Polygon, Rect


def placeholder_ops(seed: str, x: float, y: float, w: float, h: float, colour: str) -> list[Op]:
    d = hashlib.sha256(seed.encode("utf-8")).digest()

    def u(i: int) -> float:  # a number in [0, 1) from byte i of the hash
        return d[i % len(d)] / 256.0

    sky = mix(colour, "#ffffff", 0.55 + 0.2 * u(0))
    ops: list[Op] = [Rect(x, y, w, h, fill=sky)]
    # a sun or moon, its size and place from the hash
    r = min(w, h) * (0.12 + 0.1 * u(1))
    cx, cy = x + r + (w - 2 * r) * u(2), y + r + (h * 0.45 - r) * u(3)
    ops.append(Ellipse(cx - r, cy - r, 2 * r, 2 * r, fill=mix(colour, "#ffffff", 0.85)))
    # two or three ridges of hills, darker towards the front
    ridges = 2 + d[4] % 2
    for k in range(ridges):
        base = y + h * (0.55 + 0.15 * k)
        peaks = 3 + d[5 + k] % 3
        pts = [(x, y + h)]
        for p in range(peaks + 1):
            px = x + w * p / peaks
            py = base - h * (0.08 + 0.22 * u(8 + 7 * k + p)) * (1 if p % 2 else 0.4)
            pts.append((px, min(py, y + h)))
        pts.append((x + w, y + h))
        ops.append(Polygon(tuple((round(a, 4), round(b, 4)) for a, b in pts),
                           fill=mix(colour, "#000000", 0.1 + 0.22 * k)))
    # a floating emblem: a diamond, a triangle or a star-like shape
    form = d[20] % 3
    er = min(w, h) * (0.08 + 0.06 * u(21))
    ex, ey = x + er + (w - 2 * er) * u(22), y + er + (h * 0.5 - er) * u(23)
    corners = (4, 3, 10)[form]
    pts = []
    for i in range(corners):
        ang = -math.pi / 2 + 2 * math.pi * i / corners
        rr = er if form != 2 or i % 2 == 0 else er * 0.45
        pts.append((round(ex + rr * math.cos(ang), 4), round(ey + rr * math.sin(ang), 4)))
    ops.append(Polygon(tuple(pts), fill=mix(colour, "#ffffff", 0.3), stroke=mix(colour, "#000000", 0.5),
                       stroke_width=0.25))
    return ops
