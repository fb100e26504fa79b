"""The kit checks itself after writing, from the PDF bytes read back (pypdf), not from what it meant to draw:

- every entry of the table of contents names a heading and the page number printed at that page's foot;
- every bookmark lands on the page where its heading is printed, at the heading's line;
- every internal link lands where a bookmark does (on a heading);
- the tuck box's fold lines, found by their colour, are spaced as the panels the deck needs;
- everything the kit draws on its own pages lies inside the printable margin.

Each finding is a line; ``KitCheckError`` carries them all.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from carddb.errors import KitCheckError
from carddb.incremental import Memo
from carddb.kit import style
from carddb.kit.markdown_flow import Heading
from carddb.kit.tuckbox import TuckBox

_PT_PER_MM = 72 / 25.4
_INK = tuple(round(v, 3) for v in style.INK.rgb())
_STROKE = frozenset({"S", "s", "B", "B*", "b", "b*"})
_PAINT = _STROKE | {"f", "F", "f*"}
_TOC_LINE = re.compile(r"^(?P<title>.*?)(?:\s*(?:\.\s*)+)?\s+(?P<page>\d+)$")
#: What the pages of the last few PDFs checked draw: a rulebook's pages are read once for both its checks.
_READ: Memo[tuple[str, tuple[float, float, float]], Callable[[int], PageDrawing | None]] = Memo(4)


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class PageDrawing:
    """What one page draws, read from its content stream: path points (with their stroke colour), text runs."""

    points: list[tuple[float, float]] = field(default_factory=list)
    folds: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)
    cuts: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)  # stroked in ink
    texts: list[tuple[str, float, float, float]] = field(default_factory=list)  # text, x, y, size


def read_drawing(page: Any, fold_rgb: tuple[float, float, float]) -> PageDrawing:
    """Every path point and text run of ``page`` in page coordinates (points); straight segments stroked in
    ``fold_rgb`` are kept apart as folds."""
    drawing = PageDrawing()
    stroke: list[tuple[float, ...]] = [()]
    points: list[tuple[float, float]] = []  # of the path being built: drawn only when it is painted
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []

    def transform(matrix: Sequence[float], x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = matrix
        return a * x + c * y + e, b * x + d * y + f

    def before(operator: bytes, operands: list[Any], cm: Sequence[float], tm: Sequence[float]) -> None:
        op = operator.decode("latin-1") if isinstance(operator, bytes) else operator
        if op == "q":
            stroke.append(stroke[-1])
        elif op == "Q" and len(stroke) > 1:
            stroke.pop()
        elif op == "RG":
            stroke[-1] = tuple(round(float(v), 3) for v in operands)
        elif op in ("m", "l"):
            point = transform(cm, float(operands[0]), float(operands[1]))
            if op == "l" and points:
                segments.append((points[-1], point))
            points.append(point)
        elif op == "c":
            points.extend(transform(cm, float(operands[i]), float(operands[i + 1])) for i in (0, 2, 4))
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            points.extend([transform(cm, x, y), transform(cm, x + w, y + h)])
        elif op in _PAINT or op == "n":  # "n" ends a path only clipped (a placed page's frame): nothing drawn
            if op in _PAINT:
                drawing.points.extend(points)
            if op in _STROKE:
                kept = drawing.folds if _close(stroke[-1], fold_rgb) else \
                    drawing.cuts if _close(stroke[-1], _INK) else None
                if kept is not None:
                    kept.extend(segments)
            points.clear()
            segments.clear()

    def text(found: str, cm: Sequence[float], tm: Sequence[float], font: Any, size: float) -> None:
        if found.strip():
            matrix = [tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                      tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3],
                      tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]]
            scale = (matrix[2] ** 2 + matrix[3] ** 2) ** 0.5 or 1.0
            drawing.texts.append((found, matrix[4], matrix[5], size * scale))
            advance = _width(found, font, size)  # along the text's own direction, in text space
            drawing.points.append((matrix[4] + advance * matrix[0], matrix[5] + advance * matrix[1]))

    page.extract_text(visitor_operand_before=before, visitor_text=text)
    return drawing


def _width(text: str, font: Any, size: float) -> float:
    """How wide a text run is, from the embedded font's name (the kit writes only Vera, in four styles)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from carddb.kit import style

    base = str(font.get("/BaseFont", "")) if font is not None else ""
    bold, italic = "Bold" in base, "Oblique" in base or "Italic" in base
    name = {(False, False): style.SANS, (True, False): style.BOLD, (False, True): style.ITALIC,
            (True, True): style.BOLD_ITALIC}[(bold, italic)]
    style.register_fonts()
    return stringWidth(text, name, size)


def _close(colour: tuple[float, ...], wanted: tuple[float, float, float]) -> bool:
    return len(colour) == 3 and all(abs(a - b) < 0.01 for a, b in zip(colour, wanted, strict=True))


def _reader(pdf: bytes) -> Any:
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(pdf))


def _outline(reader: Any) -> list[tuple[str, int, float]]:
    """(title, page index, top) of every bookmark, depth first."""
    found: list[tuple[str, int, float]] = []

    def walk(items: Iterable[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                top = item.get("/Top")
                found.append((str(item.title), reader.get_destination_page_number(item),
                              float(top) if top is not None else float("nan")))

    walk(reader.outline)
    return found


def _link_targets(reader: Any) -> list[tuple[int, int, float]]:
    """(page of the link, page it jumps to, top there) of every internal link."""
    index = {page.indirect_reference.idnum: number for number, page in enumerate(reader.pages)}
    named = reader.named_destinations
    out = []
    for number, page in enumerate(reader.pages):
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") != "/Link":
                continue
            dest = annotation.get("/Dest")
            if dest is None and "/A" in annotation:
                action = annotation["/A"].get_object()
                if action.get("/S") != "/GoTo":
                    continue  # an address outside the document
                dest = action.get("/D")
            if dest is None:
                continue
            if isinstance(dest, str) or not hasattr(dest, "__getitem__") or isinstance(dest, bytes):
                target = named.get(str(dest))
                if target is None:
                    out.append((number, -1, float("nan")))
                    continue
                out.append((number, reader.get_destination_page_number(target), float(target.get("/Top") or 0)))
                continue
            dest = dest.get_object() if hasattr(dest, "get_object") else dest
            page_ref = dest[0]
            target_page = index.get(page_ref.idnum, -1) if hasattr(page_ref, "idnum") else -1
            top = float(dest[3]) if len(dest) > 3 and dest[1] == "/XYZ" and dest[3] is not None else float("nan")
            out.append((number, target_page, top))
    return out


def _folio(drawing: PageDrawing) -> str | None:
    """The page number printed at the page's foot: the lowest text run made of digits."""
    numbers = [(y, text.strip()) for text, _x, y, _size in drawing.texts if text.strip().isdigit()]
    return min(numbers)[1] if numbers else None


def _heading_at(drawing: PageDrawing, title: str, top: float) -> bool:
    """Whether the page prints the start of ``title`` on a line just under ``top`` (a bookmark's XYZ top)."""
    first = _words(title).split(" ")[0]
    for text, _x, y, size in drawing.texts:
        if _words(text).startswith(first) and (top != top or -2 <= top - y <= 2.5 * size + 4):
            return True
    return False


def _in_order(titles: Sequence[str], headings: Sequence[Heading]) -> list[int]:
    """The indexes of ``titles`` that are the headings, in their order (other entries, such as the kit's part
    bookmarks, skipped)."""
    found, wanted = [], 0
    for index, title in enumerate(titles):
        if wanted < len(headings) and _words(title) == _words(headings[wanted].text):
            found.append(index)
            wanted += 1
    return found


def check_book(pdf: bytes, headings: Sequence[Heading], *, toc: bool, fold_rgb: tuple[float, float, float],
               copied_from: tuple[bytes, int] | None = None) -> list[str]:
    """The contents, bookmarks and links of a PDF holding the typeset rulebook (alone, or inside the kit).

    ``copied_from`` (the rulebook's PDF, and the page of ``pdf`` its first page is on): ``pdf`` is the kit, which
    copies the rulebook's pages as they are; its outline and links are read from it, and what its rulebook pages
    print from the rulebook, once for the same bytes: the kit made again for an edited card reads only its own
    outline and links again, not the text of every rulebook page."""
    if copied_from is None:
        return _remembered_findings(("book", [(h.key, h.text, h.level) for h in headings], toc, fold_rgb), pdf,
                                    lambda: _check_book(pdf, headings, toc=toc, fold_rgb=fold_rgb))
    book, first = copied_from
    reader = _reader(pdf)
    marks, problems = _marks(reader, headings)
    on_book = [(title, number - first, top) for title, number, top in marks]
    # the findings name the kit's pages: the page the rulebook starts on is part of the question
    problems += _remembered_findings(("landing", on_book, first, fold_rgb), book,
                                     lambda: _landing(_drawings(book, fold_rgb), on_book, shift=first))
    return problems + _links(reader, marks)


def _check_book(pdf: bytes, headings: Sequence[Heading], *, toc: bool, fold_rgb: tuple[float, float, float]) \
        -> list[str]:
    reader = _reader(pdf)
    drawing = _drawings(pdf, fold_rgb)
    marks, problems = _marks(reader, headings)
    problems += _landing(drawing, marks) + _links(reader, marks)
    if toc and len(marks) == len(headings):
        problems += _check_contents(reader, headings, [number for _t, number, _top in marks], drawing)
    return problems


def _drawings(pdf: bytes, fold_rgb: tuple[float, float, float]) -> Callable[[int], PageDrawing | None]:
    """Page number -> what it draws (None: no such page), each page read once for the same bytes: the book check
    and the area check of a rulebook read the same pages."""
    import hashlib

    key = (hashlib.sha256(pdf).hexdigest(), fold_rgb)
    return _READ.get(key, lambda: _page_reader(_reader(pdf), fold_rgb))


def _page_reader(reader: Any, fold_rgb: tuple[float, float, float]) -> Callable[[int], PageDrawing | None]:
    drawings: dict[int, PageDrawing] = {}

    def drawing(number: int) -> PageDrawing | None:
        if not 0 <= number < len(reader.pages):
            return None
        if number not in drawings:
            drawings[number] = read_drawing(reader.pages[number], fold_rgb)
        return drawings[number]

    return drawing


def _marks(reader: Any, headings: Sequence[Heading]) -> tuple[list[tuple[str, int, float]], list[str]]:
    """The bookmarks of the headings, in their order (title, page, top), and a problem when some are missing."""
    outline = _outline(reader)
    marks = [outline[index] for index in _in_order([title for title, *_ in outline], headings)]
    if len(marks) < len(headings):
        return marks, [f"the outline holds {len(marks)} of the {len(headings)} headings in their order"]
    return marks, []


def _landing(drawing: Callable[[int], PageDrawing | None], marks: Sequence[tuple[str, int, float]],
             shift: int = 0) -> list[str]:
    """Each bookmark lands on a page printing its heading, at its line (``shift``: added to the pages said)."""
    problems = []
    for title, number, top in marks:
        page = drawing(number)
        page_text = "" if page is None else _words(" ".join(text for text, *_ in page.texts))
        if page is None or _words(title) not in page_text or not _heading_at(page, title, top):
            problems.append(f"the bookmark {title!r} lands on page {number + shift + 1}, which does not print that "
                            "heading there")
    return problems


def _links(reader: Any, marks: Sequence[tuple[str, int, float]]) -> list[str]:
    """Each internal link lands where a bookmark of a heading does."""
    landing = {(number, round(top)) for _title, number, top in marks}
    problems = []
    for source, target, top in _link_targets(reader):
        if target < 0:
            problems.append(f"a link on page {source + 1} goes nowhere")
        elif not any(target == page and abs(round(top) - mark) <= 1 for page, mark in landing if top == top):
            problems.append(f"a link on page {source + 1} lands on page {target + 1}, at no heading")
    return problems


def _check_contents(reader: Any, headings: Sequence[Heading], pages: Sequence[int], drawing: Any) -> list[str]:
    """Read the contents pages' lines (title ... number), in order, and compare each number with the folio
    printed on the page where that heading is."""
    entries: list[tuple[str, int]] = []
    pending = ""  # a title the contents wrapped: its first lines, which carry no number
    for number in range(min(pages, default=len(reader.pages))):
        for line in reader.pages[number].extract_text().splitlines():
            line = line.strip()
            match = _TOC_LINE.match(line)
            if match:
                whole = f"{pending} {match['title']}".strip()
                entries.append((whole if pending and _words(whole) in {_words(h.text) for h in headings}
                                else match["title"], int(match["page"])))
                pending = ""
            elif line and not line.isdigit():
                pending = f"{pending} {line}" if pending and _words(f"{pending} {line}") in _starts(headings) \
                    else line
    listed = [entries[index] for index in _in_order([title for title, _ in entries], headings)]
    problems = []
    if len(listed) < len(headings):
        missing = headings[len(listed)].text
        problems.append(f"the contents list {len(listed)} of the {len(headings)} headings in order; "
                        f"{missing!r} is missing")
    for (title, said), page in zip(listed, pages, strict=False):
        printed = drawing(page)
        folio = _folio(printed) if printed is not None else None
        if folio is None or int(folio) != said:
            problems.append(f"the contents give page {said} for {title!r}, which is printed on the page "
                            f"numbered {folio}")
    return problems


def _starts(headings: Sequence[Heading]) -> set[str]:
    """Every start of a heading's words (``the golden``, ``the golden rule``): what a wrapped entry may begin."""
    starts = set()
    for heading in headings:
        words = _words(heading.text).split(" ")
        starts.update(" ".join(words[:n]) for n in range(1, len(words) + 1))
    return starts


def check_area(pdf: bytes, margin_mm: float, pages: Iterable[int] | None = None, *, what: str,
               fold_rgb: tuple[float, float, float]) -> list[str]:
    """Every path point and text run of the pages inside the printable margin."""
    numbers = None if pages is None else list(pages)
    return _remembered_findings(("area", margin_mm, numbers, what, fold_rgb), pdf,
                                lambda: _check_area(pdf, margin_mm, numbers, what=what, fold_rgb=fold_rgb))


def _check_area(pdf: bytes, margin_mm: float, pages: Iterable[int] | None, *, what: str,
                fold_rgb: tuple[float, float, float]) -> list[str]:
    reader = _reader(pdf)
    drawings = _drawings(pdf, fold_rgb)
    problems = []
    slack = 0.5  # a line's half width and rounding
    for number in pages if pages is not None else range(len(reader.pages)):
        page = reader.pages[number]
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        low = margin_mm * _PT_PER_MM - slack
        drawing = drawings(number)
        assert drawing is not None  # a page of the range
        outside = [(x, y) for x, y in drawing.points + [(x, y) for _t, x, y, _s in drawing.texts]
                   if not (low <= x <= width - low and low <= y <= height - low)]
        if outside:
            x, y = outside[0]
            problems.append(f"{what}, page {number + 1}: {len(outside)} point(s) outside the printable area, the "
                            f"first at {x / _PT_PER_MM:.1f}, {y / _PT_PER_MM:.1f} mm")
    return problems


def check_tuck_box(pdf: bytes, box: TuckBox, fold_rgb: tuple[float, float, float]) -> list[str]:
    """Re-measure the box from the PDF: its fold lines (found by their colour) from the outline's lower-left
    corner (the cut lines'), against the panels the deck needs. Across: glue, back, side, front; up: tuck,
    bottom, the main row, the lid."""
    reader = _reader(pdf)
    drawing = read_drawing(reader.pages[0], fold_rgb)
    if not drawing.cuts or not drawing.folds:
        return ["tuck box: no cut or fold line found"]
    left = min(min(a[0], b[0]) for a, b in drawing.cuts) / _PT_PER_MM
    bottom = min(min(a[1], b[1]) for a, b in drawing.cuts) / _PT_PER_MM
    xs = sorted({round(a[0] / _PT_PER_MM - left, 2) for a, b in drawing.folds if abs(a[0] - b[0]) < 0.01})
    ys = sorted({round(a[1] / _PT_PER_MM - bottom, 2) for a, b in drawing.folds if abs(a[1] - b[1]) < 0.01})
    g, w, d, h, k = box.glue, box.width, box.depth, box.height, box.tuck
    problems = []
    for said, found, wanted in (("vertical", xs, [g, g + w, g + w + d, g + 2 * w + d]),
                                ("horizontal", ys, [k, k + d, k + d + h, k + 2 * d + h])):
        if len(found) != len(wanted) or any(abs(a - b) > 0.15 for a, b in zip(found, wanted, strict=True)):
            problems.append(f"tuck box: the {said} folds lie at {found} mm from the outline's edge, not at "
                            f"{[round(v, 2) for v in wanted]}")
    return problems


def _remembered_findings(asked: Any, pdf: bytes, check: Callable[[], list[str]]) -> list[str]:
    """What ``check`` finds in ``pdf``, found once for the same bytes and question (``carddb.incremental``'s
    cache): a check reads the PDF back, which cost more than typesetting the rulebook, and a card's edit leaves the
    rulebook's bytes, the reference cards' and the tuck box's as they were, on both papers."""
    import hashlib
    import json

    from carddb.incremental import code_digest, digest, remembered

    key = digest(code_digest(("kit",)), "kit check", repr(asked), hashlib.sha256(pdf).hexdigest())
    return list(json.loads(remembered(key, lambda: json.dumps(check()).encode())))


def raise_if(problems: Sequence[str], where: str) -> None:
    if problems:
        shown = "\n  ".join(problems[:8]) + (f"\n  ... and {len(problems) - 8} more" if len(problems) > 8 else "")
        raise KitCheckError(f"{where} failed its own check after writing:\n  {shown}")
