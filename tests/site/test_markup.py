"""The escaping helpers of ``carddb.site.markup``, one per context a card's data reaches, with exact values."""

from __future__ import annotations

import pytest

from carddb.layout.ops import FaceLayout
from carddb.paint.raster import render_image
from carddb.site.markup import REFUSED_URL, css_colour, face_box, face_pixels, html_text, html_url, md_code, md_text


@pytest.mark.parametrize(("value", "shown"), [
    ("games/minibattle/cards/pikachu/", "games/minibattle/cards/pikachu/"),
    ("../../assets/faces/a.png", "../../assets/faces/a.png"),
    ("../checker/?deck=a&b.txt", "../checker/?deck=a&amp;b.txt"),
    ('x" onerror="alert(1)', "x&quot; onerror=&quot;alert(1)"),
    ("https://example.org/x.png", "https://example.org/x.png"),
    ("#anchor", "#anchor"),
    ("javascript:alert(1)", REFUSED_URL),
    (" JaVa\tScRiPt:alert(1)", REFUSED_URL),  # what a browser ignores in an address ignored here too
    ("\x01java\nscript:alert(1)", REFUSED_URL),
    ("data:text/html,<script>alert(1)</script>", REFUSED_URL),
    ("vbscript:msgbox(1)", REFUSED_URL),
])
def test_an_address_is_a_path_or_an_http_address(value: str, shown: str) -> None:
    assert html_url(value) == shown


@pytest.mark.parametrize(("value", "shown"), [
    ("#c8322a", "#c8322a"), ("red", "red"), ("rgb(200, 50, 42)", "rgb(200, 50, 42)"),
    ("red;background:url(https://evil.example/x)", "transparent"), ("x}body{display:none", "transparent"),
    ('red" onmouseover="alert(1)', "transparent"),
])
def test_a_colour_in_a_style_is_only_a_colour(value: str, shown: str) -> None:
    assert css_colour(value) == shown


def test_text_is_shown_as_written_whatever_syntax_it_holds() -> None:
    assert md_text("{{ config }} {% raw %} [a](javascript:x) <b>") == \
        r"\{\{ config \}\} \{% raw %\} \[a\]\(javascript:x\) &lt;b&gt;"
    assert html_text("</title><img src=x onerror='1'>") == "&lt;/title&gt;&lt;img src=x onerror=&#x27;1&#x27;&gt;"
    assert md_code("a`b|c") == "<code>a`b&#124;c</code>"


def test_a_face_box_is_the_rendered_faces_own_pixels() -> None:
    assert face_box(63, 88) == 'width="744" height="1039"'  # the poker card most games use, at 300 dpi
    assert face_box(88, 63) == 'width="1039" height="744"'  # a landscape card stays landscape
    for size in ((63, 88), (59, 86), (88, 63), (57.5, 89)):  # what the painter draws is the box reserved for it
        assert render_image(FaceLayout(*size)).size == face_pixels(*size)
