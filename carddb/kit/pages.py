"""The kit's own pages drawn on a canvas: the cover, the checklist, the quick-reference sheet, the tuck box and
the pieces. Every drawing keeps inside the printable margin (``style.MARGIN_MM``); the self-check measures it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from carddb import __version__
from carddb.core.game.components import Reference
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError
from carddb.kit import style
from carddb.kit.pieces import Block, draw_reference, pack
from carddb.kit.style import BOLD, ITALIC, MARGIN_MM, SANS, plain
from carddb.kit.tuckbox import TuckBox, draw_tuck_box
from carddb.paint import pdf_streams  # noqa: F401  (every PDF written alike, quickly)

#: (canvas, x, y, w, h) in points: paints the game's card back into a rectangle, keeping its proportions.
PaintBack = Callable[[Canvas, float, float, float, float], None]


@dataclass(frozen=True)
class PartLine:
    """A part as the cover and the checklist list it."""

    title: str
    filename: str
    first_page: int
    pages: int
    paper: str
    sides: str
    copies: str
    then: str


def new_canvas(buffer: io.BytesIO, pagesize: tuple[float, float], title: str) -> Canvas:
    """A canvas writing the same bytes for the same drawing, its fonts embedded, asking not to be scaled."""
    style.register_fonts()
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=SANS)
    canvas.setTitle(title)
    canvas.setAuthor("carddb")
    canvas.setCreator("carddb")
    canvas.setSubject("print-and-play kit; print at 100 % (actual size)")
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


def _area(pagesize: tuple[float, float]) -> tuple[float, float, float, float]:
    """The printable area in mm: x, y, width, height."""
    width, height = pagesize[0] / mm, pagesize[1] / mm
    return MARGIN_MM, MARGIN_MM, width - 2 * MARGIN_MM, height - 2 * MARGIN_MM


def _footer(c: Canvas, pagesize: tuple[float, float], text: str) -> None:
    c.setFillColor(style.MUTED)
    c.setFont(SANS, 7)
    c.drawCentredString(pagesize[0] / 2, (MARGIN_MM + 2) * mm, plain(text))


def _paragraph(c: Canvas, text: str, x: float, top: float, width: float, font: str = SANS,
               size: float = 10) -> float:
    """Wrapped text from ``top`` down; returns the next line's top."""
    c.setFont(font, size)
    for line in simpleSplit(plain(text), font, size, width):
        c.drawString(x, top - size, line)
        top -= size * 1.3
    return top


def cover(game: GameDefinition, pagesize: tuple[float, float], credits: str, parts: Sequence[PartLine],
          paint_back: PaintBack | None, card_size: tuple[float, float]) -> bytes:
    buffer = io.BytesIO()
    c = new_canvas(buffer, pagesize, f"{game.name}: print-and-play kit")
    width, height = pagesize
    left = (MARGIN_MM + 13) * mm
    text_width = width - 2 * left
    c.setFillColor(style.ACCENT)
    c.rect(MARGIN_MM * mm, height - (MARGIN_MM + 62) * mm, width - 2 * MARGIN_MM * mm, 62 * mm, stroke=0, fill=1)
    c.setFillColor((1, 1, 1))
    name = plain(game.name)
    c.setFont(BOLD, style.canvas_font_fits(name, BOLD, 30, text_width))
    c.drawString(left, height - (MARGIN_MM + 30) * mm, name)
    c.setFont(SANS, 15)
    c.drawString(left, height - (MARGIN_MM + 44) * mm, "Print-and-play kit")
    c.setFillColor(style.INK)
    top = _paragraph(c, credits, left, height - (MARGIN_MM + 74) * mm, text_width, ITALIC, 10)
    top = _paragraph(c, "An unofficial fan game. The rulebook is retold in our own words; all credit for the game "
                        "belongs to its authors.", left, top - 2 * mm, text_width, SANS, 9)
    if paint_back is not None:
        w, h = card_size[0] * mm * 0.9, card_size[1] * mm * 0.9
        paint_back(c, width - left - w, top - 6 * mm - h, w, h)
        text_width -= w + 8 * mm
    c.setFillColor(style.ACCENT)
    c.setFont(BOLD, 13)
    top -= 10 * mm
    c.drawString(left, top, "Inside")
    top -= 7 * mm
    for part in parts:
        c.setFillColor(style.INK)
        c.setFont(BOLD, 10)
        c.drawString(left, top, plain(part.title))
        c.setFont(SANS, 9)
        pages = (f"page {part.first_page}" if part.pages == 1 else
                 f"pages {part.first_page}-{part.first_page + part.pages - 1}")
        c.drawRightString(left + text_width, top, pages)
        c.setFillColor(style.MUTED)
        c.setFont(SANS, 7.5)
        c.drawString(left + 4 * mm, top - 4.2 * mm, plain(f"{part.filename} · {part.paper} · {part.sides}"))
        top -= 11 * mm
    _footer(c, pagesize, f"Made with carddb {__version__} from rules/{game.id}/. Print at Actual size (100 %).")
    c.showPage()
    c.save()
    return buffer.getvalue()


def checklist(game: GameDefinition, pagesize: tuple[float, float], parts: Sequence[PartLine],
              extras: Sequence[str], steps: Sequence[str], paper_name: str) -> bytes:
    buffer = io.BytesIO()
    c = new_canvas(buffer, pagesize, f"{game.name}: checklist")
    width, height = pagesize
    left = (MARGIN_MM + 8) * mm
    right = width - left
    top = height - (MARGIN_MM + 14) * mm
    c.setFillColor(style.ACCENT)
    c.setFont(BOLD, 18)
    c.drawString(left, top, "Checklist")
    top -= 9 * mm
    c.setFillColor(style.INK)
    top = _paragraph(c, f"Print on {paper_name} at Actual size (100 %), never 'fit to page'. This bar measures "
                        "100 mm; check it with a ruler after printing:", left, top, right - left, SANS, 9.5)
    c.setLineWidth(1)
    c.setStrokeColor(style.INK)
    bar_y = top - 4 * mm
    c.line(left, bar_y, left + 100 * mm, bar_y)
    for tick in range(0, 101, 10):
        c.line(left + tick * mm, bar_y, left + tick * mm, bar_y + (3 if tick % 50 else 5) * mm)
    c.setFont(SANS, 7)
    c.drawString(left + 101 * mm, bar_y, "100 mm")
    top = bar_y - 9 * mm
    columns = [("", 0.0), ("part", 6.0), ("pages", 60.0), ("paper", 78.0), ("sides", 112.0), ("copies", 152.0)]
    c.setFont(BOLD, 8.5)
    for label, at in columns:
        c.drawString(left + at * mm, top, label)
    top -= 2 * mm
    c.setLineWidth(0.4)
    c.line(left, top, right, top)
    top -= 5 * mm
    for part in parts:
        c.setStrokeColor(style.INK)
        c.rect(left, top - 0.5 * mm, 3.2 * mm, 3.2 * mm, stroke=1, fill=0)  # a box to tick
        c.setFont(BOLD, 8.5)
        c.setFillColor(style.INK)
        c.drawString(left + 6 * mm, top, plain(part.title)[:34])
        c.setFont(SANS, 8)
        pages = str(part.first_page) if part.pages == 1 else f"{part.first_page}-{part.first_page + part.pages - 1}"
        c.drawString(left + 60 * mm, top, pages)
        paper = simpleSplit(plain(part.paper), SANS, 8, 32 * mm)[:2]
        sides = simpleSplit(plain(part.sides), SANS, 8, 38 * mm)[:2]
        for column, lines in ((78, paper), (112, sides)):
            for index, line in enumerate(lines):
                c.drawString(left + column * mm, top - index * 3.4 * mm, line)
        c.drawString(left + 152 * mm, top, plain(part.copies)[:14])
        c.setFillColor(style.MUTED)
        c.setFont(SANS, 7.5)
        then_top = top - max(len(sides), len(paper), 1) * 3.4 * mm - 0.6 * mm
        for line in simpleSplit(plain(f"{part.filename}: {part.then}"), SANS, 7.5, 104 * mm)[:3]:
            c.drawString(left + 6 * mm, then_top, line)
            then_top -= 3.2 * mm
        top = then_top - 3 * mm
    top -= 2 * mm
    for heading, lines in (("Also needed", extras), ("Putting it together", steps)):
        c.setFillColor(style.ACCENT)
        c.setFont(BOLD, 11)
        c.drawString(left, top, heading)
        top -= 5.5 * mm
        c.setFillColor(style.INK)
        c.setFont(SANS, 8.5)
        for number, line in enumerate(lines, 1):
            c.drawString(left, top, f"{number}." if heading != "Also needed" else "-")
            for wrapped in simpleSplit(plain(line), SANS, 8.5, right - left - 5 * mm):
                c.drawString(left + 5 * mm, top, wrapped)
                top -= 8.5 * 1.3
            top -= 1.2 * mm
        top -= 3 * mm
    if top < (MARGIN_MM + 8) * mm:
        raise InputError(f"{game.id}: the checklist does not fit one page ({len(parts)} parts)")
    _footer(c, pagesize, f"{game.name} print-and-play kit · carddb {__version__}")
    c.showPage()
    c.save()
    return buffer.getvalue()


def reference_sheet(game: GameDefinition, reference: Reference, pagesize: tuple[float, float],
                    card_size: tuple[float, float]) -> bytes:
    """The quick-reference cards, ``reference.copies`` of them at the card size, on one page."""
    buffer = io.BytesIO()
    c = new_canvas(buffer, pagesize, f"{game.name}: quick reference")
    ax, ay, aw, ah = _area(pagesize)
    card_w, card_h = card_size
    columns = max(1, int((aw + 4) // (card_w + 4)))
    rows = max(1, int((ah - 14 + 4) // (card_h + 4)))
    if columns * rows < reference.copies:
        raise InputError(f"{game.id}: {reference.copies} quick-reference cards do not fit a page")
    c.setFillColor(style.INK)
    c.setFont(BOLD, 11)
    c.drawString((ax + 3) * mm, (ay + ah - 7) * mm, plain(f"{game.name}: quick-reference cards"))
    c.setFont(SANS, 8)
    c.setFillColor(style.MUTED)
    c.drawString((ax + 3) * mm, (ay + ah - 11) * mm, "Cut on the outline; sleeve each card with a backer card.")
    used = min(columns, reference.copies)
    x0 = ax + (aw - used * card_w - (used - 1) * 4) / 2
    for index in range(reference.copies):
        row, column = divmod(index, columns)
        x = x0 + column * (card_w + 4)
        y = ay + ah - 14 - (row + 1) * card_h - row * 4
        draw_reference(c, reference, x * mm, y * mm, card_w * mm, card_h * mm, f"{game.name} · carddb kit")
    c.showPage()
    c.save()
    return buffer.getvalue()


def tuck_box_sheet(game: GameDefinition, box: TuckBox, pagesize: tuple[float, float], subtitle: str,
                   note: str, paint_back: PaintBack | None) -> bytes:
    """The tuck box on one page, portrait or, when it is wider than the printable area, landscape."""
    flat_w, flat_h = box.flat
    for size in (pagesize, (pagesize[1], pagesize[0])):
        _, _, aw, ah = _area(size)
        if flat_w <= aw and flat_h + 15 <= ah:
            break
    else:
        raise InputError(f"a tuck box for {box.cards} cards ({flat_w:.0f} x {flat_h:.0f} mm flat) does not fit "
                         f"one sheet", hint="choose a thinner --stock or --sleeves none, or print fewer cards a deck")
    buffer = io.BytesIO()
    c = new_canvas(buffer, size, f"{game.name}: tuck box")
    ax, ay, aw, ah = _area(size)
    x = ax + (aw - flat_w) / 2
    y = ay + (ah - 15 - flat_h) / 2
    c.setFillColor(style.INK)
    c.setFont(BOLD, 10)
    c.drawString((ax + 2) * mm, (ay + ah - 5) * mm, plain(f"{game.name}: tuck box"))
    c.setFont(SANS, 7.5)
    c.setFillColor(style.MUTED)
    for index, line in enumerate(simpleSplit(plain(note), SANS, 7.5, (aw - 4) * mm)[:2]):
        c.drawString((ax + 2) * mm, (ay + ah - 9.5 - 3.3 * index) * mm, line)
    draw_tuck_box(c, box, (x * mm, y * mm), name=game.name, subtitle=subtitle, back=paint_back)
    c.showPage()
    c.save()
    return buffer.getvalue()


def pieces_sheets(game: GameDefinition, blocks: Sequence[Block], pagesize: tuple[float, float]) -> bytes:
    """The pieces packed onto as many pages as they need."""
    buffer = io.BytesIO()
    c = new_canvas(buffer, pagesize, f"{game.name}: pieces")
    ax, ay, aw, ah = _area(pagesize)
    header = 10.0
    pages = pack(blocks, (ax + 2, ay + 2, aw - 4, ah - 4 - header))
    for number, page in enumerate(pages):
        c.setFillColor(style.INK)
        c.setFont(BOLD, 11)
        c.drawString((ax + 2) * mm, (ay + ah - 6) * mm,
                     plain(f"{game.name}: pieces" + (f" ({number + 1} of {len(pages)})" if len(pages) > 1 else "")))
        c.setFont(SANS, 7.5)
        c.setFillColor(style.MUTED)
        c.drawString((ax + 2) * mm, (ay + ah - 10) * mm, "Cut on solid lines, fold on dashed ones. Cardstock, or "
                     "glue the sheet to card before cutting.")
        for block, x, top in page:
            block.draw(c, x * mm, top * mm)
        c.showPage()
    c.save()
    return buffer.getvalue()
