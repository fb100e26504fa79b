"""``print_game_sheets``: what ``carddb build`` prints for a game, measured back from the PDFs in millimetres."""

from __future__ import annotations

import pdfplumber
import pytest
from pypdf import PdfReader

from carddb.paint.print_job import print_game_sheets

from .conftest import MM, without_faces

DECK = "legal-charizard-line"


@pytest.fixture(scope="module")
def printed(workspace, catalogue, tmp_path_factory):
    out = tmp_path_factory.mktemp("sheets")
    said: list[str] = []
    results = print_game_sheets(workspace, catalogue, "minibattle", out, say=said.append)
    return out / "minibattle", results, said


def test_every_deck_prints_as_fronts_and_as_duplex_with_the_layout_in_the_name(printed):
    folder, results, said = printed
    names = sorted(p.name for p in folder.glob("*.pdf"))
    decks = ["legal-basics-without-babies", "legal-charizard-line", "legal-mewtwo-level-200", "legal-pikachu-line",
             "legal-warn-evolution-line-missing-stage-1", "minibattle-all-cards"]
    assert names == sorted(f"{deck}-{layout}.pdf" for deck in decks for layout in ("fronts", "duplex-long"))
    assert said == []
    every = next(r.report for r in results if r.report.files[0].name == "minibattle-all-cards-duplex-long.pdf")
    assert (every.cards, every.backs) == (67, 67)
    assert all(not r.not_printed for r in results)
    # a simplex printer gets fronts only; the duplex file pairs each front page with its backs
    fronts = PdfReader(folder / f"{DECK}-fronts.pdf")
    duplex = PdfReader(folder / f"{DECK}-duplex-long.pdf")
    assert (len(fronts.pages), len(duplex.pages)) == (3, 6)  # the deck list, then 10 cards: 9 a page (+ backs)




def test_the_first_page_lists_the_deck_and_every_page_says_where_it_belongs(printed):
    folder, _results, _said = printed
    path = folder / f"{DECK}-duplex-long.pdf"
    with pdfplumber.open(path) as pdf:
        listing = pdf.pages[0].extract_text()
        assert listing.splitlines()[:2] == [DECK, "Pokemon Mini-Battle Card Game - deck list; the cards follow on "
                                                  "the next pages"]
        assert "Deck (10)" in listing and "3 Charmander" in listing.replace("  ", " ")
        assert (pdf.pages[1].extract_text() or "") == ""  # the empty page behind the list
        header = [" ".join(line.split()) for line in (pdf.pages[2].extract_text() or "").splitlines()[:1]]
        assert header == [f"{DECK} Pokemon Mini-Battle Card Game page 3 of 6, fronts"]
        assert "page 4 of 6, backs of page 3" in pdf.pages[3].extract_text()
        words = [w for w in pdf.pages[2].extract_words(extra_attrs=["size"]) if w["text"] in ("page", DECK)]
        assert all(abs(w["size"] - 7.0) < 0.01 for w in words)


def test_cards_have_bleed_and_crop_marks_on_fronts_and_backs(printed):
    folder, _results, _said = printed
    path = folder / f"{DECK}-duplex-long.pdf"
    boxes = PdfReader(path).pages
    with pdfplumber.open(without_faces(path)) as pdf:  # the marks are the page's own drawing
        for page, stored in zip(pdf.pages[2:4], boxes[2:4], strict=True):
            marks = [ln for ln in page.lines if min(ln["width"], ln["height"]) * MM < 0.01]
            # six vertical cut lines marked above and below the grid, six horizontal ones left and right of it
            assert len(marks) == 24, page.page_number
            lengths = sorted({round(max(ln["width"], ln["height"]) * MM, 2) for ln in marks})
            # beside the grid the 5 mm margin and the 11 mm the columns leave give room for 3 mm (a ruler's edge
            # finds a 3 mm mark; it found 1.5 mm ones, beside 1 mm of bleed, hard to line up with)
            assert lengths == [3.0, 4.0]
            trim = [float(v) * MM for v in stored["/TrimBox"]]
            bleed = [float(v) * MM for v in stored["/BleedBox"]]
            # 0.5 mm of bleed all round (the most that leaves the 3 mm marks beside the grid their room): a cut a
            # little off still lands on the card's own colour
            assert [round(b - t, 2) for b, t in zip(bleed, trim, strict=True)] == [-0.5, -0.5, 0.5, 0.5]


def test_backs_share_one_background_so_no_seam_shows_between_them(printed):
    folder, _results, _said = printed
    # the page's own drawing: a face is clipped to its bleed box, so none can draw a background under several
    with pdfplumber.open(without_faces(folder / f"{DECK}-duplex-long.pdf")) as pdf:
        back = pdf.pages[3]
        under = [r for r in back.rects if r["width"] * MM > 190 and r["height"] * MM > 260]
        assert len(under) == 1  # one rectangle under the nine backs and the gaps between them
        rect = under[0]
        assert (round(rect["width"] * MM, 2), round(rect["height"] * MM, 2)) == (192.0, 267.0)  # 3 x 64, 3 x 89
        front = pdf.pages[2]
        assert not [r for r in front.rects if r["width"] * MM > 190]  # fronts differ: no shared background


def test_a_raster_render_of_a_page_of_backs_shows_no_light_seam(printed, tmp_path):
    import shutil
    import subprocess

    from PIL import Image

    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    folder, _results, _said = printed
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-f", "4", "-l", "4", "-singlefile",
                    str(folder / f"{DECK}-duplex-long.pdf"), str(tmp_path / "back")], check=True)
    image = Image.open(tmp_path / "back.png").convert("RGB")
    k = 300 / 25.4
    ground = (0x1F, 0x4F, 0xA3)  # the minibattle back's background (templates/minibattle/back.toml)
    # where two backs meet (trim edges at 70.5 and 73.5 mm, their bleeds touching at 72 mm), top to bottom
    for x_mm in (70.0, 71.0, 72.0, 73.0):
        column = {image.getpixel((round(x_mm * k), round(y * k))) for y in range(20, 280)}
        assert all(max(abs(a - b) for a, b in zip(px, ground, strict=True)) <= 6 for px in column), (x_mm, column)


def test_an_added_card_changes_one_volume_of_the_sheet_of_every_card() -> None:
    """A large game's sheet of every card is cut where its cards' names say, not after a count: a card added in the
    middle changes the volume it lands in, and every other volume holds the same cards."""
    from carddb.core.cards.card import Card
    from carddb.paint.print_job import ALL_CARDS_VOLUME, card_volumes

    def card(name: str) -> Card:
        return Card(game="g", name=name, kind="unit", text="")

    cards = [card(f"Card {number:04d}") for number in range(1000)]
    before = card_volumes(cards)
    assert len(before) > 2 and all(len(volume) <= 2 * ALL_CARDS_VOLUME for volume in before)
    assert [c for volume in before for c in volume] == cards
    after = card_volumes([*cards[:500], card("Card 0500 and a half"), *cards[500:]])
    names = [[c.name for c in volume] for volume in after]
    assert sum(names_ not in [[c.name for c in v] for v in before] for names_ in names) == 1
