"""Re-open a written proxy-sheet PDF and check it against its plan, in millimetres.

What a user would otherwise find out with a ruler after printing: page sizes, where every card and back sits
(within 0.05 mm), the TrimBox and BleedBox, the viewer preference that turns print scaling off, each image's
effective resolution, that no image is stored twice, that every font is embedded, and that a crop mark shows at
each end of every cut line (``carddb.layout.cut_lines``, on the strokes read back from the page). Any failure
is an ``OutputError`` naming the page and the card or the cut line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from carddb.errors import OutputError
from carddb.layout.cut_lines import cut_ends, unmarked
from carddb.layout.impose import IDENTITY, Affine, PagePlan, Rect, Segment, apply, compose

TOLERANCE_MM = 0.05
MM = 25.4 / 72.0  # millimetres per point


@dataclass(frozen=True)
class Expected:
    """A page as planned, and the faces drawn on it in drawing order: (form name, matrix in mm, bleed rect,
    trim rect, face) where the rects are card-placement rectangles before the page transform. ``marked``: every
    cut line must show a crop mark at both ends, inside ``printable`` (the page less the printer's margins)."""

    page: PagePlan
    faces: list[tuple[str, Affine, Rect, Rect, Any]]
    marked: bool = False
    printable: Rect | None = None


@dataclass
class CheckReport:
    pages: int = 0
    placements: int = 0
    cut_ends: int = 0  # ends of cut lines found marked
    images: int = 0
    min_dpi: float | None = None
    fonts: set[str] = field(default_factory=set)


def _fail(path: Path, message: str, hint: str = "this is a bug in carddb; the file was not kept") -> OutputError:
    return OutputError(f"{path}: the written PDF failed its check: {message}", hint=hint)


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE_MM


def _to_mm(matrix: Affine) -> Affine:
    a, b, c, d, e, f = matrix
    return a, b, c, d, e * MM, f * MM


def check_pdf(path: Path, expected: list[Expected], *, min_dpi: float = 150.0,
              shown_as: Path | None = None) -> CheckReport:
    """Check the PDF at ``path`` against ``expected``; ``shown_as`` is the name used in messages."""
    from pypdf import PdfReader  # here: a command that writes no PDF never loads pypdf (a build preloads it)
    from pypdf.errors import PdfReadError

    name = shown_as or path
    try:
        reader = PdfReader(str(path), strict=False)
        pages = reader.pages
        count = len(pages)
    except (PdfReadError, OSError, ValueError) as error:
        raise _fail(name, f"it cannot be read back ({error})") from None
    report = CheckReport(pages=count)
    if count != len(expected):
        raise _fail(name, f"{count} pages instead of {len(expected)}")
    prefs = reader.trailer["/Root"].get("/ViewerPreferences")
    if prefs is None or prefs.get_object().get("/PrintScaling") != "/None":
        raise _fail(name, "the viewer preference PrintScaling /None is missing")
    images: dict[tuple[int, int], str] = {}
    seen_forms: set[int] = set()
    for page, plan in zip(pages, expected, strict=True):
        _check_boxes(name, page, plan.page)
        draws, strokes = _page_content(page.get_contents(), page.pdf)
        report.placements += _check_placements(name, page, plan, draws)
        if plan.marked:
            report.cut_ends += _check_marks(name, plan, strokes)
        for font in _fonts(page.get("/Resources")):
            _check_font(name, font, plan.page.number, report)
        # A vector face's images are the card's art, reported by carddb.paint.art_resolution before printing
        # (and printed anyway): the resolution floor is for the faces carddb renders itself.
        vector = {form for form, _m, _b, _t, face in plan.faces if getattr(face, "image", True) is None}
        for resource, form in _forms(page):
            ref = form.indirect_reference
            key = ref.idnum if ref is not None else id(form)
            if key in seen_forms:
                continue
            seen_forms.add(key)
            obj = form.get_object()
            for font in _fonts(obj.get("/Resources")):
                _check_font(name, font, plan.page.number, report)
            floor = 0.0 if any(resource.endswith(f) for f in vector) else min_dpi
            _check_images(name, obj, images, report, floor)
    report.images = len(images)
    return report


def _check_boxes(path: Path, page: Any, plan: PagePlan) -> None:
    media = [float(v) * MM for v in page.mediabox]
    if not (_near(media[2] - media[0], plan.width) and _near(media[3] - media[1], plan.height)):
        raise _fail(path, f"page {plan.number} is {media[2] - media[0]:.2f} x {media[3] - media[1]:.2f} mm "
                          f"instead of {plan.width:g} x {plan.height:g} mm")
    for key, rect in (("/TrimBox", plan.trim_box), ("/BleedBox", plan.bleed_box)):
        if key not in page:
            raise _fail(path, f"page {plan.number} has no {key[1:]}")
        box = [float(v) * MM for v in page[key]]
        want = (rect.x, rect.y, rect.right, rect.top)
        if not all(_near(a, b) for a, b in zip(box, want, strict=True)):
            raise _fail(path, f"page {plan.number}'s {key[1:]} is {[round(v, 2) for v in box]} mm instead of "
                              f"{list(want)} mm")


def _forms(page: Any) -> list[tuple[str, Any]]:
    resources = page.get("/Resources")
    xobjects = resources.get_object().get("/XObject") if resources is not None else None
    if xobjects is None:
        return []
    xobjects = xobjects.get_object()
    return [(str(k), xobjects.raw_get(k)) for k in sorted(xobjects) if xobjects[k].get("/Subtype") == "/Form"]


def _draws(content: Any, reader: Any) -> list[tuple[str, Affine]]:
    """Every ``Do`` of a content stream with the transform in force (in points)."""
    return _page_content(content, reader)[0]


_BLACK = {(b"G", (0.0,)), (b"RG", (0.0, 0.0, 0.0)), (b"K", (0.0, 0.0, 0.0, 1.0))}


def _page_content(content: Any, reader: Any) -> tuple[list[tuple[str, Affine]], list[Segment]]:
    """Every ``Do`` of a content stream with the transform in force (in points), and every straight solid black
    stroke in page millimetres (what a crop mark is; a fold line is dashed grey)."""
    if content is None:
        return [], []
    from pypdf.generic import ContentStream

    stream = ContentStream(content.get_object(), reader)
    ctm: Affine = IDENTITY
    black, solid = True, True
    stack: list[tuple[Affine, bool, bool]] = []
    found: list[tuple[str, Affine]] = []
    strokes: list[Segment] = []
    path: list[tuple[float, float]] = []
    for operands, operator in stream.operations:
        if operator == b"q":
            stack.append((ctm, black, solid))
        elif operator == b"Q":
            ctm, black, solid = stack.pop() if stack else (IDENTITY, True, True)
        elif operator == b"cm":
            ctm = compose(ctm, tuple(float(v) for v in operands))  # type: ignore[arg-type]
        elif operator == b"Do":
            found.append((str(operands[0]), ctm))
        elif operator in (b"G", b"RG", b"K"):
            black = (operator, tuple(float(v) for v in operands)) in _BLACK
        elif operator in (b"SC", b"SCN", b"CS"):
            black = False  # a colour space of its own: not how carddb draws its marks
        elif operator == b"d":
            solid = len(operands[0]) == 0
        elif operator == b"m":
            path = [apply(ctm, float(operands[0]), float(operands[1]))]
        elif operator == b"l" and path:
            path.append(apply(ctm, float(operands[0]), float(operands[1])))
        elif operator in (b"S", b"s"):
            if black and solid:
                strokes.extend(Segment(x0 * MM, y0 * MM, x1 * MM, y1 * MM)
                               for (x0, y0), (x1, y1) in pairwise(path))
            path = []
        elif operator in (b"n", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"re"):
            path = []
    return found, strokes


def _check_marks(path: Path, plan: Expected, strokes: list[Segment]) -> int:
    """Each end of every cut line of the page's cards must show a mark (read back from the page's strokes)."""
    placements = plan.page.placements
    trims = [p.trim for p in placements]
    missing = unmarked(trims, strokes, [p.bleed_rect for p in placements], plan.printable)
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise _fail(path, f"page {plan.page.number}: {missing[0].describe()} has no crop mark{more}")
    return len(cut_ends(trims))


def _check_placements(path: Path, page: Any, plan: Expected, found: list[tuple[str, Affine]]) -> int:
    xobjects = page["/Resources"].get_object().get("/XObject")
    draws = [(n, m) for n, m in found
             if xobjects is not None and xobjects.get_object()[n].get("/Subtype") == "/Form"]
    number = plan.page.number
    if len(draws) != len(plan.faces):
        raise _fail(path, f"page {number} holds {len(draws)} faces instead of {len(plan.faces)}")
    for (resource, ctm), (form, matrix, bleed_rect, trim, face) in zip(draws, plan.faces, strict=True):
        label = f"page {number}, {getattr(face, 'label', form)}"
        if not resource.endswith(form):
            raise _fail(path, f"{label}: drew {resource} instead of {form}")
        bbox = [float(v) for v in xobjects.get_object()[resource]["/BBox"]]
        found = _to_mm(ctm)
        local = Rect(bleed_rect.x - trim.x, bleed_rect.y - trim.y, bleed_rect.w, bleed_rect.h)
        corners_found = [apply(found, x * MM, y * MM) for x, y in ((bbox[0], bbox[1]), (bbox[2], bbox[3]))]
        corners_plan = [apply(matrix, local.x, local.y), apply(matrix, local.right, local.top)]
        for (fx, fy), (px, py) in zip(corners_found, corners_plan, strict=True):
            if not (_near(fx, px) and _near(fy, py)):
                raise _fail(path, f"{label} has a corner at ({fx:.3f}, {fy:.3f}) mm instead of "
                                  f"({px:.3f}, {py:.3f}) mm")
    return len(draws)


def _fonts(resources: Any) -> list[Any]:
    if resources is None:
        return []
    fonts = resources.get_object().get("/Font")
    if fonts is None:
        return []
    fonts = fonts.get_object()
    return [fonts[k].get_object() for k in sorted(fonts)]


def _check_font(path: Path, font: Any, page: int, report: CheckReport) -> None:
    base = str(font.get("/BaseFont", "?")).lstrip("/")
    if font.get("/Subtype") == "/Type3":
        report.fonts.add(base)
        return
    target = font
    if font.get("/Subtype") == "/Type0":
        target = font["/DescendantFonts"][0].get_object()
    descriptor = target.get("/FontDescriptor")
    descriptor = descriptor.get_object() if descriptor is not None else {}
    if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
        raise _fail(path, f"page {page} uses the font {base} without embedding it")
    report.fonts.add(base.split("+", 1)[-1])


def _check_images(path: Path, form: Any, images: dict[tuple[int, int], str], report: CheckReport,
                  min_dpi: float) -> None:
    resources = form.get("/Resources")
    xobjects = resources.get_object().get("/XObject") if resources is not None else None
    if xobjects is None:
        return
    xobjects = xobjects.get_object()
    pictures = {k: xobjects.raw_get(k) for k in xobjects if xobjects[k].get("/Subtype") == "/Image"}
    if not pictures:
        return
    for name, ctm in _draws(form, None):
        if name not in pictures:
            continue
        ref = pictures[name]
        image = ref.get_object()
        key = (ref.idnum, ref.generation) if hasattr(ref, "idnum") else (id(image), 0)
        if key not in images:
            digest = hashlib.sha256(image._data).hexdigest()  # the stored bytes, as encoded
            if digest in images.values():
                raise _fail(path, "the same image is stored more than once")
            images[key] = digest
        width_in = (abs(ctm[0]) + abs(ctm[2])) / 72.0
        dpi = float(image["/Width"]) / width_in if width_in else 0.0
        if dpi + 0.5 < min_dpi:
            raise _fail(path, f"an image is printed at {dpi:.0f} dpi, under the {min_dpi:.0f} dpi floor",
                        hint="render the faces at a higher resolution; the file was not kept")
        report.min_dpi = dpi if report.min_dpi is None else min(report.min_dpi, dpi)
