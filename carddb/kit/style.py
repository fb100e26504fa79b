"""What every page of the kit shares: the embedded fonts, the colours, the paper sizes and the printable margin.

The kit writes in Bitstream Vera (shipped inside ReportLab, so it is always there and always embedded); a
character Vera lacks is set in Noto Sans, and one neither has becomes U+FFFD, never an empty box.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import inch, mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from carddb.errors import InputError
from carddb.layout.fonts import BUILTIN_STYLES, REPLACEMENT, also_forget, font_metrics
from carddb.layout.impose import DEFAULT_MARGIN_MM

SANS, BOLD, ITALIC, BOLD_ITALIC, FALLBACK = "KitSans", "KitSans-Bold", "KitSans-Italic", "KitSans-BoldItalic", \
    "KitNoto"
#: The printable margin every page of the kit keeps clear (the proxy sheets' default, 5 mm).
MARGIN_MM = DEFAULT_MARGIN_MM
#: Paper name -> (width, height) in points, and the booklet's page (half the sheet) for it.
PAPERS = {"A4": (210 * mm, 297 * mm), "Letter": (8.5 * inch, 11 * inch)}
BOOKLET_PAGES = {"A4": (148 * mm, 210 * mm), "Letter": (5.5 * inch, 8.5 * inch)}

INK = colors.HexColor("#1d1d1f")
ACCENT = colors.HexColor("#2a4f8f")
MUTED = colors.HexColor("#5f6368")
EXAMPLE_FILL = colors.HexColor("#eef4ec")
EXAMPLE_RULE = colors.HexColor("#3d8b37")
NOTE_FILL = colors.HexColor("#eef2fa")
NOTE_RULE = colors.HexColor("#2a62b8")
TABLE_HEAD = colors.HexColor("#e3e7ee")
#: Fold lines of the tuck box and the pieces: the self-check finds them by this stroke colour.
FOLD = colors.HexColor("#1f6fb2")
GLUE_FILL = colors.HexColor("#f3e6b8")


def paper(name: str) -> str:
    """The paper's canonical name (``a4`` -> ``A4``), or a clear error."""
    for known in PAPERS:
        if name.strip().casefold() == known.casefold():
            return known
    raise InputError(f"--paper must be A4 or Letter, not {name!r}")


def font_files() -> list[Path]:
    """The files of the kit's fonts: a source of every kit and typeset rulebook (a font changed, the kit changes,
    whatever the library versions say)."""
    return [Path(BUILTIN_STYLES[style][0]) for style in ("regular", "bold", "italic", "bold-italic")] + \
        [Path(BUILTIN_STYLES["regular"][1])]


@cache
def register_fonts() -> None:
    """Register the kit's font family once (embedded subsets: every page's text is extractable and printable)."""
    from reportlab.lib.fonts import addMapping

    files = {SANS: "regular", BOLD: "bold", ITALIC: "italic", BOLD_ITALIC: "bold-italic"}
    for name, style in files.items():
        pdfmetrics.registerFont(TTFont(name, str(BUILTIN_STYLES[style][0])))
    pdfmetrics.registerFont(TTFont(FALLBACK, str(BUILTIN_STYLES["regular"][1])))
    pdfmetrics.registerFontFamily(SANS, normal=SANS, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(SANS, bold, italic, [[SANS, ITALIC], [BOLD, BOLD_ITALIC]][bold][italic])


@cache
def _has() -> tuple[frozenset[int], frozenset[int]]:
    main = font_metrics(str(BUILTIN_STYLES["regular"][0]))
    extra = font_metrics(str(BUILTIN_STYLES["regular"][1]))
    return frozenset(main.advances), frozenset(extra.advances)


also_forget(register_fonts.cache_clear)
also_forget(_has.cache_clear)


def plain(text: str) -> str:
    """``text`` with every character the fonts cannot draw replaced by U+FFFD (for the canvas's own words)."""
    main, extra = _has()
    return "".join(c if ord(c) in main or ord(c) in extra or c in "\n\t" else REPLACEMENT for c in text)


def drawable(text: str) -> str:
    """``text`` escaped for a Paragraph, a character Vera lacks set in Noto Sans (or U+FFFD if neither has it)."""
    main, extra = _has()
    out: list[str] = []
    for char in text:
        if ord(char) in main or char in "\n\t":
            out.append(html.escape(char, quote=False))
        elif ord(char) in extra:
            out.append(f'<font name="{FALLBACK}">{html.escape(char, quote=False)}</font>')
        else:
            out.append(REPLACEMENT)
    return "".join(out)


def canvas_font_fits(text: str, font: str, size: float, width: float) -> float:
    """The largest size not above ``size`` at which ``text`` fits ``width`` points (at least 5 pt)."""
    wide = pdfmetrics.stringWidth(text, font, size)
    return size if wide <= width else max(5.0, size * width / wide)
