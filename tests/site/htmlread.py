"""Reading built pages back: the tables under each heading, as the text a reader sees. Standard library only."""

from __future__ import annotations

from html.parser import HTMLParser


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.section = ""
        self.tables: dict[str, list[list[list[str]]]] = {}
        self._heading: list[str] | None = None
        self._heading_id = ""
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h1", "h2", "h3"):
            self._heading = []
            self._heading_id = dict(attrs).get("id") or ""
        elif tag == "a" and "headerlink" in (dict(attrs).get("class") or ""):
            self._skip += 1
        elif tag == "table":
            self.tables.setdefault(self.section, []).append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.section = self._heading_id
            self._heading = None
        elif tag == "a" and self._skip:
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self.section][-1].append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._cell is not None:
            self._cell.append(data)
        elif self._heading is not None:
            self._heading.append(data)


def tables(html: str) -> dict[str, list[list[list[str]]]]:
    """Heading id -> the tables under it, each a list of rows (the header row first) of cell texts."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def table(html: str, section: str) -> list[list[str]]:
    """The one table under the heading ``section``, without its header row."""
    found = tables(html)[section]
    assert len(found) == 1, f"{len(found)} tables under #{section}"
    return found[0][1:]
