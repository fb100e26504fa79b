"""Two print rules every face is held to: the safe zone and the contrast of its text.

*Safe zone*: a cut is never exact, so a frame line or a letter near the trim shows a mis-cut (an uneven
frame, a clipped word). Every stroke, line, letter and symbol must keep ``safe`` mm (3 by default, a game's
``[print] safe_zone_mm``) inside the trim. Filled areas are not checked: a background running off the card
is what the bleed is for.

*Contrast*: each run of text against what is drawn under it, by the WCAG 2 formula (relative luminance,
(L1 + 0.05) / (L2 + 0.05)); under 4.5:1 is flagged. "Under it" is the topmost filled shape drawn before the
run that covers each of a few points across the run's capitals; under art, the pixels of the picture there.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from carddb.layout.colours import hexa, rgb
from carddb.layout.fonts import font_metrics
from carddb.layout.ops import PT_MM, Contours, Ellipse, ImageOp, Line, Op, Polygon, Problem, Rect, TextRun
from carddb.layout.svg_path import winding

DEFAULT_SAFE_ZONE_MM = 3.0
MIN_CONTRAST = 4.5
_SLACK = 1e-6
_SAMPLES = (0.02, 0.25, 0.5, 0.75, 0.98)  # where along a run (a fraction of its width) the ground is read


@dataclass(frozen=True, slots=True)
class Contrast:
    """The lowest contrast of a text box's runs: its text colour, the colour behind it there, the ratio."""

    box: str
    colour: str
    behind: str
    ratio: float


# -- safe zone --------------------------------------------------------------------------------------------
def safe_zone_problems(drawn: Iterable[tuple[str, str, list[Op]]], trim: tuple[float, float, float, float],
                       safe: float) -> list[Problem]:
    """A problem for every box (name, shape, its ops) with a line or a letter closer than ``safe`` mm to the trim
    (``trim``: left, top, right, bottom on the face)."""
    problems = []
    for name, shape, ops in drawn:
        extents = [e for op in ops if (e := _ink(op, shape)) is not None]
        if not extents:
            continue
        left, top = min(e[0] for e in extents), min(e[1] for e in extents)
        right, bottom = max(e[2] for e in extents), max(e[3] for e in extents)
        gaps = {"left": left - trim[0], "top": top - trim[1], "right": trim[2] - right, "bottom": trim[3] - bottom}
        side, gap = min(gaps.items(), key=lambda item: item[1])
        if gap < safe - _SLACK:
            lines = ("rect", "ellipse", "line", "polygon", "frame", "art")
            what = "its text" if shape == "text" else "its line" if shape in lines else "its symbol"
            where = f"{gap:.2f} mm from the {side} trim" if gap > 0 else f"past the {side} trim"
            problems.append(Problem(name, "safe-zone", f"{name}: {what} is {where}, inside the {safe:g} mm safe "
                                                       f"zone ({safe - gap:.2f} mm too far out)"))
    return problems


def _ink(op: Op, shape: str) -> tuple[float, float, float, float] | None:
    """What of ``op`` must stay in the safe zone: letters, lines, strokes, and any shape of a symbol or a text."""
    if isinstance(op, TextRun):
        return _run_box(op)
    if isinstance(op, Line):
        half = op.width / 2
        return min(op.x1, op.x2) - half, min(op.y1, op.y2) - half, max(op.x1, op.x2) + half, max(op.y1, op.y2) + half
    if isinstance(op, ImageOp):
        return None
    symbol = shape in ("text", "icon", "icons", "emblem")  # an inline icon's disc is part of the text
    if isinstance(op, Contours):  # a frame's ring and ornaments are its lines; a texture or a symbol in art is not
        return op.bounds if shape == "frame" or symbol else None
    if not (op.stroke or symbol):
        return None
    half = op.stroke_width / 2 if op.stroke else 0.0
    if isinstance(op, Polygon):
        xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
        return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
    return op.x - half, op.y - half, op.x + op.w + half, op.y + op.h + half


def _run_box(run: TextRun) -> tuple[float, float, float, float]:
    metrics = font_metrics(run.font)
    em = run.size * PT_MM
    return (run.x, run.y - metrics.cap_height * em, run.x + metrics.width(run.text) * em,
            run.y + metrics.descent * em * 0.5)


# -- contrast ---------------------------------------------------------------------------------------------
def contrast_ratio(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours, 1 to 21."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@lru_cache(maxsize=1024)
def relative_luminance(colour: str) -> float:
    r, g, b = (_linear(v) for v in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=256)
def _linear(value: int) -> float:
    c = value / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def contrasts(ops: list[Op], boxes: Iterable[tuple[str, int, int]]) -> list[Contrast]:
    """The lowest contrast of each box's text (``boxes``: name and the range of ``ops`` it drew)."""
    found = []
    layers = _layers(ops)
    for name, start, end in boxes:
        worst: Contrast | None = None
        for index in range(start, end):
            run = ops[index]
            if not isinstance(run, TextRun) or not run.text.strip():
                continue
            for behind in _grounds(layers, index, run):
                ratio = contrast_ratio(run.colour, behind)
                if worst is None or ratio < worst.ratio:
                    worst = Contrast(name, run.colour, behind, ratio)
        if worst is not None:
            found.append(worst)
    return found


def contrast_problems(found: Iterable[Contrast], least: float = MIN_CONTRAST) -> list[Problem]:
    return [Problem(c.box, "contrast", f"{c.box}: text {c.colour} on {c.behind}, a contrast of {c.ratio:.2f}:1, "
                                       f"under {least:g}:1") for c in found if c.ratio < least - _SLACK]


_Layer = tuple[int, tuple[float, float, float, float], Op]


def _layers(ops: list[Op]) -> list[_Layer]:
    """Every filled shape and picture with its index and bounding box, topmost last (text is judged on them;
    the box rules most of them out at four comparisons, before a point is tested against the shape)."""
    layers: list[_Layer] = []
    for index, op in enumerate(ops):
        if isinstance(op, ImageOp) or (getattr(op, "fill", None) and not isinstance(op, TextRun)):
            if isinstance(op, Polygon):
                xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
                bbox = (min(xs), min(ys), max(xs), max(ys))
            elif isinstance(op, Contours):
                bbox = op.bounds
            else:
                bbox = (op.x, op.y, op.x + op.w, op.y + op.h)
            layers.append((index, bbox, op))
    return layers


def _grounds(layers: list[_Layer], index: int, run: TextRun) -> list[str]:
    """The colours behind a few points across the run, at half the height of its capitals."""
    left, top, right, _bottom = _run_box(run)
    y = (top + run.y) / 2
    below = [layer for layer in layers if layer[0] < index and layer[1][1] <= y <= layer[1][3]]
    colours = []
    for fraction in _SAMPLES:
        x = left + (right - left) * fraction
        colours.extend(_ground_at(below, x, y, top, run.y))
    return colours


def _ground_at(below: list[_Layer], x: float, y: float, top: float, baseline: float) -> list[str]:
    textures: list[str] = []
    for _index, (x0, _y0, x1, _y1), op in reversed(below):
        if not x0 <= x <= x1:
            continue
        if isinstance(op, ImageOp):
            if op.x <= x <= op.x + op.w and op.y <= y <= op.y + op.h:
                return [*textures, *_picture_under(op, x, top, baseline)]
            continue
        fill = getattr(op, "fill", None)
        if isinstance(op, Contours) and op.texture:  # its marks are finer than a letter: judged on it and under it
            textures.append(op.fill)
        elif fill and _covers(op, x, y):
            return [*textures, fill, op.fill_to] if isinstance(op, Rect) and op.fill_to else [*textures, fill]
    return [*textures, "#ffffff"]  # the painters start from white paper


def _covers(op: Op, x: float, y: float) -> bool:
    if isinstance(op, Rect):
        return op.x <= x <= op.x + op.w and op.y <= y <= op.y + op.h
    if isinstance(op, Ellipse):
        rx, ry = op.w / 2, op.h / 2
        if rx <= 0 or ry <= 0:
            return False
        dx, dy = (x - op.x - rx) / rx, (y - op.y - ry) / ry
        return dx * dx + dy * dy <= 1.0
    if isinstance(op, Polygon):
        return _inside_polygon(op.points, x, y)
    if isinstance(op, Contours):
        return winding(op.contours, x, y) != 0
    return False


def _inside_polygon(points: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    inside = False
    j = len(points) - 1
    for i, (xi, yi) in enumerate(points):
        xj, yj = points[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _picture_under(op: ImageOp, x: float, top: float, baseline: float) -> list[str]:
    """The art's pixels under the run around ``x``: the darkest and the lightest tenth (what text must stand
    out from), read from a small copy of the part of the picture that is drawn."""
    try:
        pixels, (cols, rows) = _thumbnail(op.path, _version(op.path), op.crop)
    except (OSError, ValueError):
        return []  # a picture that does not decode is drawn as the placeholder: judged by nothing
    col = min(cols - 1, max(0, int((x - op.x) / op.w * cols)))
    first = min(rows - 1, max(0, int((top - op.y) / op.h * rows)))
    last = min(rows - 1, max(first, int((baseline - op.y) / op.h * rows)))
    under = sorted((pixels[r * cols + c] for r in range(first, last + 1)
                    for c in range(max(0, col - 1), min(cols, col + 2))), key=lambda p: relative_luminance(p))
    cut = len(under) // 10
    return [under[cut], under[-1 - cut]]


def _version(path: str) -> tuple[int, int]:
    stat = os.stat(path)
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=64)
def _thumbnail(path: str, version: tuple[int, int], crop: tuple[int, int, int, int]
               ) -> tuple[list[str], tuple[int, int]]:
    from PIL import Image  # only a face with art under its text needs it

    with Image.open(path) as src:
        part = src.convert("RGB").crop(crop)
        part.thumbnail((48, 48))
        cols, rows = part.size
        raw = part.tobytes()
        return [hexa(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)], (cols, rows)
