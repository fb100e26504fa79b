"""SVG path data (the ``d`` of a ``<path>``) flattened into closed polygons: lines kept, curves and arcs cut into
short straight pieces.

Both painters then fill the same points by the nonzero rule (``ops.Contours``), so an icon in a PNG and in a
PDF covers the same area; neither painter has to know what a curve or an arc is. Pieces are cut by a fixed rule
(their count depends only on the curve), so the same path always gives the same points.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

Point = tuple[float, float]
Contour = tuple[Point, ...]

#: The largest gap, in the path's own units, between a curve and the straight pieces drawn for it. Icons are
#: drawn on a 512-unit square: a tenth of a unit is 0.006 mm on a 30 mm icon, far under a 300 dpi pixel.
TOLERANCE = 0.1
_MAX_PIECES = 64

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


class PathError(ValueError):
    """Path data that cannot be read."""


@lru_cache(maxsize=1024)
def flatten(data: str) -> tuple[Contour, ...]:
    """Every subpath of ``data`` as a closed polygon (the closing point is not repeated), in the path's units."""
    contours: list[Contour] = []
    points: list[Point] = []
    cx = cy = sx = sy = 0.0
    last_ctrl: Point | None = None  # the last curve's second control point, for S and T
    last_cmd = ""

    def close() -> None:
        if len(points) >= 3:
            contours.append(tuple(points[:-1] if points[0] == points[-1] else points))
        points.clear()

    for cmd, args in _commands(data):
        rel, upper = cmd.islower(), cmd.upper()
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        if upper == "M":
            close()
            cx, cy = args[0] + ox, args[1] + oy
            sx, sy = cx, cy
            points.append((cx, cy))
        elif upper == "Z":
            close()
            cx, cy = sx, sy
        else:
            if not points:  # drawing on after a Z starts again where that subpath started
                points.append((cx, cy))
            if upper == "L":
                cx, cy = args[0] + ox, args[1] + oy
                points.append((cx, cy))
            elif upper == "H":
                cx = args[0] + ox
                points.append((cx, cy))
            elif upper == "V":
                cy = args[0] + (cy if rel else 0.0)
                points.append((cx, cy))
            elif upper in ("C", "S"):
                if upper == "C":
                    c1 = (args[0] + ox, args[1] + oy)
                    rest = args[2:]
                else:
                    c1 = _reflect(last_ctrl, (cx, cy)) if last_cmd in ("C", "S") else (cx, cy)
                    rest = args
                c2, end = (rest[0] + ox, rest[1] + oy), (rest[2] + ox, rest[3] + oy)
                points.extend(_cubic((cx, cy), c1, c2, end))
                last_ctrl, (cx, cy) = c2, end
            elif upper in ("Q", "T"):
                if upper == "Q":
                    ctrl, end = (args[0] + ox, args[1] + oy), (args[2] + ox, args[3] + oy)
                else:
                    ctrl = _reflect(last_ctrl, (cx, cy)) if last_cmd in ("Q", "T") else (cx, cy)
                    end = (args[0] + ox, args[1] + oy)
                points.extend(_quadratic((cx, cy), ctrl, end))
                last_ctrl, (cx, cy) = ctrl, end
            elif upper == "A":
                end = (args[5] + ox, args[6] + oy)
                points.extend(_arc((cx, cy), args[0], args[1], args[2], bool(args[3]), bool(args[4]), end))
                cx, cy = end
        last_cmd = upper
    close()
    return tuple(contours)


def _commands(data: str) -> list[tuple[str, list[float]]]:
    """The path's commands with their numbers; a command's numbers repeated are the command again (an M's are
    L's). An arc's two flags may be written run together (``a5 5 0 011 1``), as compact paths do."""
    tokens = _TOKEN.findall(data)
    if tokens and tokens[0] not in ("M", "m"):
        raise PathError("a path starts with M")
    out: list[tuple[str, list[float]]] = []
    i = 0
    while i < len(tokens):
        cmd = tokens[i]
        i += 1
        count = _ARGS.get(cmd.upper())
        if count is None:
            raise PathError(f"unexpected {cmd!r} in path data")
        if count == 0:
            out.append((cmd, []))
            continue
        first = True
        while first or (i < len(tokens) and tokens[i] not in _ARGS and tokens[i].upper() not in _ARGS):
            args: list[float] = []
            while len(args) < count:
                if i >= len(tokens) or tokens[i].upper() in _ARGS:
                    raise PathError(f"{cmd} needs {count} numbers")
                token = tokens[i]
                if cmd.upper() == "A" and len(args) in (3, 4) and len(token) > 1 and token[0] in "01" \
                        and token[1] in "01.":
                    args.append(float(token[0]))  # a flag run into what follows it
                    tokens[i] = token[1:]
                    continue
                args.append(float(token))
                i += 1
            out.append((cmd, args))
            if cmd in "Mm":
                cmd = "l" if cmd == "m" else "L"
            first = False
    return out


def _reflect(ctrl: Point | None, about: Point) -> Point:
    if ctrl is None:
        return about
    return 2 * about[0] - ctrl[0], 2 * about[1] - ctrl[1]


def _pieces(length: float) -> int:
    """How many straight pieces a curve whose control polygon is ``length`` long is cut into: the gap between a
    curve and its chord shrinks with the square of the piece's length."""
    return max(1, min(_MAX_PIECES, math.ceil(math.sqrt(length / (8 * TOLERANCE)))))


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    n = _pieces(math.dist(p0, p1) + math.dist(p1, p2) + math.dist(p2, p3))
    out = []
    for step in range(1, n + 1):
        t = step / n
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _quadratic(p0: Point, p1: Point, p2: Point) -> list[Point]:
    n = _pieces(math.dist(p0, p1) + math.dist(p1, p2))
    out = []
    for step in range(1, n + 1):
        t = step / n
        u = 1 - t
        a, b, c = u * u, 2 * u * t, t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def _arc(start: Point, rx: float, ry: float, rotation: float, large: bool, sweep: bool, end: Point) -> list[Point]:
    """An elliptical arc, from its endpoint form to its centre form (SVG 1.1, appendix F.6.5), then cut."""
    if start == end:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [end]
    phi = math.radians(rotation % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (start[0] - end[0]) / 2, (start[1] - end[1]) / 2
    x1, y1 = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    grow = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if grow > 1:  # radii too small to reach: scaled up just enough (the spec's correction)
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    den = rx * rx * y1 * y1 + ry * ry * x1 * x1
    factor = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * y1 / ry, -factor * ry * x1 / rx
    centre_x = cos_p * cxp - sin_p * cyp + (start[0] + end[0]) / 2
    centre_y = sin_p * cxp + cos_p * cyp + (start[1] + end[1]) / 2
    theta = math.atan2((y1 - cyp) / ry, (x1 - cxp) / rx)
    delta = math.atan2((-y1 - cyp) / ry, (-x1 - cxp) / rx) - theta
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    radius = max(rx, ry)
    step = 2 * math.acos(max(-1.0, 1 - TOLERANCE / radius)) if radius > TOLERANCE else math.pi / 2
    n = max(1, min(_MAX_PIECES, math.ceil(abs(delta) / step)))
    out = []
    for i in range(1, n):
        angle = theta + delta * i / n
        ex, ey = rx * math.cos(angle), ry * math.sin(angle)
        out.append((centre_x + cos_p * ex - sin_p * ey, centre_y + sin_p * ex + cos_p * ey))
    out.append(end)  # exactly where the path says the arc ends
    return out


def winding(contours: tuple[Contour, ...], x: float, y: float) -> int:
    """How many times the outlines wind around (x, y): inside by the nonzero rule when not 0."""
    total = 0
    for contour in contours:
        j = len(contour) - 1
        for i, (xi, yi) in enumerate(contour):
            xj, yj = contour[j]
            if yj <= y < yi or yi <= y < yj:
                side = (xi - xj) * (y - yj) - (x - xj) * (yi - yj)
                if yi > yj and side > 0:
                    total += 1
                elif yi < yj and side < 0:
                    total -= 1
            j = i
    return total
