"""The vector painter: a ``FaceLayout`` drawn with ReportLab, from the same font files as the raster painter.

``draw_face`` draws a face on any ReportLab canvas (the proxy sheets call it); ``face_pdf`` writes one face
as a one-page PDF of exactly the face's size. Text stays real text with embedded font subsets.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from carddb.errors import OutputError
from carddb.files.replacing import staged_file
from carddb.incremental import Memo
from carddb.layout.fonts import BUILTIN_STYLES, also_forget
from carddb.layout.ops import Contours, Ellipse, FaceLayout, ImageOp, Line, Op, Polygon, Rect, TextRun
from carddb.paint import pdf_streams  # noqa: F401  (every PDF written alike, quickly)

_REGISTERED: dict[str, str] = {}
also_forget(_REGISTERED.clear)  # a font file saved over is registered again, under its name (replacing the old)


def font_name(path: str) -> str:
    """The ReportLab name of a font file, registering it on first use."""
    name = _REGISTERED.get(path)
    if name is None:
        name = f"carddb-{Path(path).stem.split('[')[0]}-{hashlib.sha1(path.encode()).hexdigest()[:8]}"
        try:
            pdfmetrics.registerFont(TTFont(name, path))
        except Exception as exc:  # ReportLab raises TTFError and others for a broken file
            raise OutputError(f"{path}: font cannot be embedded in a PDF ({exc})") from None
        _REGISTERED[path] = name
    return name


def draw_face(canvas: Canvas, face: FaceLayout, x_mm: float, y_mm: float) -> None:
    """Draw ``face`` with its lower-left corner at (x_mm, y_mm) on ``canvas`` (face size bleed included)."""
    canvas.saveState()
    canvas.translate(x_mm * mm, (y_mm + face.height) * mm)  # face y runs down from the top edge
    clip = canvas.beginPath()
    clip.rect(0, -face.height * mm, face.width * mm, face.height * mm)
    canvas.clipPath(clip, stroke=0, fill=0)
    for op in face.ops:
        _draw(canvas, op)
    canvas.restoreState()


def _draw(c: Canvas, op: Op) -> None:
    if isinstance(op, TextRun):
        c.setFillColor(HexColor(op.colour))
        c.setFont(font_name(op.font), op.size)
        c.drawString(op.x * mm, -op.y * mm, op.text)
    elif isinstance(op, Rect):
        if op.fill and op.fill_to:
            _gradient(c, op)
            op = Rect(op.x, op.y, op.w, op.h, None, op.stroke, op.stroke_width, op.radius)
        fill, stroke = _paint(c, op.fill, op.stroke, op.stroke_width)
        if op.radius > 0:
            c.roundRect(op.x * mm, -(op.y + op.h) * mm, op.w * mm, op.h * mm, op.radius * mm, stroke=stroke,
                        fill=fill)
        else:
            c.rect(op.x * mm, -(op.y + op.h) * mm, op.w * mm, op.h * mm, stroke=stroke, fill=fill)
    elif isinstance(op, Ellipse):
        fill, stroke = _paint(c, op.fill, op.stroke, op.stroke_width)
        c.ellipse(op.x * mm, -op.y * mm, (op.x + op.w) * mm, -(op.y + op.h) * mm, stroke=stroke, fill=fill)
    elif isinstance(op, Polygon):
        fill, stroke = _paint(c, op.fill, op.stroke, op.stroke_width)
        path = c.beginPath()
        path.moveTo(op.points[0][0] * mm, -op.points[0][1] * mm)
        for x, y in op.points[1:]:
            path.lineTo(x * mm, -y * mm)
        path.close()
        c.drawPath(path, stroke=stroke, fill=fill)
    elif isinstance(op, Contours):
        c.setFillColor(HexColor(op.fill))
        code = _contour_code.get(op.contours, lambda: _path_code(op.contours))
        c.drawPath(PDFPathObject([code]), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
    elif isinstance(op, Line):
        c.setStrokeColor(HexColor(op.colour))
        c.setLineWidth(op.width * mm)
        c.line(op.x1 * mm, -op.y1 * mm, op.x2 * mm, -op.y2 * mm)
    elif isinstance(op, ImageOp):
        _image(c, op)


#: A symbol's outline as PDF path operators, by its points: the same icon sits at the same place on every card of a
#: kind, and formatting its hundreds of points was most of drawing a face into a proxy sheet.
_contour_code: Memo[tuple, str] = Memo(256)


def _path_code(contours: tuple) -> str:
    path = PDFPathObject()
    for contour in contours:
        path.moveTo(contour[0][0] * mm, -contour[0][1] * mm)
        for x, y in contour[1:]:
            path.lineTo(x * mm, -y * mm)
        path.close()
    return path.getCode()


def _gradient(c: Canvas, op: Rect) -> None:
    """The rectangle filled from ``fill`` to ``fill_to`` (down, or right) in bands clipped to it, one for each
    step of the colour (at most 128): a PDF shading would need a resource that a face drawn once and placed as a
    form does not carry (poppler: "ExtGState 'Sh0' is unknown"). Bands overlap a little, so no seam shows."""
    from carddb.layout.colours import mix, rgb

    steps = max(2, min(128, max(abs(a - b) for a, b in zip(rgb(op.fill), rgb(op.fill_to), strict=True))))
    c.saveState()
    path = c.beginPath()
    if op.radius > 0:
        path.roundRect(op.x * mm, -(op.y + op.h) * mm, op.w * mm, op.h * mm, op.radius * mm)
    else:
        path.rect(op.x * mm, -(op.y + op.h) * mm, op.w * mm, op.h * mm)
    c.clipPath(path, stroke=0, fill=0)
    length = op.h if op.fade == "down" else op.w
    band = length / steps
    for step in range(steps):
        c.setFillColor(HexColor(mix(op.fill, op.fill_to, (step + 0.5) / steps)))
        start = step * band
        reach = band * (1.0 if step == steps - 1 else 1.5)  # over the next band's start: no hairline between
        if op.fade == "down":
            c.rect(op.x * mm, -(op.y + start + reach) * mm, op.w * mm, reach * mm, stroke=0, fill=1)
        else:
            c.rect((op.x + start) * mm, -(op.y + op.h) * mm, reach * mm, op.h * mm, stroke=0, fill=1)
    c.restoreState()


def _paint(c: Canvas, fill: str | None, stroke: str | None, width: float) -> tuple[int, int]:
    if fill:
        c.setFillColor(HexColor(fill))
    if stroke:
        c.setStrokeColor(HexColor(stroke))
        c.setLineWidth(width * mm)
        c.setLineJoin(1)
    return int(bool(fill)), int(bool(stroke))


def _image(c: Canvas, op: ImageOp) -> None:
    """The cropped part of the image over the box: the whole image scaled, clipped to the box."""
    try:
        reader = ImageReader(op.path)
        iw, ih = reader.getSize()
    except Exception:  # ReportLab wraps Pillow's errors in its own; a file that will not decode
        for sub in op.fallback:
            _draw(c, sub)
        return
    left, top, right, bottom = op.crop
    sx, sy = op.w / (right - left), op.h / (bottom - top)
    c.saveState()
    clip = c.beginPath()
    clip.rect(op.x * mm, -(op.y + op.h) * mm, op.w * mm, op.h * mm)
    c.clipPath(clip, stroke=0, fill=0)
    x0 = op.x - left * sx
    y_top = op.y - top * sy
    c.drawImage(reader, x0 * mm, -(y_top + ih * sy) * mm, iw * sx * mm, ih * sy * mm)
    c.restoreState()


def face_pdf(face: FaceLayout, path: str | Path) -> Path:
    """Write ``face`` as a one-page PDF the size of the face, whole or not at all."""
    path = Path(path)
    with staged_file(path) as part:
        canvas = Canvas(str(part), pagesize=(face.width * mm, face.height * mm), invariant=1, pageCompression=1,
                        initialFontName=font_name(BUILTIN_STYLES["regular"][0].as_posix()))
        draw_face(canvas, face, 0.0, 0.0)
        canvas.showPage()
        canvas.save()
    return path
