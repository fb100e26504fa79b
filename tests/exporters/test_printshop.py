"""Print-shop files read back as the shop's uploader gets them: each image's pixel size, resolution, colour
profile and picture (bleed included), the count and order of the files, and the PDF's pages and boxes in mm.

One deck per service; the faces are ``pattern_face`` pictures at the build's size (300 dpi), so a face in the
wrong file or a bleed cut from the wrong edge shows.
"""

from __future__ import annotations

import io
import re
import zlib
from functools import partial
from pathlib import Path

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader

from carddb.core.cards.names import NameIndex
from carddb.core.cards.slugs import card_stems
from carddb.core.decks.parse import parse_deck
from carddb.errors import InputError
from carddb.exporters.printshop import export_printshop
from carddb.exporters.printshop.reader import read_printshop

from .conftest import pattern_render

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


def face_pixels(game) -> tuple[int, int]:
    width, height = game.card_size_mm
    return round(width / 25.4 * 300), round(height / 25.4 * 300)


def colour_of(slug: str) -> tuple[int, int, int]:
    """The fill of ``pattern_face(slug)``."""
    value = zlib.crc32(slug.encode())
    return value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF


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
def shop_faces(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("printshop-faces")


@pytest.fixture(scope="module")
def shop_exports(tmp_path_factory, catalogue, repo_root, shop_faces):
    out, faces = tmp_path_factory.mktemp("printshop"), shop_faces
    reports = {}
    for service, (game_id, deck, *_rest) in CASES.items():
        path = repo_root / "rules" / game_id / "decks" / deck
        render = partial(pattern_render, size=face_pixels(catalogue.game(game_id)))
        reports[service] = export_printshop(repo_root, catalogue, game_id, out / service, service=service,
                                            deck_text=(path.read_text(encoding="utf-8"), path.name),
                                            faces_dir=faces, renderer=render)
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


@pytest.mark.parametrize("service", CASES)
def test_each_image_has_the_shops_size_resolution_profile_and_bleed(shop_exports, catalogue, service):
    game_id, _deck, pixels, _bleed, fmt, *_ = CASES[service]
    folder = read_printshop(shop_exports[service].out_dir)
    stems = card_stems(c.key for c in catalogue.cards(game_id))
    tolerance = 8 if fmt == "JPEG" else 2
    pictures = [(folder.front(row), colour_of(stems[row.card])) for row in folder.rows]
    for path, colour in [*pictures, (folder.back(folder.rows[0]), colour_of("the back"))]:
        with Image.open(path) as image:
            assert image.format == fmt and image.mode == "RGB" and image.size == pixels
            assert tuple(round(d) for d in image.info["dpi"]) == (300, 300)
            profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
            assert "sRGB" in ImageCms.getProfileDescription(profile)
            width, height = image.size
            # The face's own fill in the middle and in the right edge's bleed; its white top-left corner and
            # black foot stripe carried out into the bleed corners.
            assert near(image.getpixel((width * 3 // 4, height // 2)), colour, tolerance), path.name
            assert near(image.getpixel((width - 2, height // 2)), colour, tolerance), path.name
            assert near(image.getpixel((1, 1)), (255, 255, 255), tolerance)
            assert near(image.getpixel((width - 2, height - 2)), (0, 0, 0), tolerance)


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


def test_drivethrucards_pages_are_cmyk_within_the_ink_limit(shop_exports, catalogue):
    folder = read_printshop(shop_exports["drivethrucards"].out_dir)
    reader = PdfReader(folder.pdf)
    stems = card_stems(c.key for c in catalogue.cards("ssbm"))
    expected = [colour_of("the back"), colour_of(stems[folder.rows[0].card])]  # page 1 the back, then the front
    for page, rgb in zip(reader.pages[:2], expected, strict=True):
        (image,) = page.images
        with Image.open(io.BytesIO(image.indirect_reference.get_object().get_data())) as cmyk:
            assert cmyk.mode == "CMYK"
            data = cmyk.resize((40, 55)).tobytes()
            inks = [sum(data[i:i + 4]) for i in range(0, len(data), 4)]
            assert max(inks) <= 240 * 255 // 100  # the shop's 240 % total ink
            c, m, y, k = cmyk.getpixel((cmyk.width * 3 // 4, cmyk.height // 2))
        # Under-colour removal as docs/printing.md gives it: K = 255 - max(R, G, B), 60 % of K out of C, M, Y.
        black = 255 - max(rgb)
        assert near((c, m, y, k), [255 - v - round(0.6 * black) for v in rgb] + [black], 8)


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


def test_the_same_export_again_writes_nothing(shop_exports, shop_faces, catalogue, repo_root):
    game_id, deck, *_ = CASES["makeplayingcards"]
    report = shop_exports["makeplayingcards"]
    path = repo_root / "rules" / game_id / "decks" / deck
    before = {p: p.stat().st_mtime_ns for p in report.out_dir.rglob("*")}
    again = export_printshop(repo_root, catalogue, game_id, report.out_dir, service="mpc",
                             deck_text=(path.read_text(encoding="utf-8"), path.name), faces_dir=shop_faces,
                             renderer=partial(pattern_render, size=face_pixels(catalogue.game(game_id))))
    assert again.kept and again.files == report.files
    assert {p: p.stat().st_mtime_ns for p in report.out_dir.rglob("*")} == before


def test_without_a_deck_every_card_prints_once(tmp_path, catalogue, repo_root):
    render = partial(pattern_render, size=face_pixels(catalogue.game("ssq")))
    told: list[tuple[int, int | None]] = []
    report = export_printshop(repo_root, catalogue, "ssq", tmp_path / "ssq", service="generic",
                              faces_dir=tmp_path / "faces", renderer=render, progress=lambda n, m: told.append((n, m)))
    folder = read_printshop(report.out_dir)
    assert [row.card for row in folder.rows] == sorted((c.key for c in catalogue.cards("ssq")), key=str.casefold)
    assert len(PdfReader(folder.pdf).pages) == 2 * len(folder.rows) and report.decks == 0
    assert told[-1] == (len(folder.rows) + 1, len(folder.rows) + 1) and report.warnings == []


def test_a_face_of_another_shape_is_stretched_with_a_warning(tmp_path, catalogue, repo_root):
    render = partial(pattern_render, size=(600, 600))  # square faces for poker cards
    report = export_printshop(repo_root, catalogue, "ssq", tmp_path / "ssq", service="mpc",
                              faces_dir=tmp_path / "faces", renderer=render)
    assert "the card back: its face is 600 x 600 pixels, another shape than the poker card (2.5 x 3.5 in); it " \
           "is stretched to fit" in report.warnings
    with Image.open(read_printshop(report.out_dir).back(read_printshop(report.out_dir).rows[0])) as back:
        assert back.size == (822, 1122)


@pytest.mark.parametrize(("service", "game", "card", "message"), [
    ("makeplayingcards", "shmod", None,
     "MakePlayingCards has no card of 59 x 86 mm (yugioh); it prints poker (2.5 x 3.5 in, 63.5 x 88.9 mm)"),
    ("thegamecrafter", "ssbm", "tarot", "The Game Crafter has no card of 70 x 120 mm (tarot); it prints poker"),
])
def test_a_size_the_shop_does_not_print_is_refused_before_anything_is_written(
        tmp_path, catalogue, repo_root, service, game, card, message):
    def no_render(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("nothing is rendered for a refused export")

    with pytest.raises(InputError, match=re.escape(message)):
        export_printshop(repo_root, catalogue, game, tmp_path / "out", service=service, card=card,
                         faces_dir=tmp_path / "faces", renderer=no_render)
    assert list(tmp_path.iterdir()) == []


def test_export_printshop_command(cli, tmp_path, tmp_workspace):
    deck = tmp_workspace / "rules" / "minibattle" / "decks" / "legal-charizard-line.txt"
    result = cli("export", "printshop", "--service", "tgc", "--game", "minibattle", "--deck", str(deck),
                 "--out", str(tmp_path / "tgc"), root=str(tmp_workspace))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("printshop: 67 cards, 5 card images, 1 deck, 8 files in ")
    assert "The Game Crafter, poker card (2.5 x 3.5 in): 825 x 1125 pixels at 300 dpi" in result.stdout
    assert "Upload: make a poker deck on thegamecrafter.com" in result.stdout
    assert read_printshop(tmp_path / "tgc").cards == 10


def test_export_printshop_command_refuses_bad_input(cli, tmp_path, tmp_workspace):
    result = cli("export", "printshop", "--service", "kinkos", "--game", "ssbm", "--out", str(tmp_path / "a"),
                 root=str(tmp_workspace))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == ("Error: no print shop is called 'kinkos'; the services are "
                                             "makeplayingcards, thegamecrafter, drivethrucards, generic")
    result = cli("export", "printshop", "--service", "drivethrucards", "--game", "shmod", "--out",
                 str(tmp_path / "b"), root=str(tmp_workspace))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: DriveThruCards has no card of 59 x 86 mm (yugioh); it prints poker")
    assert [p.name for p in tmp_path.iterdir()] == ["workspace"] and not (tmp_workspace / "output").exists()
