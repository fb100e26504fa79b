"""The deck builder in headless Chromium, as a player uses it: build a legal sample deck of each deck game from
the gallery, break it and see the problem beside the card, share it by link into a fresh browser, download it as
LackeyCCG .dek and Apprentice .dec and read them back with `carddb deck check`, and print it in the browser to a
PDF whose cards are where and as large as the command line's. Nothing leaves 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from typer.testing import CliRunner

from carddb.cli.main import app
from carddb.core.checker.check import CardIndex
from carddb.core.decks.parse import parse_deck
from carddb.workspace import Workspace
from tests.site.conftest import BuiltSite, open_holding_script, open_visit

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72
DECK_GAMES = ["minibattle", "shmod", "ssbm", "website"]


def cli(db: str, *args: str) -> Any:
    return CliRunner().invoke(app, ["--root", str(REPO), "--db", db, *args], catch_exceptions=False)


def legal_sample(catalogue: Any, db: str, game_id: str) -> tuple[Path, list[tuple[str, str, int]]]:
    """The first legal sample deck of the game, as (zone, card key, copies) in file order."""
    game = catalogue.game(game_id)
    index = CardIndex(game, catalogue.cards(game_id))
    for path in Workspace(REPO).deck_files(game_id):
        if not path.name.startswith("legal-") or path.suffix != ".txt":
            continue
        result = json.loads(cli(db, "deck", "check", str(path), "--game", game_id, "--json").stdout)
        if not result["legal"] or result["problems"]:
            continue
        deck = parse_deck(path.read_text(encoding="utf-8"), game, path.name)
        entries: dict[tuple[str, str], int] = {}
        for entry in deck.entries:
            key = index.names.resolve(entry.name, entry.qualifier, entry.set_hint).card.key
            entries[(entry.zone, key)] = entries.get((entry.zone, key), 0) + entry.count
        return path, [(zone, key, n) for (zone, key), n in entries.items()]
    raise AssertionError(f"{game_id} has no legal sample deck without warnings")


def shown_deck(page: Any) -> list[tuple[str, str, int]]:
    return [(tile.get_attribute("data-zone"), tile.get_attribute("data-key"), int(tile.get_attribute("data-count")))
            for tile in page.locator("[data-deck-view] li.carddb-deckcard").all()]


def wait_verdict(page: Any, *verdicts: str) -> str:
    page.wait_for_function("(wanted) => wanted.includes(document.querySelector('[data-builder-result]')"
                           "?.dataset.verdict)", arg=list(verdicts))
    return page.locator("[data-builder-result]").get_attribute("data-verdict")


def build_from_gallery(page: Any, site: BuiltSite, game_id: str, entries: list[tuple[str, str, int]]) -> None:
    page.goto(f"{site.url}games/{game_id}/cards/")
    page.wait_for_selector("[data-card-gallery][data-mounted]", state="attached")
    page.wait_for_selector("[data-deck-bar][data-verdict]", state="attached")
    for zone, key, count in entries:
        button = page.locator(f"li.carddb-card[data-key={json.dumps(key)}] button[data-add={json.dumps(zone)}]")
        button.click(click_count=count)  # a reader's quick clicks: one click event each, the button staying put
    bar = page.locator("[data-deck-bar]")
    page.wait_for_function("() => ['legal', 'illegal'].includes(document.querySelector('[data-deck-bar]')"
                           ".dataset.verdict)")
    assert bar.get_attribute("data-verdict") == "legal", bar.inner_text()
    bar.locator("a").click()  # into the deck builder
    page.wait_for_function("() => document.querySelector('article h1')?.textContent.includes('deck builder')")


@pytest.mark.parametrize("game_id", DECK_GAMES)
def test_a_deck_built_from_the_gallery_is_checked_shared_and_downloaded(chromium: Any, site: BuiltSite, catalogue: Any,
                                                                       loaded_db: str, game_id: str,
                                                                       tmp_path: Path) -> None:
    if game_id not in site.report.games:
        pytest.skip(f"{game_id} is not in the test catalogue")
    sample, entries = legal_sample(catalogue, loaded_db, game_id)
    visit = open_visit(chromium, site)
    page = visit.page
    try:
        build_from_gallery(page, site, game_id, entries)
        assert wait_verdict(page, "legal", "illegal") == "legal", page.locator("[data-builder-result]").inner_text()
        assert sorted(shown_deck(page)) == sorted(entries), sample.name
        # the check's time is shown (bench/bench_site.py measures it against the 20 ms target: no timing here)
        assert float(page.locator("[data-builder-result]").get_attribute("data-check-ms")) >= 0

        # Break it: one copy more than the first card's limit, added in the builder.
        game = catalogue.game(game_id)
        index = CardIndex(game, catalogue.cards(game_id))
        by_key = {c.key: c for c in catalogue.cards(game_id)}
        zone, key, count = next(e for e in entries if e[0] in game.copies.zones
                                and index.facts(by_key[e[1]]).limit is not None)
        limit = index.facts(by_key[key]).limit
        tile = page.locator(f"[data-deck-view] li.carddb-deckcard[data-zone={json.dumps(zone)}]"
                            f"[data-key={json.dumps(key)}]")
        for _ in range(limit + 1 - count):
            tile.locator("button[data-add]").click()
        wait_verdict(page, "illegal")
        problem = tile.locator("li.carddb-problem[data-code=copy-limit]")
        assert problem.count() == 1
        assert str(limit + 1) in problem.locator(".carddb-message").inner_text()
        assert problem.locator("a").get_attribute("href").startswith(f"{site.url}games/{game_id}/rulebook/#")
        broken = shown_deck(page)
        codes = page.locator("[data-builder-result]").get_attribute("data-codes")

        # Share it: the link alone brings the same deck into a browser that never saw it.
        page.click("button[data-action=share]")
        link = page.locator("[data-deck-builder]").get_attribute("data-share-link")
        assert "#deck=" in link
        other = open_visit(chromium, site)
        try:
            other.page.goto(link)
            wait_verdict(other.page, "illegal")
            assert shown_deck(other.page) == broken
            assert other.page.locator("[data-builder-result]").get_attribute("data-codes") == codes
            assert other.external == []
        finally:
            other.page.context.close()

        # Download it in the command line's formats and read each back with the command line.
        for fmt, suffix in (("lackey", ".dek"), ("apprentice", ".dec"), ("text", ".txt")):
            with page.expect_download() as download:
                page.select_option("select[name=download]", fmt)
            saved = tmp_path / download.value.suggested_filename
            download.value.save_as(saved)
            assert saved.suffix == suffix
            checked = json.loads(cli(loaded_db, "deck", "check", str(saved), "--game", game_id, "--json").stdout)
            assert not checked["legal"]
            assert ",".join(sorted(p["code"] for p in checked["problems"])) == codes, (fmt, checked["problems"])
            assert sum(checked["zones"].values()) == sum(n for _, _, n in broken)
        assert visit.external == [] and visit.dialogs == []
    finally:
        page.context.close()


def test_a_deck_file_chosen_before_the_builder_starts_is_opened(chromium: Any, site: BuiltSite, catalogue: Any,
                                                                loaded_db: str) -> None:
    # The builder's script is imported once the page has loaded, and its controls are in the page before: a file
    # chosen that early had no listener, and is opened when the builder starts.
    sample, entries = legal_sample(catalogue, loaded_db, "shmod")
    visit = open_visit(chromium, site)
    page = visit.page
    try:
        release = open_holding_script(page, f"{site.url}games/shmod/checker/", "builder.js")
        page.set_input_files("input[name=deck-file]", str(sample))
        assert page.locator("[data-deck-builder]").get_attribute("data-mounted") is None
        release()
        page.wait_for_selector("[data-deck-builder][data-ready]", state="attached")
        assert wait_verdict(page, "legal", "illegal") == "legal"
        assert sorted(shown_deck(page)) == sorted(entries)
    finally:
        page.context.close()

def rects_mm(pdf_path: Path, page_index: int = 0) -> tuple[tuple[float, float], list[tuple[float, ...]]]:
    """The page size and every rectangle wider than 20 mm, in millimetres from the lower left corner."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[page_index]
        rects = sorted((round(r["x0"] * MM, 2), round((float(page.height) - r["bottom"]) * MM, 2),
                        round(r["width"] * MM, 2), round(r["height"] * MM, 2))
                       for r in page.rects if r["width"] * MM > 20)
        return (round(float(page.width) * MM, 1), round(float(page.height) * MM, 1)), rects


def test_a_deck_prints_in_the_browser_as_the_command_line_prints_it(chromium: Any, site: BuiltSite, catalogue: Any,
                                                                    loaded_db: str, tmp_path: Path) -> None:
    game_id = "shmod"
    sample, entries = legal_sample(catalogue, loaded_db, game_id)
    visit = open_visit(chromium, site)
    page = visit.page
    try:
        page.goto(f"{site.url}games/{game_id}/checker/")
        page.wait_for_selector("[data-deck-builder][data-ready] [data-builder-engine][data-state=ready]")
        page.set_input_files("input[name=deck-file]", str(sample))
        assert wait_verdict(page, "legal", "illegal") == "legal"
        summary = page.locator("details[data-print] summary")
        summary.scroll_into_view_if_needed()
        on_page = "(s) => [s.getBoundingClientRect().top + scrollY, scrollY]"  # where it is in the page, not the view
        top, _ = summary.evaluate(on_page)
        page.wait_for_function("() => [...document.querySelectorAll('[data-deck-view] img')].every((i) => i.complete)")
        now, scrolled = summary.evaluate(on_page)
        # Each face's box is kept for it, and the deck is rendered once for its verdict: the summary stays where the
        # click aims (it moved 210 px when a second check re-rendered the deck). A few pixels are left unexplained.
        assert abs(now - top) < 10, (top, now, scrolled)
        summary.click()
        assert page.locator("details[data-print]").evaluate("(d) => d.open")  # the click reached the summary
        page.select_option("[data-print] select[name=paper]", "letter")
        page.fill("[data-print] input[name=bleed]", "2")
        page.click("button[data-action=print]")
        page.wait_for_function("() => document.querySelector('[data-deck-builder]').dataset.printed")
        assert page.locator("[data-deck-builder]").get_attribute("data-printed") == "done", \
            page.locator("[data-print-status]").inner_text()
        summary = page.locator(".carddb-print-summary").inner_text()
        assert "checked: page sizes" in summary and f"{sum(n for _, _, n in entries)} cards" in summary
        with page.expect_download() as download:
            page.click("a[data-pdf-link]")
        in_browser = tmp_path / "browser.pdf"
        download.value.save_as(in_browser)
        assert visit.external == []
    finally:
        page.context.close()
    on_cli = tmp_path / "cli.pdf"
    result = cli(loaded_db, "print", str(sample), "--game", game_id, "--out", str(on_cli), "--paper", "Letter",
                 "--bleed", "2")
    assert result.exit_code == 0, result.stdout + result.stderr
    size, rects = rects_mm(in_browser)
    assert sorted(size) == [215.9, 279.4]  # Letter, turned as the command line turns it (most cards a page)
    assert (size, rects) == rects_mm(on_cli)
    width, height = catalogue.game(game_id).card_size_mm
    bleed_boxes = [r for r in rects if abs(r[2] - (width + 4)) < 0.05 and abs(r[3] - (height + 4)) < 0.05]
    assert len(bleed_boxes) >= 4  # each card drawn at its size plus 2 mm of bleed a side
    with pdfplumber.open(in_browser) as pdf, pdfplumber.open(on_cli) as reference:
        assert len(pdf.pages) == len(reference.pages)


def test_the_untouched_print_panel_gives_the_bytes_of_carddb_print(chromium: Any, site: BuiltSite, catalogue: Any,
                                                                    loaded_db: str, tmp_path: Path) -> None:
    """One set of defaults: the panel as it opens (automatic bleed, A4, fronts, marks) and `carddb print DECK`
    without options make the same PDF of the same deck (the builder's own deck list download)."""
    game_id = "shmod"
    sample, _entries = legal_sample(catalogue, loaded_db, game_id)
    visit = open_visit(chromium, site)
    page = visit.page
    try:
        page.goto(f"{site.url}games/{game_id}/checker/")
        page.wait_for_selector("[data-deck-builder][data-ready] [data-builder-engine][data-state=ready]")
        page.set_input_files("input[name=deck-file]", str(sample))
        assert wait_verdict(page, "legal", "illegal") == "legal"
        with page.expect_download() as listing:
            page.select_option("select[name=download]", "text")
        page.click("details[data-print] summary")
        assert page.locator("[data-print] input[name=bleed]").input_value() == ""  # empty: the automatic bleed
        page.click("button[data-action=print]")
        page.wait_for_function("() => document.querySelector('[data-deck-builder]').dataset.printed")
        assert page.locator("[data-deck-builder]").get_attribute("data-printed") == "done", \
            page.locator("[data-print-status]").inner_text()
        with page.expect_download() as download:
            page.click("a[data-pdf-link]")
        in_browser = tmp_path / "browser.pdf"
        download.value.save_as(in_browser)
        deck_file = tmp_path / f"{Path(download.value.suggested_filename).stem}.txt"  # the name the PDF carries
        listing.value.save_as(deck_file)
        assert visit.external == []
    finally:
        page.context.close()
    on_cli = tmp_path / "cli.pdf"
    result = cli(loaded_db, "print", str(deck_file), "--game", game_id, "--out", str(on_cli))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert in_browser.read_bytes() == on_cli.read_bytes()
