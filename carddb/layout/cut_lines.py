"""Cut lines and the crop marks that show where they end, in millimetres (pure geometry).

A cut line is one straight cut through the sheet along a trim edge: every card edge at the same x (or y) lies on
one line, running from the first card's edge to the last. A user lines a ruler or a trimmer up with the marks at
the two ends, so each end needs a mark: a stroke on the line beyond that end, clear of every card's bleed, inside
the printable area and at least ``MIN_MARK_MM`` long.

The planner (``impose``) leaves the room these marks need when it fits the grid; the PDF check
(``carddb.paint.sheet_check``) applies this to the marks it reads back from the file, and the planner's tests
to the marks it plans.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

MIN_MARK_MM = 1.0  # shorter than this, a 0.1 mm stroke is a dot nobody lines a ruler up with
TOLERANCE_MM = 0.05


class Box(Protocol):
    x: float
    y: float
    w: float
    h: float


class Stroke(Protocol):
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class CutEnd:
    """One end of a cut line: the line ``axis`` ("v": x = ``at``; "h": y = ``at``) ends at ``end`` along itself,
    and its mark belongs on the ``outward`` side of it (+1 towards larger coordinates, -1 towards smaller)."""

    axis: str
    at: float
    end: float
    outward: int

    def describe(self) -> str:
        if self.axis == "v":
            side = "top" if self.outward > 0 else "bottom"
            return f"the {side} end of the vertical cut line at x = {self.at:.2f} mm"
        side = "right" if self.outward > 0 else "left"
        return f"the {side} end of the horizontal cut line at y = {self.at:.2f} mm"


def cut_ends(trims: Iterable[Box]) -> list[CutEnd]:
    """Both ends of every cut line through the cards whose trim rectangles are ``trims``."""
    lines: dict[tuple[str, float], list[float]] = {}
    for t in trims:
        for x in (t.x, t.x + t.w):
            span = lines.setdefault(("v", round(x, 3)), [t.y, t.y + t.h])
            span[0], span[1] = min(span[0], t.y), max(span[1], t.y + t.h)
        for y in (t.y, t.y + t.h):
            span = lines.setdefault(("h", round(y, 3)), [t.x, t.x + t.w])
            span[0], span[1] = min(span[0], t.x), max(span[1], t.x + t.w)
    ends = []
    for (axis, at), (lo, hi) in sorted(lines.items()):
        ends.extend((CutEnd(axis, at, lo, -1), CutEnd(axis, at, hi, 1)))
    return ends


def unmarked(trims: Sequence[Box], strokes: Sequence[Stroke], bleeds: Sequence[Box], printable: Box | None,
             minimum: float = MIN_MARK_MM) -> list[CutEnd]:
    """The cut-line ends of ``trims`` that ``strokes`` leave without a mark of at least ``minimum`` mm.

    An end is marked by a mark beyond it; where the margin has no room for one, by a mark in the gutter next to
    it, as long as the line has another mark elsewhere (two points make the line a ruler is laid along).
    """
    missing = []
    for end in cut_ends(trims):
        marks = [p for p in _mark_pieces(end, strokes, _merged(_across(end, bleeds)), printable)
                 if p[1] - p[0] + 1e-6 >= minimum]
        beyond = [p for p in marks if (p[0] >= end.end - TOLERANCE_MM if end.outward > 0
                                       else p[1] <= end.end + TOLERANCE_MM)]
        if beyond:
            continue
        cards = _merged(_across(end, bleeds, touching=True))
        if len(marks) >= 2 and len(cards) >= 2:
            gap = (cards[-2][1], cards[-1][0]) if end.outward > 0 else (cards[0][1], cards[1][0])
            if any(gap[0] - TOLERANCE_MM <= lo and hi <= gap[1] + TOLERANCE_MM for lo, hi in marks):
                continue
        missing.append(end)
    return missing


def _across(end: CutEnd, bleeds: Sequence[Box], *, touching: bool = False) -> list[tuple[float, float]]:
    """The stretches of the end's line that run across a card's bleed box (``touching``: or along its edge)."""
    spans = []
    tol = -TOLERANCE_MM if touching else TOLERANCE_MM
    for b in bleeds:
        across, along = ((b.x, b.x + b.w), (b.y, b.y + b.h)) if end.axis == "v" else ((b.y, b.y + b.h),
                                                                                    (b.x, b.x + b.w))
        if across[0] + tol < end.at < across[1] - tol:
            spans.append(along)
    return spans


def _merged(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + TOLERANCE_MM:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _mark_pieces(end: CutEnd, strokes: Sequence[Stroke], cards: list[tuple[float, float]],
                 printable: Box | None) -> list[tuple[float, float]]:
    """The parts of ``strokes`` that lie on the end's line, outside every card and inside the printable area."""
    tol = TOLERANCE_MM
    blocked = list(cards)
    if printable is not None:
        across, along = ((printable.x, printable.x + printable.w), (printable.y, printable.y + printable.h)) \
            if end.axis == "v" else ((printable.y, printable.y + printable.h), (printable.x, printable.x + printable.w))
        if not across[0] - tol <= end.at <= across[1] + tol:
            return []
        blocked += [(-float("inf"), along[0] - tol), (along[1] + tol, float("inf"))]
    pieces = []
    for s in strokes:
        if end.axis == "v" and abs(s.x0 - end.at) <= tol and abs(s.x1 - end.at) <= tol:
            pieces += _free(*sorted((s.y0, s.y1)), blocked)
        elif end.axis == "h" and abs(s.y0 - end.at) <= tol and abs(s.y1 - end.at) <= tol:
            pieces += _free(*sorted((s.x0, s.x1)), blocked)
    return pieces


def _free(lo: float, hi: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """[lo, hi] less every blocked stretch."""
    pieces = [(lo, hi)]
    for b_lo, b_hi in blocked:
        cut = []
        for p_lo, p_hi in pieces:
            if b_hi <= p_lo or b_lo >= p_hi:
                cut.append((p_lo, p_hi))
                continue
            if b_lo > p_lo:
                cut.append((p_lo, b_lo))
            if b_hi < p_hi:
                cut.append((b_hi, p_hi))
        pieces = cut
    return pieces
