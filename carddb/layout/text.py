"""Text in a box: a little markup, inline icons, wrapping, shrink-to-fit and overflow.

Markup a template or a card text may use: ``**bold**``, ``__italic__``, a line break, and ``{name}`` for an
inline icon (``{KO}``, ``{energy}``) when an icon of that name exists (otherwise the braces stay as text).
Text is wrapped at spaces (a word wider than the box is broken between letters) and shrunk in steps of
0.25 pt from the box's size down to its minimum; text that still does not fit is cut at the last line that
fits, ended with an ellipsis, and reported as an overflow.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from carddb.layout.fonts import FontBook, font_metrics
from carddb.layout.ops import PT_MM, Op, TextRun

_TOKEN = re.compile(r"\*\*|__|\{[A-Za-z0-9_\-]+\}|\n|[ \t]+|[^\s*_{]+|[*_{]")
ICON_SCALE = 1.0  # an inline icon is a square this many ems wide, centred on the capitals
ICON_GAP = 0.08  # em of space each side of an inline icon
STEP = 0.25
ELLIPSIS = "\u2026"

IconDrawer = Callable[[str, float, float, float, str], list[Op]]  # name, x, y, side (mm), colour -> ops


@dataclass(slots=True)
class Part:
    runs: list[tuple[str, str, float]] = field(default_factory=list)  # text, font file, width in em
    icon: str = ""

    @property
    def width(self) -> float:
        return (ICON_SCALE + 2 * ICON_GAP) if self.icon else sum(r[2] for r in self.runs)


@dataclass(slots=True)
class Word:
    parts: list[Part]
    space: float  # em width of the space before the word (0 at a paragraph start)
    width: float = field(init=False, default=0.0)  # in em: measured once, as fitting asks at every size it tries

    def __post_init__(self) -> None:
        self.measure()

    def measure(self) -> None:
        """Measure the word again (after parts were added to it)."""
        self.width = sum(p.width for p in self.parts)


@dataclass(slots=True)
class Fitted:
    size: float
    lines: list[list[Word]]
    overflow: bool
    wrapped: bool = False  # one-line text that had to take several lines
    short: tuple[str, float] = ("", 0.0)  # on overflow: "width" or "height", and how many mm were missing


def parse(text: str, style: str, fonts: FontBook, has_icon: Callable[[str], bool],
          missing: set[str]) -> list[list[Word]]:
    """Markup to paragraphs of words."""
    paragraphs: list[list[Word]] = [[]]
    bold = italic = False
    pending_space = 0.0
    current: Word | None = None
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok == "**":
            bold = not bold
            continue
        if tok == "__":
            italic = not italic
            continue
        if tok == "\n":
            paragraphs.append([])
            current, pending_space = None, 0.0
            continue
        cur_style = _style(style, bold, italic)
        if tok.isspace():
            current = None
            if paragraphs[-1]:
                pending_space = font_metrics(fonts.chain(cur_style)[0]).width(" ")
            continue
        if current is None:
            current = Word([], pending_space)
            paragraphs[-1].append(current)
            pending_space = 0.0
        if tok.startswith("{") and tok.endswith("}") and has_icon(tok[1:-1]):
            current.parts.append(Part(icon=tok[1:-1]))
        else:
            current.parts.append(Part(runs=fonts.runs(tok, cur_style, missing)))
    for paragraph in paragraphs:
        for word in paragraph:
            word.measure()
    return paragraphs if any(paragraphs) else []


def _style(base: str, bold: bool, italic: bool) -> str:
    if not (bold or italic):
        return base
    is_bold = bold or base in ("bold", "bold-italic")
    is_italic = italic or base in ("italic", "bold-italic")
    return {(True, True): "bold-italic", (True, False): "bold", (False, True): "italic"}.get((is_bold, is_italic),
                                                                                           "regular")


def wrap(paragraphs: list[list[Word]], size: float, width_pt: float, allow_wrap: bool,
         whole_words: bool = False) -> list[list[Word]]:
    """Lines of words no wider than ``width_pt``; ``whole_words`` never breaks a word between letters."""
    lines: list[list[Word]] = []
    for para in paragraphs:
        line: list[Word] = []
        used = 0.0
        for word in para:
            w = word.width * size
            gap = word.space * size if line else 0.0
            if line and allow_wrap and used + gap + w > width_pt:
                lines.append(line)
                line, used, gap = [], 0.0, 0.0
            if not line and allow_wrap and not whole_words and w > width_pt:
                pieces = _break_word(word, width_pt / size)
                lines.extend([p] for p in pieces[:-1])
                word, w = pieces[-1], pieces[-1].width * size
            line.append(word if line else Word(word.parts, 0.0))
            used += gap + w
        lines.append(line)
    return lines


def _break_word(word: Word, width_em: float) -> list[Word]:
    """A word wider than the box, broken between letters into pieces that each fit (at least one letter)."""
    pieces: list[Word] = []
    cur: list[Part] = []
    used = 0.0
    for part in word.parts:
        if part.icon:
            if cur and used + part.width > width_em:
                pieces.append(Word(cur, 0.0))
                cur, used = [], 0.0
            cur.append(part)
            used += part.width
            continue
        for text, font, _ in part.runs:
            metrics = font_metrics(font)
            for ch in text:
                cw = metrics.width(ch)
                if cur and used + cw > width_em:
                    pieces.append(Word(cur, 0.0))
                    cur, used = [], 0.0
                if cur and not cur[-1].icon and cur[-1].runs[-1][1] == font:
                    t, f, w = cur[-1].runs[-1]
                    cur[-1].runs[-1] = (t + ch, f, w + cw)
                else:
                    cur.append(Part(runs=[(ch, font, cw)]))
                used += cw
    pieces.append(Word(cur, 0.0))
    return pieces


def block_height(lines: int, size: float, leading: float, ascent: float, descent: float) -> float:
    """Height in points of ``lines`` lines: full leading between baselines, the font's extent on the last."""
    return 0.0 if lines == 0 else (lines - 1) * size * leading + size * (ascent + descent)


def fit(paragraphs: list[list[Word]], width_pt: float, height_pt: float, size: float, min_size: float,
        leading: float, ascent: float, descent: float, allow_wrap: bool, default_font: str) -> Fitted:
    """The largest size on the 0.25 pt grid from ``size`` down to ``min_size`` at which the text fits.

    Wrapping text wraps at spaces, shrinking before it breaks a word (a word wider than the box even at
    ``min_size`` is broken between letters). One-line text
    (``allow_wrap`` false, titles and labels) shrinks on one line first; when even ``min_size`` is too wide
    it wraps at spaces, never inside a word, at the largest size that fits on several lines. What still does
    not fit is cut at ``min_size`` and reported with how much room it lacked (``short``).
    """

    def fits(s: float, wrapping: bool, whole_words: bool) -> list[list[Word]] | None:
        lines = wrap(paragraphs, s, width_pt, wrapping, whole_words)
        if block_height(len(lines), s, leading, ascent, descent) > height_pt + 1e-6:
            return None
        if any(_line_width(line, s) > width_pt + 1e-6 for line in lines):
            return None
        return lines

    # a word is broken between letters only when no size down to the minimum keeps every word whole
    attempts = [(False, True), (True, True)] if not allow_wrap else [(True, True), (True, False)]
    for wrapping, whole_words in attempts:
        found = _largest(size, min_size, lambda s: fits(s, wrapping, whole_words))  # noqa: B023
        if found is not None:
            return Fitted(found[0], found[1], False, wrapped=not allow_wrap and wrapping and len(found[1]) > 1)
    lines = wrap(paragraphs, min_size, width_pt, True, not allow_wrap)
    # how much room it lacked: for one-line text, the width of its longest line; for wrapped text, the height
    measured = wrap(paragraphs, min_size, width_pt, False) if not allow_wrap else lines
    too_wide = max((_line_width(line, min_size) for line in measured), default=0.0) - width_pt
    too_tall = block_height(len(measured), min_size, leading, ascent, descent) - height_pt
    short = ("width", too_wide) if too_wide > 1e-6 else ("height", max(too_tall, 0.0))
    return Fitted(min_size, _cut(lines, min_size, width_pt, height_pt, leading, ascent, descent, default_font), True,
                  short=(short[0], round(short[1] * PT_MM, 2)))


def _largest(size: float, min_size: float,
             fits: Callable[[float], list[list[Word]] | None]) -> tuple[float, list[list[Word]]] | None:
    """Binary search over the 0.25 pt grid (fit is monotone in size): the largest size that fits, with its lines."""
    if (lines := fits(size)) is not None:
        return size, lines
    steps = math.floor((size - min_size) / STEP + 1e-9)
    lo, hi, best = 1, steps, None
    while lo <= hi:
        mid = (lo + hi) // 2
        s = size - mid * STEP
        if (lines := fits(s)) is not None:
            best, hi = (s, lines), mid - 1
        else:
            lo = mid + 1
    if best is None and steps >= 0 and size - steps * STEP > min_size + 1e-9 and (lines := fits(min_size)):
        best = (min_size, lines)  # a minimum off the 0.25 pt grid
    return best


def _line_width(line: list[Word], size: float) -> float:
    return sum((w.space + w.width) * size for w in line)


def _cut(lines: list[list[Word]], size: float, width_pt: float, height_pt: float, leading: float,
         ascent: float, descent: float, default_font: str) -> list[list[Word]]:
    """The lines that fit, the last one ending in an ellipsis (words dropped to make room for it)."""
    keep = len(lines)
    while keep > 0 and block_height(keep, size, leading, ascent, descent) > height_pt + 1e-6:
        keep -= 1
    if keep == 0:
        return []
    kept = lines[:keep]
    last = list(kept[-1])
    font = _first_font(last, default_font)
    dots = Word([Part(runs=[(ELLIPSIS, font, font_metrics(font).width(ELLIPSIS))])], 0.0)
    while last and _line_width(last, size) + dots.width * size > width_pt:
        last.pop()
    if not last:  # one word too wide on its own: cut letters
        src = kept[-1][0]
        pieces = _break_word(src, (width_pt / size) - dots.width)
        last = [pieces[0]]
    kept[-1] = [*last, dots]
    return kept


def _first_font(line: list[Word], default: str) -> str:
    for word in line:
        for part in word.parts:
            if part.runs:
                return part.runs[0][1]
    return default


def place(fitted: Fitted, x: float, y: float, w: float, h: float, *, align: str, valign: str, leading: float,
          ascent: float, cap_height: float, descent: float, colour: str, draw_icon: IconDrawer,
          role: str = "rules") -> list[Op]:
    """Operations for fitted lines in the box (x, y, w, h) in millimetres."""
    size = fitted.size
    size_mm = size * PT_MM
    total = block_height(len(fitted.lines), size, leading, ascent, descent) * PT_MM
    top = y if valign == "top" else (y + h - total if valign == "bottom" else y + (h - total) / 2)
    ops: list[Op] = []
    for i, line in enumerate(fitted.lines):
        baseline = round(top + ascent * size_mm + i * leading * size_mm, 4)
        line_w = _line_width(line, size) * PT_MM
        cx = x if align == "left" else (x + w - line_w if align == "right" else x + (w - line_w) / 2)
        run: list = []  # [x, text, font]: words in one font joined with their spaces make one run
        for word in line:
            space_mm = word.space * size_mm
            first = word.parts[0] if word.parts else None
            if run and first and not first.icon and first.runs[0][1] == run[2] and word.space and \
                    abs(font_metrics(run[2]).width(" ") - word.space) < 1e-9:
                run[1] += " "  # the space glyph of the same font is exactly the space the layout measured
            elif run:
                ops.append(TextRun(round(run[0], 4), baseline, run[1], run[2], size, colour, role))
                run = []
            cx += space_mm
            for part in word.parts:
                if part.icon:
                    if run:
                        ops.append(TextRun(round(run[0], 4), baseline, run[1], run[2], size, colour, role))
                        run = []
                    side = ICON_SCALE * size_mm
                    centre = baseline - cap_height * size_mm / 2
                    ops.extend(draw_icon(part.icon, cx + ICON_GAP * size_mm, centre - side / 2, side, colour))
                    cx += part.width * size_mm
                    continue
                for text, font, width in part.runs:
                    if run and run[2] == font:
                        run[1] += text
                    else:
                        if run:
                            ops.append(TextRun(round(run[0], 4), baseline, run[1], run[2], size, colour, role))
                        run = [cx, text, font]
                    cx += width * size_mm
        if run:
            ops.append(TextRun(round(run[0], 4), baseline, run[1], run[2], size, colour, role))
    return ops
