"""Generated HTML marked verbatim (``carddb.site.verbatim``) renders, through MkDocs' own page rendering, to the same
page as the unmarked HTML, and MkDocs still knows every ``id`` in it (a link to ``cards/#stem`` is checked)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from carddb.site.verbatim import VerbatimExtension, verbatim

EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "def_list", {"toc": {"permalink": True}}]
TILES = ['<div class="carddb-gallery" data-card-gallery data-game="shmod" data-search-exclude>',
         '<form class="carddb-filter" role="search"><label>Kind <select name="kind"><option value="">all</option>'
         "</select></label></form>",
         '<ul class="carddb-cards">',
         '<li class="carddb-card" id="abyssal-leviathan" data-key="Abyssal Leviathan"><a href="abyssal-leviathan/">'
         '<img src="../../../assets/faces/shmod/abyssal-leviathan.webp" alt="Abyssal Leviathan"></a></li>',
         '<li class="carddb-card" id="tom-amp-jerry" data-key="Tom &amp; Jerry &lt;b&gt;"><a href="tom-amp-jerry/">'
         "Tom &amp; Jerry &lt;b&gt;</a></li>",
         "</ul>", "</div>"]


def render(tmp_path: Path, markdown: str, extra: list[object]) -> Page:
    """``markdown`` as MkDocs renders the page ``games/shmod/cards.md`` of a site with carddb's extensions."""
    from mkdocs.config import load_config

    source = tmp_path / "docs" / "games" / "shmod" / "cards.md"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(markdown, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(json.dumps({"site_name": "t", "markdown_extensions": EXTENSIONS}),
                                         encoding="utf-8")  # JSON is YAML
    config = load_config(str(tmp_path / "mkdocs.yml"))
    config.markdown_extensions.extend(extra)
    file = File("games/shmod/cards.md", config.docs_dir, config.site_dir, use_directory_urls=True)
    page = Page(None, file, config)
    page.read_source(config)
    page.render(config, Files([file]))
    return page


@pytest.mark.parametrize("before, after", [("# Shmod: cards\n\n2 cards.\n\n", "\n"), ("", ""),
                                           ("# Cards\n", "\n\nAfter [the rules](../rulebook.md).\n")])
def test_marked_html_renders_as_the_unmarked_html_and_keeps_its_ids(tmp_path: Path, before: str, after: str) -> None:
    plain = render(tmp_path, before + "\n".join(TILES) + after, [])
    marked = render(tmp_path, before + "\n".join(verbatim(TILES)) + after, [VerbatimExtension()])
    assert marked.content == plain.content
    assert "carddb:verbatim" not in marked.content
    assert marked.present_anchor_ids == plain.present_anchor_ids
    assert {"abyssal-leviathan", "tom-amp-jerry"} <= marked.present_anchor_ids


def test_without_the_extension_the_markers_are_comments_and_the_html_is_whole(tmp_path: Path) -> None:
    # A workspace whose own hook does not add it (a plain Markdown reader) still gets the gallery, with two comments.
    page = render(tmp_path, "\n".join(verbatim(TILES)), [])
    assert "<!-- carddb:verbatim -->" in page.content and 'id="tom-amp-jerry"' in page.content
