"""Imposition with exact numbers: every card's position on A4 and Letter, with and without bleed and gutter."""

from __future__ import annotations

from dataclasses import replace

import pytest

from carddb.errors import InputError
from carddb.layout.impose import (
    Margins,
    Rect,
    SheetSpec,
    apply,
    auto_bleed,
    card_size,
    fit_grid,
    paper_size,
    plan_sheets,
)


def positions(spec: SheetSpec) -> tuple[str, list[float], list[float]]:
    grid = fit_grid(spec)
    xs = sorted({s.x for s in grid.slots})
    ys = sorted({s.y for s in grid.slots}, reverse=True)
    assert len(grid.slots) == len(xs) * len(ys) == grid.cols * grid.rows
    return grid.orientation, xs, ys


def spec(paper: str = "A4", **kwargs) -> SheetSpec:
    return SheetSpec(paper=paper_size(paper), **kwargs)


@pytest.mark.parametrize(("paper", "bleed", "gutter", "orientation", "xs", "ys"), [
    ("A4", 0, 0, "portrait", [10.5, 73.5, 136.5], [192.5, 104.5, 16.5]),
    ("A4", 0, 4, "portrait", [6.5, 73.5, 140.5], [196.5, 104.5, 12.5]),
    ("A4", 3, 0, "landscape", [13.5, 82.5, 151.5, 220.5], [108.0, 14.0]),
    ("A4", 3, 2, "landscape", [10.5, 81.5, 152.5, 223.5], [109.0, 13.0]),
    ("Letter", 0, 0, "portrait", [13.45, 76.45, 139.45], [183.7, 95.7, 7.7]),
    ("Letter", 0, 4, "landscape", [7.7, 74.7, 141.7, 208.7], [109.95, 17.95]),
    ("Letter", 3, 0, "landscape", [39.2, 108.2, 177.2], [110.95, 16.95]),
    ("Letter", 3, 2, "landscape", [37.2, 108.2, 179.2], [111.95, 15.95]),
])
def test_every_poker_card_position(paper, bleed, gutter, orientation, xs, ys):
    assert positions(spec(paper, bleed=bleed, gutter=gutter)) == (orientation, xs, ys)


def test_slots_are_counted_row_by_row_from_the_top_left():
    grid = fit_grid(spec())
    assert [(s.x, s.y) for s in grid.slots[:4]] == [(10.5, 192.5), (73.5, 192.5), (136.5, 192.5), (10.5, 104.5)]
    assert all((s.w, s.h) == (63.0, 88.0) for s in grid.slots)


def test_letter_cannot_hold_three_rows_with_bleed_and_says_by_how_much():
    with pytest.raises(InputError) as caught:
        fit_grid(spec("Letter", bleed=3, orientation="portrait", grid=(3, 3)))
    assert str(caught.value).splitlines()[0] == (
        "Letter portrait cannot hold three rows of poker (63 x 88 mm): 3 rows need 282 mm (and 5 mm for the crop "
        "marks at the ends of the cut lines) and the printable height is 269.4 mm (17.6 mm short)")


def test_letter_cannot_hold_three_columns_with_bleed():
    with pytest.raises(InputError, match=r"cannot hold three columns .* 207 mm \(and 5 mm for the crop marks.* "
                                         r"205.9 mm \(6.1 mm short\)"):
        fit_grid(spec("Letter", bleed=3, orientation="portrait", grid=(3, 2)))


def test_a_demanded_smaller_grid_is_centred():
    _, xs, ys = positions(spec(grid=(2, 2), orientation="portrait"))
    assert (xs, ys) == ([42.0, 105.0], [148.5, 60.5])


def test_the_note_says_what_one_more_row_needs():
    grid = fit_grid(spec("Letter", bleed=3))
    assert grid.note == "one more column would need 11.6 mm more width, one more row 81.1 mm more height"


def test_auto_orientation_takes_the_most_cards_and_portrait_on_a_tie():
    assert fit_grid(spec(bleed=3)).per_page == 8  # landscape 4 x 2 beats portrait 2 x 3
    assert fit_grid(spec(bleed=3, orientation="portrait")).per_page == 6
    assert fit_grid(spec(card=card_size("square"))).orientation == "portrait"  # 2 x 4 either way


def test_an_asymmetric_margin_shifts_the_grid_rather_than_centring_it_on_the_page():
    margins = Margins.parse("5,5,12,5")
    assert positions(spec(margins=margins, orientation="portrait"))[2] == [196.0, 108.0, 20.0]


def test_duplex_makes_the_mirrored_margins_symmetric_so_backs_stay_printable():
    margins = Margins.parse("5,5,12,5")
    plan = plan_sheets(spec(margins=margins, layout="duplex-short", orientation="portrait"), 9)
    front, back = plan.pages
    assert [p.trim.y for p in front.placements[::3]] == [192.5, 104.5, 16.5]
    assert [p.trim.y for p in back.placements[::3]] == [16.5, 104.5, 192.5]
    assert min(p.trim.y for p in back.placements) >= 12


def test_long_edge_flip_on_portrait_mirrors_columns():
    plan = plan_sheets(spec(layout="duplex-long"), 9)
    front, back = plan.pages
    assert (front.side, back.side) == ("front", "back")
    for f, b in zip(front.placements, back.placements, strict=True):
        assert b.item == f.item and b.side == "back"
        assert (b.trim.x, b.trim.y) == (round(210 - f.trim.x - 63, 6), f.trim.y)
    assert [p.trim.x for p in back.placements[:3]] == [136.5, 73.5, 10.5]


def test_short_edge_flip_on_portrait_mirrors_rows():
    plan = plan_sheets(spec(layout="duplex-short"), 9)
    front, back = plan.pages
    for f, b in zip(front.placements, back.placements, strict=True):
        assert (b.trim.x, b.trim.y) == (f.trim.x, round(297 - f.trim.y - 88, 6))


def test_long_edge_flip_on_landscape_mirrors_rows():
    plan = plan_sheets(spec(layout="duplex-long", bleed=3), 8)
    front, back = plan.pages
    assert front.width == 297
    assert [(p.trim.x, p.trim.y) for p in back.placements[:2]] == [(13.5, 14.0), (82.5, 14.0)]


def test_a_partial_last_sheet_has_backs_only_behind_its_fronts():
    plan = plan_sheets(spec(layout="duplex-long"), 11)
    assert [len(p.placements) for p in plan.pages] == [9, 9, 2, 2]
    assert [p.item for p in plan.pages[3].placements] == [9, 10]
    assert [p.trim.x for p in plan.pages[3].placements] == [136.5, 73.5]


def test_a_profile_offset_and_rotation_move_back_pages_only():
    plan = plan_sheets(spec(layout="duplex-long", back_offset=(1.0, -0.5), back_rotation=90.0), 9)
    front, back = plan.pages
    assert front.matrix(front.placements[0]) == (1.0, 0.0, 0.0, 1.0, 10.5, 192.5)
    a, b, c, d = back.matrix(back.placements[0])[:4]
    assert (round(a, 9), round(b, 9), round(c, 9), round(d, 9)) == (0, 1, -1, 0)
    # The page centre turns onto itself, then moves by the offset.
    x, y = apply(back.transform, 105, 148.5)
    assert (round(x, 9), round(y, 9)) == (106.0, 148.0)
    # Back pages carry the fronts' cut lines as seen from the back; the profile moves the backs, never the marks.
    def extent(m, mirror=False):
        x0, x1 = sorted((m.x0, m.x1))
        return (210 - x1, 210 - x0) if mirror else (x0, x1), tuple(sorted((m.y0, m.y1)))

    assert back.marks == plan_sheets(spec(layout="duplex-long"), 9).pages[1].marks
    assert {extent(m) for m in back.marks} == {extent(m, mirror=True) for m in front.marks}


def test_fold_puts_backs_in_the_mirror_image_across_the_centre_line():
    plan = plan_sheets(spec(layout="fold"), 5)
    page = plan.pages[0]
    assert (page.width, page.side, len(plan.pages)) == (297, "fold", 2)
    fronts = [p for p in page.placements if p.side == "front"]
    backs = [p for p in page.placements if p.side == "back"]
    # 3 mm fold margin each side of the fold line at 148.5: the fronts' right edge at 145.5, the backs' left at 151.5
    assert [(p.trim.x, p.trim.y) for p in fronts] == [(19.5, 105.0), (82.5, 105.0), (19.5, 17.0), (82.5, 17.0)]
    assert [p.trim.x for p in backs] == [214.5, 151.5, 214.5, 151.5]
    assert [p.item for p in backs] == [0, 1, 2, 3]
    assert [(s.x0, s.y0, s.x1, s.y1) for s in page.fold_lines] == [(148.5, 5.0, 148.5, 205.0)]


@pytest.mark.parametrize(("bleed", "margin"), [(0, 3), (1.5, 3), (3, 2), (0, 0)])
def test_every_card_of_a_fold_sheet_keeps_the_fold_margin_and_its_bleed_on_its_own_half(bleed, margin):
    page = plan_sheets(spec(layout="fold", bleed=bleed, fold_margin=margin), 8).pages[0]
    nearest_front = max(p.bleed_rect.right for p in page.placements if p.side == "front")
    nearest_back = min(p.bleed_rect.x for p in page.placements if p.side == "back")
    assert (round(148.5 - nearest_front, 6), round(nearest_back - 148.5, 6)) == (margin, margin)
    assert all(p.bleed == bleed for p in page.placements)  # both halves bleed alike


def test_single_is_one_card_a_page_with_its_bleed_and_its_back_after_it():
    plan = plan_sheets(spec(layout="single", bleed=3), 2)
    assert [(p.width, p.height, p.side) for p in plan.pages] == [(69, 94, "front"), (69, 94, "back")] * 2
    page = plan.pages[0]
    assert page.placements[0].trim == Rect(3.0, 3.0, 63.0, 88.0)
    assert page.trim_box == Rect(3.0, 3.0, 63.0, 88.0)
    assert page.bleed_box == Rect(0.0, 0.0, 69.0, 94.0)
    assert not page.marks


def test_trim_and_bleed_boxes_wrap_the_cards():
    page = plan_sheets(spec(bleed=3), 8).pages[0]
    assert page.trim_box == Rect(13.5, 14.0, 270.0, 182.0)
    assert page.bleed_box == Rect(10.5, 11.0, 276.0, 188.0)


@pytest.mark.parametrize("kwargs", [{}, {"bleed": 3}, {"gutter": 6}, {"bleed": 2, "gutter": 8},
                                    {"layout": "fold", "gutter": 4}, {"card": card_size("mini")}])
def test_crop_marks_lie_on_trim_lines_outside_every_card_and_inside_the_printable_area(kwargs):
    plan = plan_sheets(spec(**kwargs), 9)
    page = plan.pages[0]
    grid = plan.grid
    cards = [p.bleed_rect for p in page.placements]
    xs = {v for p in page.placements for v in (p.trim.x, p.trim.right)}
    ys = {v for p in page.placements for v in (p.trim.y, p.trim.top)}
    assert page.marks
    for mark in page.marks:
        assert mark.length >= 1.0
        thin = Rect(min(mark.x0, mark.x1), min(mark.y0, mark.y1), abs(mark.x1 - mark.x0), abs(mark.y1 - mark.y0))
        assert not any(thin.expanded(0.49).overlaps(card) for card in cards), mark
        assert mark.x0 in xs if mark.x0 == mark.x1 else mark.y0 in ys
        p = grid.printable
        assert p.x <= min(mark.x0, mark.x1) and max(mark.x0, mark.x1) <= p.right
        assert p.y <= min(mark.y0, mark.y1) and max(mark.y0, mark.y1) <= p.top


def test_abutting_cards_get_marks_only_around_the_grid():
    page = plan_sheets(spec(), 9).pages[0]
    # Four vertical cut lines each marked above and below; four horizontal ones each left and right.
    assert len(page.marks) == 16
    assert all(m.length == 4.0 for m in page.marks)


def test_a_gutter_gets_marks_between_the_cards_too():
    page = plan_sheets(spec(gutter=6), 9).pages[0]
    inner = [m for m in page.marks if 10 < m.x0 < 200 and 10 < m.y0 < 287 and 10 < m.x1 < 200 and 10 < m.y1 < 287]
    assert inner


@pytest.mark.parametrize(("text", "size"), [
    ("poker", (63.0, 88.0)), ("bridge", (57.0, 89.0)), ("yugioh", (59.0, 86.0)), ("mini", (41.0, 63.0)),
    ("mini-euro", (44.0, 68.0)), ("tarot", (70.0, 120.0)), ("square", (70.0, 70.0)), ("63x88", (63.0, 88.0)),
    ("2.5x3.5in", (63.5, 88.9)), ("2.5 x 3.5 in", (63.5, 88.9)), ("6x9cm", (60.0, 90.0)), ("Poker", (63.0, 88.0)),
])
def test_card_sizes(text, size):
    parsed = card_size(text)
    assert (parsed.width, parsed.height) == size


@pytest.mark.parametrize(("text", "size"), [("A4", (210.0, 297.0)), ("letter", (215.9, 279.4)),
                                            ("Legal", (215.9, 355.6)), ("a3", (297.0, 420.0)),
                                            ("tabloid", (279.4, 431.8)), ("8.5x11in", (215.9, 279.4))])
def test_paper_sizes(text, size):
    parsed = paper_size(text)
    assert (parsed.width, parsed.height) == size


def test_unknown_presets_say_what_exists():
    with pytest.raises(InputError, match="unknown card size 'jumbo'") as caught:
        card_size("jumbo")
    assert "poker, bridge" in str(caught.value)
    with pytest.raises(InputError, match="unknown paper size 'B5'"):
        paper_size("B5")


def test_a_card_that_does_not_fit_says_which_and_by_how_much():
    with pytest.raises(InputError) as caught:
        fit_grid(spec("A4", card=card_size("tarot"), margins=Margins.uniform(90)))
    assert str(caught.value).splitlines()[0] == (
        "tarot (70 x 120 mm) does not fit on A4: it is 45 mm too wide for the printable area and its crop marks")


def test_a_margin_larger_than_the_page_is_refused():
    with pytest.raises(InputError, match=r"leave no room on A4"):
        fit_grid(spec(margins=Margins.uniform(150)))


@pytest.mark.parametrize("text", ["a", "5,5,5", "-1", "5,x"])
def test_malformed_margins(text):
    with pytest.raises(InputError):
        Margins.parse(text)


def test_margins_forms():
    assert Margins.parse("5") == Margins(5, 5, 5, 5)
    assert Margins.parse("5,8") == Margins(5, 8, 5, 8)
    assert Margins.parse("4, 5, 12mm, 6") == Margins(4, 5, 12, 6)


def test_landscape_pages_turn_the_printer_margins_with_them():
    # Drivers turn landscape pages a quarter counter-clockwise onto the paper, so a 12 mm bottom margin (as
    # the paper goes through the printer) lands on the landscape page's left edge.
    grid = fit_grid(spec(margins=Margins.parse("5,5,12,5"), orientation="landscape"))
    assert grid.printable == Rect(12.0, 5.0, 280.0, 200.0)


def test_nothing_to_print_is_refused():
    with pytest.raises(InputError, match="nothing to print"):
        plan_sheets(spec(), 0)


@pytest.mark.parametrize(("paper", "card", "layout", "bleed"), [
    # A4 poker: 3 columns of 63 mm on 200 mm leave 11 mm, 8 of them for 3 mm crop marks (1 mm off the bleed) at
    # both ends of a cut line: 0.5 mm of bleed a side (1 mm left room for 1.5 mm marks only)
    ("A4", "poker", "fronts", 0.5), ("A4", "poker", "duplex-long", 0.5), ("A4", "yugioh", "fronts", 1.5),
    ("Letter", "poker", "fronts", 0.0),  # 3 rows of 88 mm on 269.4 mm leave 5.4 mm: the (short) marks take it all
    ("Letter", "poker", "fold", 0.25),  # landscape: a half of 131.7 mm holds two columns of 63 mm and 4 mm of marks
    ("A4", "mini", "fronts", 0.5),  # 6 columns of 41 mm leave 8 mm for the long marks (7 columns leave none)
    ("A4", "poker", "single", 3.0),
])
def test_the_automatic_bleed_is_as_much_as_costs_no_card_a_page(paper, card, layout, bleed):
    wanted = spec(paper, card=card_size(card), layout=layout)
    assert auto_bleed(wanted) == bleed
    if layout != "single":
        assert fit_grid(replace(wanted, bleed=bleed)).per_page == fit_grid(wanted).per_page


@pytest.mark.parametrize("kwargs", [{"bleed": 1.5}, {"gutter": 4}, {"layout": "fold", "bleed": 1.5},
                                    {"layout": "duplex-long", "bleed": 1.5}, {"layout": "fold"}])
def test_the_header_sits_over_the_columns_clear_of_every_mark_and_card(kwargs):
    paper = kwargs.pop("paper", "A4")
    plan = plan_sheets(spec(paper, **kwargs), 9)
    for page in plan.pages:
        assert page.header, page.side
        assert len(page.header) == len({(p.trim.x, p.trim.right) for p in page.placements})
        area = plan.grid.printable
        for slot in page.header:
            assert area.x <= slot.x and slot.right <= area.right and area.y <= slot.y and slot.top <= area.top
            assert not any(slot.overlaps(p.bleed_rect) for p in page.placements)
            for mark in (*page.marks, *page.fold_lines):
                line = Rect(min(mark.x0, mark.x1), min(mark.y0, mark.y1), abs(mark.x1 - mark.x0),
                            abs(mark.y1 - mark.y0))
                assert not slot.overlaps(line.expanded(0.5)), (slot, mark)


def test_a4_poker_header_slots_in_millimetres():
    page = plan_sheets(spec(bleed=1.0), 9).pages[0]
    assert page.header == (Rect(9.5, 288.8, 61.0, 3.2), Rect(74.5, 288.8, 61.0, 3.2), Rect(139.5, 288.8, 61.0, 3.2))
    assert plan_sheets(spec(bleed=1.0, header=False), 9).pages[0].header == ()
    # Letter with no bleed: three rows leave 2.7 mm above and below, room for the marks but not for words
    assert plan_sheets(spec("Letter", bleed=0.0), 9).pages[0].header == ()


def test_a_deck_list_page_comes_first_and_on_duplex_an_empty_page_behind_it():
    plan = plan_sheets(spec(layout="duplex-long", deck_list=True), 10)
    assert [p.side for p in plan.pages] == ["list", "list-back", "front", "back", "front", "back"]
    assert [len(p.placements) for p in plan.pages] == [0, 0, 9, 9, 1, 1]
    assert [len(sheet) for sheet in plan.sheets()] == [2, 2, 2]  # a front page never parts from its backs
    assert [p.side for p in plan_sheets(spec(deck_list=True), 10).pages] == ["list", "front", "front"]
