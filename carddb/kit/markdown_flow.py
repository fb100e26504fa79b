"""A rulebook's Markdown as ReportLab flowables: headings that carry their anchors, paragraphs with emphasis and
links, lists, tables, examples and notes set apart in boxes.

The Markdown is read by Python-Markdown with the site's own extensions (``site/mkdocs.yml``), so a heading's
anchor is the id the site gives it and a rulebook link (``[Damage](#damage)``, ``rule = "damage"`` in game.toml)
lands on the same section on paper as on the site. The subset a rulebook may use is the one below; anything
else is an error naming the element, never silently dropped text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.entities import name2codepoint
from xml.etree import ElementTree as ET

from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    Flowable,
    HRFlowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
    XPreformatted,
)

from carddb.errors import InputError
from carddb.kit import style
from carddb.kit.style import BOLD, SANS, drawable

#: The Markdown extensions of the site (site/mkdocs.yml), so that anchors are the same ids.
EXTENSIONS = ("admonition", "attr_list", "md_in_html", "tables", "def_list", "toc")
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
#: HTML's void elements as raw HTML writes them (``<wbr>``, which the construction tables put in long words).
_VOID = re.compile(r"<(wbr|br|hr|img)(\s[^<>]*?)?\s*(?<!/)>")
#: Admonition kinds set apart as examples; every other kind (note, info, warning) is a note.
_EXAMPLES = frozenset({"example", "quote"})


def markdown_tree(text: str, where: str) -> ET.Element:
    """``text`` (Markdown) as an element tree of its HTML, headings carrying the site's ids."""
    import markdown

    converter = markdown.Markdown(extensions=list(EXTENSIONS))
    body = converter.convert(text)
    body = _ENTITY.sub(lambda m: m.group(0) if m.group(1) in _XML_ENTITIES
                       else f"&#{name2codepoint.get(m.group(1), 0xFFFD)};", body)
    body = _VOID.sub(lambda m: f"<{m.group(1)}{m.group(2) or ''}/>", body)
    try:
        return ET.fromstring(f"<body>{body}</body>")
    except ET.ParseError as exc:
        raise InputError(f"{where}: its HTML cannot be typeset ({exc})") from None


@dataclass(frozen=True)
class Heading:
    """A section heading as the document sees it: its level in the contents (0 = chapter), text and anchor."""

    level: int
    text: str
    key: str


class HeadingParagraph(Paragraph):
    """A heading paragraph; the document template lists it in the contents and the outline after it is laid."""

    heading: Heading


def _styles(base_size: float) -> dict[str, ParagraphStyle]:
    style.register_fonts()
    body = ParagraphStyle("body", fontName=SANS, fontSize=base_size, leading=base_size * 1.32, spaceAfter=4,
                          textColor=style.INK, alignment=TA_LEFT, bulletFontName=SANS)
    return {
        "body": body,
        "title": ParagraphStyle("title", parent=body, fontName=BOLD, fontSize=base_size * 2.2,
                                leading=base_size * 2.6, spaceAfter=8, textColor=style.ACCENT),
        "h0": ParagraphStyle("h0", parent=body, fontName=BOLD, fontSize=base_size * 1.55, leading=base_size * 1.9,
                             spaceBefore=10, spaceAfter=5, textColor=style.ACCENT, keepWithNext=1),
        "h1": ParagraphStyle("h1", parent=body, fontName=BOLD, fontSize=base_size * 1.22, leading=base_size * 1.5,
                             spaceBefore=8, spaceAfter=3, textColor=style.INK, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=body, fontName=BOLD, fontSize=base_size * 1.05, leading=base_size * 1.3,
                             spaceBefore=6, spaceAfter=2, textColor=style.MUTED, keepWithNext=1),
        "cell": ParagraphStyle("cell", parent=body, fontSize=base_size * 0.88, leading=base_size * 1.12,
                               spaceAfter=0),
        "head": ParagraphStyle("head", parent=body, fontName=BOLD, fontSize=base_size * 0.88,
                               leading=base_size * 1.12, spaceAfter=0),
        "box-title": ParagraphStyle("box-title", parent=body, fontName=BOLD, spaceAfter=2),
        "pre": ParagraphStyle("pre", parent=body, fontSize=base_size * 0.85, leading=base_size * 1.1),
    }


class FlowBuilder:
    """Turns the element tree of one Markdown text into flowables for a frame ``width`` points wide.

    ``link(href)`` gives the in-document target of a link (``#damage``), the address of an outside link, or None
    for a link that goes nowhere on paper (another page of the site): its text is kept, unlinked.
    ``level_shift`` moves headings down (the construction chapter's ``#`` becomes a chapter like ``##``), and
    ``key_prefix`` keeps its anchors apart from the rulebook's.
    """

    def __init__(self, width: float, base_size: float, link: Callable[[str], str | None], *, where: str,
                 level_shift: int = 0, key_prefix: str = "") -> None:
        self.width = width
        self.styles = _styles(base_size)
        self.link = link
        self.where = where
        self.level_shift = level_shift
        self.key_prefix = key_prefix
        self.title = ""

    # -- blocks ---------------------------------------------------------------------------------------------

    def flowables(self, root: ET.Element) -> list[Flowable]:
        out: list[Flowable] = []
        for element in root:
            out += self.block(element, self.width)
        return out

    def block(self, element: ET.Element, width: float) -> list[Flowable]:
        tag = element.tag
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            return self._heading(element)
        if tag == "p":
            return [Paragraph(self.inline(element), self.styles["body"])]
        if tag in ("ul", "ol"):
            return [self._list(element, width)]
        if tag == "table":
            return [self._table(element, width)]
        if tag == "div" and "admonition" in element.get("class", ""):
            return [self._box(element, width)]
        if tag in ("div", "blockquote", "dl"):
            inner: list[Flowable] = []
            for child in element:
                inner += self.block(child, width)
            return inner
        if tag in ("dt", "dd"):
            return [Paragraph(("<b>%s</b>" if tag == "dt" else "%s") % self.inline(element), self.styles["body"])]
        if tag == "pre":
            return [XPreformatted(drawable("".join(element.itertext())), self.styles["pre"])]
        if tag == "hr":
            return [HRFlowable(width="100%", color=style.MUTED, thickness=0.5, spaceBefore=4, spaceAfter=6)]
        raise InputError(f"{self.where}: the kit cannot typeset a <{tag}> element",
                         hint="a rulebook uses headings, paragraphs, lists, tables, admonitions (!!! note, "
                              "!!! example) and rules (---); docs/kit.md lists them")

    def _heading(self, element: ET.Element) -> list[Flowable]:
        depth = int(element.tag[1]) + self.level_shift
        text = "".join(element.itertext()).strip()
        if depth == 1:  # the rulebook's title: printed by the title page, not a section
            self.title = text
            return []
        key = self.key_prefix + element.get("id", "")
        level = min(depth - 2, 2)
        paragraph = HeadingParagraph(f'<a name="{key}"/>{drawable(text)}', self.styles[f"h{level}"])
        paragraph.heading = Heading(level, text, key)
        return [paragraph]

    def _list(self, element: ET.Element, width: float) -> ListFlowable:
        items = []
        for item in element:
            if item.tag != "li":
                raise InputError(f"{self.where}: a list holds a <{item.tag}>")
            items.append(ListItem(self._item(item, width - 18), leftIndent=14))
        ordered = element.tag == "ol"
        return ListFlowable(items, bulletType="1" if ordered else "bullet", start=None if ordered else "•",
                            leftIndent=14, bulletFontName=SANS, bulletFontSize=self.styles["body"].fontSize * 0.9,
                            spaceAfter=4)

    def _item(self, item: ET.Element, width: float) -> list[Flowable]:
        """A list item: its own text, then any blocks (paragraphs, nested lists) inside it."""
        blocks = [child for child in item if child.tag in ("p", "ul", "ol", "table", "div", "pre")]
        if not blocks:
            return [Paragraph(self.inline(item), self.styles["body"])]
        out: list[Flowable] = []
        lead = (item.text or "").strip()
        if lead:
            out.append(Paragraph(drawable(lead), self.styles["body"]))
        for child in item:
            if child in blocks:
                out += self.block(child, width)
            elif child.tail and child.tail.strip():
                out.append(Paragraph(drawable(child.tail.strip()), self.styles["body"]))
        return out

    def _table(self, element: ET.Element, width: float) -> Table:
        rows: list[list[Paragraph]] = []
        lengths: list[list[int]] = []
        header_rows = 0
        for section in element:
            for row in section.iter("tr"):
                cells = [cell for cell in row if cell.tag in ("th", "td")]
                head = section.tag == "thead"
                header_rows += head
                rows.append([Paragraph(self.inline(cell), self.styles["head" if head else "cell"]) for cell in cells])
                lengths.append([len("".join(cell.itertext())) for cell in cells])
        columns = max(len(row) for row in rows)
        for row in rows:
            row += [Paragraph("", self.styles["cell"])] * (columns - len(row))
        widths = _column_widths(lengths, columns, width)
        table = Table(rows, colWidths=widths, repeatRows=header_rows, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), SANS), ("GRID", (0, 0), (-1, -1), 0.4, style.MUTED),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), style.TABLE_HEAD) if header_rows else
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ]))
        table.spaceAfter = 6
        return table

    def _box(self, element: ET.Element, width: float) -> Flowable:
        """An admonition set apart: examples on green with a green rule, notes and readings on blue."""
        kinds = element.get("class", "").split()
        example = any(kind in _EXAMPLES for kind in kinds)
        inner_width = width - 16
        content: list[Flowable] = []
        for child in element:
            if child.tag == "p" and "admonition-title" in child.get("class", ""):
                content.append(Paragraph(self.inline(child), self.styles["box-title"]))
            else:
                content += self.block(child, inner_width)
        fill, rule = (style.EXAMPLE_FILL, style.EXAMPLE_RULE) if example else (style.NOTE_FILL, style.NOTE_RULE)
        box = Table([[content]], colWidths=[width - 2], hAlign="LEFT")
        box.setStyle(TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), SANS), ("BACKGROUND", (0, 0), (-1, -1), fill),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, rule),
            ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
            ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ]))
        return KeepTogether([Spacer(1, 2), box, Spacer(1, 6)])

    # -- inline ---------------------------------------------------------------------------------------------

    def inline(self, element: ET.Element) -> str:
        """The Paragraph markup of an element's content: text escaped, emphasis, code and links kept."""
        parts = [drawable(element.text or "")]
        for child in element:
            parts.append(self._inline_element(child))
            parts.append(drawable(child.tail or ""))
        return "".join(parts).strip()

    def _inline_element(self, child: ET.Element) -> str:
        inner = self.inline(child)
        tag = child.tag
        if tag in ("strong", "b"):
            return f"<b>{inner}</b>"
        if tag in ("em", "i"):
            return f"<i>{inner}</i>"
        if tag == "code":
            return f'<font color="#7a2e0e">{inner}</font>'
        if tag == "a":
            target = self.link(child.get("href", ""))
            if target is None:
                return inner
            return f'<a href="{drawable(target)}" color="#2a4f8f"><u>{inner}</u></a>'
        if tag == "br":
            return "<br/>"
        if tag == "wbr":  # a place a long word may break: Paragraph breaks at spaces and hyphens only
            return ""
        if tag in ("span", "sup", "sub", "small", "mark", "abbr"):
            return inner
        if tag == "img":
            return drawable(child.get("alt", ""))
        raise InputError(f"{self.where}: the kit cannot typeset an inline <{tag}> element")


def _column_widths(lengths: Iterable[list[int]], columns: int, width: float) -> list[float]:
    """Columns shared out by how much text each holds (square root, so one long column does not starve the
    others), none under a sixth of its fair share."""
    totals = [0.0] * columns
    for row in lengths:
        for index, length in enumerate(row):
            totals[index] = max(totals[index], float(length))
    weights = [max(t, 1.0) ** 0.5 for t in totals]
    fair = width / columns
    raw = [width * w / sum(weights) for w in weights]
    floor = [max(r, fair / 6, 28.0) for r in raw]
    scale = width / sum(floor)
    return [w * scale for w in floor]
