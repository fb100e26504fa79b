"""A rendered face made into a print shop's image: scaled to the trim, bleed added, sRGB profile embedded.

The build's faces are the card exactly, without bleed (their backgrounds run to the edge). The bleed is
made from the face's own edge pixels, each edge row and column stretched outwards: a cut a little off then
lands on the card's own colour, and the face is the same picture every other export shows. For a CMYK PDF
(DriveThruCards) the pixels are separated with under-colour removal: the grey part of each colour goes to
black ink, 40 % of it kept in C, M and Y under the black (a rich black, as the shop suggests), so no pixel
takes more than 220 % ink (the shop's limit is 240 %).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageCms, ImageOps, UnidentifiedImageError

from carddb.errors import OutputError
from carddb.exporters.faces import flatten

PNG_LEVEL = 6  # zlib level: print files are uploaded once, size matters more than a few milliseconds
JPEG_QUALITY = 95
UNDER_BLACK = 0.4  # of the grey taken out of C, M and Y into K, this much stays in them: at most 220 % ink


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """The bytes of an sRGB ICC profile (LittleCMS's built-in sRGB, made by Pillow: no file to ship)."""
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def bled_image(source: Path, size: tuple[int, int], trim: tuple[int, int]) -> Image.Image:
    """The face at ``source`` scaled to ``trim`` pixels and centred in ``size`` pixels, the margin filled by
    stretching the face's edge pixels outwards."""
    try:
        with Image.open(source) as image:
            image.load()
            face = flatten(image)
    except (OSError, UnidentifiedImageError) as exc:
        raise OutputError(f"{source}: not a readable image ({exc})") from None
    if face.size != trim:
        face = face.resize(trim, Image.Resampling.LANCZOS)
    left, top = (size[0] - trim[0]) // 2, (size[1] - trim[1]) // 2
    right, bottom = size[0] - trim[0] - left, size[1] - trim[1] - top
    out = Image.new("RGB", size)
    out.paste(face, (left, top))
    width, height = trim
    if left:
        out.paste(face.crop((0, 0, 1, height)).resize((left, height)), (0, top))
    if right:
        out.paste(face.crop((width - 1, 0, width, height)).resize((right, height)), (left + width, top))
    if top:  # whole rows of the widened picture: the corners take the corner pixels' colour
        out.paste(out.crop((0, top, size[0], top + 1)).resize((size[0], top)), (0, 0))
    if bottom:
        row = top + height - 1
        out.paste(out.crop((0, row, size[0], row + 1)).resize((size[0], bottom)), (0, top + height))
    return out


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
    lose 60 % of it. Black is then C40 M40 Y40 K100 (220 %), and no pixel takes more."""
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
