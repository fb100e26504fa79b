"""Escaping and links for generated pages: every string from a card or a game definition passes through here,
one helper for each context it can reach (``docs/safety.md``).

Card data is never trusted as markup: in Markdown it is backslash-escaped and HTML-escaped (``md_text``,
``md_code``, ``md_words``), in raw HTML it is HTML-escaped (``html_text``, ``html_lines``), an address in an
``href`` or ``src`` must be a path or an http(s) address (``html_url``) and a colour in a ``style`` a colour
(``css_colour``), so a card named ``<img src=x onerror=alert(1)>`` shows those characters as text. The theme's
side (a page's ``<title>``, the navigation) is ``site/overrides``; data the page scripts read is JSON served as
files, never inline, and the scripts write it with ``textContent``.
"""

from __future__ import annotations

import html
import re

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|])")
#: An address's scheme, once what a browser ignores in it (spaces, tabs, line breaks, controls) is taken out.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f]")
#: What ``html_url`` gives for an address it refuses: a link that goes nowhere.
REFUSED_URL = "about:invalid#refused"
#: A CSS colour: #rgb to #rrggbbaa, a colour function of numbers, or a colour word.
_CSS_COLOUR = re.compile(r"^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9., %/]+\)|[a-zA-Z]{3,30})$")
_RULE_LINK = re.compile(r"^rules/(?P<game>[a-z0-9][a-z0-9_-]*)/(?P<file>[A-Za-z0-9_.-]+\.md)"
                        r"(?:#(?P<anchor>[A-Za-z0-9_-]*))?$")


def md_text(value: object) -> str:
    """Text for a Markdown paragraph or table cell: shown as written, never read as Markdown or HTML."""
    text = " ".join(str(value).split())
    return html.escape(_MARKDOWN_SPECIAL.sub(r"\\\1", text), quote=False)


def md_code(value: object) -> str:
    """Text as a code span, shown exactly as written: inside backticks Markdown escapes nothing, so a backslash
    escape would show (``copy\\-limit``); text with a backtick or a pipe becomes an HTML ``<code>`` instead."""
    text = " ".join(str(value).split())
    if "`" in text or "|" in text:
        return f"<code>{html.escape(text, quote=False).replace('|', '&#124;')}</code>"
    return f"`{text}`"


def md_words(value: object) -> str:
    """``md_text`` for a narrow table cell: a line may break after a slash (``Fusion/<wbr>Transformation``), and
    the site's style never breaks inside a word."""
    return md_text(value).replace("/", "/<wbr>")


def html_text(value: object) -> str:
    """Text (or an attribute value) inside raw HTML."""
    return html.escape(str(value), quote=True)


def html_url(value: str) -> str:
    """An address for an ``href`` or ``src`` attribute, escaped: a relative path or an http(s) address as it is,
    anything else (``javascript:``, ``data:``, ``vbscript:``, however spelt) ``REFUSED_URL``."""
    scheme = _SCHEME.match(_IGNORED_IN_URLS.sub("", value))
    if scheme and scheme.group(1).lower() not in ("http", "https"):
        return REFUSED_URL
    return html_text(value)


def css_colour(value: str) -> str:
    """A colour for a ``style`` attribute, or ``transparent`` for anything that is not only a colour (a value
    holding ``;`` or ``url(`` would add a declaration or fetch an address)."""
    return value if _CSS_COLOUR.match(value.strip()) else "transparent"


def html_lines(value: object) -> str:
    """Multi-line text inside raw HTML, line breaks kept as ``<br>`` so the HTML block has no blank line."""
    return "<br>".join(html_text(line) for line in str(value).splitlines())


def rulebook_page(game_id: str) -> str:
    """The docs path of a game's rulebook page."""
    return f"games/{game_id}/rulebook.md"


def rule_target(rule: str) -> tuple[str, str] | None:
    """The game and anchor of a checker ``rule`` link (``rules/shmod/rulebook.md#side-deck``), or None."""
    match = _RULE_LINK.match(rule)
    if not match:
        return None
    return match["game"], match["anchor"] or ""


def rule_href(game_id: str, anchor: str, from_page: str) -> str:
    """A Markdown link target from ``from_page`` (a docs path) to a section of the game's rulebook."""
    target = relative_path(from_page, rulebook_page(game_id))
    return f"{target}#{anchor}" if anchor else target


def relative_path(from_page: str, to_file: str) -> str:
    """``games/a/cards.md`` -> ``games/a/rulebook.md`` is ``rulebook.md``: the link MkDocs resolves and checks."""
    from_parts = from_page.split("/")[:-1]
    to_parts = to_file.split("/")
    common = 0
    while common < min(len(from_parts), len(to_parts) - 1) and from_parts[common] == to_parts[common]:
        common += 1
    return "/".join([".."] * (len(from_parts) - common) + to_parts[common:])


def url_prefix(page: str) -> str:
    """From a page's built URL back to the site root, for raw HTML (``games/a/cards.md`` -> ``../../../``).

    The site uses directory URLs, so ``x/y.md`` is served at ``x/y/`` and ``x/index.md`` at ``x/``.
    """
    parts = page.split("/")
    depth = len(parts) - 1 if parts[-1] == "index.md" else len(parts)
    return "../" * depth


def face_pixels(width_mm: float, height_mm: float) -> tuple[int, int]:
    """The pixels of a rendered face of a card this size, as the painter rounds them (``carddb.paint.raster``)."""
    from carddb.paint.raster import DEFAULT_DPI

    k = DEFAULT_DPI / 25.4
    return max(1, round(width_mm * k)), max(1, round(height_mm * k))


def face_box(width_mm: float, height_mm: float) -> str:
    """A face's ``width`` and ``height`` attributes: its own pixels, so the browser reserves the box the picture
    will fill, to the pixel, before it arrives (the style sheet scales it), and nothing below it moves as faces
    load (a click aimed below never lands on what moved into its place)."""
    width, height = face_pixels(width_mm, height_mm)
    return f'width="{width}" height="{height}"'
