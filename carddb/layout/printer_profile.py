"""Printer profiles and the duplex calibration geometry: pure, millimetres, no drawing.

A printer puts the back of a sheet a little off: shifted by a millimetre or two, sometimes turned a fraction of
a degree. ``carddb print calibration`` prints a two-page test sheet; held against a light, the lines of the
front page show through onto four rulers on the back page, and the four numbers read there are the correction
to apply. A profile (a small TOML file) keeps that correction, and ``--profile`` applies it to back pages only:

    # carddb printer profile
    name = "office laser, plain A4"
    back_offset_mm = [0.5, -1.0]   # move backs right and up by this much (as the back page is printed)
    back_rotation_deg = 0.1        # then turn them counter-clockwise about the page centre by this much
    margins_mm = [5, 4, 12, 4]     # optional: the unprintable edge, top, right, bottom, left

The correction is applied as: turn about the page centre, then shift (``impose.back_transform``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carddb.core.limits import shown
from carddb.errors import InputError
from carddb.files.reading import load_toml, read_text_file
from carddb.layout.impose import Margins, Segment

MAX_OFFSET_MM = 20.0
MAX_ROTATION_DEG = 5.0
MAX_PROFILE_BYTES = 64 * 1024


@dataclass(frozen=True)
class PrinterProfile:
    name: str = ""
    back_offset: tuple[float, float] = (0.0, 0.0)
    back_rotation: float = 0.0
    margins: Margins | None = None

    def to_toml(self) -> str:
        lines = ["# carddb printer profile (see 'carddb print calibration')"]
        if self.name:
            lines.append(f"name = {_toml_string(self.name)}")
        lines.append(f"back_offset_mm = [{_fmt(self.back_offset[0])}, {_fmt(self.back_offset[1])}]")
        lines.append(f"back_rotation_deg = {_fmt(self.back_rotation, 4)}")
        if self.margins is not None:
            m = self.margins
            lines.append(f"margins_mm = [{_fmt(m.top)}, {_fmt(m.right)}, {_fmt(m.bottom)}, {_fmt(m.left)}]")
        return "\n".join(lines) + "\n"


def _fmt(value: float, places: int = 2) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value) or math.isinf(value):
        raise InputError(f"{where} must be a number, not {shown(value)}")
    return float(value)


def _numbers(value: Any, count: int, where: str) -> list[float]:
    if not isinstance(value, list) or len(value) != count:
        raise InputError(f"{where} must be a list of {count} numbers, not {shown(value)}")
    return [_number(v, where) for v in value]


def read_profile(path: str | Path) -> PrinterProfile:
    """Read a profile; every way it can be wrong is an ``InputError`` naming the file and the key."""
    path = Path(path)
    data = load_toml(read_text_file(path, what="printer profile", max_bytes=MAX_PROFILE_BYTES), str(path))
    known = {"name", "back_offset_mm", "back_rotation_deg", "margins_mm"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InputError(f"{path}: unknown key {shown(unknown[0])} in the printer profile",
                         hint=f"a profile may hold {', '.join(sorted(known))}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise InputError(f"{path}: name must be text")
    offset = _numbers(data.get("back_offset_mm", [0, 0]), 2, f"{path}: back_offset_mm")
    rotation = _number(data.get("back_rotation_deg", 0), f"{path}: back_rotation_deg")
    if any(abs(v) > MAX_OFFSET_MM for v in offset):
        raise InputError(f"{path}: back_offset_mm {offset} is more than {MAX_OFFSET_MM:g} mm; "
                         "re-measure with 'carddb print calibration'")
    if abs(rotation) > MAX_ROTATION_DEG:
        raise InputError(f"{path}: back_rotation_deg {rotation:g} is more than {MAX_ROTATION_DEG:g} degrees; "
                         "re-measure with 'carddb print calibration'")
    margins = None
    if "margins_mm" in data:
        values = _numbers(data["margins_mm"], 4, f"{path}: margins_mm")
        if any(v < 0 for v in values):
            raise InputError(f"{path}: margins_mm must be zero or more")
        margins = Margins(*values)
    return PrinterProfile(name, (offset[0], offset[1]), rotation, margins)


# ---------------------------------------------------------------------------------------------------- calibration
#
# Each ruler on the back page is a slanted line: the point that reads an offset v lies v mm across from the
# ruler's zero and MAGNIFY times v along it. The front page's index line is straight; where it crosses the
# slanted line (seen through the sheet) is the reading. A millimetre of offset so moves the crossing six
# millimetres along the ruler, which leaves room for large numbers that never touch; and since the numbers
# travel with the back, a shift along the ruler does not change which number the line crosses.

RULER_HALF_MM = 5.0  # rulers read from -5 to +5 mm
TICK_STEP_MM = 0.5
MAGNIFY = 6.0  # mm along a ruler for each mm of offset it reads
TICK_MM = (3.0, 5.0)  # the length of a half-millimetre tick, of a whole one
LABEL_PT = 8.0
INDEX_HALF_MM = RULER_HALF_MM * (MAGNIFY + 1) + 1.0  # an index line reaches every crossing, whatever the shift
STATION_FROM_EDGE_MM = (62.0, 50.0)  # top and bottom rulers from the top and bottom edges; left, right from sides
MIN_PAGE_MM = (180.0, 240.0)


@dataclass(frozen=True)
class Station:
    """A place on the back page where a front line crosses a ruler. ``axis`` is what its ruler measures."""

    name: str  # "top", "bottom", "left", "right" as seen on the back page
    x: float  # back-page coordinates of the ruler's zero
    y: float
    axis: str  # "x": a ruler read for left/right shifts (it runs up the page); "y": one read for up/down shifts


@dataclass(frozen=True)
class RulerTick:
    """One reading of a ruler: the offset it stands for, its tick (across the ruler) and its printed number."""

    value: float
    tick: Segment
    label: str  # "" on half-millimetre ticks
    label_at: tuple[float, float]  # x rulers: the label's left end on its baseline; y rulers: its centre


def stations(page_w: float, page_h: float) -> tuple[Station, ...]:
    if page_w < MIN_PAGE_MM[0] or page_h < MIN_PAGE_MM[1]:
        raise InputError(f"the calibration sheet needs paper of at least {MIN_PAGE_MM[0]:g} x {MIN_PAGE_MM[1]:g} "
                         f"mm (A4 or Letter), not {page_w:g} x {page_h:g} mm")
    down, side = STATION_FROM_EDGE_MM
    return (Station("top", page_w / 2, page_h - down, "x"), Station("bottom", page_w / 2, down, "x"),
            Station("left", side, page_h / 2, "y"), Station("right", page_w - side, page_h / 2, "y"))


def ruler_point(station: Station, value: float) -> tuple[float, float]:
    """Where on the back page the ruler reads ``value``."""
    if station.axis == "x":
        return station.x + value, station.y + MAGNIFY * value
    return station.x + MAGNIFY * value, station.y + value


def ruler_line(station: Station) -> Segment:
    (x0, y0), (x1, y1) = ruler_point(station, -RULER_HALF_MM), ruler_point(station, RULER_HALF_MM)
    return Segment(x0, y0, x1, y1)


def ruler_ticks(station: Station) -> list[RulerTick]:
    """Every tick of a ruler, from -5 to +5 mm: across the index line's direction, a number at each millimetre."""
    ticks = []
    steps = round(RULER_HALF_MM / TICK_STEP_MM)
    for i in range(-steps, steps + 1):
        value = i * TICK_STEP_MM
        whole = i % round(1 / TICK_STEP_MM) == 0
        half = (TICK_MM[1] if whole else TICK_MM[0]) / 2
        x, y = ruler_point(station, value)
        label = f"{value:+.0f}".replace("+0", "0") if whole else ""
        if station.axis == "x":
            tick, at = Segment(x - half, y, x + half, y), (x + TICK_MM[1] / 2 + 1.2, y - 1.0)
        else:
            tick, at = Segment(x, y - half, x, y + half), (x, y - TICK_MM[1] / 2 - 1.2 - 2.8)
        ticks.append(RulerTick(value, tick, label, at))
    return ticks


def mirror_point(x: float, y: float, page_w: float, page_h: float, flip: str) -> tuple[float, float]:
    """Where a back-page point lies on the front page (and back): the sheet turns over about ``flip``'s edge."""
    portrait = page_w <= page_h
    mirror_x = portrait == (flip == "long")
    return (page_w - x, y) if mirror_x else (x, page_h - y)


def front_index_lines(page_w: float, page_h: float, flip: str) -> list[Segment]:
    """The front page's lines: each runs along its ruler, through the ruler's zero when the printer is exact,
    long enough to cross the slanted ruler whatever the back's shift (up to 5 mm each way)."""
    lines = []
    for station in stations(page_w, page_h):
        x, y = mirror_point(station.x, station.y, page_w, page_h, flip)
        if station.axis == "x":
            lines.append(Segment(x, y - INDEX_HALF_MM, x, y + INDEX_HALF_MM))
        else:
            lines.append(Segment(x - INDEX_HALF_MM, y, x + INDEX_HALF_MM, y))
    return lines


def profile_from_readings(page_w: float, page_h: float, *, top: float, bottom: float, left: float, right: float,
                          base: PrinterProfile | None = None, name: str = "") -> PrinterProfile:
    """The correction from the four numbers read on the back page (added to ``base``, the profile in force
    when the sheet was printed, so a second calibration refines the first).

    A ruler's number under the front line is the shift the back needs there. Top and bottom read left/right
    shifts, left and right read up/down shifts; where top and bottom (or left and right) differ, the back is
    turned, by the difference over the distance between the two rulers.
    """
    for label, value in (("top", top), ("bottom", bottom), ("left", left), ("right", right)):
        if abs(value) > RULER_HALF_MM:
            raise InputError(f"the {label} reading {value:g} is off the ruler (it reads -5 to +5 mm)",
                             hint="if the front lines miss the rulers, the printer is more than 5 mm off: "
                                  "move the backs by hand with a profile and print the sheet again")
    by_x = {s.name: s for s in stations(page_w, page_h)}
    height = by_x["top"].y - by_x["bottom"].y
    width = by_x["right"].x - by_x["left"].x
    turn = ((bottom - top) / height + (right - left) / width) / 2
    base = base or PrinterProfile()
    dx, dy = (top + bottom) / 2, (left + right) / 2
    return PrinterProfile(name or base.name, (round(base.back_offset[0] + dx, 3), round(base.back_offset[1] + dy, 3)),
                          round(base.back_rotation + math.degrees(turn), 4), base.margins)
