"""The duplex calibration sheet: two pages to print on both sides of one sheet and read against a light.

The front page carries four short index lines and two 100 mm scale bars (to check the printer printed at
actual size); the back page carries four rulers, each centred where its index line falls when the printer is
exact. Holding the sheet to a light with the back towards you, the number under each index line is the
correction that ruler measures. ``carddb print profile`` turns the four numbers into a printer profile.
A profile given when printing the sheet moves its back page, as it would move card backs, so a second sheet
measures what is left.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from carddb.errors import InputError, OutputError
from carddb.layout.impose import IDENTITY, PagePlan, Size, back_transform
from carddb.layout.printer_profile import PrinterProfile, front_index_lines, ruler_ticks, stations
from carddb.paint.sheet_check import CheckReport, Expected
from carddb.paint.sheets import PT, check_output_path, commit_files, default_mode, new_canvas, sheet_font

LINE_PT = 0.35
SCALE_MM = 100.0


def calibration_pages(paper: Size, flip: str, profile: PrinterProfile | None = None) -> tuple[PagePlan, PagePlan]:
    """The two pages (portrait), the back one carrying the profile's correction."""
    w, h = sorted((paper.width, paper.height))
    transform = IDENTITY
    if profile is not None:
        transform = back_transform(w, h, profile.back_offset, profile.back_rotation)
    front = PagePlan(1, w, h, "front", (), marks=tuple(front_index_lines(w, h, flip)))
    back = PagePlan(2, w, h, "back", (), transform=transform)
    return front, back


def write_calibration(out: str | Path, paper: Size, flip: str = "long",
                      profile: PrinterProfile | None = None) -> tuple[Path, CheckReport]:
    """Write the calibration sheet as a checked PDF at ``out``."""
    if flip not in ("long", "short"):
        raise ValueError(flip)
    out = check_output_path(out)
    front, back = calibration_pages(paper, flip, profile)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, "carddb duplex calibration")
    font = sheet_font()
    _front_page(canvas, front, paper, flip, font)
    _back_page(canvas, back, flip, profile, font)
    canvas.save()
    expected = [Expected(front, []), Expected(back, [])]
    (check,) = commit_files([(out, buffer.getvalue(), expected)])
    return out, check


def _page_setup(canvas: Canvas, page: PagePlan) -> None:
    canvas.setPageSize((page.width * PT, page.height * PT))
    canvas.setTrimBox((0, 0, page.width * PT, page.height * PT))
    canvas.setBleedBox((0, 0, page.width * PT, page.height * PT))


def _text(canvas: Canvas, font: str, size: float, x_mm: float, y_mm: float, text: str, centre: bool = False) -> None:
    canvas.setFont(font, size)
    if centre:
        canvas.drawCentredString(x_mm * PT, y_mm * PT, text)
    else:
        canvas.drawString(x_mm * PT, y_mm * PT, text)


def _front_page(canvas: Canvas, page: PagePlan, paper: Size, flip: str, font: str) -> None:
    _page_setup(canvas, page)
    w, h = page.width, page.height
    canvas.setLineWidth(LINE_PT)
    for line in page.marks:
        canvas.line(line.x0 * PT, line.y0 * PT, line.x1 * PT, line.y1 * PT)
    # Scale bars: 100 mm each way, a tick every 10 mm, to check the printer did not scale the page.
    x0, y0 = w / 2 - SCALE_MM / 2, h / 2 + 30
    canvas.line(x0 * PT, y0 * PT, (x0 + SCALE_MM) * PT, y0 * PT)
    for i in range(11):
        tick = 3 if i % 5 == 0 else 1.5
        canvas.line((x0 + i * 10) * PT, y0 * PT, (x0 + i * 10) * PT, (y0 + tick) * PT)
    vx, vy = 20.0, h / 2 - 35
    canvas.line(vx * PT, vy * PT, vx * PT, (vy + SCALE_MM) * PT)
    for i in range(11):
        tick = 3 if i % 5 == 0 else 1.5
        canvas.line(vx * PT, (vy + i * 10) * PT, (vx + tick) * PT, (vy + i * 10) * PT)
    _text(canvas, font, 8, w / 2, y0 + 5, "this bar must measure exactly 100 mm", centre=True)
    edge = "long" if flip == "long" else "short"
    lines = [
        f"carddb duplex calibration - {paper.name}, flip on the {edge} edge - FRONT",
        "1. Print this page and the next on the two sides of ONE sheet: double-sided, "
        f"flip on {edge} edge, at 100 % / actual size.",
        "2. Check both 100 mm bars with a ruler. If they are not 100 mm, turn off 'fit to page' and print again.",
        "3. Hold the sheet against a window or lamp with the BACK page towards you (its text upright).",
        "4. Read the number under each of the four short lines on the four rulers (top, bottom, left, right).",
        "5. carddb print profile --top T --bottom B --left L --right R --out my-printer.toml",
    ]
    for i, line in enumerate(lines):
        _text(canvas, font, 8 if i else 10, 25, h / 2 - 50 - i * 5.5, line)
    canvas.showPage()


def _back_page(canvas: Canvas, page: PagePlan, flip: str, profile: PrinterProfile | None, font: str) -> None:
    _page_setup(canvas, page)
    w, h = page.width, page.height
    canvas.saveState()
    a, b, c, d, e, f = page.transform
    canvas.transform(a, b, c, d, e * PT, f * PT)
    canvas.setLineWidth(LINE_PT)
    for station in stations(w, h):
        ticks = ruler_ticks(station)
        for at, length, label in ticks:
            if station.axis == "x":
                canvas.line(at * PT, station.y * PT, at * PT, (station.y + length) * PT)
                if label:
                    _text(canvas, font, 6, at, station.y + length + 1, label, centre=True)
            else:
                canvas.line(station.x * PT, at * PT, (station.x + length) * PT, at * PT)
                if label:
                    _text(canvas, font, 6, station.x + length + 1, at - 0.8, label)
        first, last = ticks[0][0], ticks[-1][0]
        if station.axis == "x":
            canvas.line(first * PT, station.y * PT, last * PT, station.y * PT)
            _text(canvas, font, 8, station.x, station.y - 5, station.name.upper(), centre=True)
        else:
            canvas.line(station.x * PT, first * PT, station.x * PT, last * PT)
            _text(canvas, font, 8, station.x, first - 5, station.name.upper(), centre=True)
    lines = [
        f"carddb duplex calibration - BACK (flip on the {flip} edge)",
        "Right and up are positive. Top and bottom read left/right shifts; left and right read up/down.",
        "A front line off a ruler means more than 5 mm: set back_offset_mm by hand and print again.",
    ]
    if profile is not None:
        lines.append(f"Profile applied: backs moved {profile.back_offset[0]:g}, {profile.back_offset[1]:g} mm and "
                     f"turned {profile.back_rotation:g} degrees; pass it again with --base.")
    for i, line in enumerate(lines):
        _text(canvas, font, 8, 25, h / 2 + 50 - i * 5.5, line)
    canvas.restoreState()
    canvas.showPage()


def write_profile(path: str | Path, profile: PrinterProfile) -> Path:
    """Write a printer profile whole or not at all."""
    path = Path(path)
    if path.suffix.lower() != ".toml":
        raise InputError(f"{path}: a printer profile is a .toml file")
    if not path.parent.is_dir():
        raise InputError(f"{path.parent}: no such folder")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(profile.to_toml())
        os.chmod(tmp, default_mode())
        os.replace(tmp, path)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    return path
