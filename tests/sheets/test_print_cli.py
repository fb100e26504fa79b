"""``carddb print`` as a user runs it: a sample deck on A4 and Letter, duplex, measured back; bad input."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from .conftest import MM

REPO = Path(__file__).resolve().parents[2]
DECK = "rules/minibattle/decks/legal-charizard-line.txt"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace holding the bundled minibattle game, so raster faces are cached inside the test's folder."""
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "minibattle", root / "rules" / "minibattle")
    shutil.copytree(REPO / "templates" / "minibattle", root / "templates" / "minibattle")
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    return root


@pytest.fixture
def run(cli, ws, tmp_path):
    def go(*args: str):
        return cli(*args, root=str(ws), db=str(tmp_path / "none.db"))
    return go


def faces(pdf_path: Path, index: int) -> list[tuple[float, float, float, float]]:
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[index]
        return [(round(i["x0"] * MM, 2), round((float(page.height) - i["bottom"]) * MM, 2), round(i["width"] * MM, 2),
                 round(i["height"] * MM, 2)) for i in page.images]


@pytest.mark.parametrize(("paper", "size", "fronts", "backs"), [
    # A4 landscape 4 x 2 with 3 mm bleed; long-edge flip of a landscape sheet mirrors the rows.
    ("A4", (297.0, 210.0), [(10.5, 105.0), (79.5, 105.0), (148.5, 105.0), (217.5, 105.0), (10.5, 11.0),
                            (79.5, 11.0), (148.5, 11.0), (217.5, 11.0)],
     [(10.5, 11.0), (79.5, 11.0), (148.5, 11.0), (217.5, 11.0), (10.5, 105.0), (79.5, 105.0), (148.5, 105.0),
      (217.5, 105.0)]),
    # Letter landscape 3 x 2.
    ("Letter", (279.4, 215.9), [(36.2, 107.95), (105.2, 107.95), (174.2, 107.95), (36.2, 13.95), (105.2, 13.95),
                                (174.2, 13.95)],
     [(36.2, 13.95), (105.2, 13.95), (174.2, 13.95), (36.2, 107.95), (105.2, 107.95), (174.2, 107.95)]),
])
def test_a_sample_deck_prints_duplex_with_every_card_and_back_in_place(run, ws, tmp_path, paper, size, fronts, backs):
    out = tmp_path / "deck.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), "--paper", paper,
                 "--layout", "duplex-long", "--bleed", "--raster")
    assert result.exit_code == 0, result.stderr
    per = len(fronts)
    pages = 2 * -(-10 // per)
    assert result.stdout.startswith(f"{out}: {pages} pages, 10 cards, 10 backs, ")
    assert "10 card positions" not in result.stdout and "20 card positions within 0.05 mm" in result.stdout
    with pdfplumber.open(out) as pdf:
        assert [(round(float(p.width) * MM, 2), round(float(p.height) * MM, 2)) for p in pdf.pages] == [size] * pages
    assert [(x, y) for x, y, w, h in faces(out, 0)] == fronts
    assert [(x, y) for x, y, w, h in faces(out, 1)] == backs
    assert {(w, h) for _, _, w, h in faces(out, 0) + faces(out, 1)} == {(69.0, 94.0)}
    assert len(faces(out, pages - 2)) == len(faces(out, pages - 1)) == 10 - per * (pages // 2 - 1)


def test_a_profile_moves_only_the_backs(run, ws, tmp_path):
    profile = tmp_path / "laser.toml"
    profile.write_text("back_offset_mm = [1.25, -0.5]\n", encoding="utf-8")
    plain, moved = tmp_path / "plain.pdf", tmp_path / "moved.pdf"
    common = ["--game", "minibattle", "--layout", "duplex-short", "--raster", "--orientation", "portrait"]
    assert run("print", str(ws / DECK), *common, "--out", str(plain)).exit_code == 0
    assert run("print", str(ws / DECK), *common, "--out", str(moved), "--profile", str(profile)).exit_code == 0
    assert faces(moved, 0) == faces(plain, 0)
    shifted = [(round(x + 1.25, 2), round(y - 0.5, 2), w, h) for x, y, w, h in faces(plain, 1)]
    assert faces(moved, 1) == shifted


def card_names(pdf_path: Path) -> list[str]:
    """The first line of text on every front, in order (the card's name and level)."""
    names = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            for image in page.images:
                text = page.crop((image["x0"], image["top"], image["x1"], image["bottom"])).extract_text()
                names.append(text.splitlines()[0] if text else "")
    return names


def test_deck_counts_are_honoured_a_four_of_prints_four_times(run, ws, tmp_path):
    deck = tmp_path / "four.txt"
    deck.write_text("4 Charmander\n2 Pikachu\nSquirtle\n", encoding="utf-8")
    out = tmp_path / "four.pdf"
    result = run("print", str(deck), "--game", "minibattle", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert ", 7 cards, 0 backs," in result.stdout
    with pdfplumber.open(out) as pdf:
        text = pdf.pages[0].extract_text()
    assert text.count("Charmander Lv") == 4
    assert text.count("Pikachu Lv") == 2
    assert text.count("Squirtle Lv") == 1


def test_a_deck_with_problems_prints_what_it_can_and_lists_the_rest(run, ws, tmp_path):
    deck = tmp_path / "mixed.txt"
    deck.write_text("3 Charmander\n2 Missingno\n0 Pikachu\n1 Charmandr\n", encoding="utf-8")
    out = tmp_path / "mixed.pdf"
    result = run("print", str(deck), "--game", "minibattle", "--out", str(out))
    assert result.exit_code == 0
    assert ", 3 cards, " in result.stdout
    assert result.stderr.startswith("Not printed (3):\n")
    assert "  line 2: 2 Missingno: no such card" in result.stderr
    assert "line 3: " in result.stderr
    assert "  line 4: 1 Charmandr: no such card (did you mean Charmander" in result.stderr
    assert len(PdfReader(out).pages) == 1


def test_a_whole_game_and_a_set(run, ws, tmp_path):
    out = tmp_path / "all.pdf"
    result = run("print", "--game", "minibattle", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert ", 67 cards, " in result.stdout
    promo = tmp_path / "promo.pdf"
    result = run("print", "--game", "minibattle", "--set", "nope", "--out", str(promo))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: Pokemon") or "has no set 'nope'" in result.stderr
    assert not promo.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--card", "jumbo"], "Error: unknown card size 'jumbo'"),
    (["--paper", "B5"], "Error: unknown paper size 'B5'"),
    (["--layout", "zigzag"], "Error: unknown layout 'zigzag'"),
    (["--card", "tarot", "--paper", "100x100"], "Error: tarot (70 x 120 mm) does not fit on 100 x 100 mm paper: "
                                                 "it is 35 mm too tall for the printable area and its crop marks"),
    (["--margins", "150"], "Error: the margins (top 150, right 150, bottom 150, left 150 mm) leave no room on A4"),
    (["--grid", "3x3", "--paper", "Letter", "--bleed", "--orientation", "portrait"],
     "Error: Letter portrait cannot hold three rows of poker (63 x 88 mm): 3 rows need 282 mm (and 5 mm for the "
     "crop marks at the ends of the cut lines) and the printable height is 269.4 mm (17.6 mm short)"),
    (["--margins", "five"], "Error: margins 'five' are not numbers"),
    (["--max-mb", "0"], "Error: --max-mb must be more than 0"),
])
def test_bad_options_give_a_clear_message_and_write_nothing(run, ws, tmp_path, args, message):
    out = tmp_path / "bad.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]


def test_a_malformed_profile_is_refused_before_anything_is_written(run, ws, tmp_path):
    profile = tmp_path / "bad.toml"
    profile.write_text("back_offset_mm = [1, 'two']\n", encoding="utf-8")
    out = tmp_path / "deck.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), "--layout", "duplex-long",
                 "--profile", str(profile))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {profile}: back_offset_mm must be a number")
    assert not out.exists()


def test_missing_deck_and_nothing_printable(run, ws, tmp_path):
    result = run("print", str(tmp_path / "nope.txt"), "--game", "minibattle", "--out", str(tmp_path / "x.pdf"))
    missing = f"Error: {tmp_path / 'nope.txt'}: no such deck file"
    assert (result.exit_code, result.stderr.splitlines()[0]) == (2, missing)
    deck = tmp_path / "junk.txt"
    deck.write_text("2 Missingno\n", encoding="utf-8")
    result = run("print", str(deck), "--game", "minibattle", "--out", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: nothing to print; line 1: 2 Missingno: no such card")
    assert not (tmp_path / "x.pdf").exists()


def test_calibration_sheet_lines_sit_where_the_rulers_expect_them(run, tmp_path):
    out = tmp_path / "cal.pdf"
    result = run("print", "calibration", "--out", str(out), "--paper", "Letter")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{out}: 2 pages (Letter, flip on the long edge).")
    with pdfplumber.open(out) as pdf:
        front = pdf.pages[0]
        index_lines = [ln for ln in front.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and round(ln["height"] * MM) == 72]
        verticals = sorted((round(ln["x0"] * MM, 2), round((float(front.height) - ln["bottom"]) * MM, 2))
                           for ln in index_lines)
        assert [round(float(front.width) * MM, 1), round(float(front.height) * MM, 1)] == [215.9, 279.4]
    # The top and bottom index lines: at the page's centre line, 72 mm long, centred 62 mm from top and bottom.
    assert verticals == [(107.95, 26.0), (107.95, 181.4)]


def test_profile_from_readings(run, tmp_path):
    out = tmp_path / "printer.toml"
    result = run("print", "profile", "--top", "1", "--bottom", "1", "--left", "-0.5", "--right", "-0.5",
                 "--out", str(out), "--name", "laser")
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8") == ("# carddb printer profile (see 'carddb print calibration')\n"
                                               'name = "laser"\nback_offset_mm = [1, -0.5]\nback_rotation_deg = 0\n')
    result = run("print", "profile", "--top", "9", "--bottom", "1", "--left", "0", "--right", "0",
                 "--out", str(tmp_path / "p2.toml"))
    assert result.exit_code == 2 and "the top reading 9 is off the ruler" in result.stderr
    assert not (tmp_path / "p2.toml").exists()


@pytest.mark.skipif(shutil.which("qpdf") is None or shutil.which("pdftoppm") is None,
                    reason="qpdf and poppler-utils are not installed")
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_sample_deck_opens_without_warnings_in_qpdf_and_poppler(run, ws, tmp_path, paper):
    import subprocess

    out = tmp_path / "deck.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), "--paper", paper,
                 "--layout", "duplex-short", "--bleed")
    assert result.exit_code == 0, result.stderr
    checked = subprocess.run(["qpdf", "--check", str(out)], capture_output=True, text=True)
    assert (checked.returncode, checked.stderr) == (0, "")
    assert "No syntax or stream encoding errors found" in checked.stdout
    rendered = subprocess.run(["pdftoppm", "-r", "20", "-png", str(out), str(tmp_path / "page")],
                              capture_output=True, text=True)
    assert (rendered.returncode, rendered.stderr) == (0, "")
    assert len(list(tmp_path.glob("page-*.png"))) == len(PdfReader(out).pages)


def test_a_fold_sheet_keeps_a_fold_margin_and_bleeds_both_halves(run, ws, tmp_path):
    out = tmp_path / "fold.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), "--layout", "fold", "--raster")
    assert result.exit_code == 0, result.stderr
    placed = faces(out, 0)
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        width = float(page.width) * MM
        folds = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and abs(ln["x0"] * MM - width / 2) < 0.01]
        dashed = [ln for ln in folds if ln.get("dash") and ln["dash"][0]]
    assert len(folds) == len(dashed) == 1  # one dashed fold line, down the middle, crossing no card
    left = [f for f in placed if f[0] + f[2] <= width / 2]
    right = [f for f in placed if f[0] >= width / 2]
    assert len(left) == len(right) == len(placed) // 2 == 4  # A4 landscape: 2 x 2 a half
    # every face is its bleed box (63 x 88 mm plus the automatic 1.5 mm all round), 3 mm clear of the fold
    assert {(f[2], f[3]) for f in placed} == {(66.0, 91.0)}
    assert round(width / 2 - max(f[0] + f[2] for f in left), 2) == 3.0
    assert round(min(f[0] for f in right) - width / 2, 2) == 3.0
    # each back is the mirror image of its front across the fold
    assert sorted(round(width - f[0] - f[2], 2) for f in right) == sorted(f[0] for f in left)


def _with_art(ws: Path, size: tuple[int, int]) -> None:
    """Give Charmander an art file of ``size`` pixels."""
    from PIL import Image

    (ws / "rules" / "minibattle" / "art").mkdir()
    Image.new("RGB", size, (200, 90, 30)).save(ws / "rules" / "minibattle" / "art" / "charmander.png")
    cards = ws / "rules" / "minibattle" / "cards" / "base.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("  - name: Charmander\n", "  - name: Charmander\n    art: art/charmander.png\n", 1),
                     encoding="utf-8")


def test_art_coarser_than_the_print_is_named_with_its_pixels_and_dpi_and_prints_anyway(run, ws, tmp_path):
    _with_art(ws, (120, 90))
    out = tmp_path / "soft.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "charmander.png" in line]
    assert len(warnings) == 1, result.stderr  # three Charmanders, one face: said once
    found = re.fullmatch(r"warning: Charmander: its art charmander\.png gives (\d+) x (\d+) px to a ([\d.]+) x "
                         r"([\d.]+) mm box, (\d+) dpi against the 300 dpi the print asks for \(it needs (\d+) x "
                         r"(\d+) px\)", warnings[0])
    assert found, warnings[0]
    px_w, px_h, box_w, box_h, dpi = int(found[1]), int(found[2]), float(found[3]), float(found[4]), int(found[5])
    assert px_w <= 120 and px_h <= 90 and (px_w == 120 or px_h == 90)  # the part covering the box
    assert abs(dpi - min(px_w / (box_w / 25.4), px_h / (box_h / 25.4))) <= 1
    assert dpi < 100
    with pdfplumber.open(out) as pdf:  # printed anyway, the art on its cards
        assert sum(len(p.images) for p in pdf.pages) >= 3


def test_strict_refuses_coarse_art_with_one_error_line_and_writes_nothing(run, ws, tmp_path):
    _with_art(ws, (120, 90))
    out = tmp_path / "strict.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), "--strict")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: Charmander: its art charmander.png gives "), lines
    assert lines[0].endswith("; --strict prints no art under the target")
    assert not out.exists() and list(tmp_path.glob("*.pdf")) == []


def test_art_fine_enough_for_the_print_says_nothing(run, ws, tmp_path):
    _with_art(ws, (1200, 1200))
    out = tmp_path / "sharp.pdf"
    result = run("print", str(ws / DECK), "--game", "minibattle", "--out", str(out), "--strict")
    assert result.exit_code == 0, result.stderr
    assert "charmander.png" not in result.stderr
