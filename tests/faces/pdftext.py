"""Reading a face's text back from a vector PDF, as blocks a reader would see, by geometry alone.

pdfplumber gives every character with its font size and position. Characters on one baseline are a line;
a line is cut where a gap wider than an em separates two words (a label and its value, two columns); lines
that sit under each other, overlap across and are no further apart than a line of their size make a block.
Within a block a line ends its paragraph when the next line's first word would have fitted after it (text
that wraps never leaves that room; the block's widest line, plus an em, stands for its box) or when the next
line starts in another style (a bold heading line).
Nothing here knows the templates: what it finds is what a person holding the card would read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber

MM = 25.4 / 72


@dataclass
class Line:
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    text: str
    first_font: str = ""
    last_font: str = ""
    first_word: float = 0.0  # width of the first word, in points


@dataclass
class Block:
    lines: list[Line] = field(default_factory=list)

    @property
    def text(self) -> str:
        right = self.x1
        out = self.lines[0].text
        for above, line in zip(self.lines, self.lines[1:], strict=False):
            # the block's widest line underestimates its box: allow an em for what the box had to spare
            room = right + line.size - above.x1 > line.first_word + line.size * 0.32
            out += ("\n" if room or line.first_font != above.last_font else " ") + line.text
        return out

    @property
    def x0(self) -> float:
        return min(line.x0 for line in self.lines)

    @property
    def x1(self) -> float:
        return max(line.x1 for line in self.lines)


def page_chars(pdf_path: Path) -> list[list[dict]]:
    """Every page's characters (pdfplumber dictionaries), pages in order."""
    with pdfplumber.open(pdf_path) as pdf:
        return [[dict(c) for c in page.chars] for page in pdf.pages]


def lines_of(chars: list[dict]) -> list[Line]:
    rows: dict[tuple[float, float], list[dict]] = {}
    for char in chars:
        rows.setdefault((round(char["bottom"], 1), round(char["size"], 2)), []).append(char)
    lines: list[Line] = []
    for (_bottom, size), row in rows.items():
        row.sort(key=lambda c: c["x0"])
        current: list[dict] = []
        for char in row:
            if current and char["x0"] - current[-1]["x1"] > size * 1.0:
                lines.append(_line(current, size))
                current = []
            current.append(char)
        if current:
            lines.append(_line(current, size))
    return sorted(lines, key=lambda line: (line.top, line.x0))


def _line(chars: list[dict], size: float) -> Line:
    # a gap between two letters is a space even where none was drawn (runs of two fonts are placed apart)
    text = "".join((" " if prev is not None and c["x0"] - prev["x1"] > size * 0.12 else "") + c["text"]
                   for prev, c in zip([None, *chars[:-1]], chars, strict=True))
    visible = [c for c in chars if c["text"].strip()]
    first_word = next((c["x1"] for c, after in zip(chars, [*chars[1:], None], strict=True)
                       if after is None or not after["text"].strip()), chars[-1]["x1"]) - chars[0]["x0"]
    return Line(chars[0]["x0"], chars[-1]["x1"], min(c["top"] for c in chars), max(c["bottom"] for c in chars),
                size, " ".join(text.split()), visible[0]["fontname"] if visible else "",
                visible[-1]["fontname"] if visible else "", first_word)


def blocks_of(chars: list[dict]) -> list[Block]:
    blocks: list[Block] = []
    for line in lines_of(chars):
        home = next((b for b in reversed(blocks) if _continues(b.lines[-1], line)), None)
        if home is None:
            blocks.append(Block([line]))
        else:
            home.lines.append(line)
    return blocks


def _continues(above: Line, line: Line) -> bool:
    gap = line.top - above.bottom
    overlap = min(above.x1, line.x1) - max(above.x0, line.x0)
    return -0.5 <= gap <= max(above.size, line.size) * 0.6 and overlap > 0 and abs(above.x0 - line.x0) < 2 * line.size
