"""The sheets' own words: the header over the cards, and the deck list page.

The header says which deck a page belongs to, which page of how many it is and which side (fronts, the backs
of a page, or a fold sheet), in the slots ``impose`` keeps clear of every crop mark: the first over the first
column of cards, the page over the last, the game's name over the middle one when there are three. The deck
list page is the deck as its file lists it, zone by zone with the counts, and anything that could not be
printed. Both are written in Bitstream Vera (shipped inside ReportLab), embedded like every other font.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from carddb.layout.impose import HEADER_MM, PagePlan

PT = 72.0 / 25.4  # points per millimetre
SHEET_FONT = "carddb-sheet-sans"
SHEET_BOLD = "carddb-sheet-sans-bold"
HEADER_PT = 7.0
HEADER_GREY = (0.35, 0.35, 0.35)
LIST_MARGIN_MM = 15.0
LIST_PT = 9.0
LIST_LEADING = 1.35
ELLIPSIS = "\u2026"


def sheet_font(bold: bool = False) -> str:
    """Register (once) and name the embedded font the sheets write their own words in."""
    name, file = (SHEET_BOLD, "VeraBd.ttf") if bold else (SHEET_FONT, "Vera.ttf")
    try:
        pdfmetrics.getFont(name)
    except KeyError:
        pdfmetrics.registerFont(TTFont(name, str(Path(reportlab.__file__).parent / "fonts" / file)))
    return name


def fitted(text: str, font: str, size: float, width_mm: float) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width_mm``."""
    if pdfmetrics.stringWidth(text, font, size) <= width_mm * PT:
        return text
    while text and pdfmetrics.stringWidth(text + ELLIPSIS, font, size) > width_mm * PT:
        text = text[:-1]
    return (text.rstrip() + ELLIPSIS) if text else ""


def wrapped(text: str, font: str, size: float, width_mm: float) -> list[str]:
    """``text`` as lines no wider than ``width_mm``, broken between words, the later ones indented further (a
    "Not printed" reason keeps its "did you mean ...?" instead of losing it to an ellipsis)."""
    lead = text[:len(text) - len(text.lstrip(" "))]
    lines: list[str] = []
    current = lead
    for word in text.lstrip(" ").split(" "):
        candidate = f"{current} {word}" if current.strip() else current + word
        if current.strip() and pdfmetrics.stringWidth(candidate, font, size) > width_mm * PT:
            lines.append(current)
            current = f"{lead}    {word}"
        else:
            current = candidate
    lines.append(current)
    return [fitted(line, font, size, width_mm) for line in lines]


def side_words(page: PagePlan) -> str:
    if page.side == "back":
        return f"backs of page {page.number - 1}"
    if page.side == "fold":
        return "fold on the dashed line"
    return "fronts"


def header_texts(page: PagePlan, title: str, game: str, total: int) -> list[tuple[str, str]]:
    """(text, alignment) for each of the page's header slots."""
    where = f"page {page.number} of {total}, {side_words(page)}"
    slots = len(page.header)
    if slots >= 3:
        return [(title, "left"), *[("", "centre")] * (slots - 3), (game, "centre"), (where, "right")]
    if slots == 2:
        return [(f"{game}: {title}" if game else title, "left"), (where, "right")]
    if slots == 1:
        return [(f"{title}, {where}", "left")]
    return []


def draw_header(canvas: Canvas, page: PagePlan, job: Any, total: int) -> None:
    if not page.header:
        return
    font = sheet_font()
    canvas.saveState()
    canvas.setFillColorRGB(*HEADER_GREY)
    canvas.setFont(font, HEADER_PT)
    for slot, (text, align) in zip(page.header, header_texts(page, job.title, job.game, total), strict=True):
        text = fitted(text, font, HEADER_PT, slot.w)
        if not text:
            continue
        baseline = (slot.y + (HEADER_MM - HEADER_PT / PT * 0.72) / 2) * PT
        if align == "left":
            canvas.drawString(slot.x * PT, baseline, text)
        elif align == "right":
            canvas.drawRightString(slot.right * PT, baseline, text)
        else:
            canvas.drawCentredString((slot.x + slot.w / 2) * PT, baseline, text)
    canvas.restoreState()


def draw_deck_list(canvas: Canvas, page: PagePlan, job: Any) -> None:
    """The deck list page: a title, then the lines in as many columns as the page needs (two at most)."""
    regular, bold = sheet_font(), sheet_font(bold=True)
    left, top = LIST_MARGIN_MM, page.height - LIST_MARGIN_MM
    width = page.width - 2 * LIST_MARGIN_MM
    canvas.saveState()
    canvas.setFont(bold, 14)
    canvas.drawString(left * PT, (top - 5) * PT, fitted(job.title, bold, 14, width))
    canvas.setFont(regular, 9)
    canvas.setFillColorRGB(*HEADER_GREY)
    canvas.drawString(left * PT, (top - 10) * PT, fitted(f"{job.game} - deck list; the cards follow on the next "
                                                         "pages", regular, 9, width))
    canvas.setFillColorRGB(0, 0, 0)
    step = LIST_PT * LIST_LEADING / PT
    first = top - 18
    per_column = max(1, int((first - LIST_MARGIN_MM) / step))
    column_w = width / 2 - 4
    shown = []  # (line, font): a heading in bold, a line too long for its column broken over several
    for line in job.deck_list:
        font = bold if line and not line[:1].isdigit() and not line.startswith(" ") else regular
        shown += [(part, font) for part in wrapped(line, font, LIST_PT, column_w)]
    columns = [shown[i:i + per_column] for i in range(0, len(shown), per_column)]
    for c, lines in enumerate(columns[:2]):
        for i, (line, font) in enumerate(lines):
            if c == 1 and i == per_column - 1 and len(columns) > 2:
                line, font = f"{ELLIPSIS} and {len(shown) - 2 * per_column + 1} more lines", regular
            canvas.setFont(font, LIST_PT)
            canvas.drawString((left + c * (column_w + 8)) * PT, (first - i * step) * PT, line)
    canvas.restoreState()
