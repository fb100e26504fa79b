"""The built site's new pages read back: a page per card with its legality from the checker, a gallery and
controls left out of the site search (card pages in it), sample decks without escaped codes, swatches and a card
anatomy in the rulebooks, card backs and pitches on the home page; and the server's cache lifetimes and
precompressed engine files."""

from __future__ import annotations

import gzip
import json
import re
import urllib.request
from html import escape as html_escape
from pathlib import Path

from carddb.catalogue.api import Catalogue
from carddb.core.cards.slugs import card_stems
from carddb.core.checker.check import CardIndex
from tests.site.conftest import FACES_GAME, HOSTILE_GAME, HOSTILE_NAME, BuiltSite
from tests.site.htmlread import table


def search_index(site: BuiltSite) -> list[dict]:
    return json.loads((site.folder / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def stems_on_the_site(catalogue: Catalogue, game_id: str) -> dict[str, str]:
    """Each card's file-name stem as the site names it: over the game's cards as the site has them (the
    test's card of markup among shmod's)."""
    keys = [card.key for card in catalogue.cards(game_id)]
    return card_stems([*keys, HOSTILE_NAME] if game_id == HOSTILE_GAME else keys)


def test_every_card_has_a_page_with_its_legality_from_the_checker(site: BuiltSite, catalogue: Catalogue) -> None:
    for game_id in site.report.games:
        game = catalogue.game(game_id)
        cards = catalogue.cards(game_id)
        stems = stems_on_the_site(catalogue, game_id)
        pages = {p.name for p in (site.folder / "games" / game_id / "cards").iterdir() if p.is_dir()}
        assert {stems[c.key] for c in cards} <= pages
        assert len(pages) == len(cards) + (game_id == HOSTILE_GAME)  # the test's card of markup has one too
        if not game.deck_game:
            continue
        for card in cards[:6]:
            html = site.html(f"games/{game_id}/cards/{stems[card.key]}.md")
            assert "<h1" in html and html_escape(card.key, quote=False) in html
            rows = table(html, "legality")
            assert [r[0] for r in rows] == [f.label for f in game.formats.values()]
            for row, format_id in zip(rows, game.formats, strict=True):
                facts = CardIndex(game.with_format(format_id), cards).facts(card)
                assert row[1].split(";")[0] == ("no limit" if facts.limit is None else str(facts.limit))
                assert row[2] == (facts.source or "—")
                assert row[3] == " or ".join(z.label for z in game.zones.values() if z.id in facts.zones) or \
                    row[3].startswith("no zone")


def test_mario_s_extra_shows_on_the_mushroom_page(site: BuiltSite, catalogue: Catalogue) -> None:
    if "ssbm" not in site.report.games:
        return
    mushroom = next(c for c in catalogue.cards("ssbm") if c.name == "Mushroom")
    rows = table(site.html(f"games/ssbm/cards/{stems_on_the_site(catalogue, 'ssbm')[mushroom.key]}.md"), "legality")
    assert "+1 when Mario is in the Character" in rows[0][1]


def test_site_search_has_card_names_and_texts_not_form_controls(site: BuiltSite, catalogue: Catalogue) -> None:
    docs = search_index(site)
    texts = " ".join(d["text"] for d in docs)
    assert "Kind all" not in texts and "Search Kind" not in texts and "(none)Bowser" not in texts
    assert not any(d["location"].endswith("/cards/") for d in docs)  # the galleries: their cards' pages instead
    card = catalogue.cards("shmod")[0]
    stem = stems_on_the_site(catalogue, "shmod")[card.key]
    found = [d for d in docs if d["location"] == f"games/shmod/cards/{stem}/"]
    assert found and found[0]["title"] == card.key and card.text.split(".")[0] in found[0]["text"]


def test_sample_deck_pages_show_problem_codes_as_written(site: BuiltSite) -> None:
    for game_id in site.report.games:
        path = site.folder / "games" / game_id / "decks" / "index.html"
        if path.is_file():
            html = path.read_text(encoding="utf-8")
            assert "\\-" not in html
    assert "<code>copy-limit</code>" in site.html("games/shmod/decks.md")


def test_colour_tables_have_swatches_in_the_templates_colours(site: BuiltSite) -> None:
    html = site.html("games/shmod/rulebook.md")
    swatches = dict(re.findall(r"<td>(\w[\w-]*)</td>\s*<td><span class=\"carddb-swatch\" "
                               r"style=\"--swatch:(#[0-9a-f]{6})", html))
    assert swatches["FIRE"] == "#c8322a" and swatches["WATER"] == "#2a62b8" and len(swatches) == 8
    minibattle = site.html("games/minibattle/rulebook.md")
    assert "not made yet" in minibattle
    assert not re.search(r"carddb-swatch[^<]*</span>not made yet", minibattle)


def test_card_anatomy_is_a_face_with_numbered_parts(site: BuiltSite) -> None:
    html = site.html(f"games/{FACES_GAME}/rulebook.md")
    figure = re.search(r'<figure class="carddb-anatomy-figure">.*?</figure>', html, re.S)
    assert figure is not None
    marks = re.findall(r'class="carddb-callout" style="left:[\d.]+%;top:[\d.]+%;width:[\d.]+%;height:[\d.]+%"',
                       figure.group(0))
    legend = re.findall(r"<li>([^<]+)</li>", figure.group(0))
    assert len(marks) == len(legend) >= 5 and "LEVEL" in legend and "TYPE" in legend
    src = re.search(r'<img src="([^"]+)"', figure.group(0)).group(1)
    assert (site.folder / "games" / FACES_GAME / "rulebook" / src).resolve().read_bytes().startswith(b"\x89PNG")


def test_home_page_has_each_games_back_and_pitch(site: BuiltSite, catalogue: Catalogue, repo_root: Path) -> None:
    html = site.html("index.md")
    for game_id in site.report.games:
        name = catalogue.game(game_id).name
        assert f"{name} card back" in html or game_id != FACES_GAME
    assert "Shmod is a fan-made trading card game that plays much like Yu-Gi-Oh!, with one big difference" in html
    assert (site.folder / "assets" / "faces" / FACES_GAME / "back.png").is_file()


def test_construction_tables_speak_plain_words(site: BuiltSite) -> None:
    html = site.html("games/shmod/construction.md")
    assert "whose Categories is" not in html
    assert "Fusion/<wbr>Transformation Stack" in html


def test_engine_files_are_cached_for_good_and_sent_compressed(site: BuiltSite) -> None:
    manifest = json.loads((site.folder / "assets" / "carddb" / "manifest.json").read_text())
    wasm = f"{site.url}{manifest['pyodide']}pyodide.asm.wasm"
    request = urllib.request.Request(wasm, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        body = response.read()
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.headers["Content-Type"] == "application/wasm"
    raw = (site.folder / manifest["pyodide"] / "pyodide.asm.wasm").read_bytes()
    assert gzip.decompress(body) == raw and len(body) < len(raw) * 0.5
    for path in ("assets/carddb/manifest.json", "games/shmod/checker/"):
        with urllib.request.urlopen(site.url + path) as response:
            assert response.headers["Cache-Control"] == "no-cache"
    with urllib.request.urlopen(site.url + manifest["package"]) as response:
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    headers = (site.folder / "_headers").read_text()
    assert "/assets/pyodide/*\n  Cache-Control: public, max-age=31536000, immutable" in headers
