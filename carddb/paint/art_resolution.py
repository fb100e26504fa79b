"""Is a card's art fine enough for the print? The pixels each art box gets, against the resolution asked for.

A face's art is cropped to cover its box (``carddb.layout.engine``), so what prints is ``crop`` pixels over
the box's millimetres, scaled with the face when the print's card size is not the template's. Art under the
target prints soft or blocky; carddb says so (the card, the pixels and the resolution they give) and prints
anyway, unless the user asked for ``--strict``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from carddb.layout.ops import FaceLayout, ImageOp

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class CoarseArt:
    """One art box that prints under the target resolution."""

    card: str
    art: str  # the file's name
    pixels: tuple[int, int]  # the part of the image the box shows
    box_mm: tuple[float, float]  # the box as printed
    dpi: float  # the resolution those pixels print at (the coarser of the two directions)
    target: int

    def message(self) -> str:
        need = tuple(round(mm / MM_PER_INCH * self.target) for mm in self.box_mm)
        return (f"{self.card}: its art {self.art} gives {self.pixels[0]} x {self.pixels[1]} px to a "
                f"{self.box_mm[0]:.1f} x {self.box_mm[1]:.1f} mm box, {self.dpi:.0f} dpi against the {self.target} "
                f"dpi the print asks for (it needs {need[0]} x {need[1]} px)")


def coarse_art(card: str, face: FaceLayout, target: int, scale: tuple[float, float] = (1.0, 1.0)) -> list[CoarseArt]:
    """The art boxes of ``face`` that print under ``target`` dpi; ``scale`` is how much the print stretches the
    face (its card size over the template's)."""
    found = []
    for op in face.ops:
        if not isinstance(op, ImageOp):
            continue
        left, top, right, bottom = op.crop
        pixels = (right - left, bottom - top)
        box = (op.w * scale[0], op.h * scale[1])
        if box[0] <= 0 or box[1] <= 0:
            continue
        dpi = min(pixels[0] / (box[0] / MM_PER_INCH), pixels[1] / (box[1] / MM_PER_INCH))
        if dpi + 0.5 < target:  # within rounding of the target is the target
            found.append(CoarseArt(card, Path(op.path).name, pixels, box, dpi, target))
    return found
