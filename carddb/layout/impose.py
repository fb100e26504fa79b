"""Sheet imposition: where every card, back, crop mark and fold line goes on paper, in millimetres.

Pure geometry (no drawing, no I/O), so every number can be tested exactly. Coordinates follow PDF: the origin
is the lower-left corner of the page, x to the right, y upwards, all lengths in millimetres. Slots are numbered
row by row from the top-left card, as a reader would count them.

Duplex geometry is physical. Turning a sheet over about its long edge mirrors x on a portrait page and y on a
landscape one; about its short edge the other way round. A back therefore sits at the mirror image of its front,
and because the printer's unprintable margins stay with the printer (not with the paper), the margins along the
mirrored axis are made symmetric (the larger of the two) so that the mirrored backs are printable too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from carddb.errors import InputError
from carddb.layout.paper import (  # noqa: F401  (re-exported: the sizes are part of the imposition API)
    CARD_SIZES,
    MM_PER_INCH,
    PAPER_SIZES,
    Margins,
    Size,
    card_size,
    paper_size,
)
from carddb.layout.paper import mm_text as _num
from carddb.layout.paper import rounded as _r

LAYOUTS = ("fronts", "duplex-long", "duplex-short", "fold", "single")
ORIENTATIONS = ("auto", "portrait", "landscape")
DEFAULT_BLEED_MM = 3.0  # --bleed without a number, and the print-shop layout's automatic bleed
AUTO_BLEED_MAX_MM = 1.5  # the automatic bleed of home sheets: at most this, never costing a card a page
AUTO_BLEED_STEP_MM = 0.25
DEFAULT_MARGIN_MM = 5.0
DEFAULT_FOLD_MARGIN_MM = 3.0
HEADER_MM = 3.2  # the height of the header line's slot (7 pt words)
MARK_ROOM_MM = 1.5  # the least length of crop mark the grid leaves room for beyond the cards, at each cut line's end
#: The length it leaves room for when that costs no card a page (and the automatic bleed keeps it): a mark a ruler's
#: edge can be laid against, where 1.5 mm is a dot beside the cards.
MARK_REACH_MM = 3.0

_EPS = 1e-9  # tolerance for "fits exactly" comparisons of float sums




# ---------------------------------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: lower-left corner and size, in millimetres."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return _r(self.x + self.w)

    @property
    def top(self) -> float:
        return _r(self.y + self.h)

    def expanded(self, by: float) -> Rect:
        return Rect(_r(self.x - by), _r(self.y - by), _r(self.w + 2 * by), _r(self.h + 2 * by))

    def overlaps(self, other: Rect) -> bool:
        """True when the interiors overlap (touching edges do not count)."""
        return (self.x < other.right - _EPS and other.x < self.right - _EPS
                and self.y < other.top - _EPS and other.y < self.top - _EPS)


def union(rects: list[Rect]) -> Rect:
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    return Rect(x0, y0, _r(max(r.right for r in rects) - x0), _r(max(r.top for r in rects) - y0))


#: An affine transform (a, b, c, d, e, f) as in PDF: (x, y) -> (a x + c y + e, b x + d y + f), in mm.
Affine = tuple[float, float, float, float, float, float]
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def compose(outer: Affine, inner: Affine) -> Affine:
    """The transform that applies ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def apply(transform: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = transform
    return a * x + c * y + e, b * x + d * y + f


def translation(dx: float, dy: float) -> Affine:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def back_transform(page_w: float, page_h: float, offset: tuple[float, float], rotation_deg: float) -> Affine:
    """A printer profile's correction of back pages: turn about the page centre, then shift."""
    if not rotation_deg and offset == (0.0, 0.0):
        return IDENTITY
    theta = math.radians(rotation_deg)
    cos, sin = math.cos(theta), math.sin(theta)
    cx, cy = page_w / 2, page_h / 2
    rotate: Affine = (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
    return compose(translation(*offset), rotate)


def transformed_bounds(transform: Affine, rect: Rect) -> Rect:
    corners = [apply(transform, x, y) for x in (rect.x, rect.right) for y in (rect.y, rect.top)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return Rect(_r(min(xs)), _r(min(ys)), _r(max(xs) - min(xs)), _r(max(ys) - min(ys)))


@dataclass(frozen=True)
class Segment:
    """A straight line from (x0, y0) to (x1, y1) in millimetres (crop marks and fold lines are axis-aligned)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


# ---------------------------------------------------------------------------------------------------- the spec


@dataclass(frozen=True)
class SheetSpec:
    """Everything that decides where cards go. Lengths in mm; ``grid`` demands columns x rows."""

    paper: Size = field(default_factory=lambda: paper_size("A4"))
    card: Size = field(default_factory=lambda: card_size("poker"))
    orientation: str = "auto"
    margins: Margins = field(default_factory=lambda: Margins.uniform(DEFAULT_MARGIN_MM))
    gutter: float = 0.0
    bleed: float = 0.0
    marks: bool = True
    layout: str = "fronts"
    back_offset: tuple[float, float] = (0.0, 0.0)
    back_rotation: float = 0.0
    grid: tuple[int, int] | None = None
    mark_length: float = 4.0
    mark_offset: float = 1.0  # distance from a card's bleed edge to where its marks start
    mark_clearance: float = 0.5  # a mark stops this far short of any card
    fold_margin: float = DEFAULT_FOLD_MARGIN_MM  # fold: from the fold line to the nearest card's bleed, each half
    header: bool = True  # a line of words above the cards (deck, page n of m, which side), where there is room
    deck_list: bool = False  # a first page listing the deck (and, duplex, an empty page behind it)

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise InputError(f"unknown layout {self.layout!r}", hint=f"use one of {', '.join(LAYOUTS)}")
        if self.orientation not in ORIENTATIONS:
            raise InputError(f"unknown orientation {self.orientation!r}", hint=f"use one of {', '.join(ORIENTATIONS)}")
        for name in ("gutter", "bleed", "fold_margin"):
            value = getattr(self, name)
            if value < 0 or math.isnan(value) or math.isinf(value):
                raise InputError(f"{name} must be zero or more millimetres, not {value}")
        if self.grid is not None and (self.grid[0] < 1 or self.grid[1] < 1):
            raise InputError(f"a grid needs at least one column and one row, not {self.grid[0]}x{self.grid[1]}")

    @property
    def duplex(self) -> bool:
        return self.layout in ("duplex-long", "duplex-short")

    @property
    def mark_room(self) -> float:
        """The room a crop mark needs beyond a card's bleed at the end of a cut line (0 without marks)."""
        if not self.marks or self.layout == "single":
            return 0.0
        return _r(self.mark_offset + MARK_ROOM_MM)

    @property
    def mark_reach(self) -> float:
        """The room for a mark of ``MARK_REACH_MM`` (no longer than ``mark_length``), kept where it costs no card."""
        if not self.mark_room:
            return 0.0
        return _r(self.mark_offset + max(MARK_ROOM_MM, min(MARK_REACH_MM, self.mark_length)))

    @property
    def footprint(self) -> tuple[float, float]:
        """A card's size on paper including its bleed on every edge."""
        return _r(self.card.width + 2 * self.bleed), _r(self.card.height + 2 * self.bleed)


@dataclass(frozen=True)
class Grid:
    """The chosen arrangement of cards on one page (fronts side for duplex, front half for fold)."""

    orientation: str
    page_w: float
    page_h: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]  # trim rectangles, row by row from the top-left
    printable: Rect  # the page minus the margins in force (symmetrised for duplex)
    note: str  # what one more column or row would need
    long_marks: bool = False  # the grid leaves room for marks of MARK_REACH_MM (not only MARK_ROOM_MM)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _orientation_page(spec: SheetSpec, orientation: str) -> tuple[float, float, Margins]:
    w, h = sorted((spec.paper.width, spec.paper.height))
    if orientation == "landscape":
        return h, w, spec.margins.rotated()
    return w, h, spec.margins


def _mirror_axis(spec: SheetSpec, page_w: float, page_h: float) -> str | None:
    """Which page axis a back is mirrored along: "x" (left-right) or "y" (top-bottom)."""
    if spec.layout == "fold":
        return "x"
    if not spec.duplex:
        return None
    portrait = page_w <= page_h
    long_edge = spec.layout == "duplex-long"
    return "x" if portrait == long_edge else "y"


def _effective_margins(spec: SheetSpec, margins: Margins, page_w: float, page_h: float) -> Margins:
    axis = _mirror_axis(spec, page_w, page_h)
    if axis == "x":
        side = max(margins.left, margins.right)
        return replace(margins, left=side, right=side)
    if axis == "y":
        side = max(margins.top, margins.bottom)
        return replace(margins, top=side, bottom=side)
    return margins


def _count(available: float, size: float, gap: float) -> int:
    if available + _EPS < size:
        return 0
    return int((available + gap + _EPS) // (size + gap))


def _span(n: int, size: float, gap: float) -> float:
    return _r(n * size + max(n - 1, 0) * gap)


def _fit(spec: SheetSpec, orientation: str) -> Grid | tuple[str, float]:
    """The grid for one orientation, or (which dimension, how many mm short) when not even one card fits: with room
    for long crop marks unless that costs a column or a row, then with the least room."""
    short = _fit_with(spec, orientation, spec.mark_room)
    if spec.mark_reach == spec.mark_room:
        return short
    long = _fit_with(spec, orientation, spec.mark_reach)
    if isinstance(long, Grid) and isinstance(short, Grid) and long.per_page >= short.per_page:
        return replace(long, long_marks=True, note=short.note)  # what more cards need, at the least room
    return short


def _fit_with(spec: SheetSpec, orientation: str, mark_room: float) -> Grid | tuple[str, float]:
    page_w, page_h, margins = _orientation_page(spec, orientation)
    margins = _effective_margins(spec, margins, page_w, page_h)
    if margins.left + margins.right >= page_w or margins.top + margins.bottom >= page_h:
        raise InputError(
            f"the margins (top {_num(margins.top)}, right {_num(margins.right)}, bottom {_num(margins.bottom)}, "
            f"left {_num(margins.left)} mm) leave no room on {spec.paper.name} "
            f"({_num(page_w)} x {_num(page_h)} mm {orientation})")
    printable = Rect(margins.left, margins.bottom, _r(page_w - margins.left - margins.right),
                     _r(page_h - margins.top - margins.bottom))
    fw, fh = spec.footprint
    gap = spec.gutter
    # Fold: fronts fill the left half, backs mirror them about the centre line, each half keeping the fold
    # margin (plus its bleed) clear of the fold line so that a fold a little off never shows on a face.
    avail_w = _r(page_w / 2 - spec.fold_margin - margins.left) if spec.layout == "fold" else printable.w
    room_w, room_h = _mark_room(spec, avail_w, fw, "fold" if spec.layout == "fold" else "both", mark_room), \
        _mark_room(spec, printable.h, fh, "both", mark_room)
    cols, rows = _count(avail_w - room_w, fw, gap), _count(printable.h - room_h, fh, gap)
    if cols == 0:
        return "wide", _r(fw + room_w - avail_w)
    if rows == 0:
        return "tall", _r(fh + room_h - printable.h)
    slots = _slots(spec, page_w, printable, cols, rows)
    more_col = _r(_span(cols + 1, fw, gap) + room_w - avail_w)
    more_row = _r(_span(rows + 1, fh, gap) + room_h - printable.h)
    note = (f"one more column would need {_num(more_col)} mm more width, "
            f"one more row {_num(more_row)} mm more height")
    return Grid(orientation, page_w, page_h, cols, rows, slots, printable, note)


def _mark_room(spec: SheetSpec, available: float, size: float, sides: str, room: float | None = None) -> float:
    """The length the grid leaves free along one direction so that its cut lines' ends carry marks: room for a
    mark beyond the outer cards (both sides; fold: the outer side of each half, the lines cross the fold), or none
    when the gutters carry the marks (a gutter with room for one, and at least three cards so that every line
    keeps two marks). ``room``: a mark's room at one end (the least, ``spec.mark_room``, unless said)."""
    room = spec.mark_room if room is None else room
    if not room:
        return 0.0
    carried = spec.gutter >= room + spec.mark_clearance and _count(available, size, spec.gutter) >= 3
    if carried:
        return 0.0
    return room if sides == "fold" else _r(2 * room)


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _demand(spec: SheetSpec, grid: Grid) -> None:
    """Refuse a demanded grid the page cannot hold, saying by how much it is short."""
    assert spec.grid is not None
    want_cols, want_rows = spec.grid
    fw, fh = spec.footprint
    where = f"{spec.paper.name} {grid.orientation}"
    hint = "use smaller margins, less bleed or gutter, another paper or orientation, or --no-marks"
    if want_rows > grid.rows:
        need = _span(want_rows, fh, spec.gutter)
        room = _mark_room(spec, grid.printable.h, fh, "both")
        raise InputError(
            f"{where} cannot hold {_WORDS.get(want_rows, want_rows)} rows of {spec.card.describe()}: "
            f"{want_rows} rows need {_num(need)} mm{_with_marks(room)} and the printable height is "
            f"{_num(grid.printable.h)} mm ({_num(need + room - grid.printable.h)} mm short)", hint=hint)
    if want_cols > grid.cols:
        avail = grid.printable.w if spec.layout != "fold" else grid.page_w / 2 - spec.fold_margin - grid.printable.x
        need = _span(want_cols, fw, spec.gutter)
        room = _mark_room(spec, avail, fw, "fold" if spec.layout == "fold" else "both")
        raise InputError(
            f"{where} cannot hold {_WORDS.get(want_cols, want_cols)} columns of {spec.card.describe()}: "
            f"{want_cols} columns need {_num(need)} mm{_with_marks(room)} and the printable width is "
            f"{_num(avail)} mm ({_num(need + room - avail)} mm short)", hint=hint)


def _with_marks(room: float) -> str:
    return f" (and {_num(room)} mm for the crop marks at the ends of the cut lines)" if room else ""


def fit_grid(spec: SheetSpec) -> Grid:
    """The grid holding the most cards (portrait on a tie), or the asked orientation; a clear error if none fits."""
    if spec.layout == "single":
        w, h = spec.footprint
        page = Rect(0.0, 0.0, w, h)
        return Grid("portrait", w, h, 1, 1, (Rect(spec.bleed, spec.bleed, spec.card.width, spec.card.height),),
                    page, "one card a page")
    orientations = ("portrait", "landscape") if spec.orientation == "auto" else (spec.orientation,)
    results = {o: _fit(spec, o) for o in orientations}
    grids = [g for g in results.values() if isinstance(g, Grid)]
    if not grids:
        what, short = min((r for r in results.values() if isinstance(r, tuple)), key=lambda r: r[1])
        bleed = f" with {_num(spec.bleed)} mm bleed" if spec.bleed else ""
        raise InputError(
            f"{spec.card.describe()}{bleed} does not fit on {spec.paper.name}: it is {_num(short)} mm too {what} "
            f"for the printable area{' and its crop marks' if spec.mark_room else ''}",
            hint="use smaller margins or bleed, bigger paper, or --no-marks")
    best = max(grids, key=lambda g: (g.per_page, g.orientation == "portrait"))
    if spec.grid is not None:
        _demand(spec, best)
        cols, rows = spec.grid
        best = _fit(replace(spec, grid=None), best.orientation)
        assert isinstance(best, Grid)
        if (cols, rows) != (best.cols, best.rows):
            best = _smaller_grid(spec, best, cols, rows)
    return best


def _smaller_grid(spec: SheetSpec, grid: Grid, cols: int, rows: int) -> Grid:
    """A demanded grid smaller than what fits, placed the same way as a full one."""
    return replace(grid, cols=cols, rows=rows, slots=_slots(spec, grid.page_w, grid.printable, cols, rows))


def _slots(spec: SheetSpec, page_w: float, printable: Rect, cols: int, rows: int) -> tuple[Rect, ...]:
    """Trim rectangles of a cols x rows grid: centred in the printable area (fold: against the fold line)."""
    fw, fh = spec.footprint
    gap, b = spec.gutter, spec.bleed
    grid_w, grid_h = _span(cols, fw, gap), _span(rows, fh, gap)
    fold = spec.layout == "fold"
    x0 = _r(page_w / 2 - spec.fold_margin - grid_w) if fold else _r(printable.x + (printable.w - grid_w) / 2)
    top = _r(printable.top - (printable.h - grid_h) / 2)
    return tuple(Rect(_r(x0 + c * (fw + gap) + b), _r(top - (r + 1) * fh - r * gap + b), spec.card.width,
                      spec.card.height) for r in range(rows) for c in range(cols))


# ---------------------------------------------------------------------------------------------------- pages


@dataclass(frozen=True)
class Placement:
    """One card face on a page: which item of the job, which side, its trim rectangle before the page transform."""

    item: int
    side: str  # "front" or "back"
    trim: Rect
    bleed: float

    @property
    def bleed_rect(self) -> Rect:
        return self.trim.expanded(self.bleed)


@dataclass(frozen=True)
class PagePlan:
    number: int  # 1-based
    width: float
    height: float
    side: str  # "front", "back" (duplex), "fold" or "single"
    placements: tuple[Placement, ...]
    marks: tuple[Segment, ...] = ()
    fold_lines: tuple[Segment, ...] = ()
    transform: Affine = IDENTITY  # applies to the placements only (a printer profile's back correction)
    header: tuple[Rect, ...] = ()  # slots for the header's words: over the card columns, clear of every mark

    def matrix(self, placement: Placement) -> Affine:
        """Card-local mm (origin at the trim's lower-left corner) to page mm."""
        return compose(self.transform, translation(placement.trim.x, placement.trim.y))

    @property
    def trim_box(self) -> Rect:
        """The bounds of the cards' trim (the whole page when it holds no card, as a calibration page)."""
        if not self.placements:
            return Rect(0.0, 0.0, self.width, self.height)
        return self._clip(union([transformed_bounds(self.transform, p.trim) for p in self.placements]))

    @property
    def bleed_box(self) -> Rect:
        if not self.placements:
            return Rect(0.0, 0.0, self.width, self.height)
        return self._clip(union([transformed_bounds(self.transform, p.bleed_rect) for p in self.placements]))

    def _clip(self, rect: Rect) -> Rect:
        x0, y0 = max(rect.x, 0.0), max(rect.y, 0.0)
        x1, y1 = min(rect.right, self.width), min(rect.top, self.height)
        return Rect(_r(x0), _r(y0), _r(x1 - x0), _r(y1 - y0))


@dataclass(frozen=True)
class SheetPlan:
    spec: SheetSpec
    grid: Grid
    pages: tuple[PagePlan, ...]
    items: int  # how many cards the job holds

    @property
    def per_sheet(self) -> int:
        return self.grid.per_page

    def sheets(self) -> list[tuple[PagePlan, ...]]:
        """Pages grouped so that a front page and its back page are never split apart (for --max-mb)."""
        step = 2 if self.spec.duplex or (self.spec.layout == "single" and self._single_backs) else 1
        return [self.pages[i:i + step] for i in range(0, len(self.pages), step)]

    @property
    def _single_backs(self) -> bool:
        return any(p.side == "back" for p in self.pages)


def plan_sheets(spec: SheetSpec, items: int, *, backs: bool = True) -> SheetPlan:
    """Impose ``items`` cards (in order) with the spec's layout. ``backs`` says whether the job has backs to print.

    Back pages carry crop marks too (at the fronts' cut lines, as seen from the back; a printer profile moves
    the backs, never the marks). With ``deck_list`` the first page is left for the deck's list (``side ==
    "list"``), followed on duplex by the empty page behind it, so that every front keeps its back.
    """
    if items < 1:
        raise InputError("nothing to print: the job holds no cards")
    grid = fit_grid(spec)
    pages: list[PagePlan] = []
    per = grid.per_page
    if spec.deck_list and spec.layout != "single":
        pages.append(PagePlan(1, grid.page_w, grid.page_h, "list", ()))
        if spec.duplex and backs:
            pages.append(PagePlan(2, grid.page_w, grid.page_h, "list-back", ()))
    for first in range(0, items, per):
        chunk = range(first, min(first + per, items))
        if spec.layout == "single":
            pages.append(_single_page(spec, grid, first, "front", len(pages) + 1))
            if backs:
                pages.append(_single_page(spec, grid, first, "back", len(pages) + 1))
            continue
        fronts = tuple(Placement(item, "front", grid.slots[k], spec.bleed) for k, item in enumerate(chunk))
        if spec.layout == "fold":
            mirrored = tuple(Placement(p.item, "back", _mirror(p.trim, grid, "x"), spec.bleed) for p in fronts)
            placed = fronts + mirrored
            marks = _crop_marks(spec, grid, placed) if spec.marks else ()
            folds = _fold_line(spec, grid, placed)
            pages.append(PagePlan(len(pages) + 1, grid.page_w, grid.page_h, "fold", placed, marks, folds,
                                  header=_header_slots(spec, grid, placed)))
            continue
        marks = _crop_marks(spec, grid, fronts) if spec.marks else ()
        pages.append(PagePlan(len(pages) + 1, grid.page_w, grid.page_h, "front", fronts, marks,
                              header=_header_slots(spec, grid, fronts)))
        if spec.duplex and backs:
            axis = _mirror_axis(spec, grid.page_w, grid.page_h)
            assert axis is not None
            behind = tuple(Placement(p.item, "back", _mirror(p.trim, grid, axis), spec.bleed) for p in fronts)
            transform = back_transform(grid.page_w, grid.page_h, spec.back_offset, spec.back_rotation)
            back_marks = _crop_marks(spec, grid, behind) if spec.marks else ()
            pages.append(PagePlan(len(pages) + 1, grid.page_w, grid.page_h, "back", behind, back_marks,
                                  transform=transform, header=_header_slots(spec, grid, behind)))
    return SheetPlan(spec, grid, tuple(pages), items)


def auto_bleed(spec: SheetSpec, cap: float = AUTO_BLEED_MAX_MM, step: float = AUTO_BLEED_STEP_MM) -> float:
    """The bleed carddb chooses when none is asked for: as much as ``cap`` (on a ``step`` grid) without a page
    holding fewer cards than it would without bleed, nor shorter crop marks (``fit_grid`` leaves their room: the
    long marks' where the page without bleed has it); the print-shop layout (single) always gets 3 mm."""
    if spec.layout == "single":
        return DEFAULT_BLEED_MM
    try:
        wanted = fit_grid(replace(spec, bleed=0.0))
    except InputError:
        return 0.0  # not even one bare card fits: the error comes from the real spec
    bleed = math.floor(cap / step + _EPS) * step
    while bleed > 0:
        try:
            grid = fit_grid(replace(spec, bleed=bleed))
            if grid.per_page >= wanted.per_page and (grid.long_marks or not wanted.long_marks):
                return _r(bleed)
        except InputError:
            pass
        bleed = _r(bleed - step)
    return 0.0


def _single_page(spec: SheetSpec, grid: Grid, item: int, side: str, number: int) -> PagePlan:
    return PagePlan(number, grid.page_w, grid.page_h, side, (Placement(item, side, grid.slots[0], spec.bleed),))


def _mirror(trim: Rect, grid: Grid, axis: str) -> Rect:
    if axis == "x":
        return replace(trim, x=_r(grid.page_w - trim.x - trim.w))
    return replace(trim, y=_r(grid.page_h - trim.y - trim.h))


# ---------------------------------------------------------------------------------------------------- header


def _header_slots(spec: SheetSpec, grid: Grid, placed: tuple[Placement, ...]) -> tuple[Rect, ...]:
    """Where the header's words may go: one slot over each column of cards, in the band between the cards'
    top and the printable area's top (below the cards when that band is too low), kept horizontally inside
    the column so that no slot meets a crop mark or the fold line (they stand at the columns' edges)."""
    if not spec.header or not placed:
        return ()
    area = grid.printable
    top = max(p.bleed_rect.top for p in placed)
    bottom = min(p.bleed_rect.y for p in placed)
    clear = spec.mark_clearance + 0.5
    if area.top - top - clear >= HEADER_MM:
        y = _r(area.top - HEADER_MM)
    elif bottom - area.y - clear >= HEADER_MM:
        y = _r(area.y)
    else:
        return ()
    columns = sorted({(p.trim.x, p.trim.right) for p in placed})
    inset = 1.0
    return tuple(Rect(_r(x0 + inset), y, _r(x1 - x0 - 2 * inset), HEADER_MM) for x0, x1 in columns)


# ---------------------------------------------------------------------------------------------------- marks


_BESIDE_MM = 0.05  # a mark may run this close beside a card's bleed (never across it): the bleed is cut away


def _ray_length(spec: SheetSpec, start: tuple[float, float], direction: tuple[int, int], cards: list[Rect],
                area: Rect) -> float:
    """How far a mark may run from ``start`` along an axis before it comes within the clearance of a card's bleed
    box ahead of it or leaves the printable area. A card beside the mark's line (as on a part-filled page, where a
    cut line ends beside the next row's card) does not stop it."""
    x, y = start
    dx, dy = direction
    if not (area.x - _EPS <= x <= area.right + _EPS and area.y - _EPS <= y <= area.top + _EPS):
        return 0.0
    limit = spec.mark_length
    # The printable area bounds the mark.
    if dx:
        limit = min(limit, (area.right - x) if dx > 0 else (x - area.x))
    else:
        limit = min(limit, (area.top - y) if dy > 0 else (y - area.y))
    clear = spec.mark_clearance
    for r in cards:
        if dx:
            if not (r.y - _BESIDE_MM < y < r.top + _BESIDE_MM):
                continue
            if r.x - clear - _EPS <= x <= r.right + clear + _EPS:
                return 0.0
            gap = (r.x - clear - x) if dx > 0 else (x - r.right - clear)
        else:
            if not (r.x - _BESIDE_MM < x < r.right + _BESIDE_MM):
                continue
            if r.y - clear - _EPS <= y <= r.top + clear + _EPS:
                return 0.0
            gap = (r.y - clear - y) if dy > 0 else (y - r.top - clear)
        if gap >= 0:
            limit = min(limit, gap)
    return max(limit, 0.0)


def _crop_marks(spec: SheetSpec, grid: Grid, placed: tuple[Placement, ...]) -> tuple[Segment, ...]:
    """Marks extending every trim edge outwards from each corner, stopping short of every card's bleed."""
    cards = [p.bleed_rect for p in placed]
    area = grid.printable
    raw: list[Segment] = []
    reach = spec.bleed + spec.mark_offset
    for p in placed:
        t = p.trim
        for cx, cy, sx, sy in ((t.x, t.y, -1, -1), (t.right, t.y, 1, -1), (t.x, t.top, -1, 1),
                               (t.right, t.top, 1, 1)):
            # Horizontal mark along the horizontal trim edge, then vertical along the vertical one.
            for start, direction in (((cx + sx * reach, cy), (sx, 0)), ((cx, cy + sy * reach), (0, sy))):
                length = _ray_length(spec, start, direction, cards, area)
                if length >= 1.0:
                    x0, y0 = start
                    raw.append(Segment(_r(x0), _r(y0), _r(x0 + direction[0] * length),
                                       _r(y0 + direction[1] * length)))
    return _merge(raw)


def _merge(segments: list[Segment]) -> tuple[Segment, ...]:
    """Join collinear marks that overlap or touch, so a shared cut line is drawn once."""
    lines: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for s in segments:
        if s.y0 == s.y1:
            lines.setdefault(("h", s.y0), []).append((min(s.x0, s.x1), max(s.x0, s.x1)))
        else:
            lines.setdefault(("v", s.x0), []).append((min(s.y0, s.y1), max(s.y0, s.y1)))
    merged: list[Segment] = []
    for (kind, at), spans in sorted(lines.items()):
        spans.sort()
        current = list(spans[0])
        for lo, hi in spans[1:]:
            if lo <= current[1] + _EPS:
                current[1] = max(current[1], hi)
            else:
                merged.append(_segment(kind, at, *current))
                current = [lo, hi]
        merged.append(_segment(kind, at, *current))
    return tuple(merged)


def _segment(kind: str, at: float, lo: float, hi: float) -> Segment:
    return Segment(lo, at, hi, at) if kind == "h" else Segment(at, lo, at, hi)


def _fold_line(spec: SheetSpec, grid: Grid, placed: tuple[Placement, ...]) -> tuple[Segment, ...]:
    """The centre fold, drawn only above and below the cards (never across a face)."""
    x = _r(grid.page_w / 2)
    obstacles = [p.bleed_rect.expanded(spec.mark_clearance) for p in placed]
    area = grid.printable
    blocked = sorted((r.y, r.top) for r in obstacles if r.x - _EPS <= x <= r.right + _EPS)
    free: list[Segment] = []
    cursor = area.y
    for lo, hi in blocked:
        if lo - cursor >= 1.0:
            free.append(Segment(x, _r(cursor), x, _r(lo)))
        cursor = max(cursor, hi)
    if area.top - cursor >= 1.0:
        free.append(Segment(x, _r(cursor), x, _r(area.top)))
    return tuple(free)
