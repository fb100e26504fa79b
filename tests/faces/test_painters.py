"""Raster checks of real faces, and the vector painter agreeing with the raster one."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PIL import Image, ImageChops, ImageFilter

from carddb.core.cards.card import Card, Printing
from carddb.layout import TextRun, layout_face
from carddb.layout.fonts import BUILTIN_STYLES
from carddb.paint.raster import render_image
from carddb.paint.vector import face_pdf

from .conftest import monster, templates

DPI = 100
K = DPI / 25.4
FONT = str(BUILTIN_STYLES["bold"][0])


def px(mm: float) -> int:
    return round(mm * K)


def test_shmod_fire_background_pixels_are_red():
    image = render_image(layout_face(templates("shmod"), monster(type_="FIRE")), DPI)
    # the frame beside the title, its FIRE red shading down to a deeper red at the foot (a gradient); the edge
    # outside the 3 mm safe zone is dark
    top, foot = image.getpixel((px(4.2), px(3.4))), image.getpixel((px(4.2), px(82.5)))
    assert all(abs(a - b) <= 3 for a, b in zip(top, (200, 50, 42), strict=True))
    assert all(abs(a - b) <= 3 for a, b in zip(foot, (156, 39, 33), strict=True))
    for x_mm, y_mm in [(1.0, 1.0), (1.5, 40.0), (57.5, 40.0)]:
        assert image.getpixel((px(x_mm), px(y_mm))) == (43, 33, 22)


def test_the_deck_limit_is_drawn_in_the_lower_left():
    ts = templates("ssbm")
    card = Card("ssbm", "Power Block", "play", text="Block an attack.",
                fields={"types": ["defensive"], "deck_limit": 5}, printings=[Printing("base", "P08")])
    face = layout_face(ts, card)
    dl = [op for op in face.ops if isinstance(op, TextRun) and op.text == "DL 5"]
    assert len(dl) == 1
    assert all(op.x < 63 / 4 and op.y > 88 * 0.9 for op in dl)  # lower left quarter, bottom tenth
    image = render_image(face, 200)
    region = image.crop((round(3.5 * 200 / 25.4), round(80 * 200 / 25.4), round(17.5 * 200 / 25.4),
                         round(85 * 200 / 25.4)))
    dark = sum(region.convert("L").histogram()[:67])
    assert dark > 150  # the letters are there, black on the light badge


def test_no_text_pixel_lies_outside_its_box():
    ts = templates("ssbm")
    card = Card("ssbm", "Link's Spin Attack", "play",
                text="Deal STRENGTH + 4D. Interrupts: Jump, Dash, any Attack - Set-up. " * 8,
                fields={"types": ["special", "attack"], "deck_limit": 3, "damage": 4, "symbol": "Link",
                        "interrupts": ["Jump", "Dash", "Attack - Set-up"]})
    face = layout_face(ts, card)
    without_text = type(face)(face.width, face.height, face.bleed, [op for op in face.ops
                                                                    if not isinstance(op, TextRun)])
    diff = ImageChops.difference(render_image(face, DPI), render_image(without_text, DPI)).convert("L")
    # text boxes, emblems and icons (an icon has letters)
    boxes = [b.at for b in ts.faces["play"].boxes if b.shape in ("text", "emblem", "icon")]
    mask = Image.new("L", diff.size, 0)
    for x, y, w, h in boxes:
        mask.paste(255, (px(x) - 1, px(y) - 1, px(x + w) + 1, px(y + h) + 1))
    outside = ImageChops.multiply(diff.point(lambda v: 255 if v > 24 else 0), ImageChops.invert(mask))
    assert outside.getbbox() is None
    assert face.overflowed  # the text was long enough to be cut: the cut stays inside too


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("game_id,card", [
    ("shmod", monster()),
    ("minibattle", Card("minibattle", "Pikachu", "pokemon", fields={"level": 15, "hp": 35, "atk": 10, "def": 5,
                                                                  "type": "Electric", "stage": "basic",
                                                                  "ability": "Prlz Atk: 30%"},
                        printings=[Printing("promo", "P01", "common")])),
])
def test_the_vector_face_matches_the_raster_face(tmp_path, game_id, card):
    face = layout_face(templates(game_id), card)
    face_pdf(face, tmp_path / "face.pdf")
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(tmp_path / "face.pdf"),
                    str(tmp_path / "vector")], check=True)
    raster = render_image(face, DPI)
    vector = Image.open(tmp_path / "vector.png").convert("RGB")
    # pdftoppm rounds the page size up to whole pixels, Pillow to the nearest: at most one pixel more
    assert 0 <= vector.width - raster.width <= 1 and 0 <= vector.height - raster.height <= 1
    vector = vector.crop((0, 0, *raster.size))
    # Tolerance: the two rasterisers anti-alias edges and hint glyphs differently (Pillow does not anti-alias
    # shapes, poppler does), so both images are blurred by 2 px (0.5 mm) before comparing; what is left must
    # be a mean difference under 5 of 255, under 1 % of pixels off by more than a quarter of the range, and
    # no pixel off by half of it: a word, a shape or a colour out of place fails this.
    diff = ImageChops.difference(vector.filter(ImageFilter.GaussianBlur(2)),
                                 raster.filter(ImageFilter.GaussianBlur(2))).convert("L")
    histogram = diff.histogram()
    total = sum(histogram)
    mean = sum(v * n for v, n in enumerate(histogram)) / total
    assert mean < 5.0
    assert sum(histogram[64:]) / total < 0.01
    assert sum(histogram[128:]) == 0


def _from_nothing(face):
    """The face drawn operation by operation in its order, nothing remembered."""
    from PIL import ImageDraw

    from carddb.paint import raster

    image = Image.new("RGB", (px(face.width), px(face.height)), "#ffffff")
    draw = ImageDraw.Draw(image)
    for op in face.ops:
        raster._draw(image, draw, op, K)
    return image


def test_faces_drawn_on_the_remembered_frame_equal_faces_drawn_from_nothing():
    """The shapes of a face are drawn once and copied: the result is the face drawn from scratch."""
    from_nothing = _from_nothing

    ts = templates("shmod")
    cards = [monster("Blaze Drake"), monster("Tide Caller", "WATER"), monster("Blaze Twin"),
             Card("shmod", "Replenish", "spell", fields={"level": 2})]
    first = [render_image(layout_face(ts, card), DPI) for card in cards]
    again = [render_image(layout_face(ts, card), DPI) for card in cards]  # now from the remembered frames
    clean = [from_nothing(layout_face(ts, card)) for card in cards]
    assert [a.tobytes() for a in again] == [c.tobytes() for c in clean] == [f.tobytes() for f in first]
    # a frame of another colour is another frame: the WATER monster's frame is blue where the FIRE one's is red
    assert again[0].getpixel((px(4.2), px(40))) == again[2].getpixel((px(4.2), px(40)))
    assert again[1].getpixel((px(4.2), px(40))) != again[0].getpixel((px(4.2), px(40)))


def test_a_shape_over_text_stays_over_it_and_one_beside_it_is_remembered():
    """A shape drawn after a text is drawn with the shared frame only when it touches none of the text's pixels:
    a panel laid over a word still hides it, and the faces are those drawn from nothing."""
    from carddb.layout import FaceLayout, Rect
    from carddb.paint import raster

    def face(word: str) -> FaceLayout:
        return FaceLayout(40.0, 30.0, ops=[
            Rect(0.0, 0.0, 40.0, 30.0, fill="#d8e4f0"),
            TextRun(2.0, 8.0, word, FONT, 12.0, "#000000"),
            Rect(1.0, 3.0, 20.0, 2.5, fill="#aa2222"),  # over the capitals' tops: after the text, on every face
            Rect(2.0, 20.0, 30.0, 6.0, fill="#224422", stroke="#000000", stroke_width=0.4),  # below: shared
            TextRun(3.0, 24.0, "LEVEL", FONT, 8.0, "#ffffff")])

    for word in ("Hello", "World", "Hello"):  # the third from the remembered frame
        image = render_image(face(word), DPI)
        assert image.tobytes() == _from_nothing(face(word)).tobytes()
        assert image.getpixel((px(3.0), px(4.0))) == (170, 34, 34)  # the panel, not the letters, on top
    shared, leading, own = raster._layers(face("Hello").ops, K)
    assert leading == 1
    assert [type(op).__name__ for op in shared] == ["Rect", "Rect"]
    assert [op.fill for op in shared if isinstance(op, Rect)] == ["#d8e4f0", "#224422"]
    assert [type(op).__name__ for op, _ in own] == ["TextRun", "Rect", "TextRun"]


@pytest.mark.parametrize("size", [(59.0, 86.0), (63.0, 88.0), (63.5, 88.9), (41.0, 63.0), (70.0, 120.0)])
@pytest.mark.parametrize("dpi", [300, 150, 96])
def test_a_background_covers_every_pixel_to_the_last_column_and_row(size, dpi):
    """A 59 mm card is 696.85 pixels at 300 dpi: the image is 697 wide, and its last column is the card's too."""
    from carddb.layout import FaceLayout, Rect

    face = FaceLayout(*size, ops=[Rect(0.0, 0.0, *size, fill="#2a1838")])
    image = render_image(face, dpi)
    assert image.size == (round(size[0] / 25.4 * dpi), round(size[1] / 25.4 * dpi))
    assert image.getcolors() == [(image.width * image.height, (42, 24, 56))]


def test_every_shmod_face_is_painted_to_its_edge():
    from carddb.layout import layout_back

    image = render_image(layout_back(templates("shmod")), 300)
    assert image.size == (697, 1016)
    edges = [image.crop((image.width - 1, 0, image.width, image.height)), image.crop((0, image.height - 1,
                                                                                      image.width, image.height))]
    assert all((255, 255, 255) not in [colour for _n, colour in edge.getcolors()] for edge in edges)
