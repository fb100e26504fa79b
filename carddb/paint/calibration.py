"""The duplex calibration sheet: two pages to print on both sides of one sheet and read against a light.

The front page carries four long index lines and two 100 mm scale bars (to check the printer printed at
actual size); the back page carries four slanted rulers with a large number at every millimetre, each centred
where its index line falls when the printer is exact. Holding the sheet to a light with the back towards you,
the number where each index line crosses its ruler is the correction that ruler measures (the geometry is in
``carddb.layout.printer_profile``). ``carddb print profile`` turns the four numbers into a printer profile.
A profile given when printing the sheet moves its back page, as it would move card backs, so a second sheet
measures what is left.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from carddb.errors import InputError, OutputError
from carddb.files.replacing import write_file
from carddb.layout.impose import IDENTITY, PagePlan, Size, back_transform
from carddb.layout.printer_profile import (
    LABEL_PT,
    PrinterProfile,
    front_index_lines,
    ruler_line,
    ruler_point,
    ruler_ticks,
    stations,
)
from carddb.paint import pdf_streams  # noqa: F401  (every PDF written alike, quickly)
from carddb.paint.sheet_check import CheckReport, Expected
from carddb.paint.sheets import PT, check_output_path, commit_files, new_canvas, sheet_font

LINE_PT = 0.35
RULER_PT = 0.6
SCALE_MM = 100.0
TEXT_PT = 8.5
TEXT_INSET_MM = 15.0


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
    _front_page(canvas, front, paper, flip)
    _back_page(canvas, back, flip, profile)
    canvas.save()
    expected = [Expected(front, []), Expected(back, [])]
    (check,) = commit_files([(out, buffer.getvalue(), expected)])
    return out, check


def _page_setup(canvas: Canvas, page: PagePlan) -> None:
    canvas.setPageSize((page.width * PT, page.height * PT))
    canvas.setTrimBox((0, 0, page.width * PT, page.height * PT))
    canvas.setBleedBox((0, 0, page.width * PT, page.height * PT))


def _paragraphs(canvas: Canvas, lines: list[str], x_mm: float, top_mm: float, width_mm: float,
                size: float = TEXT_PT, bold_first: bool = True) -> None:
    """Lines of instructions wrapped to ``width_mm``, the first in bold, from ``top_mm`` downwards."""
    regular, bold = sheet_font(), sheet_font(bold=True)
    y = top_mm
    for i, text in enumerate(lines):
        font = bold if i == 0 and bold_first else regular
        words, line = text.split(), ""
        for word in [*words, None]:
            trial = f"{line} {word}".strip() if word else line
            if word is not None and pdfmetrics.stringWidth(trial, font, size) <= width_mm * PT:
                line = trial
                continue
            canvas.setFont(font, size)
            canvas.drawString(x_mm * PT, y * PT, line)
            y -= size * 1.3 / PT
            line = word or ""
        y -= size * 0.5 / PT


def _front_page(canvas: Canvas, page: PagePlan, paper: Size, flip: str) -> None:
    _page_setup(canvas, page)
    w, h = page.width, page.height
    canvas.setLineWidth(LINE_PT)
    for line in page.marks:
        canvas.line(line.x0 * PT, line.y0 * PT, line.x1 * PT, line.y1 * PT)
    # Scale bars: 100 mm each way, a tick every 10 mm, to check the printer did not scale the page.
    x0, y0 = w / 2 - SCALE_MM / 2, h / 2 - 25
    canvas.line(x0 * PT, y0 * PT, (x0 + SCALE_MM) * PT, y0 * PT)
    for i in range(11):
        tick = 3 if i % 5 == 0 else 1.5
        canvas.line((x0 + i * 10) * PT, y0 * PT, (x0 + i * 10) * PT, (y0 + tick) * PT)
    vx, vy = w - 15, h / 2 + 12
    canvas.line(vx * PT, vy * PT, vx * PT, (vy + SCALE_MM) * PT)
    for i in range(11):
        tick = 3 if i % 5 == 0 else 1.5
        canvas.line(vx * PT, (vy + i * 10) * PT, (vx - tick) * PT, (vy + i * 10) * PT)
    canvas.setFont(sheet_font(), TEXT_PT)
    canvas.drawCentredString(w / 2 * PT, (y0 - 5) * PT, "this bar and the one on the right must each measure "
                                                         "exactly 100 mm")
    edge = "long" if flip == "long" else "short"
    _paragraphs(canvas, [
        f"carddb duplex calibration - {paper.name}, flip on the {edge} edge - FRONT",
        "1. Print this page and the next on the two sides of ONE sheet: double-sided, "
        f"flip on the {edge} edge, at 100 % (actual size).",
        "2. Check both 100 mm bars with a ruler. If they are not 100 mm, turn off 'fit to page' and print again.",
        "3. Hold the sheet against a window or a lamp with the BACK page towards you (its words upright).",
        "4. Each long line of this page crosses a slanted ruler on the back: write down the number where it "
        "crosses (the ticks between numbers are half millimetres).",
        "5. carddb print profile --top T --bottom B --left L --right R --out my-printer.toml",
    ], TEXT_INSET_MM, h - 20, w / 2 - 8 - TEXT_INSET_MM)
    canvas.showPage()


def _back_page(canvas: Canvas, page: PagePlan, flip: str, profile: PrinterProfile | None) -> None:
    _page_setup(canvas, page)
    w, h = page.width, page.height
    regular, bold = sheet_font(), sheet_font(bold=True)
    canvas.saveState()
    a, b, c, d, e, f = page.transform
    canvas.transform(a, b, c, d, e * PT, f * PT)
    for station in stations(w, h):
        canvas.setLineWidth(RULER_PT)
        line = ruler_line(station)
        canvas.line(line.x0 * PT, line.y0 * PT, line.x1 * PT, line.y1 * PT)
        canvas.setLineWidth(LINE_PT)
        for tick in ruler_ticks(station):
            canvas.line(tick.tick.x0 * PT, tick.tick.y0 * PT, tick.tick.x1 * PT, tick.tick.y1 * PT)
            if tick.label:
                canvas.setFont(bold if tick.value == 0 else regular, LABEL_PT)
                x, y = tick.label_at
                if station.axis == "x":
                    canvas.drawString(x * PT, y * PT, tick.label)
                else:
                    canvas.drawCentredString(x * PT, y * PT, tick.label)
        end_x, end_y = ruler_point(station, 5.0)
        canvas.setFont(bold, TEXT_PT)
        canvas.drawCentredString(end_x * PT, (end_y + 6.0) * PT, station.name.upper())
    lines = [
        f"carddb duplex calibration - BACK (flip on the {flip} edge)",
        "Where the front page's long line crosses a slanted ruler, read the number: that is the correction the "
        "ruler measures. Right and up are positive; TOP and BOTTOM read left/right shifts, LEFT and RIGHT up/down.",
        "A line that misses its ruler means more than 5 mm: set back_offset_mm by hand and print again.",
    ]
    if profile is not None:
        lines.append(f"Profile applied: backs moved {profile.back_offset[0]:g}, {profile.back_offset[1]:g} mm and "
                     f"turned {profile.back_rotation:g} degrees; pass it again with --base.")
    _paragraphs(canvas, lines, TEXT_INSET_MM, h / 2 - 22, w / 2 - 8 - TEXT_INSET_MM)
    canvas.restoreState()
    canvas.showPage()


def write_profile(path: str | Path, profile: PrinterProfile) -> Path:
    """Write a printer profile whole or not at all."""
    path = Path(path)
    if path.suffix.lower() != ".toml":
        raise InputError(f"{path}: a printer profile is a .toml file")
    if not path.parent.is_dir():
        raise OutputError(f"{path.parent}: no such folder; nothing was written")
    return write_file(path, profile.to_toml())
