"""Frames and textures: the shapes a template's ``frame`` and ``texture`` boxes draw, as outlines (``Contours``).

A frame is a ring, not a stroked line: its outer and inner edges are both computed here, so the PNG and the PDF
cover the same area (a stroke's width would be rounded to whole pixels), and its corners may be square, round,
bevelled or notched, with an inner rule and an ornament at each corner. A texture is a fine pattern over a box
(woven linen, paper fibres, a dot screen, diagonal hatching) in one colour, drawn from a seeded generator so every
build draws the same threads: the seed is the box's name, so two cards of a kind share their texture.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from carddb.layout.svg_path import Contour

CORNERS = ("square", "round", "bevel", "notch")
ORNAMENTS = ("none", "dot", "diamond", "bracket")
PATTERNS = ("linen", "paper", "dots", "diagonal")
_ARC_PIECES = 12  # a quarter circle of a round corner, in straight pieces


def _r(value: float) -> float:
    return round(value, 4)


@lru_cache(maxsize=256)
def outline(x: float, y: float, w: float, h: float, corner: str, size: float) -> Contour:
    """The box's outline, clockwise on the page, with ``corner`` corners of ``size`` mm (a radius or a cut)."""
    size = max(0.0, min(size, w / 2, h / 2))
    if corner == "square" or size == 0:
        return ((_r(x), _r(y)), (_r(x + w), _r(y)), (_r(x + w), _r(y + h)), (_r(x), _r(y + h)))
    points: list[tuple[float, float]] = []
    # each corner: its point on the box, and which way the two edges leave it (dx along the top/bottom edge)
    for cx, cy, sx, sy in ((x, y, 1, 1), (x + w, y, -1, 1), (x + w, y + h, -1, -1), (x, y + h, 1, -1)):
        if corner == "bevel":
            pair = [(cx, cy + sy * size), (cx + sx * size, cy)]
        elif corner == "notch":
            pair = [(cx, cy + sy * size), (cx + sx * size, cy + sy * size), (cx + sx * size, cy)]
        else:  # round: a quarter circle from the side edge to the top or bottom edge
            ox, oy = cx + sx * size, cy + sy * size
            pair = [(ox - sx * size * math.cos(a), oy - sy * size * math.sin(a))
                    for a in (math.pi / 2 * i / _ARC_PIECES for i in range(_ARC_PIECES + 1))]
        if sx * sy < 0:  # the right-top and left-bottom corners are met from the other edge first
            pair.reverse()
        points.extend(pair)
    return tuple((_r(px), _r(py)) for px, py in points)


def inset(x: float, y: float, w: float, h: float, corner: str, size: float, by: float) -> Contour:
    """The outline moved ``by`` mm inwards (outwards when negative), its corners kept parallel to the box's: a
    radius shrinks with it, a bevel's cut shrinks by (2 - sqrt 2) of it, a notch keeps its size."""
    if corner == "round":
        size = max(0.0, size - by)
    elif corner == "bevel":
        size = max(0.0, size - by * (2 - math.sqrt(2)))
    return outline(x + by, y + by, w - 2 * by, h - 2 * by, corner, size)


def ring(x: float, y: float, w: float, h: float, corner: str, size: float, width: float,
         at: float = 0.0) -> tuple[Contour, ...]:
    """A line ``width`` mm wide centred ``at`` mm inside the outline: the outer edge, and the inner edge turned
    the other way, so the nonzero rule fills only between them."""
    outer = inset(x, y, w, h, corner, size, at - width / 2)
    inner = inset(x, y, w, h, corner, size, at + width / 2)
    return outer, tuple(reversed(inner))


def corner_points(x: float, y: float, w: float, h: float, corner: str, size: float) -> list[tuple[float, float]]:
    """Where a corner ornament sits: the middle of each corner of the outline (top-left, top-right, bottom-right,
    bottom-left)."""
    d = {"square": 0.0, "round": size * (1 - math.sqrt(0.5)), "bevel": size / 2, "notch": size}[corner]
    return [(x + d, y + d), (x + w - d, y + d), (x + w - d, y + h - d), (x + d, y + h - d)]


def ornament(kind: str, cx: float, cy: float, side: float, quadrant: int) -> tuple[Contour, ...]:
    """A small ornament centred on (cx, cy), ``side`` mm across; ``quadrant`` (0 top-left, clockwise) turns a
    bracket to face into the card."""
    half = side / 2
    if kind == "dot":
        return (tuple((_r(cx + half * math.cos(a)), _r(cy + half * math.sin(a)))
                      for a in (2 * math.pi * i / 24 for i in range(24))),)
    if kind == "diamond":
        return (((_r(cx), _r(cy - half)), (_r(cx + half), _r(cy)), (_r(cx), _r(cy + half)), (_r(cx - half), _r(cy))),)
    # bracket: an L along the corner's two edges, its arms pointing into the card
    sx = 1 if quadrant in (0, 3) else -1
    sy = 1 if quadrant in (0, 1) else -1
    arm, t = side, side * 0.22
    shape = [(0, 0), (arm, 0), (arm, t), (t, t), (t, arm), (0, arm)]
    points = [(_r(cx - sx * t / 2 + sx * px), _r(cy - sy * t / 2 + sy * py)) for px, py in shape]
    return (tuple(points if sx * sy > 0 else reversed(points)),)


def mirrored(contours: tuple[Contour, ...], cx: float, cy: float, side: float, quadrant: int) -> tuple[Contour, ...]:
    """A unit-square drawing (an icon) placed centred on (cx, cy), mirrored so that, drawn for the top-left
    corner, it faces into the card at every corner."""
    flip_x, flip_y = quadrant in (1, 2), quadrant in (2, 3)
    out = []
    for contour in contours:
        points = [(_r(cx + side * ((1 - u if flip_x else u) - 0.5)), _r(cy + side * ((1 - v if flip_y else v) - 0.5)))
                  for u, v in contour]
        out.append(tuple(points))
    return tuple(out)


@lru_cache(maxsize=64)
def texture(pattern: str, x: float, y: float, w: float, h: float, scale: float, radius: float,
            seed: str) -> tuple[Contour, ...]:
    """The pattern's marks over the box (rounded by ``radius``), ``scale`` mm apart, from a generator seeded
    with ``seed``: the same box always gets the same marks."""
    rng = random.Random(f"{pattern}|{seed}")
    marks: list[Contour] = []
    if pattern == "linen":  # threads both ways, their spacing and weight a little uneven, as a weave is
        for across in (True, False):
            pos = rng.uniform(0, scale)
            length = h if across else w
            while pos < length:
                weight = scale * rng.uniform(0.18, 0.34)
                mark = (x, y + pos, w, weight) if across else (x + pos, y, weight, h)
                marks.append(_rect(*mark))
                pos += scale * rng.uniform(0.7, 1.3)
    elif pattern == "paper":  # short fibres at every angle
        count = int(w * h / (scale * scale) * 0.8)
        for _ in range(count):
            px, py = rng.uniform(x, x + w), rng.uniform(y, y + h)
            angle, length = rng.uniform(0, math.pi), scale * rng.uniform(0.4, 1.1)
            marks.append(_stick(px, py, angle, length, scale * 0.09))
    elif pattern == "dots":  # a screen of round dots, every other row shifted by half a step
        row, yy = 0, y + scale / 2
        while yy < y + h:
            xx = x + scale / 2 + (scale / 2 if row % 2 else 0)
            while xx < x + w:
                marks.append(tuple((_r(xx + scale * 0.16 * math.cos(a)), _r(yy + scale * 0.16 * math.sin(a)))
                                   for a in (2 * math.pi * i / 10 for i in range(10))))
                xx += scale
            yy += scale * 0.866
            row += 1
    else:  # diagonal: fine rules rising to the right
        step = 0.0
        while step < w + h:
            marks.append(_stick(x + step - h / 2, y + h / 2, -math.pi / 4, (h * math.sqrt(2)), scale * 0.12))
            step += scale
    return tuple(kept for kept in (_clipped(mark, x, y, w, h, radius) for mark in marks) if len(kept) >= 3)


def _rect(x: float, y: float, w: float, h: float) -> Contour:
    return ((_r(x), _r(y)), (_r(x + w), _r(y)), (_r(x + w), _r(y + h)), (_r(x), _r(y + h)))


def _stick(cx: float, cy: float, angle: float, length: float, width: float) -> Contour:
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    nx, ny = -math.sin(angle) * width / 2, math.cos(angle) * width / 2
    return ((_r(cx - dx + nx), _r(cy - dy + ny)), (_r(cx + dx + nx), _r(cy + dy + ny)),
            (_r(cx + dx - nx), _r(cy + dy - ny)), (_r(cx - dx - nx), _r(cy - dy - ny)))


def _clipped(mark: Contour, x: float, y: float, w: float, h: float, radius: float) -> Contour:
    """The mark cut to the box (Sutherland-Hodgman against its four sides; a round corner cuts it by the
    corner's square, the marks there being small)."""
    points = list(mark)
    for axis, limit, keep_above in ((0, x, True), (0, x + w, False), (1, y, True), (1, y + h, False)):
        out: list[tuple[float, float]] = []
        for i, current in enumerate(points):
            previous = points[i - 1]
            inside_now = (current[axis] >= limit) if keep_above else (current[axis] <= limit)
            inside_before = (previous[axis] >= limit) if keep_above else (previous[axis] <= limit)
            if inside_now != inside_before:
                t = (limit - previous[axis]) / (current[axis] - previous[axis])
                out.append((_r(previous[0] + (current[0] - previous[0]) * t),
                            _r(previous[1] + (current[1] - previous[1]) * t)))
            if inside_now:
                out.append(current)
        points = out
        if not points:
            break
    if radius > 0:
        points = [_pull_in(px, py, x, y, w, h, radius) for px, py in points]
    return tuple(points)


def _pull_in(px: float, py: float, x: float, y: float, w: float, h: float, radius: float) -> tuple[float, float]:
    """A point outside a round corner moved onto its arc: the long threads of a texture follow the corner."""
    cx, cy = min(max(px, x + radius), x + w - radius), min(max(py, y + radius), y + h - radius)
    dx, dy = px - cx, py - cy
    distance = math.hypot(dx, dy)
    if distance <= radius or distance == 0:
        return px, py
    return _r(cx + dx * radius / distance), _r(cy + dy * radius / distance)
