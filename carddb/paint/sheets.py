"""The proxy-sheet PDF: draws what ``carddb.layout.impose`` planned, then re-opens the file and checks it.

Each distinct face (a card, or the shared back) becomes one Form XObject, drawn wherever the plan puts that
face, so a 4-of and a back shared by the whole deck are stored once. A vector face draws itself into its form;
a raster face is a JPEG passed through untouched (DCTDecode) inside its form. Every page gets a TrimBox and a
BleedBox, the document asks viewers not to scale when printing, and the bytes are the same for the same input
(ReportLab's ``invariant``). The file is written to a temporary name in the target folder, checked by
``carddb.paint.sheet_check`` against the plan, and only then renamed into place; with a size budget the job
is split into several files, never splitting a front page from its back.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from carddb.errors import InputError, LimitError, OutputError
from carddb.files.replacing import staged_files
from carddb.layout.impose import Affine, PagePlan, Placement, Rect, SheetPlan, union
from carddb.paint import pdf_streams  # noqa: F401  (every PDF written alike, quickly)
from carddb.paint.sheet_check import CheckReport, Expected, check_pdf
from carddb.paint.sheet_report import SheetReport
from carddb.paint.sheet_words import SHEET_FONT, draw_deck_list, draw_header, sheet_font

__all__ = ["SHEET_FONT", "PrintJob", "SheetFace", "SheetReport", "sheet_font", "write_sheets"]

PT = 72.0 / 25.4  # points per millimetre
MARK_WIDTH_PT = 0.3
FOLD_DASH_PT = (3.0, 2.0)

#: Draws a face with the lower-left corner of its bleed box at (x_mm, y_mm) on a ReportLab canvas.
DrawFace = Callable[[Canvas, float, float], None]


@dataclass(frozen=True)
class SheetFace:
    """One picture to put on cards: drawn as vectors (``draw``) or a JPEG file covering the bleed box (``image``).

    ``key`` is its identity: faces with the same key are the same picture and are stored once in the file.
    """

    key: str
    label: str
    draw: DrawFace | None = None
    image: Path | None = None
    background: str | None = None  # the colour filling the whole face: drawn once under a page of these faces

    def __post_init__(self) -> None:
        if (self.draw is None) == (self.image is None):
            raise ValueError("a SheetFace is drawn either as vectors or from an image, exactly one of them")


@dataclass(frozen=True)
class PrintJob:
    """A plan and the faces of its items: ``fronts[i]`` is item i's face, ``backs[i]`` its back (if any)."""

    plan: SheetPlan
    fronts: Sequence[SheetFace]
    backs: Sequence[SheetFace] | None = None
    title: str = "carddb proxy sheets"
    game: str = ""  # the game's name, for the header and the document's title
    deck_list: tuple[str, ...] = ()  # the lines of the deck list page, when the plan has one

    def __post_init__(self) -> None:
        if len(self.fronts) != self.plan.items or (self.backs is not None and len(self.backs) != self.plan.items):
            raise ValueError("a print job needs one front (and one back, if any) for every item of its plan")
        if any(p.side == "back" for page in self.plan.pages for p in page.placements) and self.backs is None:
            raise InputError(f"the {self.plan.spec.layout} layout needs card backs, and this job has none")

    def face(self, placement: Placement) -> SheetFace:
        if placement.side == "back":
            assert self.backs is not None
            return self.backs[placement.item]
        return self.fronts[placement.item]


@contextmanager
def _plain_streams() -> Iterator[None]:
    """Turn off ReportLab's ASCII85 stream wrapping while we write: it inflates every JPEG by a quarter."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def new_canvas(target: io.BytesIO, title: str) -> Canvas:
    """A canvas that writes the same bytes for the same drawing, asks viewers not to scale when printing,
    and starts with an embeddable font (ReportLab's default, Helvetica, would be referenced unembedded)."""
    canvas = Canvas(target, invariant=1, pageCompression=1, initialFontName=sheet_font())
    canvas.setTitle(title)
    canvas.setCreator("carddb")
    canvas.setAuthor("carddb")
    canvas.setSubject("print-and-play proxy sheets; print at 100 % (actual size)")
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


def _pt(matrix: Affine) -> tuple[float, float, float, float, float, float]:
    a, b, c, d, e, f = matrix
    return a, b, c, d, e * PT, f * PT


def _box(rect: Rect) -> tuple[float, float, float, float]:
    return rect.x * PT, rect.y * PT, rect.right * PT, rect.top * PT


def render_pdf(job: PrintJob, pages: Sequence[PagePlan]) -> tuple[bytes, list[Expected]]:
    """The PDF bytes of ``pages`` and, for the check, where every face must be found on each page."""
    buffer = io.BytesIO()
    expected: list[Expected] = []
    with _plain_streams():
        canvas = new_canvas(buffer, f"{job.game}: {job.title}" if job.game else job.title)
        forms: dict[str, str] = {}
        images: dict[str, Path] = {}
        total = len(job.plan.pages)
        marked = job.plan.spec.marks and job.plan.spec.layout != "single"  # print-shop pages are cut by the shop
        for page in pages:
            canvas.setPageSize((page.width * PT, page.height * PT))
            canvas.setTrimBox(_box(page.trim_box))
            canvas.setBleedBox(_box(page.bleed_box))
            if page.side == "list":
                draw_deck_list(canvas, page, job)
            _draw_background(canvas, page, job)
            faces = []
            for placement in page.placements:
                face = job.face(placement)
                name = forms.get(face.key)
                if name is None:
                    name = forms[face.key] = f"F{len(forms) + 1}"
                    _define_form(canvas, name, _same_image_once(face, images), placement)
                canvas.saveState()
                canvas.transform(*_pt(page.matrix(placement)))
                canvas.doForm(name)
                canvas.restoreState()
                faces.append((name, page.matrix(placement), placement.bleed_rect, placement.trim, face))
            _draw_lines(canvas, page)
            draw_header(canvas, page, job, total)
            expected.append(Expected(page, faces, marked=marked, printable=job.plan.grid.printable))
            canvas.showPage()
        canvas.save()
    return buffer.getvalue(), expected


def _draw_background(canvas: Canvas, page: PagePlan, job: PrintJob) -> None:
    """One rectangle under a page whose faces all share a background colour (a page of backs), covering their
    bleed boxes and the gutters between them: abutting faces then show no seam, and a cut a little off shows
    the back's colour, never white."""
    colours = {job.face(p).background for p in page.placements}
    if len(colours) != 1 or None in colours or len(page.placements) < 2:
        return
    (colour,) = colours
    area = union([p.bleed_rect for p in page.placements])
    canvas.saveState()
    canvas.transform(*_pt(page.transform))
    canvas.setFillColor(HexColor(colour))
    canvas.rect(area.x * PT, area.y * PT, area.w * PT, area.h * PT, stroke=0, fill=1)
    canvas.restoreState()


def _same_image_once(face: SheetFace, seen: dict[str, Path]) -> SheetFace:
    """Two faces whose image files hold the same bytes draw the first file, so the image is stored once
    (ReportLab keeps one image per file name, not per content)."""
    if face.image is None:
        return face
    try:
        digest = hashlib.sha256(face.image.read_bytes()).hexdigest()
    except OSError as error:
        raise InputError(f"{face.image}: the face of {face.label} cannot be read ({error.strerror or error})") \
            from None
    first = seen.setdefault(digest, face.image)
    return face if first == face.image else replace(face, image=first)


def _define_form(canvas: Canvas, name: str, face: SheetFace, placement: Placement) -> None:
    """A face as a Form XObject whose origin is the card's trim corner and whose BBox is its bleed box."""
    b, w, h = placement.bleed, placement.trim.w, placement.trim.h
    canvas.beginForm(name, -b * PT, -b * PT, (w + b) * PT, (h + b) * PT)
    if face.image is not None:
        canvas.drawImage(str(face.image), -b * PT, -b * PT, (w + 2 * b) * PT, (h + 2 * b) * PT)
    else:
        assert face.draw is not None
        face.draw(canvas, -b, -b)
    canvas.endForm()


def _draw_lines(canvas: Canvas, page: PagePlan) -> None:
    if not page.marks and not page.fold_lines:
        return
    canvas.saveState()
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setStrokeColorRGB(0, 0, 0)
    for mark in page.marks:
        canvas.line(mark.x0 * PT, mark.y0 * PT, mark.x1 * PT, mark.y1 * PT)
    if page.fold_lines:
        canvas.setDash(*FOLD_DASH_PT)
        canvas.setStrokeColorRGB(0.45, 0.45, 0.45)
        for fold in page.fold_lines:
            canvas.line(fold.x0 * PT, fold.y0 * PT, fold.x1 * PT, fold.y1 * PT)
    canvas.restoreState()


def commit_files(files: list[tuple[Path, bytes, list[Expected]]], *, min_dpi: float = 150.0) -> list[CheckReport]:
    """Write each PDF to a hidden file beside its target, check them all, then rename them all into place
    (``carddb.files.replacing.staged_files``).

    When a write or a check fails, every hidden file is removed and no target is touched.
    """
    with staged_files([path for path, _data, _expected in files]) as parts:
        checks = []
        for part, (path, data, expected) in zip(parts, files, strict=True):
            part.write_bytes(data)
            checks.append(check_pdf(part, expected, min_dpi=min_dpi, shown_as=path))
    return checks


def part_paths(out: Path, count: int) -> list[Path]:
    if count == 1:
        return [out]
    return [out.with_name(f"{out.stem}-{i}{out.suffix}") for i in range(1, count + 1)]


def check_output_path(out: str | Path) -> Path:
    out = Path(out)
    if out.suffix.lower() != ".pdf":
        raise InputError(f"{out}: the output of print must be a .pdf file")
    if not out.parent.is_dir():
        raise OutputError(f"{out.parent}: no such folder; nothing was written")  # exit 3, as README says
    if out.is_dir():
        raise OutputError(f"{out} is a folder")
    return out


def write_sheets(job: PrintJob, out: str | Path, *, max_mb: float | None = None, min_dpi: float = 150.0) -> SheetReport:
    """Write the job's PDF (several when ``max_mb`` needs it), check each against the plan, then rename into place.

    Nothing is left behind when anything fails: no half-written PDF, no temporary file.
    """
    out = check_output_path(out)
    if max_mb is not None and max_mb <= 0:
        raise InputError(f"--max-mb must be more than 0, not {max_mb}")
    sheets = job.plan.sheets()
    budget = None if max_mb is None else max_mb * 1_000_000
    rendered = _render_within(job, sheets, budget)
    paths = part_paths(out, len(rendered))
    checks = commit_files([(path, data, expected) for path, (data, expected) in zip(paths, rendered, strict=True)],
                          min_dpi=min_dpi)
    placed = [p for page in job.plan.pages for p in page.placements]
    return SheetReport(files=paths, pages=len(job.plan.pages), cards=sum(p.side == "front" for p in placed),
                       backs=sum(p.side == "back" for p in placed), bytes=sum(len(d) for d, _ in rendered),
                       checks=checks)


def _render_within(job: PrintJob, sheets: list[tuple[PagePlan, ...]],
                   budget: float | None) -> list[tuple[bytes, list[Expected]]]:
    """The whole job as one PDF, or, over ``budget`` bytes, as few consecutive parts as fit (each part as many
    whole sheets as stay within the budget: a doubling, then a halving search, rendering each candidate)."""
    whole = render_pdf(job, [page for sheet in sheets for page in sheet])
    if budget is None or len(whole[0]) <= budget:
        return [whole]

    def fitting(first: int, count: int) -> tuple[bytes, list[Expected]] | None:
        rendered = render_pdf(job, [page for sheet in sheets[first:first + count] for page in sheet])
        return rendered if len(rendered[0]) <= budget else None

    parts = []
    first = 0
    while first < len(sheets):
        best = fitting(first, 1)
        if best is None:
            alone = len(render_pdf(job, list(sheets[first]))[0])
            raise LimitError(f"the size budget of {budget / 1_000_000:g} MB cannot be met: one sheet alone takes "
                             f"{alone / 1_000_000:.2f} MB",
                             hint="raise --max-mb, or print vector faces (without --raster)")
        low, high = 1, len(sheets) - first
        while low < high:  # double while it fits
            probe = min(high, low * 2)
            found = fitting(first, probe)
            if found is None:
                high = probe - 1
                break
            low, best = probe, found
        while low < high:  # then halve the gap
            middle = (low + high + 1) // 2
            found = fitting(first, middle)
            if found is None:
                high = middle - 1
            else:
                low, best = middle, found
        parts.append(best)
        first += low
    return parts
