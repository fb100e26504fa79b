"""Saddle-stitched booklet imposition: pages of half the sheet (A5 on A4, 5.5 x 8.5 in on Letter), two to a
side of a landscape sheet, in the order that folds into the book.

Pages are padded with blanks to a multiple of four. Sheet ``i`` (0 the outermost) carries pages ``P-2i | 2i+1``
on its front and ``2i+2 | P-2i-1`` on its back (left | right, counted from 1); printed duplex flipping on the
short edge, the pile folds in the middle into the book. The imposed file is for printing only: its links and
bookmarks would name pages that are no longer there, so the reading PDF is kept as its own part.
"""

from __future__ import annotations

import io


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """The (left, right) page numbers (1-based; above ``pages`` a blank) of each sheet side, front then back."""
    total = -(-pages // 4) * 4
    order: list[tuple[int, int]] = []
    for sheet in range(total // 4):
        order.append((total - 2 * sheet, 2 * sheet + 1))
        order.append((2 * sheet + 2, total - 2 * sheet - 1))
    return order


def impose_booklet(pdf: bytes, sheet_size: tuple[float, float]) -> bytes:
    """``pdf`` (pages of half ``sheet_size`` landscape) imposed two-up onto landscape sheets."""
    from pypdf import PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pdf))
    sheet_w, sheet_h = max(sheet_size), min(sheet_size)
    writer = PdfWriter()
    for left, right in booklet_order(len(reader.pages)):
        side = writer.add_blank_page(sheet_w, sheet_h)
        for slot, number in enumerate((left, right)):
            if number > len(reader.pages):
                continue
            page = reader.pages[number - 1]
            page_w = float(page.mediabox.width)
            page_h = float(page.mediabox.height)
            gutter_x = sheet_w / 2 - page_w if slot == 0 else sheet_w / 2  # pages meet at the fold
            side.merge_transformed_page(page, Transformation().translate(gutter_x, (sheet_h - page_h) / 2))
        if "/Annots" in side:  # links point into the reading file's pages: none on the printed sheets
            del side["/Annots"]
    writer.create_viewer_preferences()
    writer.viewer_preferences.print_scaling = "/None"
    writer.viewer_preferences.duplex = "/DuplexFlipShortEdge"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
