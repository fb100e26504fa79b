"""Print-shop files read back as the shop's uploader gets them: each image's pixel size, resolution, colour
profile and picture (bleed included), the count and order of the files, and the PDF's pages and boxes in mm.

One deck per service, drawn from the real templates (every service with every game, each image read back for
white in its bleed: test_printshop_bleed.py, a module of its own so that the two sets of exports are made side by
side on two test workers).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageCms
from pypdf import PdfReader

from carddb.core.cards.names import NameIndex
from carddb.core.cards.slugs import card_stems
from carddb.core.decks.parse import parse_deck
from carddb.errors import InputError
from carddb.exporters.printshop import export_printshop
from carddb.exporters.printshop.reader import read_printshop

MM = 25.4 / 72  # millimetres a PDF point

# service: (game, deck, image pixels, bleed mm, image format, file per copy, back first, trim mm)
CASES = {
    "makeplayingcards": ("minibattle", "legal-charizard-line.txt", (822, 1122), 0.12 * 25.4, "PNG", True, False,
                         (63.5, 88.9)),
    "thegamecrafter": ("minibattle", "legal-pikachu-line.txt", (825, 1125), 3.175, "PNG", False, False,
                       (63.5, 88.9)),
    "drivethrucards": ("ssbm", "legal-mario-power-block.txt", (825, 1125), 3.175, "JPEG", True, True,
                       (63.5, 88.9)),
    "generic": ("shmod", "legal-fire-water-fusion.txt", (768, 1087), 3.0, "PNG", True, False, (59.0, 86.0)),
}


def near(a, b, tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def deck_copies(catalogue, game_id: str, path: Path) -> list[str]:
    """The deck's cards, each copy, in the file's order (a card listed again counted at its first place)."""
    game = catalogue.game(game_id)
    deck = parse_deck(path.read_text(encoding="utf-8"), game, path.name)
    index = NameIndex(catalogue.cards(game_id), dict(game.aliases), {s.name: s.code for s in game.sets})
    counts: dict[str, int] = {}
    for entry in deck.entries:
        key = index.resolve(entry.name, entry.qualifier, entry.set_hint).card.key
        counts[key] = counts.get(key, 0) + entry.count
    return [key for key, count in counts.items() for _ in range(count)]


@pytest.fixture(scope="module")
def shop_exports(tmp_path_factory, catalogue, repo_root):
    out = tmp_path_factory.mktemp("printshop")
    reports = {}
    for service, (game_id, deck, *_rest) in CASES.items():
        path = repo_root / "rules" / game_id / "decks" / deck
        reports[service] = export_printshop(repo_root, catalogue, game_id, out / service, service=service,
                                            deck_text=(path.read_text(encoding="utf-8"), path.name))
    return reports


@pytest.mark.parametrize("service", CASES)
def test_the_files_come_in_the_deck_order_with_its_counts(shop_exports, catalogue, repo_root, service):
    game_id, deck, pixels, _bleed, fmt, per_copy, *_ = CASES[service]
    folder = read_printshop(shop_exports[service].out_dir)
    assert folder.problems == []
    assert (folder.service, folder.game, folder.pixels, folder.dpi) == (service, game_id, pixels, 300)
    copies = deck_copies(catalogue, game_id, repo_root / "rules" / game_id / "decks" / deck)
    assert folder.cards == len(copies)
    if per_copy:
        assert [row.card for row in folder.rows] == copies and {row.copies for row in folder.rows} == {1}
    else:  # The Game Crafter: one image a card, its quantity beside it
        assert [(row.card, row.copies) for row in folder.rows] == \
            [(key, copies.count(key)) for key in dict.fromkeys(copies)]
    ext = "jpg" if fmt == "JPEG" else "png"
    stems = card_stems(c.key for c in catalogue.cards(game_id))
    for number, row in enumerate(folder.rows, 1):
        assert row.front == f"fronts/{number:03d}-{stems[row.card]}.{ext}" and row.back == f"back.{ext}"
    files = sorted(p.name for p in (folder.root / "fronts").iterdir())
    assert files == [Path(row.front).name for row in folder.rows]  # the uploader's name order is the deck's


def face_at_300_dpi(repo_root, catalogue, game_id: str, key: str | None) -> Image.Image:
    from carddb.layout import layout_back, layout_face
    from carddb.layout.template import loaded_templates
    from carddb.paint.raster import render_image

    templates = loaded_templates(repo_root, catalogue.game(game_id))
    if key is None:
        return render_image(layout_back(templates), 300)
    card = next(c for c in catalogue.cards(game_id) if c.key == key)
    return render_image(layout_face(templates, card), 300)


def misplaced_share(image: Image.Image, face: Image.Image) -> float:
    """The share of the face's pixels (its middle, 40 px in) unlike the image's at the face's place in the middle
    of the image, at the best of the nine whole-pixel offsets around it: a face scaled by 1 % lands up to 4 px
    off at its sides and differs along every line and letter there."""
    inner = face.crop((40, 40, face.width - 40, face.height - 40)).convert("L")
    left, top = (image.width - face.width) // 2 + 40, (image.height - face.height) // 2 + 40
    best = 1.0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            part = image.crop((left + dx, top + dy, left + dx + inner.width, top + dy + inner.height)).convert("L")
            unlike = ImageChops.difference(part, inner).point(lambda v: 255 if v > 96 else 0)
            best = min(best, unlike.histogram()[255] / (inner.width * inner.height))
    return best


@pytest.mark.parametrize("service", CASES)
def test_each_image_is_the_face_at_the_shops_size_resolution_and_profile(shop_exports, catalogue, repo_root,
                                                                          service):
    game_id, _deck, pixels, _bleed, fmt, *_ = CASES[service]
    folder = read_printshop(shop_exports[service].out_dir)
    firsts = {row.card: folder.front(row) for row in folder.rows}
    for key, path in [*list(firsts.items())[:3], (None, folder.back(folder.rows[0]))]:
        with Image.open(path) as image:
            assert image.format == fmt and image.mode == "RGB" and image.size == pixels
            assert tuple(round(d) for d in image.info["dpi"]) == (300, 300)
            profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
            assert "sRGB" in ImageCms.getProfileDescription(profile)
            # the face as the build draws it, at its own size in the middle: drawn, not scaled to the shop's trim
            assert misplaced_share(image, face_at_300_dpi(repo_root, catalogue, game_id, key)) < 0.002, path.name


@pytest.mark.parametrize("service", CASES)
def test_the_pdf_has_one_card_a_page_with_trim_and_bleed_boxes(shop_exports, service):
    _game, _deck, pixels, bleed, _fmt, _per_copy, back_first, trim = CASES[service]
    folder = read_printshop(shop_exports[service].out_dir)
    reader = PdfReader(folder.pdf)
    assert len(reader.pages) == 2 * folder.cards
    width, height = trim[0] + 2 * bleed, trim[1] + 2 * bleed
    assert near(pixels, (width / 25.4 * 300, height / 25.4 * 300), 0.5)  # the image covers the page at 300 dpi
    images = []
    for page in reader.pages:
        media = [float(v) * MM for v in page.mediabox]
        assert near(media, (0, 0, width, height), 0.05)
        assert near([float(v) * MM for v in page.bleedbox], media, 0.01)
        assert near([float(v) * MM for v in page.trimbox], (bleed, bleed, width - bleed, height - bleed), 0.01)
        (image,) = page.images
        images.append(image.indirect_reference.get_object())
    backs, fronts = (images[0::2], images[1::2]) if back_first else (images[1::2], images[0::2])
    assert len({id(b) for b in backs}) == 1 or len({b.indirect_reference.idnum for b in backs}) == 1
    assert len({f.indirect_reference.idnum for f in fronts}) == len({row.card for row in folder.rows})
    for image in images:
        assert (image["/Width"], image["/Height"]) == pixels
        assert image["/ColorSpace"] == ("/DeviceCMYK" if service == "drivethrucards" else "/DeviceRGB")


def peak_ink(cmyk: Image.Image) -> float:
    """The most ink any pixel takes, in per cent (C + M + Y + K)."""
    from PIL import ImageMath

    c, m, y, k = (channel.convert("I") for channel in cmyk.split())
    total = ImageMath.lambda_eval(lambda args: args["c"] + args["m"] + args["y"] + args["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255 * 100


def test_drivethrucards_pages_are_cmyk_within_the_ink_limit(shop_exports):
    """docs/printing.md promises at most 220 % ink on every pixel, as the shop reads the JPEGs back."""
    folder = read_printshop(shop_exports["drivethrucards"].out_dir)
    reader = PdfReader(folder.pdf)
    seen = set()
    for page in reader.pages:
        (image,) = page.images
        if image.indirect_reference.idnum in seen:
            continue
        seen.add(image.indirect_reference.idnum)
        with Image.open(io.BytesIO(image.indirect_reference.get_object().get_data())) as cmyk:
            assert cmyk.mode == "CMYK"
            assert peak_ink(cmyk) <= 220
    with Image.open(folder.front(folder.rows[0])) as rgb:
        from carddb.exporters.printshop.images import cmyk

        picture = rgb.convert("RGB").resize((40, 55))
        r, g, b = picture.getpixel((20, 27))
        c, m, y, k = cmyk(picture).getpixel((20, 27))
    # Under-colour removal as docs/printing.md gives it: K = 255 - max(R, G, B), 70 % of K out of C, M, Y.
    black = 255 - max(r, g, b)
    assert near((c, m, y, k), [255 - v - round(0.7 * black) for v in (r, g, b)] + [black], 2)


def test_the_reader_names_a_missing_file(shop_exports, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(shop_exports["thegamecrafter"].out_dir, copy)
    folder = read_printshop(copy)
    gone = folder.rows[1].front
    (copy / gone).unlink()
    assert read_printshop(copy).problems == [f"order.csv line 3: {gone} is missing"]
    with pytest.raises(InputError, match="not a carddb print-shop export"):
        read_printshop(tmp_path)


def test_the_same_export_again_writes_nothing(shop_exports, catalogue, repo_root):
    game_id, deck, *_ = CASES["makeplayingcards"]
    report = shop_exports["makeplayingcards"]
    path = repo_root / "rules" / game_id / "decks" / deck
    before = {p: p.stat().st_mtime_ns for p in report.out_dir.rglob("*")}
    again = export_printshop(repo_root, catalogue, game_id, report.out_dir, service="mpc",
                             deck_text=(path.read_text(encoding="utf-8"), path.name))
    assert again.kept and again.files == report.files
    assert {p: p.stat().st_mtime_ns for p in report.out_dir.rglob("*")} == before


def test_without_a_deck_every_card_prints_once(tmp_path, catalogue, repo_root):
    told: list[tuple[int, int | None]] = []
    report = export_printshop(repo_root, catalogue, "ssq", tmp_path / "ssq", service="generic",
                              progress=lambda n, m: told.append((n, m)))
    folder = read_printshop(report.out_dir)
    assert [row.card for row in folder.rows] == sorted((c.key for c in catalogue.cards("ssq")), key=str.casefold)
    assert len(PdfReader(folder.pdf).pages) == 2 * len(folder.rows) and report.decks == 0
    assert told[-1] == (len(folder.rows) + 1, len(folder.rows) + 1) and report.warnings == []
    assert report.summary().startswith(f"printshop: {len(folder.rows)} cards, {len(folder.rows)} card images, ")


def test_a_game_without_decks_prints_a_list_of_cards_with_their_counts(tmp_path, catalogue, repo_root):
    # ssq has no decks and so no zones: a list of its cards is what to print, not a deck to check
    report = export_printshop(repo_root, catalogue, "ssq", tmp_path / "ssq", service="generic",
                              deck_text=("2 Mario\n1 Bowser\n", "table.txt"))
    folder = read_printshop(report.out_dir)
    assert [row.card for row in folder.rows] == ["Mario", "Mario", "Bowser"] and report.warnings == []


@pytest.mark.parametrize(("service", "game", "card", "message"), [
    ("makeplayingcards", "shmod", None,
     "MakePlayingCards has no card of 59 x 86 mm (yugioh); it prints poker (2.5 x 3.5 in, 63.5 x 88.9 mm)"),
    ("thegamecrafter", "ssbm", "tarot", "The Game Crafter has no card of 70 x 120 mm (tarot); it prints poker"),
    ("generic", "ssbm", "999x999", "a card of 999 x 999 mm is out of range: each side must be 20 to 300 mm"),
    ("generic", "ssbm", "0.01x0.01", "a card of 0.01 x 0.01 mm is out of range"),
    ("generic", "ssbm", "", "unknown card size ''"),
    ("generic", "ssbm", "999", "unknown card size '999'"),
    (None, "ssbm", None, "name the print shop with --service; the services are makeplayingcards (MakePlayingCards), "
                         "thegamecrafter (The Game Crafter), drivethrucards (DriveThruCards), generic"),
])
def test_a_size_the_shop_does_not_print_is_refused_before_anything_is_written(
        tmp_path, catalogue, repo_root, service, game, card, message):
    with pytest.raises(InputError, match=re.escape(message)):
        export_printshop(repo_root, catalogue, game, tmp_path / "out", service=service, card=card)
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def shop_workspace(tmp_path, repo_root) -> Path:
    """A copy of the bundled games' rules and templates: the export commands run as a user runs them."""
    import shutil

    root = tmp_path / "workspace"
    shutil.copytree(repo_root / "rules", root / "rules")
    shutil.copytree(repo_root / "templates", root / "templates")
    return root


def test_export_printshop_command(cli, tmp_path, shop_workspace):
    deck = shop_workspace / "rules" / "minibattle" / "decks" / "legal-charizard-line.txt"
    result = cli("export", "printshop", "--service", "tgc", "--game", "minibattle", "--deck", str(deck),
                 "--out", str(tmp_path / "tgc"), root=str(shop_workspace))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("printshop: 10 cards, 5 card images, 1 deck, 8 files in ")
    assert "The Game Crafter, poker card (2.5 x 3.5 in): 825 x 1125 pixels at 300 dpi" in result.stdout
    assert "Upload: make a poker deck on thegamecrafter.com" in result.stdout
    assert read_printshop(tmp_path / "tgc").cards == 10


@pytest.mark.parametrize(("args", "first_line"), [
    (("--service", "kinkos"), "Error: no print shop is called 'kinkos'; the services are makeplayingcards, "
                              "thegamecrafter, drivethrucards, generic"),
    (("--service", "drivethrucards", "--game", "shmod"), "Error: DriveThruCards has no card of 59 x 86 mm (yugioh); "
                                                         "it prints poker (2.5 x 3.5 in, 63.5 x 88.9 mm)"),
    ((), "Error: name the print shop with --service; the services are makeplayingcards (MakePlayingCards), "
         "thegamecrafter (The Game Crafter), drivethrucards (DriveThruCards), generic (a generic print shop)"),
    (("--service", "generic", "--card", "999"), "Error: unknown card size '999'"),
    (("--service", "generic", "--card", "0.0"), "Error: unknown card size '0.0'"),
    (("--service", "generic", "--card", "0.01x0.01"), "Error: a card of 0.01 x 0.01 mm is out of range: each side "
                                                      "must be 20 to 300 mm"),
    (("--service", "generic", "--card", ""), "Error: unknown card size ''"),
])
def test_export_printshop_command_refuses_bad_input(cli, tmp_path, shop_workspace, args, first_line):
    game = () if "--game" in args else ("--game", "ssbm")
    result = cli("export", "printshop", *args, *game, "--out", str(tmp_path / "a"), root=str(shop_workspace))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == first_line
    assert [p.name for p in tmp_path.iterdir()] == ["workspace"] and not (shop_workspace / "output").exists()
