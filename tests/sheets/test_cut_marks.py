"""A crop mark at each end of every cut line, on every page of every game's sheets, read back from the PDF in mm.

The cards are found from the page's own drawing (each face is a form drawn at its place, its BBox the bleed
box), the marks with pdfplumber (the black solid strokes), so nothing here trusts the plan that drew them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from carddb.errors import OutputError
from carddb.layout.cut_lines import unmarked
from carddb.layout.impose import (
    CARD_SIZES,
    PAPER_SIZES,
    SheetPlan,
    SheetSpec,
    auto_bleed,
    card_size,
    paper_size,
    plan_sheets,
)
from carddb.paint.print_job import PrintOptions, print_cards
from carddb.paint.sheets import write_sheets

from .conftest import MM, stand_in_job, without_faces

GAMES = ["minibattle", "shmod", "ssbm", "ssq", "website"]
LAYOUTS = ["fronts", "duplex-long", "duplex-short", "fold"]
MARGIN_MM = 5.0  # the default printer margin: nothing printed nearer the paper's edge shows


def cards_on(pdf_path: Path) -> list[list[tuple[tuple[float, float, float, float], tuple[float, float, float, float]]]]:
    """Each page's cards as (trim, bleed) rectangles (x0, y0, x1, y1) in mm, from where its forms are drawn."""
    pages = []
    for page in PdfReader(pdf_path).pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        stack = []
        found = []
        for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
            if operator == b"q":
                stack.append(ctm)
            elif operator == b"Q":
                ctm = stack.pop()
            elif operator == b"cm":
                a, b, c, d, e, f = (float(v) for v in operands)
                A, B, C, D, E, F = ctm
                ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E,
                       e * B + f * D + F]
            elif operator == b"Do" and xobjects[operands[0]].get("/Subtype") == "/Form":
                x0, y0, x1, y1 = (float(v) for v in xobjects[operands[0]]["/BBox"])
                assert ctm[:4] == [1.0, 0.0, 0.0, 1.0]  # sheets place faces unturned (no printer profile here)
                ex, ey = ctm[4], ctm[5]
                trim = (ex * MM, ey * MM, (ex + x1 + x0) * MM, (ey + y1 + y0) * MM)
                bleed = ((ex + x0) * MM, (ey + y0) * MM, (ex + x1) * MM, (ey + y1) * MM)
                found.append((trim, bleed))
        pages.append(found)
    return pages


def marks_on(pdf_path: Path) -> list[tuple[list[tuple[float, float, float, float]], float, float]]:
    """Each page's black solid strokes as (x0, y0, x1, y1) in mm from the lower-left corner, and its size."""
    pages = []
    with pdfplumber.open(without_faces(pdf_path)) as pdf:
        for page in pdf.pages:
            height = float(page.height)
            lines = [(ln["x0"] * MM, (height - ln["bottom"]) * MM, ln["x1"] * MM, (height - ln["top"]) * MM)
                     for ln in page.lines
                     if tuple(ln.get("stroking_color") or (0,)) in ((0,), (0, 0, 0))
                     and not (ln.get("dash") or [[]])[0]]
            pages.append((lines, float(page.width) * MM, height * MM))
    return pages


def missing_marks(pdf_path: Path) -> list[str]:
    """Every cut-line end without a mark of at least 1 mm beyond it, outside every card, inside the margins."""
    problems = []
    for number, (cards, (lines, width, height)) in enumerate(zip(cards_on(pdf_path), marks_on(pdf_path),
                                                                  strict=True), 1):
        bleeds = [b for _, b in cards]
        for axis in ("v", "h"):
            edges: dict[float, list[float]] = {}
            for (x0, y0, x1, y1), _ in cards:
                lines_at = (x0, x1) if axis == "v" else (y0, y1)
                along = (y0, y1) if axis == "v" else (x0, x1)
                for at in lines_at:
                    span = edges.setdefault(round(at, 2), [along[0], along[1]])
                    span[0], span[1] = min(span[0], along[0]), max(span[1], along[1])
            for at, (lo, hi) in edges.items():
                for end, outward in ((lo, -1), (hi, 1)):
                    if not any(_marks(line, axis, at, end, outward, bleeds, width, height) for line in lines):
                        problems.append(f"page {number}: {axis} line at {at} mm, end {end:.2f} ({outward:+d})")
    return problems


def _marks(line, axis, at, end, outward, bleeds, width, height) -> bool:
    x0, y0, x1, y1 = line
    if axis == "v":
        if abs(x0 - at) > 0.02 or abs(x1 - at) > 0.02:
            return False
        lo, hi = y0, y1
        inside = lo >= MARGIN_MM - 0.02 and hi <= height - MARGIN_MM + 0.02
    else:
        if abs(y0 - at) > 0.02 or abs(y1 - at) > 0.02:
            return False
        lo, hi = x0, x1
        inside = lo >= MARGIN_MM - 0.02 and hi <= width - MARGIN_MM + 0.02
    beyond = lo >= end - 0.02 if outward > 0 else hi <= end + 0.02
    crosses = any((b[0] + 0.02 < at < b[2] - 0.02 and lo < b[3] and hi > b[1]) if axis == "v"
                  else (b[1] + 0.02 < at < b[3] - 0.02 and lo < b[2] and hi > b[0]) for b in bleeds)
    return inside and beyond and not crosses and hi - lo >= 1.0


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_cut_line_of_every_game_has_a_mark_at_both_ends(workspace, catalogue, tmp_path, game_id, paper,
                                                             layout):
    cards = catalogue.cards(game_id)[:11]  # a full page and a part-filled one (fold: several part-filled)
    out = tmp_path / f"{game_id}.pdf"
    result = print_cards(workspace.root, catalogue.game(game_id), cards, out, PrintOptions(paper=paper, layout=layout))
    assert missing_marks(out) == []
    pages = cards_on(out)
    assert sum(len(p) for p in pages) == len(cards) * (1 if layout == "fronts" else 2)
    assert "a crop mark at each of" in result.report.summary()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_builds_sheets_have_every_mark(workspace, catalogue, tmp_path, game_id):
    """What ``carddb build`` prints for a deck: its list first, then fronts and backs (duplex-long)."""
    cards = catalogue.cards(game_id)[:10]
    out = tmp_path / "deck.pdf"
    print_cards(workspace.root, catalogue.game(game_id), cards, out, PrintOptions(layout="duplex-long", deck_list=True))
    assert missing_marks(out) == []


def test_poker_on_a4_has_marks_for_the_horizontal_cuts_too(workspace, catalogue, tmp_path):
    """The reported case: nine poker cards on A4 with the 5 mm margin had marks for the vertical cuts only."""
    out = tmp_path / "ssbm.pdf"
    print_cards(workspace.root, catalogue.game("ssbm"), catalogue.cards("ssbm")[:9], out, PrintOptions())
    (lines, width, _height), = marks_on(out)
    horizontal = [ln for ln in lines if abs(ln[1] - ln[3]) < 0.01 and (ln[2] < 30 or ln[0] > width - 30)]
    assert len(horizontal) == 12  # six horizontal cut lines (three rows with 0.5 mm bleed), each marked both sides
    # three columns of 63 mm on 200 mm leave 11 mm: 3 mm of mark and 1 mm before it on each side take 8, so the
    # automatic bleed is 0.5 mm (1 mm left 1.5 mm marks, too short to lay a ruler against)
    assert all(round(ln[2] - ln[0], 2) == 3.0 for ln in horizontal)
    (cards,) = cards_on(out)
    assert len(cards) == 9
    trim, bleed = cards[0]
    assert round(trim[0] - bleed[0], 2) == 0.5  # the automatic bleed leaves the marks their room


def test_a_sheet_with_a_cut_line_end_unmarked_fails_its_check_and_is_not_kept(tmp_path):
    plan = plan_sheets(SheetSpec(bleed=1.0), 9)
    page = plan.pages[0]
    left = min(m.x0 for m in page.marks)
    gone = next(m for m in page.marks if m.y0 == m.y1 and m.x0 == left)  # the mark left of the grid's bottom cut
    dropped = tuple(m for m in page.marks if m != gone)
    broken = SheetPlan(plan.spec, plan.grid, (replace(page, marks=dropped),), plan.items)
    out = tmp_path / "unmarked.pdf"
    with pytest.raises(OutputError, match=r"page 1: the left end of the horizontal cut line at y = [\d.]+ mm has no "
                                          r"crop mark"):
        write_sheets(stand_in_job(broken), out)
    assert list(tmp_path.iterdir()) == []


def test_an_asked_bleed_without_room_for_the_marks_moves_the_cards_in(tmp_path):
    """--bleed 1.5 on A4 poker: nine cards would leave 1 mm beside them; eight, turned, leave room for marks."""
    plan = plan_sheets(SheetSpec(bleed=1.5), 8)
    assert (plan.grid.orientation, plan.grid.cols, plan.grid.rows) == ("landscape", 4, 2)
    out = tmp_path / "bleed.pdf"
    write_sheets(stand_in_job(plan), out)
    assert missing_marks(out) == []


@pytest.mark.parametrize("layout", ["fronts", "duplex-long", "duplex-short", "fold"])
@pytest.mark.parametrize("paper", sorted(PAPER_SIZES))
@pytest.mark.parametrize("card", sorted(CARD_SIZES))
def test_every_paper_and_card_size_plans_a_mark_at_each_end(paper, card, layout):
    spec = SheetSpec(paper=paper_size(paper), card=card_size(card), layout=layout)
    spec = replace(spec, bleed=auto_bleed(spec))
    plan = plan_sheets(spec, 2 * plan_sheets(spec, 1).per_sheet - 1)
    for page in plan.pages:
        trims = [p.trim for p in page.placements]
        assert unmarked(trims, page.marks, [p.bleed_rect for p in page.placements], plan.grid.printable) == []
