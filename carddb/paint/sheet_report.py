"""What a print job wrote, with the figures its self-check measured: apart from ``carddb.paint.sheets`` so a
build can report a PDF it kept without loading ReportLab or pypdf."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from carddb.paint.sheet_check import CheckReport


@dataclass
class SheetReport:
    """What was written: the files, and the figures of the check run on them."""

    files: list[Path]
    pages: int
    cards: int  # fronts placed
    backs: int  # backs placed
    bytes: int
    checks: list[CheckReport] = field(default_factory=list)

    @property
    def megabytes(self) -> float:
        return self.bytes / 1_000_000

    def summary(self) -> str:
        dpis = [c.min_dpi for c in self.checks if c.min_dpi is not None]
        images = sum(c.images for c in self.checks)
        fonts = sorted({f for c in self.checks for f in c.fonts})
        ends = sum(c.cut_ends for c in self.checks)
        where = str(self.files[0]) if len(self.files) == 1 else f"{len(self.files)} files ({self.files[0].name} ...)"
        parts = [f"{where}: {_n(self.pages, 'page')}, {_n(self.cards, 'card')}, {_n(self.backs, 'back')}, "
                 f"{self.megabytes:.2f} MB",
                 f"checked: page sizes, {self.cards + self.backs} card positions within 0.05 mm, trim and bleed boxes,"
                 + (f" a crop mark at each of {ends} cut-line ends," if ends else "")
                 + " print scaling off, " + (f"{images} image{'s' if images != 1 else ''} stored once each" if images
                                          else "no images")
                 + (f" (lowest {min(dpis):.0f} dpi)" if dpis else "")
                 + (f", fonts embedded ({', '.join(fonts)})" if fonts else ", no fonts")]
        return "\n".join(parts)


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"
