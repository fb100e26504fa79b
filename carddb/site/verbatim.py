"""Generated HTML that Python-Markdown passes through untouched, without reading it first.

A page's raw HTML is parsed twice before Markdown sets it aside as it is: by MkDocs (for the ``id`` attributes a
link may point at) and by Markdown's own block reader. For a gallery of 5,000 cards that was most of a second of
every build that changed a card (the gallery lists them all). A generator that made the HTML itself, escaped and
whole, marks it instead (``verbatim``); this extension sets the marked lines aside as one block at once, and tells
MkDocs the ``id``s in it. The page is the same, byte for byte: Markdown writes a raw block as it was given.
"""

from __future__ import annotations

import html
import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

START = "<!-- carddb:verbatim -->"
END = "<!-- carddb:end verbatim -->"
_ID = re.compile(r'\sid="([^"]*)"')
#: MkDocs' reader of raw HTML (``mkdocs.structure.pages._RawHTMLPreprocessor``, priority 21) and Markdown's
#: (``html_block``, 20): the block is set aside before both, and its ids handed to MkDocs' after it has run. After
#: Markdown's ``normalize_whitespace`` (30), which deletes the two control characters of a stash's placeholder.
_BEFORE_BOTH, _AFTER_MKDOCS = 29, 20.5


def verbatim(lines: list[str]) -> list[str]:
    """``lines`` of HTML (whole elements, escaped by their maker) marked to be written as they are."""
    return [START, *lines, END]


class _SetAside(Preprocessor):
    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        self.ids: set[str] = set()

    def run(self, lines: list[str]) -> list[str]:
        self.ids = set()
        if START not in lines:
            return lines
        out: list[str] = []
        at = 0
        while START in lines[at:]:
            start = lines.index(START, at)
            end = lines.index(END, start)  # a START without its END is a bug of the generator: ValueError
            block = "\n".join(lines[start + 1:end])
            self.ids.update(html.unescape(found) for found in _ID.findall(block))
            out += [*lines[at:start], "", self.md.htmlStash.store(block + "\n"), ""]  # as html_block stores one
            at = end + 1
        return out + lines[at:]


class _TellMkDocs(Preprocessor):
    def __init__(self, md: Markdown, set_aside: _SetAside) -> None:
        super().__init__(md)
        self.set_aside = set_aside

    def run(self, lines: list[str]) -> list[str]:
        if self.set_aside.ids and "mkdocs_raw_html" in self.md.preprocessors:
            self.md.preprocessors["mkdocs_raw_html"].present_anchor_ids |= self.set_aside.ids
        return lines


class VerbatimExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        set_aside = _SetAside(md)
        md.preprocessors.register(set_aside, "carddb_verbatim", _BEFORE_BOTH)
        md.preprocessors.register(_TellMkDocs(md, set_aside), "carddb_verbatim_ids", _AFTER_MKDOCS)
