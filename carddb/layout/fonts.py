"""Fonts: the files both painters draw with, their metrics, and per-character fallback.

The main family is Bitstream Vera (shipped inside ReportLab, so it installs with the project); Noto Sans
(the ``fontpkg-noto-sans`` package) covers what Vera lacks (Greek, Cyrillic, most Latin extensions, the
euro sign...). A character neither font has is replaced by U+FFFD (a visible diamond question mark) and
reported, so nothing is ever drawn as an empty box. Metrics are read with fontTools from the same files
the painters use; widths are unhinted advances without kerning, which is what ReportLab draws and what the
raster painter reproduces by placing every word at its computed position.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import fontpkg_noto_sans
import reportlab

from carddb.errors import TemplateError

_VERA = Path(reportlab.__file__).parent / "fonts"
_NOTO = Path(fontpkg_noto_sans.__file__).parent / "files"

#: Style name -> the chain of files tried in order for each character.
BUILTIN_STYLES: dict[str, tuple[Path, ...]] = {
    "regular": (_VERA / "Vera.ttf", _NOTO / "NotoSans[wdth,wght].ttf"),
    "bold": (_VERA / "VeraBd.ttf", _NOTO / "NotoSans[wdth,wght].ttf"),
    "italic": (_VERA / "VeraIt.ttf", _NOTO / "NotoSans-Italic[wdth,wght].ttf"),
    "bold-italic": (_VERA / "VeraBI.ttf", _NOTO / "NotoSans-Italic[wdth,wght].ttf"),
}
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class FontMetrics:
    """One font file's metrics, in em (multiply by the size in points to get points)."""

    path: str
    advances: dict[int, float]
    ascent: float
    descent: float
    cap_height: float

    def has(self, char: str) -> bool:
        return ord(char) in self.advances

    def width(self, text: str) -> float:
        adv = self.advances
        return sum(adv.get(ord(c), 0.5) for c in text)


@cache
def font_metrics(path: str) -> FontMetrics:
    try:
        from fontTools.ttLib import TTFont  # here: listing the font files (a face's cache key) needs no fontTools

        font = TTFont(path, lazy=True)
        upm = font["head"].unitsPerEm
        hmtx = font["hmtx"].metrics
        advances = {code: hmtx[name][0] / upm for code, name in font.getBestCmap().items()}
        hhea = font["hhea"]
        cap = getattr(font["OS/2"], "sCapHeight", 0) if "OS/2" in font else 0
        if not cap and "glyf" in font and "H" in font.getGlyphOrder():
            glyph = font["glyf"]["H"]
            cap = getattr(glyph, "yMax", 0)
        font.close()
    except Exception as exc:  # fontTools raises many kinds for a broken file
        raise TemplateError(f"{path}: not a usable TrueType font ({exc})") from None
    return FontMetrics(path, advances, hhea.ascent / upm, -hhea.descent / upm, (cap or 0.7 * upm) / upm)


class FontBook:
    """The styles a template may name, each a chain of font files, and character-to-file resolution."""

    def __init__(self, extra: dict[str, tuple[Path, ...]] | None = None) -> None:
        self.styles: dict[str, tuple[str, ...]] = {k: tuple(str(p) for p in v) for k, v in BUILTIN_STYLES.items()}
        for name, files in (extra or {}).items():
            self.styles[name] = tuple(str(p) for p in files) + self.styles["regular"][1:]

    def files(self) -> list[str]:
        """Every font file in use (its content is part of a face's cache key)."""
        return sorted({f for chain in self.styles.values() for f in chain})

    def main(self, style: str) -> FontMetrics:
        return font_metrics(self.chain(style)[0])

    def chain(self, style: str) -> tuple[str, ...]:
        try:
            return self.styles[style]
        except KeyError:
            raise TemplateError(f"unknown font style {style!r} (styles: {', '.join(self.styles)})") from None

    def runs(self, text: str, style: str, missing: set[str] | None = None) -> list[tuple[str, str, float]]:
        """Split ``text`` into (text, font file, width in em) runs, each character from the first font having it.

        Characters no font has become U+FFFD and are added to ``missing``.
        """
        chain = [font_metrics(p) for p in self.chain(style)]
        out: list[tuple[str, str, float]] = []
        cur_font: FontMetrics | None = None
        buf: list[str] = []
        for ch in text:
            font = next((f for f in chain if f.has(ch)), None)
            if font is None:
                if missing is not None:
                    missing.add(ch)
                ch = REPLACEMENT
                font = next((f for f in chain if f.has(ch)), chain[-1])
            if font is not cur_font and buf:
                out.append(("".join(buf), cur_font.path, cur_font.width("".join(buf))))  # type: ignore[union-attr]
                buf = []
            cur_font = font
            buf.append(ch)
        if buf and cur_font is not None:
            out.append(("".join(buf), cur_font.path, cur_font.width("".join(buf))))
        return out
