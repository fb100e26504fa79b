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
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carddb.errors import InputError
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
        raise InputError(f"{where} must be a number, not {value!r}")
    return float(value)


def _numbers(value: Any, count: int, where: str) -> list[float]:
    if not isinstance(value, list) or len(value) != count:
        raise InputError(f"{where} must be a list of {count} numbers, not {value!r}")
    return [_number(v, where) for v in value]


def read_profile(path: str | Path) -> PrinterProfile:
    """Read a profile; every way it can be wrong is an ``InputError`` naming the file and the key."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise InputError(f"{path} is too big to be a printer profile")
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such printer profile") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a folder, not a printer profile") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: a printer profile is UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path}: malformed printer profile: {error}") from None
    except OSError as error:
        raise InputError(f"{path} cannot be read ({error.strerror or error})") from None
    known = {"name", "back_offset_mm", "back_rotation_deg", "margins_mm"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} in the printer profile",
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

RULER_HALF_MM = 5.0  # rulers read from -5 to +5 mm
TICK_STEP_MM = 0.5
STATION_INSET_MM = 40.0  # from the page edge to a station (well inside any printer's margin)


@dataclass(frozen=True)
class Station:
    """A place on the back page where a front line crosses a ruler. ``axis`` is what its ruler measures."""

    name: str  # "top", "bottom", "left", "right" as seen on the back page
    x: float  # back-page coordinates of the ruler's zero
    y: float
    axis: str  # "x": a horizontal ruler read for left/right shifts; "y": a vertical one


def stations(page_w: float, page_h: float) -> tuple[Station, ...]:
    inset = STATION_INSET_MM
    return (Station("top", page_w / 2, page_h - inset, "x"), Station("bottom", page_w / 2, inset, "x"),
            Station("left", inset, page_h / 2, "y"), Station("right", page_w - inset, page_h / 2, "y"))


def mirror_point(x: float, y: float, page_w: float, page_h: float, flip: str) -> tuple[float, float]:
    """Where a back-page point lies on the front page (and back): the sheet turns over about ``flip``'s edge."""
    portrait = page_w <= page_h
    mirror_x = portrait == (flip == "long")
    return (page_w - x, y) if mirror_x else (x, page_h - y)


def front_index_lines(page_w: float, page_h: float, flip: str, length: float = 12.0) -> list[Segment]:
    """The front page's lines: each crosses its station's ruler at the ruler's zero when the printer is exact."""
    lines = []
    for station in stations(page_w, page_h):
        x, y = mirror_point(station.x, station.y, page_w, page_h, flip)
        if station.axis == "x":
            lines.append(Segment(x, y - length / 2, x, y + length / 2))
        else:
            lines.append(Segment(x - length / 2, y, x + length / 2, y))
    return lines


def ruler_ticks(station: Station) -> list[tuple[float, float, str]]:
    """(position along the ruler's axis in back-page mm, tick length, label) for every tick of a ruler."""
    ticks = []
    steps = round(RULER_HALF_MM / TICK_STEP_MM)
    for i in range(-steps, steps + 1):
        value = i * TICK_STEP_MM
        whole = i % round(1 / TICK_STEP_MM) == 0
        origin = station.x if station.axis == "x" else station.y
        label = f"{value:+.0f}".replace("+0", "0") if whole else ""
        ticks.append((origin + value, 4.0 if whole else 2.0, label))
    return ticks


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
