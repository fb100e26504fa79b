"""A card's face as a print shop's image: drawn from its layout at the shop's exact pixel size, with bleed.

The face is laid out with as much bleed as the shop's image needs, so the template's background and the art
that touches the card's edge run on into the bleed as they would on a bigger card, and drawn at the shop's
resolution: never an image scaled or stretched. A card a little smaller than the shop's (63 x 88 mm on
2.5 x 3.5 in, 63.5 x 88.9 mm) sits in the middle, its bleed reaching past the shop's cut. For a CMYK PDF
(DriveThruCards) the pixels are separated with under-colour removal: the grey part of each colour goes to
black ink, 30 % of it kept in C, M and Y under the black (a rich black, as the shop suggests): 190 % ink at
most as separated, and the JPEG's rounding at sharp edges adds up to 10 %, so no pixel the shop reads takes more
than 220 % (its limit is 240 %).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageCms, ImageOps

from carddb.core.cards.card import Card

if TYPE_CHECKING:
    from carddb.layout import TemplateSet

MM_PER_INCH = 25.4

PNG_LEVEL = 6  # zlib level: print files are uploaded once, size matters more than a few milliseconds
JPEG_QUALITY = 95
UNDER_BLACK = 0.3  # of the grey taken out of C, M and Y into K, this much stays in them: 190 % ink at most


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """The bytes of an sRGB ICC profile (LittleCMS's built-in sRGB, made by Pillow: no file to ship)."""
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def shop_image(templates: TemplateSet, card: Card | None, pixels: tuple[int, int], dpi: int) -> Image.Image:
    """``card``'s face (None: the back) drawn from its layout into exactly ``pixels`` at ``dpi``, the card in
    the middle and the template's own bleed around it. The bleed is a whole number of pixels, so the card lands
    on the pixel grid as the build's face does and is the same picture, pixel for pixel; the image is cut from
    the middle of the drawing (whole pixels: nothing is resampled)."""
    from carddb.layout import layout_back, layout_face
    from carddb.paint.raster import render_image

    per_mm = dpi / MM_PER_INCH
    card_px = [round(mm * per_mm) for mm in card_size(templates, card)]
    offsets = [(want - have) // 2 for want, have in zip(pixels, card_px, strict=True)]  # the card's place
    margins = [*offsets, *(want - have - offset for want, have, offset in zip(pixels, card_px, offsets, strict=True))]
    bleed_px = max(0, *margins)
    bleed = bleed_px / per_mm
    face = layout_back(templates, bleed_mm=bleed) if card is None else layout_face(templates, card, bleed_mm=bleed)
    left, top = bleed_px - offsets[0], bleed_px - offsets[1]
    return render_image(face, dpi).crop((left, top, left + pixels[0], top + pixels[1]))


def card_size(templates: TemplateSet, card: Card | None) -> tuple[float, float]:
    """The trim size in mm of ``card``'s face (None: the back), as its template draws it."""
    template = templates.back if card is None else templates.template_for(card.kind)
    return template.size if template is not None else templates.game.card_size_mm


def encoded(image: Image.Image, fmt: str, dpi: int) -> bytes:
    """``image`` as PNG or JPEG with its resolution and the sRGB profile embedded."""
    buffer = io.BytesIO()
    if fmt == "png":
        image.save(buffer, "PNG", dpi=(dpi, dpi), icc_profile=srgb_profile(), compress_level=PNG_LEVEL)
    else:
        image.save(buffer, "JPEG", dpi=(dpi, dpi), icc_profile=srgb_profile(), quality=JPEG_QUALITY,
                   subsampling=0)
    return buffer.getvalue()


def cmyk(image: Image.Image) -> Image.Image:
    """``image`` separated into CMYK with under-colour removal: K is the darkest of C, M and Y, which each
    lose 70 % of it. Black is then C30 M30 Y30 K100 (190 %), and no pixel takes more."""
    cyan, magenta, yellow = ImageOps.invert(image.convert("RGB")).split()
    black = ImageChops.darker(ImageChops.darker(cyan, magenta), yellow)
    removed = black.point([round(v * (1 - UNDER_BLACK)) for v in range(256)])
    return Image.merge("CMYK", [ImageChops.subtract(channel, removed) for channel in (cyan, magenta, yellow)]
                       + [black])


def pdf_jpeg(image: Image.Image, colour: str, dpi: int) -> bytes:
    """The JPEG a PDF page shows: RGB as it is, or separated into CMYK."""
    buffer = io.BytesIO()
    picture = cmyk(image) if colour == "cmyk" else image
    picture.save(buffer, "JPEG", dpi=(dpi, dpi), quality=JPEG_QUALITY, subsampling=0)
    return buffer.getvalue()
