"""Icons: small vector drawings defined as data in ``templates/icons.toml`` (and a game's own icons.toml).

Each icon is a list of shapes in a unit square (0..1 across and down): ``rect``, ``ellipse``, ``polygon``
and ``text``. A colour written ``"current"`` takes the colour of the box or the text the icon sits in, so
one star can be white, grey, black or gold. Icons are expanded into plain drawing operations here, so the
painters only ever draw rectangles, ellipses, polygons and text.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carddb.errors import TemplateError
from carddb.layout.fonts import FontBook
from carddb.layout.ops import PT_MM, Ellipse, Op, Polygon, Rect, TextRun

ICON_SHAPES = {
    "rect": {"shape", "at", "fill", "stroke", "stroke_width", "radius"},
    "ellipse": {"shape", "at", "fill", "stroke", "stroke_width"},
    "polygon": {"shape", "points", "fill", "stroke", "stroke_width"},
    "text": {"shape", "at", "text", "font", "colour"},
}


@dataclass(frozen=True)
class IconDef:
    name: str
    label: str
    shapes: tuple[dict[str, Any], ...]


def load_icons(paths: list[Path]) -> tuple[dict[str, IconDef], str]:
    """Icons from the files that exist, later files overriding earlier ones; and a hash of their content."""
    icons: dict[str, IconDef] = {}
    digest = hashlib.sha256()
    for path in paths:
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        digest.update(text.encode())
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise TemplateError(f"{path}: not valid TOML ({exc})") from None
        for name, table in raw.items():
            icons[name.casefold()] = _icon(name, table, path)
    return icons, digest.hexdigest()


def _icon(name: str, table: Any, path: Path) -> IconDef:
    if not isinstance(table, dict) or not isinstance(table.get("shapes"), list):
        raise TemplateError(f"{path}: icon {name!r} needs shapes = [ ... ]")
    for key in table:
        if key not in ("label", "shapes"):
            raise TemplateError(f"{path}: icon {name!r}: unknown key {key!r} (keys: label, shapes)")
    for shape in table["shapes"]:
        kind = shape.get("shape") if isinstance(shape, dict) else None
        if kind not in ICON_SHAPES:
            raise TemplateError(f"{path}: icon {name!r}: each shape needs shape = one of {', '.join(ICON_SHAPES)}")
        unknown = set(shape) - ICON_SHAPES[kind]
        if unknown:
            raise TemplateError(f"{path}: icon {name!r}: unknown key {sorted(unknown)[0]!r} for a {kind}")
    return IconDef(name, str(table.get("label", name)), tuple(table["shapes"]))


def icon_ops(icon: IconDef, x: float, y: float, side: float, colour: str, fonts: FontBook) -> list[Op]:
    """The icon drawn in the square (x, y, side) in millimetres; ``current`` colours become ``colour``."""

    def col(value: Any) -> str | None:
        if value is None:
            return None
        return colour if value == "current" else str(value)

    ops: list[Op] = []
    for s in icon.shapes:
        stroke_w = float(s.get("stroke_width", 0.0)) * side
        if s["shape"] in ("rect", "ellipse", "text"):
            ux, uy, uw, uh = s.get("at", (0, 0, 1, 1))
            bx, by, bw, bh = x + ux * side, y + uy * side, uw * side, uh * side
        if s["shape"] == "rect":
            ops.append(Rect(bx, by, bw, bh, col(s.get("fill")), col(s.get("stroke")), stroke_w,
                            float(s.get("radius", 0.0)) * side))
        elif s["shape"] == "ellipse":
            ops.append(Ellipse(bx, by, bw, bh, col(s.get("fill")), col(s.get("stroke")), stroke_w))
        elif s["shape"] == "polygon":
            pts = tuple((x + px * side, y + py * side) for px, py in s["points"])
            ops.append(Polygon(pts, col(s.get("fill")), col(s.get("stroke")), stroke_w))
        else:
            ops.extend(centred_text(str(s.get("text", "")), bx, by, bw, bh, str(s.get("font", "bold")),
                                    col(s.get("colour", "current")) or colour, fonts))
    return ops


def centred_text(text: str, x: float, y: float, w: float, h: float, style: str, colour: str,
                 fonts: FontBook) -> list[Op]:
    """One line of text as large as fits the box (capitals filling its height), centred both ways."""
    runs = fonts.runs(text, style)
    if not runs:
        return []
    main = fonts.main(style)
    width_em = sum(r[2] for r in runs)
    size = min(h / (main.cap_height * PT_MM), w / (max(width_em, 1e-6) * PT_MM))
    size = round(size, 3)
    cx = x + (w - width_em * size * PT_MM) / 2
    baseline = y + h / 2 + main.cap_height * size * PT_MM / 2
    ops: list[Op] = []
    for t, font, width in runs:
        ops.append(TextRun(round(cx, 4), round(baseline, 4), t, font, size, colour))
        cx += width * size * PT_MM
    return ops
