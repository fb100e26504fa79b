"""The raster painter: a ``FaceLayout`` to a Pillow image, a PNG or a JPEG at any DPI (300 by default).

It draws what the layout computed and decides nothing. Text is drawn word by word at the positions the layout
gave (unhinted advances, as the vector painter draws), so both painters put every word in the same place. A
word's anti-aliased letters are rendered once for each font, size and quarter-pixel offset and then stamped
(``_word_mask``): most words of a game's faces are words it prints again ("the", "card", "LEVEL"), and FreeType
rendering them again was most of the time a face took to paint.
"""

from __future__ import annotations

import io
import math
import os
import struct
import zlib
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

import deflate
from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont, features

from carddb.errors import OutputError
from carddb.files.replacing import staged_file
from carddb.layout.fonts import also_forget, font_metrics
from carddb.layout.ops import Contours, Ellipse, FaceLayout, ImageOp, Line, Op, Polygon, Rect, TextRun, outlines
from carddb.paint import IMAGE_FORMATS

DEFAULT_DPI = 300
FORMATS = IMAGE_FORMATS


# With Raqm, glyphs are placed by unhinted advances, exactly the widths the layout measured; kerning is off
# because ReportLab does not kern. Without Raqm, hinted advances drift a little within a word.
_RAQM = features.check("raqm")
_LAYOUT = ImageFont.Layout.RAQM if _RAQM else ImageFont.Layout.BASIC
_FEATURES = ["-kern"] if _RAQM else None


@lru_cache(maxsize=256)
def _font(path: str, px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px, layout_engine=_LAYOUT)


def _image(path: str, crop: tuple[int, int, int, int], w: int, h: int) -> Image.Image:
    """The art as drawn, remembered only while its file is unchanged: ``build --watch`` draws a face again in
    the same process after the art file at the same path is saved."""
    stat = os.stat(path)
    return _scaled_image(path, (stat.st_mtime_ns, stat.st_size), crop, w, h)


@lru_cache(maxsize=64)
def _scaled_image(path: str, version: tuple[int, int], crop: tuple[int, int, int, int], w: int, h: int
                  ) -> Image.Image:
    with Image.open(path) as src:
        src.draft("RGB", (w, h))  # JPEG: decode at a reduced scale when that is enough
        full = _source_size(path, version)
        scale_x, scale_y = src.size[0] / full[0], src.size[1] / full[1]
        box = (crop[0] * scale_x, crop[1] * scale_y, crop[2] * scale_x, crop[3] * scale_y)
        return src.convert("RGB").resize((w, h), Image.Resampling.LANCZOS, box=box)


@lru_cache(maxsize=64)
def _source_size(path: str, version: tuple[int, int]) -> tuple[int, int]:
    with Image.open(path) as src:
        return src.size


def render_image(face: FaceLayout, dpi: float = DEFAULT_DPI) -> Image.Image:
    """The face as an RGB image, ``dpi`` pixels per inch.

    The shapes of a face (background, edge, frame, panels, textures, a symbol: all but its text and pictures)
    are most often the same on many cards of a template, so they are drawn once and copied (``_layers``): the
    copy is keyed by those operations themselves, the image size and the resolution, all a shape's pixels depend
    on. A shape joins the copy only when nothing the face draws for itself before it touches a pixel it touches,
    so drawing it first changes no pixel: a face drawn from the copy is the face drawn from nothing.
    """
    k = dpi / 25.4
    size = (max(1, round(face.width * k)), max(1, round(face.height * k)))
    shared, leading, own = _layers(face.ops, k)
    image = _base_layer(shared, size, k, leading).copy()
    draw = ImageDraw.Draw(image)
    for op, stamps in own:
        if stamps is None:
            _draw(image, draw, op, k)
        else:
            _paste_words(image, op, stamps)
    return image


Stamp = tuple[Any, int, int]  # a word's coverage (a Pillow core image) and the pixel its top-left corner goes on
Extent = tuple[int, int, int, int]  # left, top, right, bottom pixel edges (the right and bottom excluded)


def _layers(ops: list[Op], k: float) -> tuple[tuple[Op, ...], int, list[tuple[Op, list[Stamp] | None]]]:
    """The shapes drawn once for every face showing them, how many of them come before the face's first own
    operation, and the face's own operations in their order (a text run with its words' stamps, found here as
    their pixels are what it covers).

    An operation stays the face's own when it is text or a picture, or when a pixel it may touch is one that an
    operation the face draws for itself before it may touch (its order against that one matters)."""
    shared: list[Op] = []
    leading = 0
    own: list[tuple[Op, list[Stamp] | None]] = []
    covered: list[Extent] = []  # what the face's own operations so far may touch
    for op in ops:
        if isinstance(op, TextRun):
            stamps = _stamps(op, k)
            own.append((op, stamps))
            covered.extend((left, top, left + mask.size[0], top + mask.size[1]) for mask, left, top in stamps)
        elif isinstance(op, ImageOp) or (covered and _touches(_extent(op, k), covered)):
            own.append((op, None))
            covered.append(_extent(op, k))
        else:
            shared.append(op)
            leading += not own
    return tuple(shared), leading, own


def _touches(extent: Extent, others: list[Extent]) -> bool:
    left, top, right, bottom = extent
    return any(left < o[2] and o[0] < right and top < o[3] and o[1] < bottom for o in others)


#: Pixels added on every side of a shape's reach: anti-aliased and stroked edges stay well inside it.
REACH = 2


def _extent(op: Op, k: float) -> Extent:
    """The pixels an operation other than text may touch, with a margin (``REACH``): more never hurts, as a shape
    is then only drawn with its face, never less."""
    if isinstance(op, ImageOp):
        box = _reach(op.x, op.y, op.x + op.w, op.y + op.h, k, 0.0)
        if not op.fallback:
            return box
        inner = [_extent(sub, k) for sub in op.fallback]
        return (min(box[0], *(e[0] for e in inner)), min(box[1], *(e[1] for e in inner)),
                max(box[2], *(e[2] for e in inner)), max(box[3], *(e[3] for e in inner)))
    if isinstance(op, Rect | Ellipse):
        return _reach(op.x, op.y, op.x + op.w, op.y + op.h, k, op.stroke_width if op.stroke else 0.0)
    if isinstance(op, Polygon):
        xs, ys = [x for x, _ in op.points], [y for _, y in op.points]
        return _reach(min(xs), min(ys), max(xs), max(ys), k, op.stroke_width if op.stroke else 0.0)
    if isinstance(op, Line):
        return _reach(min(op.x1, op.x2), min(op.y1, op.y2), max(op.x1, op.x2), max(op.y1, op.y2), k, op.width)
    if isinstance(op, Contours):
        bounds = op.bounds if op.bounds != (0.0, 0.0, 0.0, 0.0) else outlines(op.contours, op.fill).bounds
        return _reach(*bounds, k, 0.0)
    raise TypeError(f"no extent for {op!r}")


def _reach(left: float, top: float, right: float, bottom: float, k: float, stroke_mm: float) -> Extent:
    grow = max(1, round(stroke_mm * k)) if stroke_mm else 0  # a stroke's whole width, outside the edge too
    return (math.floor(left * k) - grow - REACH, math.floor(top * k) - grow - REACH,
            math.ceil(right * k) + grow + REACH + 1, math.ceil(bottom * k) + grow + REACH + 1)


#: The bytes of shared layers a process keeps (least recently used out first): 60 faces at 300 DPI, the kinds,
#: colours and symbols of a game (shmod's 500 bench cards show 34, on 10 frames), 15 at 600 DPI.
LAYERS_KEPT = 128 * 2**20
_LAYERS: OrderedDict[tuple[tuple[Op, ...], tuple[int, int], float], Image.Image] = OrderedDict()


def _base_layer(shapes: tuple[Op, ...], size: tuple[int, int], k: float, leading: int | None = None) -> Image.Image:
    """The shapes drawn on white, remembered by the shapes themselves, the image size and the resolution.

    The first ``leading`` of them (those before the face's first own operation) are its frame, remembered alone too:
    the faces of many symbols and panels share a few frames, and a frame (a gradient, rings the size of the card)
    is most of what a layer costs to draw."""
    key = (shapes, size, k)
    image = _LAYERS.get(key)
    if image is not None:
        _LAYERS.move_to_end(key)
        return image
    start = leading if leading is not None and 0 < leading < len(shapes) else 0
    image = _base_layer(shapes[:start], size, k).copy() if start else Image.new("RGB", size, "#ffffff")
    draw = ImageDraw.Draw(image)
    for op in shapes[start:]:
        _draw(image, draw, op, k)
    _LAYERS[key] = image
    kept = sum(layer.width * layer.height * 3 for layer in _LAYERS.values())
    while kept > LAYERS_KEPT and len(_LAYERS) > 1:
        _, dropped = _LAYERS.popitem(last=False)
        kept -= dropped.width * dropped.height * 3
    return image


#: The steps of a pixel a word's origin is placed at: a quarter of a pixel (0.02 mm at 300 dpi), out of sight.
PHASES = 4


@lru_cache(maxsize=8192)  # a few thousand words of a few kB: the words of a game's faces, at their sizes
def _word_mask(text: str, path: str, px: float, phase_x: int, phase_y: int) -> Stamp:
    """The coverage of ``text`` drawn with its baseline's left end at (phase_x, phase_y) quarters of a pixel
    into the pixel at (0, 0), and the offset of the mask's top-left pixel from that pixel: FreeType's own bitmap
    of the word, as ``ImageDraw.text`` draws it (a Pillow core image, pasted as it is)."""
    mask, (dx, dy) = _font(path, px).getmask2(text, "L", features=_FEATURES, anchor="ls",
                                              start=(phase_x / PHASES, phase_y / PHASES))
    return mask, dx, dy


# A font file saved over is loaded again, and what was drawn with it is drawn again: the words' masks, and the
# layers of drawn operations (text runs among them) kept by their operations.
also_forget(_font.cache_clear)
also_forget(_word_mask.cache_clear)
also_forget(_LAYERS.clear)


@lru_cache(maxsize=256)
def _ink(colour: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(colour)[:3]  # type: ignore[return-value]


def _placed(value: float) -> tuple[int, int]:
    """A position in pixels as the whole pixel and the quarter of it."""
    whole = math.floor(value)
    phase = round((value - whole) * PHASES)
    return (whole + 1, 0) if phase == PHASES else (whole, phase)


def _text(image: Image.Image, op: TextRun, k: float) -> None:
    _paste_words(image, op, _stamps(op, k))


def _stamps(op: TextRun, k: float) -> list[Stamp]:
    """The run's words, each at its advance from the run's start (the widths the layout measured)."""
    px = round(op.size * k * 25.4 / 72, 2)
    per_em = op.size * k * 25.4 / 72
    metrics = font_metrics(op.font)
    iy, phase_y = _placed(op.y * k)
    advance, space = 0.0, metrics.width(" ")
    stamps = []
    for word in op.text.split(" "):
        if word:
            ix, phase_x = _placed(op.x * k + advance * per_em)
            mask, dx, dy = _word_mask(word, op.font, px, phase_x, phase_y)
            stamps.append((mask, ix + dx, iy + dy))
            advance += metrics.width(word)
        advance += space
    return stamps


def _paste_words(image: Image.Image, op: TextRun, stamps: list[Stamp]) -> None:
    ink = _ink(op.colour)
    image.load()
    core = image.im  # what ``Image.paste`` and ``ImageDraw.text`` paste with, without their checks word by word
    for mask, left, top in stamps:
        width, height = mask.size
        core.paste(ink, (left, top, left + width, top + height), mask)


def _draw(image: Image.Image, draw: ImageDraw.ImageDraw, op: Op, k: float) -> None:
    if isinstance(op, TextRun):
        _text(image, op, k)
    elif isinstance(op, Rect):
        width = _stroke(op.stroke, op.stroke_width, k)
        if op.fill and op.fill_to:
            _gradient(image, _box(op.x, op.y, op.w, op.h, k), op.radius * k, op.fill, op.fill_to, op.fade)
        elif op.fill:
            _rectangle(draw, _box(op.x, op.y, op.w, op.h, k), op.radius * k, fill=op.fill)
        if width:  # centred on the edge, as a PDF strokes it (Pillow draws an outline inside its box)
            grow = width / k / 2
            _rectangle(draw, _box(op.x - grow, op.y - grow, op.w + 2 * grow, op.h + 2 * grow, k),
                       (op.radius + grow) * k if op.radius > 0 else 0.0, outline=op.stroke, width=width)
    elif isinstance(op, Ellipse):
        width = _stroke(op.stroke, op.stroke_width, k)
        if op.fill:
            draw.ellipse(_box(op.x, op.y, op.w, op.h, k), fill=op.fill)
        if width:
            grow = width / k / 2
            draw.ellipse(_box(op.x - grow, op.y - grow, op.w + 2 * grow, op.h + 2 * grow, k), outline=op.stroke,
                         width=width)
    elif isinstance(op, Polygon):
        points = [(x * k, y * k) for x, y in op.points]
        draw.polygon(points, fill=op.fill, outline=op.stroke, width=_stroke(op.stroke, op.stroke_width, k))
    elif isinstance(op, Contours):
        mask, left, top = _mask_of(op, k)
        image.paste(_ink(op.fill), (left, top, left + mask.width, top + mask.height), mask)
    elif isinstance(op, Line):
        draw.line([(op.x1 * k, op.y1 * k), (op.x2 * k, op.y2 * k)], fill=op.colour, width=max(1, round(op.width * k)))
    elif isinstance(op, ImageOp):
        left, top = round(op.x * k), round(op.y * k)
        w, h = round((op.x + op.w) * k) - left, round((op.y + op.h) * k) - top
        try:
            picture = _image(op.path, op.crop, max(1, w), max(1, h))
        except (OSError, ValueError, Image.DecompressionBombError):
            for sub in op.fallback:  # a file that looked fine but does not decode: draw the placeholder
                _draw(image, draw, sub, k)
            return
        image.paste(picture, (left, top))


#: Outlines are filled at this many samples a pixel each way, then averaged: edges as smooth as the PDF's.
SUPERSAMPLE = 4


_MASKS_BY_OP: dict[tuple[int, float], tuple[Contours, tuple[Image.Image, int, int]]] = {}


def _mask_of(op: Contours, k: float) -> tuple[Image.Image, int, int]:
    """``_contours_mask`` found by the op itself first: the layout hands every face of a kind the same symbol and
    texture objects, and hashing a texture's thousands of points again on every face cost more than its paste."""
    known = _MASKS_BY_OP.get((id(op), k))
    if known is not None and known[0] is op:  # the op is held, so its id is not another's
        return known[1]
    if len(_MASKS_BY_OP) >= 512:
        _MASKS_BY_OP.clear()
    mask = _contours_mask(op.contours, k)
    _MASKS_BY_OP[(id(op), k)] = (op, mask)
    return mask


@lru_cache(maxsize=512)  # a game's symbols, ornaments and texture flecks at their places: drawn once each
def _contours_mask(contours: tuple[tuple[tuple[float, float], ...], ...], k: float) -> tuple[Image.Image, int, int]:
    """The coverage of outlines filled by the nonzero rule, and the pixel its top-left corner goes on.

    Pillow fills one polygon at a time by the even-odd rule, which for one outline that does not cross itself is
    its inside. The winding number is then the sum of +1 for each outline turning one way around a pixel and -1
    for each turning the other (an icon's holes), counted in two masks: the pixel is inside where they differ.
    """
    xs = [x for contour in contours for x, _ in contour]
    ys = [y for contour in contours for _, y in contour]
    left, top = math.floor(min(xs) * k), math.floor(min(ys) * k)
    width, height = math.ceil(max(xs) * k) - left + 1, math.ceil(max(ys) * k) - top + 1
    s = SUPERSAMPLE
    turns = {1: Image.new("L", (width * s, height * s), 0), -1: Image.new("L", (width * s, height * s), 0)}
    for contour in contours:
        points = [((x * k - left) * s, (y * k - top) * s) for x, y in contour]
        area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))
        if not area:
            continue
        box = (math.floor(min(p[0] for p in points)), math.floor(min(p[1] for p in points)),
               math.ceil(max(p[0] for p in points)) + 1, math.ceil(max(p[1] for p in points)) + 1)
        shape = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
        ImageDraw.Draw(shape).polygon([(x - box[0], y - box[1]) for x, y in points], fill=1)
        count = turns[1 if area > 0 else -1]
        count.paste(ImageChops.add(count.crop(box), shape), box[:2])
    inside = ImageChops.difference(turns[1], turns[-1]).point(lambda v: 255 if v else 0)
    return inside.reduce(s), left, top


def _gradient(image: Image.Image, box: tuple[int, int, int, int], radius: float, start: str, end: str,
              fade: str) -> None:
    """A rectangle (rounded by ``radius`` pixels) whose colour runs from ``start`` to ``end``, down from its top
    edge or right from its left edge (the vector painter draws the same run in bands)."""
    width, height = box[2] - box[0] + 1, box[3] - box[1] + 1
    ramp = Image.linear_gradient("L")  # 256 x 256, black at the top to white at the bottom
    ramp = (ramp if fade == "down" else ramp.rotate(90)).resize((width, height))  # turned: black at the left
    colours = Image.composite(Image.new("RGB", (width, height), end), Image.new("RGB", (width, height), start), ramp)
    mask = Image.new("L", (width, height), 0)
    _rectangle(ImageDraw.Draw(mask), (0, 0, width - 1, height - 1), radius, fill=255)
    image.paste(colours, box[:2], mask)


def _rectangle(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: float,
               **paint: object) -> None:
    if radius > 0:
        draw.rounded_rectangle(box, radius=radius, **paint)
    else:
        draw.rectangle(box, **paint)


def _box(x: float, y: float, w: float, h: float, k: float) -> tuple[int, int, int, int]:
    """The pixels whose centres lie inside the box: both edges rounded the same way (Pillow would cut the
    fractions off, leaving the last column and row of a 59 mm card, 696.85 pixels at 300 dpi, unpainted), and
    the last one shaved, as Pillow's boxes include their last pixel."""
    left, top = round(x * k), round(y * k)
    return left, top, max(left, round((x + w) * k) - 1), max(top, round((y + h) * k) - 1)


def _stroke(colour: str | None, width_mm: float, k: float) -> int:
    return max(1, round(width_mm * k)) if colour else 0


def save_face(face: FaceLayout, path: str | Path, *, dpi: float = DEFAULT_DPI, fmt: str = "png") -> Path:
    """Draw ``face`` and write it whole (temporary file, then rename) as PNG or JPEG."""
    path = Path(path)
    kind = FORMATS.get(fmt.lower())
    if kind is None:
        raise OutputError(f"unknown image format {fmt!r} (use png or jpg)")
    image = render_image(face, dpi)
    write_image(image, path, kind, dpi)
    return path


#: libdeflate's level for PNG faces: the zlib stream any PNG reader reads, a half of zlib's time at level 1 and a
#: quarter smaller (3.2 ms and 60 KB a 300 dpi shmod face, against 6.3 ms and 71 KB, one loaded run). libdeflate
#: writes the same bytes for the same pixels every time; ISA-L (used before, 0.8 ms, 79 KB) does not always, since
#: its match finder starts from memory it never clears, and a face must be byte for byte what a clean build draws.
PNG_LEVEL = 1


#: JPEG faces keep colour at half the resolution (4:2:0, as the exporters' JPEGs and most cameras do): 3.0 ms a
#: 300 dpi face against 5.2 with full-resolution colour (4:4:4), 124 against 161 KiB, and no difference to see
#: at the edge of coloured letters (measured alternately on a quarter of the five games' faces, three rounds).
JPEG_SUBSAMPLING = 2


def png_bytes(image: Image.Image, dpi: float) -> bytes:
    """An RGB image as PNG, rows unfiltered and deflated by libdeflate at ``PNG_LEVEL``.

    Card faces are mostly flat colour, where the "none" filter compresses as well as Pillow's per-row filter
    search and costs a third less time; encoding was most of the time a face took.
    """
    width, height = image.size
    # Pillow's raw encoder pads each row of a wider stride with zeros: one zero byte after every row, moved to the
    # front, is the "none" filter byte PNG puts before every row (a third quicker than joining the rows)
    padded = (image if image.mode == "RGB" else image.convert("RGB")).tobytes("raw", "RGB", width * 3 + 1)
    rows = b"".join((b"\x00", memoryview(padded)[:-1]))  # libdeflate compresses one whole buffer
    data = deflate.zlib_compress(rows, PNG_LEVEL)
    ppm = round(dpi / 0.0254)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)) + chunk(b"IDAT", data)
            + chunk(b"IEND", b""))


def write_image(image: Image.Image, path: Path, kind: str, dpi: float) -> None:
    with staged_file(path) as part, open(part, "wb") as handle:
        handle.write(image_bytes(image, kind, dpi))


def image_bytes(image: Image.Image, kind: str, dpi: float) -> bytes:
    """``image`` encoded as a PNG (``kind`` "PNG") or else a JPEG, at ``dpi``."""
    if kind == "PNG":
        return png_bytes(image, dpi)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=92, subsampling=JPEG_SUBSAMPLING, dpi=(round(dpi), round(dpi)))
    return buffer.getvalue()
