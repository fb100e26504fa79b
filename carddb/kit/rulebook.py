"""The rulebook typeset with ReportLab's platypus: a title page crediting the original authors, a table of
contents with page numbers and links, each section bookmarked, running heads and page numbers, and the
construction tables the site generates from game.toml as its last chapter.

The contents are resolved by ``multiBuild``: each pass lays the whole book out and notes on which page each
heading fell; the next pass prints those numbers, until two passes agree.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import BaseDocTemplate, Frame, PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError
from carddb.kit import style
from carddb.kit.markdown_flow import FlowBuilder, Heading, HeadingParagraph, markdown_tree
from carddb.kit.style import BOLD, SANS, drawable
from carddb.paint import pdf_streams  # noqa: F401  (every PDF written alike, quickly)

#: The construction chapter's anchors start with this, apart from the rulebook's own.
CONSTRUCTION_PREFIX = "construction-"


@dataclass
class Rulebook:
    """A typeset rulebook: the PDF and what the self-check compares it with."""

    pdf: bytes
    headings: list[Heading] = field(default_factory=list)
    pages: int = 0
    title: str = ""


class Contents(TableOfContents):
    """The table of contents, each entry one line of text: its title, leader dots and its page number, all a link
    to the heading. (ReportLab's own draws the dots and number beside the text, which text extraction reads out
    of order.)"""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        entries = self._lastEntries or [(0, "Contents", 0, None)]
        rows: list[list[object]] = []
        for level, text, page, key in entries:
            entry_style = self.getLevelStyle(level)
            number = str(page)
            plain_width = stringWidth(html.unescape(re.sub(r"<[^>]+>", "", text)), entry_style.fontName,
                                      entry_style.fontSize)
            room = availWidth - entry_style.leftIndent - plain_width - stringWidth(f" {number}", SANS,
                                                                                  entry_style.fontSize)
            dots = max(int(room / stringWidth(" .", SANS, entry_style.fontSize)) - 1, 0) if room > 0 else 0
            leader = f'<font name="{SANS}" color="#8a8f98">{" ." * dots}</font>' if dots else ""
            line = f"{text}{leader} {number}"
            if key:
                line = f'<a href="#{key}">{line}</a>'
            if entry_style.spaceBefore:
                rows.append([Spacer(1, entry_style.spaceBefore)])
            rows.append([Paragraph(line, entry_style)])
        self._table = Table(rows, colWidths=(availWidth,), style=self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height


class _Document(BaseDocTemplate):
    def __init__(self, target: io.BytesIO, pagesize: tuple[float, float], margins: float, title: str,
                 game_name: str, author: str) -> None:
        super().__init__(target, pagesize=pagesize, leftMargin=margins, rightMargin=margins,
                         topMargin=margins + 6 * mm, bottomMargin=margins + 6 * mm, title=title, author=author,
                         creator="carddb", subject="rulebook; print at 100 % (actual size)", invariant=1,
                         initialFontName=SANS)
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body", leftPadding=0,
                      rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="page", frames=[frame], onPageEnd=self._furniture)])
        self.game_name = game_name
        self.chapter = ""
        self.headings: list[Heading] = []

    def beforeDocument(self) -> None:
        self.chapter = ""
        self.headings = []
        self.canv.setViewerPreference("PrintScaling", "None")
        self.canv.showOutline()

    def afterFlowable(self, flowable: object) -> None:
        if isinstance(flowable, HeadingParagraph):
            heading = flowable.heading
            self.notify("TOCEntry", (heading.level, drawable(heading.text), self.page, heading.key))
            self.canv.addOutlineEntry(heading.text, heading.key, level=heading.level, closed=heading.level > 0)
            self.headings.append(heading)
            if heading.level == 0:
                self.chapter = heading.text

    def _furniture(self, canvas: object, doc: BaseDocTemplate) -> None:
        """The running head (the game, and the chapter in effect at the page's end) and the page number."""
        c = canvas
        width, height = self.pagesize
        c.saveState()
        c.setFillColor(style.MUTED)
        c.setStrokeColor(style.MUTED)
        size = 7.5
        top = height - self.topMargin + 3 * mm
        if doc.page > 1:
            c.setFont(SANS, size)
            c.drawString(self.leftMargin, top, style.plain(self.game_name))
            chapter = style.plain(self.chapter)
            fitted = style.canvas_font_fits(chapter, SANS, size, self.width / 2)
            c.setFont(SANS, fitted)
            c.drawRightString(width - self.rightMargin, top, chapter)
            c.setLineWidth(0.3)
            c.line(self.leftMargin, top - 1.5 * mm, width - self.rightMargin, top - 1.5 * mm)
        c.setFont(SANS, 8.5)
        c.drawCentredString(width / 2, self.bottomMargin - 6 * mm, str(doc.page))
        c.restoreState()


def credits_line(game: GameDefinition) -> str:
    """Who wrote the game, as the title page and the cover say it."""
    authors = ", ".join(game.authors)
    said = f"Original rules by {authors}" if authors else "Original rules by the game's authors"
    return said + (f" ({game.origin})" if game.origin else "") + "."


def typeset_rulebook(root: Path, game: GameDefinition, cards: Sequence[Card], pagesize: tuple[float, float],
                     *, margins: float, base_size: float) -> Rulebook:
    """The rulebook of ``game`` from ``rules/<game>/rulebook.md``, with the construction chapter. Typeset once
    for the same text, tables and page (``carddb.incremental.remembered``): a build whose change is a card's
    art or numbers makes the kit again without setting the rulebook again."""
    from carddb.files.reading import read_text_file
    from carddb.incremental import code_digest, digest, files_digest, remembered
    from carddb.kit.style import font_files
    from carddb.site.construction import construction_page, game_data_page

    path = root / "rules" / game.id / game.rulebook
    if not path.is_file():
        raise InputError(f"{path}: no rulebook to typeset", hint=f"the kit typesets rules/{game.id}/{game.rulebook}")
    text = read_text_file(path)
    page = f"games/{game.id}/construction.md"
    made = construction_page(game, cards, page) if game.deck_game else game_data_page(game, page)
    key = digest("kit-rulebook", code_digest(("core", "site", "kit")), text, made, pagesize, margins, base_size,
                 game.id, game.name, game.authors, game.origin, files_digest(font_files()))
    packed = remembered(key, lambda: _packed(_typeset(path, text, made, game, pagesize, margins, base_size)))
    header, _, pdf = packed.partition(b"\n")
    said = json.loads(header)
    return Rulebook(pdf, [Heading(*heading) for heading in said["headings"]], said["pages"], said["title"])


def _packed(book: Rulebook) -> bytes:
    header = {"headings": [[h.level, h.text, h.key] for h in book.headings], "pages": book.pages, "title": book.title}
    return json.dumps(header).encode() + b"\n" + book.pdf


def _typeset(path: Path, text: str, made: str, game: GameDefinition, pagesize: tuple[float, float],
             margins: float, base_size: float) -> Rulebook:
    style.register_fonts()
    tree = markdown_tree(text, str(path))
    anchors = {element.get("id", "") for element in tree.iter() if element.tag[:1] == "h" and element.get("id")}
    built = markdown_tree(made, f"{game.id}: construction tables")
    built_anchors = {element.get("id", "") for element in built.iter() if element.get("id")}

    def link(href: str) -> str | None:
        """In the book, a link to a rulebook section (from the rulebook or the construction tables) jumps there."""
        if href.startswith(("http://", "https://", "mailto:")):
            return href
        target, _, anchor = href.partition("#")
        if not anchor:
            return None
        if (not target or target.endswith("rulebook.md")) and anchor in anchors:
            return f"#{anchor}"
        if not target and anchor in built_anchors:  # within the construction chapter
            return f"#{CONSTRUCTION_PREFIX}{anchor}"
        return None

    width = pagesize[0] - 2 * margins
    rules = FlowBuilder(width, base_size, link, where=str(path))
    body = rules.flowables(tree)
    chapter = FlowBuilder(width, base_size, link, where=f"rules/{game.id}/game.toml", level_shift=1,
                          key_prefix=CONSTRUCTION_PREFIX)
    tables = chapter.flowables(built)
    title = rules.title or game.name
    styles = rules.styles
    contents = Contents()
    contents.tableStyle = TableStyle([("FONTNAME", (0, 0), (-1, -1), SANS), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                      ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("LEFTPADDING", (0, 0), (-1, -1), 0)])
    contents.levelStyles = [
        ParagraphStyle(f"toc{level}", fontName=BOLD if level == 0 else SANS, bulletFontName=SANS,
                       fontSize=base_size * size, leading=base_size * size * 1.35, leftIndent=12 * level,
                       firstLineIndent=0, spaceBefore=3 if level == 0 else 0)
        for level, size in enumerate((1.0, 0.92, 0.88))
    ]
    story = [
        Paragraph(drawable(title), styles["title"]),
        Paragraph(drawable(credits_line(game)), styles["body"]),
        Paragraph(f"Rulebook retold in our own words; every rule, number and example of the original is kept. "
                  f"The construction tables at the end are generated from <i>rules/{drawable(game.id)}/game.toml"
                  f"</i>, the definition the deck checker reads.", styles["body"]),
        Spacer(1, 4 * mm),
        Paragraph("Contents", ParagraphStyle("contents", parent=styles["h0"], keepWithNext=0)),
        contents,
        PageBreak(),
        *body,
        PageBreak(),
        *tables,
    ]
    buffer = io.BytesIO()
    doc = _Document(buffer, pagesize, margins, f"{title}: rulebook", game.name, ", ".join(game.authors) or "carddb")
    try:
        doc.multiBuild(story, maxPasses=8)
    except IndexError as exc:  # the contents never settled (a page count that keeps moving)
        raise InputError(f"{path}: the table of contents did not settle ({exc})") from None
    return Rulebook(buffer.getvalue(), list(doc.headings), doc.page, title)
