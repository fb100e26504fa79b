"""A game's rulebook page: ``rules/<game>/rulebook.md`` as written, with two things only the site can add.

- **Colour swatches.** In a table with a colour column (its header says colour or background), each row's
  colour is shown as a swatch: the colour the card templates paint for that row's value (their palettes: a
  FIRE monster's red, a rare's black symbol), or, for a colour no palette names, the colour word itself.
- **Card anatomy.** Under a heading about the cards' anatomy or layout, a rendered face of the game's own
  templates, with each part the template draws outlined, numbered and named in a legend beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from carddb.site.card_data import GameCards
from carddb.site.markup import css_colour, html_text, html_url, url_prefix

#: Headings under which the rulebook describes a card's parts.
ANATOMY_HEADINGS = re.compile(r"^##+ (.*anatomy.*|the cards|play cards)$", re.I)
_TABLE_ROW = re.compile(r"^\|(.+)\|\s*$")
#: Colour words of the rulebooks that no palette names, as CSS colours.
NAMED_COLOURS = {"white": "#ffffff", "grey": "#9e9e9e", "gray": "#9e9e9e", "black": "#212121", "gold": "#c9a227",
                 "red": "#c8322a", "blue": "#2a62b8", "green": "#3d8b37", "yellow": "#f2d031", "purple": "#6a3d8f",
                 "brown": "#7b5231", "pink": "#e68fb0", "orange": "#e8842c", "beige": "#e3d3ad", "silver": "#c0c0c0",
                 "light blue": "#86cdee", "dark purple": "#4a2560", "violet": "#7f3fbf", "lavender": "#b9a6d9"}
#: Boxes that only decorate: no call-out.
_DECORATION = ("border", "frame", "panel", "bar", "background", "emblem", "corner")


def _cells(line: str) -> list[str] | None:
    match = _TABLE_ROW.match(line.strip())
    return [c.strip() for c in match.group(1).split("|")] if match else None


def _swatch(colour: str) -> str:
    return f'<span class="carddb-swatch" style="--swatch:{css_colour(colour)}" aria-hidden="true"></span>'


def _plain(cell: str) -> str:
    return re.sub(r"[*`]", "", cell).strip().casefold()


def colour_of(cells: list[str], column: int, palettes: Mapping[str, Mapping[str, str]],
              headers: list[str] | None = None, labels: Mapping[str, str] | None = None) -> str | None:
    """The colour of a colour-table row: the palette entry for one of its other cells (from the palette named as
    that cell's column, ``TYPE`` -> ``type``), else the colour word itself."""
    headers = headers or [""] * len(cells)
    said = _plain(cells[column])
    if not any(name in said for name in (*NAMED_COLOURS, "teal", "cream")):
        return None  # the rulebook names no colour here ("not made yet"): nothing to show
    for index, cell in enumerate(cells):
        if index == column or index >= len(headers):
            continue
        wanted = _plain(cell)
        header = _plain(headers[index])
        named = [k for k, label in (labels or {}).items() if label.casefold() == header]
        order = [header, *named, "type", "background", *palettes]
        for name in dict.fromkeys(order):
            if name in palettes and wanted in palettes[name]:
                return palettes[name][wanted]
    word = _plain(cells[column])
    for name in sorted(NAMED_COLOURS, key=len, reverse=True):  # "light blue" before "blue"
        if word == name or word.startswith(name + " ") or word.startswith(name + ","):
            return NAMED_COLOURS[name]
    return None


def add_swatches(markdown: str, palettes: Mapping[str, Mapping[str, str]],
                 labels: Mapping[str, str] | None = None) -> str:
    """``labels`` maps the game's field keys to their labels (a column headed ``TYPE`` reads palette ``type``)."""
    lines = markdown.split("\n")
    out: list[str] = []
    column: int | None = None
    headers: list[str] = []
    for number, line in enumerate(lines):
        cells = _cells(line)
        if cells is None:
            column = None
            out.append(line)
            continue
        following = _cells(lines[number + 1]) if number + 1 < len(lines) else None
        if column is None and following and all(set(c) <= set("-: ") for c in following):  # a header row
            column = next((i for i, c in enumerate(cells) if re.search(r"colou?r|background", c, re.I)), -1)
            headers = cells
            out.append(line)
            continue
        if column is None or column < 0 or column >= len(cells) or all(set(c) <= set("-: ") for c in cells):
            out.append(line)
            continue
        colour = colour_of(cells, column, palettes, headers, labels)
        if colour:
            cells[column] = _swatch(colour) + cells[column]
            line = "| " + " | ".join(cells) + " |"
        out.append(line)
    return "\n".join(out)


def anatomy_figure(data: GameCards, templates: object, page: str, kind: str | None = None) -> str:
    """A rendered face with its template's parts outlined and numbered, and the legend; ``""`` without a face."""
    game = data.game
    faces = getattr(templates, "faces", {})
    kinds = [kind] if kind else sorted(faces, key=lambda k: -sum(1 for c in data.cards if c.kind == k))
    for candidate in kinds:
        card = next((c for c in data.cards if c.kind == candidate and c.key in data.faces), None)
        template = faces.get(candidate)
        if card is None or template is None:
            continue
        width, height = template.size
        parts = []
        for box in template.boxes:
            if box.shape not in ("text", "art", "icons", "image") or any(w in box.name for w in _DECORATION):
                continue
            label = game.fields[box.name].label if box.name in game.fields else \
                box.name.replace("-", " ").replace("_", " ").capitalize()
            if label in (p[0] for p in parts):
                continue
            parts.append((label, box.at))
        if not parts:
            continue
        root = url_prefix(page)
        kind_label = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
        marks = []
        for number, (label, (x, y, w, h)) in enumerate(parts, start=1):
            style = (f"left:{x / width * 100:.2f}%;top:{y / height * 100:.2f}%;width:{w / width * 100:.2f}%;"
                     f"height:{h / height * 100:.2f}%")
            marks.append(f'<span class="carddb-callout" style="{style}" title="{html_text(label)}">'
                         f"<b>{number}</b></span>")
        legend = "".join(f"<li>{html_text(label)}</li>" for label, _ in parts)
        return (f'<figure class="carddb-anatomy-figure"><div class="carddb-anatomy">'
                f'<img src="{html_url(root + data.faces[card.key])}" alt="{html_text(card.key)}, a '
                f'{html_text(kind_label)} card, with its parts numbered">{"".join(marks)}</div>'
                f'<figcaption>{html_text(card.key)} ({html_text(kind_label)}), as the site draws it: '
                f'<ol class="carddb-legend">{legend}</ol></figcaption></figure>')
    return ""


def rulebook_page(markdown: str, data: GameCards, templates: object | None, page: str) -> str:
    palettes: dict[str, dict[str, str]] = {}
    for template in getattr(templates, "faces", {}).values():
        for name, table in template.palettes.items():
            palettes.setdefault(name, {}).update(table)
    text = add_swatches(markdown, palettes, {key: f.label for key, f in data.game.fields.items()})
    if templates is None:
        return text
    out = []
    for line in text.split("\n"):
        out.append(line)
        if ANATOMY_HEADINGS.match(line.strip()):
            heading = line.lstrip("#").strip().casefold()
            kind = next((k for k, d in data.game.kinds.items()
                         if d.label.casefold() in heading or k in heading), None)
            figure = anatomy_figure(data, templates, page, kind)
            if figure:
                out += ["", figure, ""]
    return "\n".join(out)
