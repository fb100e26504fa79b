"""The game's pieces (``[components]`` of game.toml) and its quick-reference card, drawn from templates.

Each template turns a declared piece into a block of a known size (millimetres) and a drawing of it; blocks are
packed in rows inside the printable area of as many pages as they need (the self-check then measures the PDF).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit

from carddb.core.game.components import Piece, Reference
from carddb.errors import InputError
from carddb.kit import style
from carddb.kit.style import BOLD, SANS, plain

#: The block's title line above every piece.
_TITLE_MM = 9.0
_GAP_MM = 5.0
DrawBlock = Callable[[object, float, float], None]  # (canvas, x, top) in points


@dataclass
class Block:
    """A piece laid out: its size in mm and how to draw it with its top-left corner at a point."""

    name: str
    width: float
    height: float
    draw: DrawBlock


def _title(c: object, x: float, top: float, piece: Piece, section: str, width: float) -> None:
    c.setFillColor(style.ACCENT)
    c.setFont(BOLD, 10)
    c.drawString(x, top - 4 * mm, plain(piece.name))
    said = " · ".join(part for part in (f"Rulebook: {section}" if section else "", piece.note) if part)
    if said:
        c.setFillColor(style.MUTED)
        size = style.canvas_font_fits(plain(said), SANS, 7.5, width * mm)
        c.setFont(SANS, size)
        c.drawString(x, top - 7.8 * mm, plain(said))


def piece_blocks(pieces: Sequence[Piece], safe_width: float, sections: dict[str, str]) -> list[Block]:
    """A block per declared piece (each copy its own block), for a printable area ``safe_width`` mm wide."""
    blocks: list[Block] = []
    for piece in pieces:
        make = _TEMPLATES[piece.template]
        for _ in range(piece.copies):
            blocks.append(make(piece, safe_width, sections.get(piece.rule, "")))
    return blocks


def _counters(piece: Piece, width: float, section: str) -> Block:
    p = piece.params
    size = p["size_mm"]
    tokens = [value for value in p["values"] for _ in range(p["count"])]
    columns = max(1, int(width // size))
    rows = math.ceil(len(tokens) / columns)
    used = min(columns, len(tokens)) * size

    def draw(c: object, x: float, top: float) -> None:
        _title(c, x, top, piece, section, width)
        y0 = top - _TITLE_MM * mm
        c.setLineWidth(0.5)
        for index, value in enumerate(tokens):
            row, column = divmod(index, columns)
            cx = x + (column + 0.5) * size * mm
            cy = y0 - (row + 0.5) * size * mm
            c.setStrokeColor(style.INK)
            c.setFillColor(style.NOTE_FILL)
            if p["shape"] == "round":
                c.circle(cx, cy, size * mm / 2 - 0.4 * mm, stroke=1, fill=1)
            else:
                c.rect(cx - size * mm / 2, cy - size * mm / 2, size * mm, size * mm, stroke=1, fill=1)
            c.setFillColor(style.INK)
            text = plain(value)
            c.setFont(BOLD, style.canvas_font_fits(text, BOLD, size * 0.9, size * 0.7 * mm))
            c.drawCentredString(cx, cy - size * 0.12 * mm, text)

    return Block(piece.name, max(used, 60.0), _TITLE_MM + rows * size, draw)


def _track(piece: Piece, width: float, section: str) -> Block:
    p = piece.params
    values = list(range(p["from"], p["to"] + 1, p["step"]))
    label_w, box, row_gap = 20.0, 8.0, 2.0
    per_line = max(2, int((width - label_w) // box))
    lines = math.ceil(len(values) / per_line)
    player_h = lines * box + row_gap

    def draw(c: object, x: float, top: float) -> None:
        _title(c, x, top, piece, section, width)
        y = top - _TITLE_MM * mm
        for player in range(p["players"]):
            c.setFillColor(style.INK)
            c.setFont(BOLD, 7.5)
            c.drawString(x, y - box * 0.65 * mm, f"Player {player + 1}")
            for index, value in enumerate(values):
                line, column = divmod(index, per_line)
                bx = x + (label_w + column * box) * mm
                by = y - (line + 1) * box * mm
                c.setStrokeColor(style.MUTED)
                c.setLineWidth(0.4)
                c.setFillColor(style.NOTE_FILL if (index % 2) else style.EXAMPLE_FILL)
                c.rect(bx, by, box * mm, box * mm, stroke=1, fill=1)
                c.setFillColor(style.INK)
                text = f"{value}{p['unit']}"
                c.setFont(SANS, style.canvas_font_fits(text, SANS, 7, (box - 1) * mm))
                c.drawCentredString(bx + box * mm / 2, by + box * 0.36 * mm, text)
            y -= player_h * mm

    return Block(piece.name, min(width, label_w + per_line * box), _TITLE_MM + p["players"] * player_h, draw)


def _sheet(piece: Piece, width: float, section: str) -> Block:
    p = piece.params
    label_w, row_h = 46.0, 11.0
    column_w = min(36.0, (width - label_w) / p["players"])
    rows = len(p["rows"]) + 1

    def draw(c: object, x: float, top: float) -> None:
        _title(c, x, top, piece, section, width)
        y = top - _TITLE_MM * mm
        c.setLineWidth(0.5)
        c.setStrokeColor(style.MUTED)
        for row in range(rows):
            ry = y - (row + 1) * row_h * mm
            c.setFillColor(style.TABLE_HEAD if row == 0 else style.NOTE_FILL)
            c.rect(x, ry, label_w * mm, row_h * mm, stroke=1, fill=1)
            c.setFillColor(style.INK)
            if row:
                label = plain(p["rows"][row - 1])
                c.setFont(BOLD, style.canvas_font_fits(label, BOLD, 8.5, (label_w - 3) * mm))
                c.drawString(x + 1.5 * mm, ry + row_h * 0.38 * mm, label)
            for column in range(p["players"]):
                cx = x + (label_w + column * column_w) * mm
                c.setFillColor(style.TABLE_HEAD if row == 0 else (1, 1, 1))
                c.rect(cx, ry, column_w * mm, row_h * mm, stroke=1, fill=1)
                c.setFillColor(style.INK if row == 0 else style.MUTED)
                if row == 0:
                    c.setFont(BOLD, 8)
                    c.drawCentredString(cx + column_w * mm / 2, ry + row_h * 0.38 * mm, f"Player {column + 1}")
                elif p["rows"][row - 1] in p["start"]:
                    c.setFont(SANS, 6.5)
                    c.drawString(cx + 1.2 * mm, ry + row_h * mm - 3 * mm,
                                 plain(f"starts at {p['start'][p['rows'][row - 1]]}"))

    return Block(piece.name, label_w + p["players"] * column_w, _TITLE_MM + rows * row_h, draw)


def _mat(piece: Piece, width: float, section: str) -> Block:
    p = piece.params
    zones = p["zones"]
    ring = 17.0  # a d10 is about 16 mm across
    zone_w = (width - (len(zones) - 1) * 4) / len(zones)
    per_row = max(1, int((zone_w - 6) // (ring + 2)))
    rows = math.ceil(p["dice"] / per_row)
    zone_h = 14 + rows * (ring + 2) + 4

    def draw(c: object, x: float, top: float) -> None:
        _title(c, x, top, piece, section, width)
        y = top - _TITLE_MM * mm
        for index, zone in enumerate(zones):
            zx = x + index * (zone_w + 4) * mm
            c.setStrokeColor(style.ACCENT)
            c.setLineWidth(1)
            c.setFillColor(style.NOTE_FILL if index % 2 == 0 else style.EXAMPLE_FILL)
            c.roundRect(zx, y - zone_h * mm, zone_w * mm, zone_h * mm, 4 * mm, stroke=1, fill=1)
            c.setFillColor(style.ACCENT)
            c.setFont(BOLD, 12)
            c.drawCentredString(zx + zone_w * mm / 2, y - 9 * mm, plain(zone))
            c.setStrokeColor(style.MUTED)
            c.setLineWidth(0.5)
            c.setDash(2, 2)
            for die in range(p["dice"]):
                row, column = divmod(die, per_row)
                offset = (zone_w - per_row * (ring + 2)) / 2
                cx = zx + (offset + column * (ring + 2) + (ring + 2) / 2) * mm
                cy = y - (14 + row * (ring + 2) + (ring + 2) / 2) * mm
                c.circle(cx, cy, ring * mm / 2, stroke=1, fill=0)
                c.setFillColor(style.MUTED)
                c.setFont(SANS, 6)
                c.drawCentredString(cx, cy - 1 * mm, plain(p["die"]))
            c.setDash()

    return Block(piece.name, width, _TITLE_MM + zone_h, draw)


def _coin(piece: Piece, width: float, section: str) -> Block:
    p = piece.params
    size = p["size_mm"]
    pair_w = 2 * size + 6
    per_row = max(1, int(width // pair_w))
    rows = math.ceil(p["count"] / per_row)

    def draw(c: object, x: float, top: float) -> None:
        _title(c, x, top, piece, section, width)
        y = top - _TITLE_MM * mm
        for index in range(p["count"]):
            row, column = divmod(index, per_row)
            left = x + column * pair_w * mm
            cy = y - (row + 0.5) * (size + 3) * mm
            for side, face in enumerate(p["faces"]):
                cx = left + (size / 2 + side * size) * mm
                c.setStrokeColor(style.INK)
                c.setLineWidth(0.5)
                c.setFillColor(style.GLUE_FILL if side == 0 else style.NOTE_FILL)
                c.circle(cx, cy, size * mm / 2, stroke=1, fill=1)
                c.setFillColor(style.INK)
                text = plain(face)
                c.setFont(BOLD, style.canvas_font_fits(text, BOLD, 9, size * 0.75 * mm))
                c.drawCentredString(cx, cy - 1.2 * mm, text)
            fold_x = left + size * mm  # the circles touch here: fold, glue the faces back to back
            c.setStrokeColor(style.FOLD)
            c.setDash(2, 1.5)
            c.line(fold_x, cy - size * 0.3 * mm, fold_x, cy + size * 0.3 * mm)
            c.setDash()

    return Block(piece.name, min(width, per_row * pair_w), _TITLE_MM + rows * (size + 3), draw)


_TEMPLATES: dict[str, Callable[[Piece, float, str], Block]] = {
    "counters": _counters, "track": _track, "sheet": _sheet, "mat": _mat, "coin": _coin,
}


def pack(blocks: Sequence[Block], area: tuple[float, float, float, float]) -> list[list[tuple[Block, float, float]]]:
    """Blocks in rows, left to right, top to bottom, page after page, inside ``area`` (x, y, w, h in mm).
    Each page lists (block, x, top) in mm."""
    ax, ay, aw, ah = area
    pages: list[list[tuple[Block, float, float]]] = [[]]
    x, top, row_h = ax, ay + ah, 0.0
    for block in blocks:
        if block.width > aw + 1e-6 or block.height > ah + 1e-6:
            raise InputError(f"the piece {block.name!r} ({block.width:.0f} x {block.height:.0f} mm) does not fit "
                             f"the printable area ({aw:.0f} x {ah:.0f} mm)", hint="declare it smaller in game.toml")
        if x + block.width > ax + aw + 1e-6:
            x, top, row_h = ax, top - row_h - _GAP_MM, 0.0
        if top - block.height < ay - 1e-6:
            pages.append([])
            x, top, row_h = ax, ay + ah, 0.0
        pages[-1].append((block, x, top))
        x += block.width + _GAP_MM
        row_h = max(row_h, block.height)
    return [page for page in pages if page]


def reference_lines(reference: Reference) -> list[tuple[str, str]]:
    """The card's content as (kind, text) lines: the phases numbered, then the numbers."""
    lines: list[tuple[str, str]] = []
    if reference.phases:
        lines.append(("head", "Turn"))
        lines += [("item", f"{index}. {phase}") for index, phase in enumerate(reference.phases, 1)]
    if reference.numbers:
        lines.append(("head", "Numbers"))
        lines += [("item", f"{label}: {value}") for label, value in reference.numbers]
    return lines


def draw_reference(c: object, reference: Reference, x: float, y: float, w: float, h: float, footer: str) -> None:
    """One quick-reference card in the rectangle (points): its outline is the cut line."""
    pad = 3 * mm
    c.saveState()
    c.setStrokeColor(style.INK)
    c.setLineWidth(0.5)
    c.setFillColor((1, 1, 1))
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.setFillColor(style.ACCENT)
    c.rect(x, y + h - 9 * mm, w, 9 * mm, stroke=0, fill=1)
    c.setFillColor((1, 1, 1))
    title = plain(reference.title)
    c.setFont(BOLD, style.canvas_font_fits(title, BOLD, 9, w - 2 * pad))
    c.drawString(x + pad, y + h - 6 * mm, title)
    lines = reference_lines(reference)
    room = h - 9 * mm - 2 * pad - 4 * mm
    size = 8.0
    while True:
        wrapped = [(kind, part) for kind, text in lines
                   for part in simpleSplit(plain(text), BOLD if kind == "head" else SANS, size, w - 2 * pad)]
        if len(wrapped) * size * 1.25 <= room or size <= 4.5:
            break
        size -= 0.25
    cursor = y + h - 9 * mm - pad - size
    for kind, text in wrapped:
        c.setFillColor(style.ACCENT if kind == "head" else style.INK)
        c.setFont(BOLD if kind == "head" else SANS, size)
        c.drawString(x + pad, cursor, text)
        cursor -= size * 1.25
    c.setFillColor(style.MUTED)
    c.setFont(SANS, 5.5)
    c.drawString(x + pad, y + pad - 1 * mm, plain(footer)[:80])
    c.restoreState()
