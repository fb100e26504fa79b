"""The written PDF, measured back with pdfplumber, pypdf, qpdf and poppler: where the plan says, to 0.05 mm."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from carddb.errors import InputError, LimitError, OutputError
from carddb.files.replacing import new_file_mode
from carddb.layout.impose import Margins, SheetSpec, paper_size, plan_sheets
from carddb.paint.sheets import PrintJob, write_sheets

from .conftest import MM, assert_near, measured, stand_in_job


def expected_fronts(plan, page_index):
    page = plan.pages[page_index]
    return [(p.bleed_rect.x, p.bleed_rect.y, p.bleed_rect.w, p.bleed_rect.h) for p in page.placements]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize(("bleed", "gutter"), [(0, 0), (3, 0), (0, 4), (3, 2)])
def test_every_vector_card_is_where_the_plan_says(tmp_path, paper, bleed, gutter):
    plan = plan_sheets(SheetSpec(paper=paper_size(paper), bleed=bleed, gutter=gutter), 11)
    out = tmp_path / "deck.pdf"
    report = write_sheets(stand_in_job(plan), out)
    assert report.files == [out] and report.cards == 11
    assert out.stat().st_mode & 0o777 == new_file_mode()  # not the private mode of a temporary file
    for index in range(len(plan.pages)):
        assert_near(measured(out, index, raster=False), expected_fronts(plan, index))


def test_every_card_position_in_mm_on_a4_with_bleed(tmp_path):
    """The numbers a ruler would give: A4 landscape, 4 x 2 poker cards with 3 mm bleed."""
    plan = plan_sheets(SheetSpec(bleed=3), 8)
    out = tmp_path / "deck.pdf"
    write_sheets(stand_in_job(plan), out)
    found = [tuple(round(v, 2) for v in box) for box in measured(out, 0, raster=False)]
    assert found == [(10.5, 105.0, 69.0, 94.0), (79.5, 105.0, 69.0, 94.0), (148.5, 105.0, 69.0, 94.0),
                     (217.5, 105.0, 69.0, 94.0), (10.5, 11.0, 69.0, 94.0), (79.5, 11.0, 69.0, 94.0),
                     (148.5, 11.0, 69.0, 94.0), (217.5, 11.0, 69.0, 94.0)]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_every_raster_card_is_where_the_plan_says_at_300_dpi(tmp_path, faces_dir, paper):
    plan = plan_sheets(SheetSpec(paper=paper_size(paper), bleed=3, layout="duplex-long"), 10)
    out = tmp_path / "deck.pdf"
    report = write_sheets(stand_in_job(plan, raster=True, folder=faces_dir), out)
    for index in range(len(plan.pages)):
        assert_near(measured(out, index, raster=True), expected_fronts(plan, index))
    with pdfplumber.open(out) as pdf:
        image = pdf.pages[0].images[0]
        assert round(image["srcsize"][0] / (image["width"] / 72)) == 300
    assert round(report.checks[0].min_dpi) == 300


def physical_mirror(box, page_w, page_h, flip):
    """Where a box on the front lies on the back page when the sheet turns over about ``flip``'s edge."""
    x, y, w, h = box
    portrait = page_w <= page_h
    if portrait == (flip == "long"):
        return (page_w - x - w, y, w, h)
    return (x, page_h - y - h, w, h)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("bleed", [0, 3])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
def test_every_back_is_exactly_behind_its_front(tmp_path, faces_dir, paper, flip, bleed, offset):
    spec = SheetSpec(paper=paper_size(paper), bleed=bleed, layout=f"duplex-{flip}", back_offset=offset,
                     margins=Margins.parse("5,5,12,5"))
    plan = plan_sheets(spec, 13)
    out = tmp_path / "duplex.pdf"
    write_sheets(stand_in_job(plan, raster=True, folder=faces_dir), out)
    with pdfplumber.open(out) as pdf:
        sizes = [(float(p.width) * MM, float(p.height) * MM) for p in pdf.pages]
    assert len(sizes) == 2 * math.ceil(13 / plan.per_sheet)
    for sheet in range(0, len(sizes), 2):
        page_w, page_h = sizes[sheet]
        fronts = measured(out, sheet, raster=True)
        backs = measured(out, sheet + 1, raster=True)
        want = [physical_mirror(box, page_w, page_h, flip) for box in fronts]
        want = [(x + offset[0], y + offset[1], w, h) for x, y, w, h in want]
        assert_near(backs, want)


def test_a_profile_rotation_turns_the_backs_about_the_page_centre(tmp_path, faces_dir):
    spec = SheetSpec(layout="duplex-long", back_rotation=0.5, back_offset=(0.3, 0.2))
    plan = plan_sheets(spec, 9)
    out = tmp_path / "turned.pdf"
    write_sheets(stand_in_job(plan, raster=True, folder=faces_dir), out)
    fronts = measured(out, 0, raster=True)
    backs = measured(out, 1, raster=True)
    theta = math.radians(0.5)
    for front, back in zip(fronts, backs, strict=True):
        x, y, w, h = physical_mirror(front, 210, 297, "long")
        corners = []
        for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            dx, dy = cx - 105, cy - 148.5
            corners.append((105 + dx * math.cos(theta) - dy * math.sin(theta) + 0.3,
                            148.5 + dx * math.sin(theta) + dy * math.cos(theta) + 0.2))
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        assert_near([back], [(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))])


@pytest.mark.parametrize(("bleed", "gutter"), [(0, 0), (3, 0), (0, 6), (2, 8)])
def test_crop_marks_are_outside_every_card(tmp_path, bleed, gutter):
    plan = plan_sheets(SheetSpec(bleed=bleed, gutter=gutter), 9)
    out = tmp_path / "marks.pdf"
    write_sheets(stand_in_job(plan), out)
    cards = measured(out, 0, raster=False)
    trims = plan.pages[0].placements
    xs = {round(v, 2) for p in trims for v in (p.trim.x, p.trim.right)}
    ys = {round(v, 2) for p in trims for v in (p.trim.y, p.trim.top)}
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        lines = [(ln["x0"] * MM, (float(page.height) - ln["bottom"]) * MM, ln["x1"] * MM,
                  (float(page.height) - ln["top"]) * MM) for ln in page.lines]
    assert len(lines) == len(plan.pages[0].marks) > 0
    for x0, y0, x1, y1 in lines:
        for cx, cy, cw, ch in cards:
            apart = x1 <= cx + 0.01 or x0 >= cx + cw - 0.01 or y1 <= cy + 0.01 or y0 >= cy + ch - 0.01
            assert apart, ((x0, y0, x1, y1), (cx, cy, cw, ch))
        on_a_cut = round(x0, 2) in xs if abs(x0 - x1) < 0.01 else round(y0, 2) in ys
        assert on_a_cut


def test_trim_box_bleed_box_and_no_print_scaling_on_every_page(tmp_path):
    plan = plan_sheets(SheetSpec(bleed=3, layout="duplex-short"), 10)
    out = tmp_path / "boxes.pdf"
    write_sheets(stand_in_job(plan), out)
    reader = PdfReader(out)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    for page, planned in zip(reader.pages, plan.pages, strict=True):
        trim = [round(float(v) * MM, 3) for v in page.trimbox]
        bleed = [round(float(v) * MM, 3) for v in page.bleedbox]
        assert "/TrimBox" in page and "/BleedBox" in page
        t, b = planned.trim_box, planned.bleed_box
        assert trim == [t.x, t.y, t.right, t.top]
        assert bleed == [b.x, b.y, b.right, b.top]
    assert [round(float(v) * MM, 3) for v in reader.pages[0].trimbox] == [13.5, 14.0, 283.5, 196.0]


def image_objects(path: Path) -> list[int]:
    """The object number of every image placement, as poppler's pdfimages lists them."""
    listing = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in listing.splitlines()[2:] if line.strip()]
    return [int(row[10]) for row in rows]


@pytest.mark.skipif(shutil.which("pdfimages") is None, reason="poppler-utils (pdfimages) is not installed")
def test_each_distinct_image_is_stored_once_and_the_shared_back_once_for_the_file(tmp_path, faces_dir):
    plan = plan_sheets(SheetSpec(bleed=3, layout="duplex-long"), 90)
    out = tmp_path / "deck.pdf"
    report = write_sheets(stand_in_job(plan, raster=True, folder=faces_dir, distinct=30), out)
    placements = image_objects(out)
    assert len(placements) == 180
    assert len(set(placements)) == 31 == report.checks[0].images
    unique_bytes = sum(p.stat().st_size for p in faces_dir.glob("*.jpg"))
    assert report.bytes < unique_bytes * 1.05 + 60_000


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils (pdffonts) is not installed")
def test_every_font_is_embedded_as_a_subset(tmp_path):
    plan = plan_sheets(SheetSpec(layout="fold"), 6)
    out = tmp_path / "fold.pdf"
    write_sheets(stand_in_job(plan), out)
    listing = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in listing.splitlines()[2:] if line.strip()]
    assert rows
    for row in rows:
        assert "+" in row[0] and row[-5:-2] == ["yes", "yes", "yes"], row


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
@pytest.mark.parametrize("layout", ["fronts", "duplex-long", "fold", "single"])
def test_qpdf_finds_nothing_wrong(tmp_path, faces_dir, layout):
    plan = plan_sheets(SheetSpec(bleed=3, layout=layout), 10)
    out = tmp_path / f"{layout}.pdf"
    write_sheets(stand_in_job(plan, raster=layout == "single", folder=faces_dir), out)
    result = subprocess.run(["qpdf", "--check", str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No syntax or stream encoding errors found" in result.stdout
    assert result.stderr == ""


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")
def test_poppler_renders_without_a_warning(tmp_path, faces_dir):
    plan = plan_sheets(SheetSpec(bleed=3, layout="duplex-short"), 5)
    out = tmp_path / "deck.pdf"
    write_sheets(stand_in_job(plan, raster=True, folder=faces_dir), out)
    result = subprocess.run(["pdftoppm", "-r", "20", "-png", str(out), str(tmp_path / "page")],
                            capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (0, "")
    assert len(list(tmp_path.glob("page-*.png"))) == 2


def test_the_same_input_gives_the_same_bytes(tmp_path, faces_dir):
    plan = plan_sheets(SheetSpec(bleed=3, layout="duplex-long"), 12)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_sheets(stand_in_job(plan), first)
    write_sheets(stand_in_job(plan), second)
    assert first.read_bytes() == second.read_bytes()


def test_a_size_budget_splits_the_file_and_keeps_fronts_with_their_backs(tmp_path, faces_dir):
    plan = plan_sheets(SheetSpec(bleed=3, layout="duplex-long"), 40)
    job = stand_in_job(plan, raster=True, folder=faces_dir, distinct=40)
    whole = write_sheets(job, tmp_path / "whole.pdf")
    budget = whole.bytes / 2.2 / 1_000_000  # two of the five sheets fit in a part, three do not
    report = write_sheets(job, tmp_path / "deck.pdf", max_mb=budget)
    assert [p.name for p in report.files] == ["deck-1.pdf", "deck-2.pdf", "deck-3.pdf"]
    assert all(p.stat().st_size <= budget * 1_000_000 for p in report.files)
    pages = [len(PdfReader(p).pages) for p in report.files]
    assert sum(pages) == len(plan.pages) and all(n % 2 == 0 for n in pages)
    assert not (tmp_path / "deck.pdf").exists()


def test_a_budget_one_sheet_cannot_meet_is_refused_and_nothing_is_written(tmp_path, faces_dir):
    plan = plan_sheets(SheetSpec(bleed=3), 16)
    with pytest.raises(LimitError, match="one sheet alone takes"):
        write_sheets(stand_in_job(plan, raster=True, folder=faces_dir, distinct=16), tmp_path / "x.pdf", max_mb=0.01)
    assert list(tmp_path.glob("*.pdf")) == [] and list(tmp_path.glob(".*")) == []


def test_a_failed_check_leaves_no_file_and_says_which_card(tmp_path, monkeypatch):
    plan = plan_sheets(SheetSpec(), 9)
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"the previous sheet")
    from carddb.paint import sheets

    real = sheets.render_pdf

    def shifted(job, pages):
        data, expected = real(job, pages)
        faces = expected[0].faces
        name, matrix, bleed, trim, face = faces[4]
        faces[4] = (name, (*matrix[:4], matrix[4] + 0.06, matrix[5]), bleed, trim, face)
        return data, expected

    monkeypatch.setattr(sheets, "render_pdf", shifted)
    with pytest.raises(OutputError, match=r"page 1, c4 has a corner at \(73\.500, 104\.500\) mm instead of "
                                          r"\(73\.560, 104\.500\) mm"):
        write_sheets(stand_in_job(plan), out)
    assert out.read_bytes() == b"the previous sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.pdf"]


def test_an_output_that_is_not_a_pdf_or_in_no_folder(tmp_path):
    job = stand_in_job(plan_sheets(SheetSpec(), 2))
    with pytest.raises(InputError, match=r"must be a \.pdf file"):
        write_sheets(job, tmp_path / "deck.png")
    with pytest.raises(OutputError, match="no such folder"):
        write_sheets(job, tmp_path / "missing" / "deck.pdf")


def test_a_duplex_job_without_backs_is_refused():
    plan = plan_sheets(SheetSpec(layout="duplex-long"), 3)
    job = stand_in_job(plan)
    with pytest.raises(InputError, match="needs card backs"):
        PrintJob(plan, job.fronts, None)
