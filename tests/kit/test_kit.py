"""``carddb kit`` as a user gets it: the kit and its parts read back (text in reading order, fonts embedded, page
sizes in mm, contents numbers against the printed folios, bookmarks and links on their headings, the tuck box
measured, everything inside the printable area), and bad input or a failed self-check writing nothing."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from carddb.core.game.definition import load_game_text
from carddb.errors import DefinitionError, InputError, KitCheckError
from carddb.kit.booklet import booklet_order
from carddb.kit.make import KitOptions, KitResult, kit_of_game
from carddb.kit.tuckbox import TuckBox, tuck_box

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
FOLD = (0.122, 0.435, 0.698)
PARTS = ("cover", "checklist", "rulebook", "reference", "cards", "tuckbox", "pieces")


def pdftotext(path: Path, first: int | None = None, last: int | None = None) -> str:
    args = ["pdftotext"] + (["-f", str(first), "-l", str(last or first)] if first else []) + [str(path), "-"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module", params=["A4", "Letter"])
def kit(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """Mini-Battle's kit (its decks are ten cards: the quickest whole kit), written once per paper."""
    out = tmp_path_factory.mktemp(f"kit-{request.param}")
    REPORTED[request.param] = kit_of_game(REPO, "minibattle", out, KitOptions(paper=request.param),
                                          db=str(out / "none.db"))
    return request.param, out


REPORTED: dict[str, KitResult] = {}  # what kit_of_game said it wrote, by paper


@pytest.mark.slow  # makes whole kits
def test_the_kit_and_every_part_are_written_with_the_papers_size(kit):
    paper, out = kit
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["minibattle-kit.pdf", *(f"minibattle-{part}.pdf" for part in PARTS)])
    width, height = PAPERS[paper]
    sizes = {(round(float(p.mediabox.width) * MM, 1), round(float(p.mediabox.height) * MM, 1))
             for p in PdfReader(out / "minibattle-kit.pdf").pages}
    assert sizes <= {(width, height), (height, width)}  # the card sheets lie landscape when more cards fit
    total = sum(len(PdfReader(out / f"minibattle-{part}.pdf").pages) for part in PARTS)
    assert len(PdfReader(out / "minibattle-kit.pdf").pages) == total
    # the page counts the command reports (and the checklist prints) are the files' own
    assert REPORTED[paper].pages == total
    assert [(path.name, pages) for _, path, pages in REPORTED[paper].parts] == [
        (path.name, len(PdfReader(path).pages)) for _, path, _ in REPORTED[paper].parts]


@pytest.mark.slow  # makes whole kits
def test_every_font_is_embedded(kit):
    _, out = kit
    table = subprocess.run(["pdffonts", str(out / "minibattle-kit.pdf")], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    assert table, "the kit names no font"
    assert all(line.split()[-5] == "yes" for line in table), table  # the "emb" column


@pytest.mark.slow  # makes whole kits
def test_the_contents_give_the_page_each_heading_is_printed_on(kit):
    _, out = kit
    book = out / "minibattle-rulebook.pdf"
    listed = re.findall(r"^(\S.*?)(?: \.)+ (\d+)$", pdftotext(book, 1), flags=re.M)
    assert [title for title, _ in listed[:4]] == ["Source and credits", "Building a deck", "Level cap",
                                                  "Copies and Legendary Pokemon"]
    assert len(listed) >= 20
    for title, number in listed:
        page = pdftotext(book, int(number))
        assert title in words(page), f"{title!r} is not on page {number}"
        assert page.strip().splitlines()[-1] == number  # the folio printed at the foot


@pytest.mark.slow  # makes whole kits
def test_the_rulebook_reads_in_order_and_credits_the_authors(kit):
    _, out = kit
    book = out / "minibattle-rulebook.pdf"
    first = int(re.search(r"^Source and credits(?: \.)+ (\d+)$", pdftotext(book, 1), flags=re.M)[1])
    lines = [line.strip() for line in pdftotext(book, first, len(PdfReader(book).pages)).splitlines()]
    headings = ("Source and credits", "Building a deck", "Level cap", "Starting a game",
                "Battling and Waiting Pokemon", "Special abilities", "Playing online or at the table",
                "Pokemon Mini-Battle Card Game: deck construction", "What the checker reports")
    order = [lines.index(heading) for heading in headings]
    assert order == sorted(order)
    assert "Original rules by" in words(pdftotext(book, 1))
    cover = words(pdftotext(out / "minibattle-cover.pdf"))
    assert "Print-and-play kit" in cover and "Original rules by" in cover
    if (REPO / "site" / "node_modules" / "@iconify-json" / "game-icons").is_dir():  # the cards show its symbols
        assert "Symbols from game-icons.net by Lorc, Delapouite" in cover and "CC BY 3.0" in cover


@pytest.mark.slow  # makes whole kits
def test_bookmarks_and_links_land_on_their_headings(kit):
    _, out = kit
    reader = PdfReader(out / "minibattle-kit.pdf")
    top = [item.title for item in reader.outline if not isinstance(item, list)]
    assert top == ["Cover", "Checklist", "Rulebook", "Quick-reference cards", "Cards", "Tuck box", "Pieces"]
    def flat(items):
        for item in items:
            yield from flat(item) if isinstance(item, list) else [item]

    sections = list(flat(next(item for item in reader.outline if isinstance(item, list))))
    assert [s.title for s in sections][:2] == ["Source and credits", "Building a deck"]
    for section in sections:
        number = reader.get_destination_page_number(section)
        assert section.title in words(reader.pages[number].extract_text())
    pages = {page.indirect_reference.idnum: index for index, page in enumerate(reader.pages)}
    links = [a.get_object() for page in reader.pages for a in page.get("/Annots") or []
             if a.get_object().get("/Subtype") == "/Link" and "/Dest" in a.get_object()]
    assert len(links) >= 20
    headings = {(reader.get_destination_page_number(s), round(float(s.top))) for s in sections}
    for link in links:
        dest = link["/Dest"]
        assert (pages[dest[0].idnum], round(float(dest[3]))) in headings


@pytest.mark.slow  # makes whole kits
def test_the_tuck_box_measures_what_the_deck_needs(kit):
    _, out = kit
    with pdfplumber.open(out / "minibattle-tuckbox.pdf") as pdf:
        folds = [line for line in pdf.pages[0].lines
                 if tuple(round(v, 3) for v in line["stroking_color"]) == FOLD]
    xs = sorted({round(line["x0"] * MM, 1) for line in folds if abs(line["x0"] - line["x1"]) < 0.01})
    ys = sorted({round(line["top"] * MM, 1) for line in folds if abs(line["top"] - line["bottom"]) < 0.01})
    box = tuck_box(10, (63.0, 88.0))  # a Mini-Battle deck is 10 poker cards; penny sleeves, 160 g/m2
    assert [b - a for a, b in itertools.pairwise(xs)] == pytest.approx([box.width, box.depth, box.width],
                                                                               abs=0.15)
    assert [b - a for a, b in itertools.pairwise(ys)] == pytest.approx([box.depth, box.height, box.depth],
                                                                               abs=0.15)
    text = words(pdftotext(out / "minibattle-tuckbox.pdf"))
    assert "Holds 10 cards" in text and "Pokemon Mini-Battle Card Game" in text


@pytest.mark.slow  # makes whole kits
@pytest.mark.parametrize("part", ["cover", "checklist", "rulebook", "reference", "tuckbox", "pieces"])
def test_every_drawing_lies_inside_the_printable_area(kit, part):
    _, out = kit
    with pdfplumber.open(out / f"minibattle-{part}.pdf") as pdf:
        for page in pdf.pages:
            things = page.chars + page.lines + page.rects + page.curves
            assert things
            margin = 5 / MM - 0.5
            assert min(t["x0"] for t in things) >= margin
            assert max(t["x1"] for t in things) <= float(page.width) - margin
            assert min(t["top"] for t in things) >= margin
            assert max(t["bottom"] for t in things) <= float(page.height) - margin


@pytest.mark.slow  # makes whole kits
def test_the_checklist_names_every_part_and_how_to_print_it(kit):
    paper, out = kit
    text = words(pdftotext(out / "minibattle-checklist.pdf"))
    assert f"Print on {paper} at Actual size (100 %)" in text
    for part in PARTS[2:]:
        assert f"minibattle-{part}.pdf" in text
    assert "double-sided, flip on long edge" in text
    pieces = words(pdftotext(out / "minibattle-pieces.pdf"))
    assert "HP counters" in pieces and "50" in pieces
    reference = words(pdftotext(out / "minibattle-reference.pdf"))
    assert "1. Draw" in reference and "Opening hand: 3" in reference


@pytest.mark.slow  # makes whole kits
def test_the_booklet_is_imposed_two_up_for_saddle_stitching(tmp_path):
    kit_of_game(REPO, "shmod", tmp_path, KitOptions(paper="Letter", booklet=True), db=str(tmp_path / "none.db"))
    reading = PdfReader(tmp_path / "shmod-rulebook.pdf")
    assert {(round(float(p.mediabox.width) * MM, 1), round(float(p.mediabox.height) * MM, 1))
            for p in reading.pages} == {(139.7, 215.9)}  # 5.5 x 8.5 in
    booklet = PdfReader(tmp_path / "shmod-booklet.pdf")
    assert len(booklet.pages) == 2 * -(-len(reading.pages) // 4)
    assert {(round(float(p.mediabox.width) * MM, 1), round(float(p.mediabox.height) * MM, 1))
            for p in booklet.pages} == {(279.4, 215.9)}
    first = pdftotext(tmp_path / "shmod-booklet.pdf", 1)
    assert "Shmod" in first and "Contents" in first  # the title page sits right of the last (blank) page
    assert booklet.viewer_preferences["/Duplex"] == "/DuplexFlipShortEdge"


def test_booklet_order_nests_the_sheets():
    assert booklet_order(12) == [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]
    assert booklet_order(5) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def test_tuck_box_formulas_give_the_worked_example():
    box = tuck_box(54, (63.0, 88.0), stock="0.32", sleeves="penny")  # research/pnp-kit.md, section 2
    assert (round(box.width, 1), round(box.height, 1), round(box.depth, 1)) == (67.3, 92.3, 22.9)
    assert tuple(round(v, 1) for v in box.flat) == (192.4, 174.7)
    assert box.problems() == []


@pytest.mark.slow  # makes whole kits
def test_a_kit_that_fails_its_own_check_writes_nothing(tmp_path, monkeypatch):
    shifted = TuckBox.folds

    def one_mm_off(self):  # a drawing bug: every fold a millimetre to the right of the panel edges
        return [((a[0] + 1, a[1]), (b[0] + 1, b[1])) for a, b in shifted(self)]

    monkeypatch.setattr(TuckBox, "folds", one_mm_off)
    with pytest.raises(KitCheckError, match="tuck box: the vertical folds lie at"):
        kit_of_game(REPO, "minibattle", tmp_path / "out", db=str(tmp_path / "none.db"))
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.slow  # makes whole kits
def test_the_command_makes_the_kit_and_refuses_bad_input(cli, tmp_path, workspace_copy):
    out = tmp_path / "kit"
    result = cli("kit", "--game", "minibattle", "--out", str(out), "--paper", "letter", "--sleeves", "none")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{out / 'minibattle-kit.pdf'}: ")
    assert "checked" in result.stdout and "Tuck box: minibattle-tuckbox.pdf (1 page)" in result.stdout
    for args, said in ((["--paper", "A3"], "--paper must be A4 or Letter"),
                       (["--sleeves", "thick"], "--sleeves must be one of"),
                       (["--stock", "9"], "--stock 9 mm is not a card's thickness")):
        bad = tmp_path / "bad"
        result = cli("kit", "--game", "minibattle", "--out", str(bad), *args)
        assert result.exit_code == 2 and said in result.stderr
        assert not bad.exists()


@pytest.mark.parametrize(("table", "said"), [
    ("[components]\nboxes = 1\n", "components.boxes: unknown key"),
    ("[[components.pieces]]\ntemplate = \"spinner\"\nname = \"x\"\n", "must be one of counters, track"),
    ("[[components.pieces]]\ntemplate = \"counters\"\nname = \"x\"\n", "values: is required"),
    ("[[components.pieces]]\ntemplate = \"track\"\nname = \"x\"\nfrom = 0\nto = 5000\n", "from 2 to 200 boxes"),
    ("[components.reference]\nnumbers = [{ label = \"Life\", from = \"play.nothing\" }]\n",
     "'play.nothing' names no value"),
    ("[components.reference]\nnumbers = [{ label = \"Life\" }]\n", "give a value or where it comes from"),
])
def test_components_are_read_fail_closed(table, said):
    base = (REPO / "rules" / "shmod" / "game.toml").read_text(encoding="utf-8")
    base = base[:base.index("# The pieces of the print-and-play kit")]
    with pytest.raises(DefinitionError, match=re.escape(said)):
        load_game_text(base + table, "game.toml")


@pytest.mark.slow  # makes whole kits
def test_a_piece_naming_a_missing_rule_is_refused(tmp_path):
    root = tmp_path / "ws"
    for folder in ("rules/website", "templates/website"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    toml = root / "rules" / "website" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('rule = "winning"', 'rule = "no-such-section"'),
                    encoding="utf-8")
    with pytest.raises(InputError, match="no-such-section"):
        kit_of_game(root, "website", tmp_path / "out", db=str(tmp_path / "none.db"))
    assert not (tmp_path / "out").exists()


def test_a_rulebook_element_the_typesetter_does_not_know_is_refused(tmp_path):
    root = tmp_path / "ws"
    for folder in ("rules/website", "templates/website"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    book = root / "rules" / "website" / "rulebook.md"
    book.write_text(book.read_text(encoding="utf-8") + '\n<iframe src="https://example.org"></iframe>\n',
                    encoding="utf-8")
    with pytest.raises(InputError, match="cannot typeset a <iframe> element"):
        kit_of_game(root, "website", tmp_path / "out", db=str(tmp_path / "none.db"))
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # makes whole kits
def test_the_kits_check_reads_the_rulebook_pages_from_the_rulebook_it_copied(kit, tmp_path):
    from reportlab.lib.units import mm

    from carddb.catalogue.game_cards import game_and_cards
    from carddb.kit import style
    from carddb.kit.check import check_book
    from carddb.kit.rulebook import typeset_rulebook

    paper, out = kit
    game, cards = game_and_cards("minibattle", None, str(tmp_path / "none.db"), str(REPO))
    book = typeset_rulebook(REPO, game, cards, style.PAPERS[paper], margins=18 * mm, base_size=10)
    kit_pdf = (out / "minibattle-kit.pdf").read_bytes()
    assert (out / "minibattle-rulebook.pdf").read_bytes() == book.pdf
    assert check_book(kit_pdf, book.headings, toc=False, fold_rgb=FOLD, copied_from=(book.pdf, 2)) == []
    # told the rulebook starts a page later than it does, every bookmark lands where its heading is not printed
    wrong = check_book(kit_pdf, book.headings, toc=False, fold_rgb=FOLD, copied_from=(book.pdf, 3))
    assert wrong and all("which does not print that heading there" in line for line in wrong)
