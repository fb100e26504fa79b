"""Stand-in faces and a ruler: the sheets are measured back from the written PDF, in millimetres."""

from __future__ import annotations

import hashlib
from io import BytesIO
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from carddb.layout.impose import SheetPlan
from carddb.paint.sheets import PT, PrintJob, SheetFace, sheet_font

MM = 25.4 / 72


def without_faces(pdf_path: Path) -> BytesIO:
    """The PDF with every face's drawing taken out of its form: the page's own drawing (the marks) as it was.

    A face is clipped to its bleed box, and a mark is beyond every bleed box, so no mark can be inside a face;
    the faces' text and shapes are most of what pdfplumber would lay out (12 times as long)."""
    writer = PdfWriter(clone_from=PdfReader(pdf_path))
    for page in writer.pages:
        for form in (page["/Resources"].get("/XObject") or {}).values():
            form = form.get_object()
            if form.get("/Subtype") == "/Form":
                form.set_data(b"")
                form.pop(NameObject("/Resources"), None)
    data = BytesIO()
    writer.write(data)
    data.seek(0)
    return data


def vector_face(key: str, footprint: tuple[float, float]) -> SheetFace:
    """A face that fills its bleed box with one rectangle and writes its key in the embedded sheet font."""
    shade = int(hashlib.sha256(key.encode()).hexdigest()[:2], 16) / 255

    def draw(canvas, x_mm: float, y_mm: float) -> None:
        canvas.setFillColorRGB(shade, 0.5, 1 - shade)
        canvas.rect(x_mm * PT, y_mm * PT, footprint[0] * PT, footprint[1] * PT, stroke=0, fill=1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(sheet_font(), 8)
        canvas.drawString((x_mm + 8) * PT, (y_mm + footprint[1] - 12) * PT, key)

    return SheetFace(key, key, draw=draw)


def jpeg_face(folder: Path, key: str, footprint: tuple[float, float], dpi: int = 300) -> SheetFace:
    path = folder / f"{key}.jpg"
    if not path.exists():
        size = (round(footprint[0] / 25.4 * dpi), round(footprint[1] / 25.4 * dpi))
        colour = tuple(hashlib.sha256(key.encode()).digest()[:3])
        Image.new("RGB", size, colour).save(path, quality=90)
    return SheetFace(key, key, image=path)


def stand_in_job(plan: SheetPlan, *, raster: bool = False, folder: Path | None = None, distinct: int = 7) -> PrintJob:
    """Item i shows card ``c{i % distinct}``; every back is the one shared back."""
    footprint = plan.spec.footprint

    def face(key: str) -> SheetFace:
        if raster:
            assert folder is not None
            return jpeg_face(folder, key, footprint)
        return vector_face(key, footprint)

    cards = {f"c{k}": face(f"c{k}") for k in range(distinct)}
    fronts = [cards[f"c{i % distinct}"] for i in range(plan.items)]
    backs = [face("back")] * plan.items
    return PrintJob(plan, fronts, backs)


def measured(pdf_path: Path, page_index: int, *, raster: bool) -> list[tuple[float, float, float, float]]:
    """Every face on a page as (x, y, w, h) in mm from the lower-left corner, in drawing order."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[page_index]
        objects = page.images if raster else [r for r in page.rects if r["width"] * MM > 20]
        return [(o["x0"] * MM, (float(page.height) - o["bottom"]) * MM, o["width"] * MM, o["height"] * MM)
                for o in objects]


def assert_near(found: list[tuple[float, ...]], expected: list[tuple[float, ...]], tolerance: float = 0.05) -> None:
    assert len(found) == len(expected), (found, expected)
    for f, e in zip(found, expected, strict=True):
        assert all(abs(a - b) <= tolerance for a, b in zip(f, e, strict=True)), (f, e)


@pytest.fixture
def faces_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "faces"
    folder.mkdir()
    return folder
