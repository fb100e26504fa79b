"""The layout engine with exact numbers: where a title lands, the size text shrank to, where an icon sits."""

from __future__ import annotations

import pytest

from carddb.layout import Ellipse, ImageOp, Polygon, Rect, TextRun, layout_back, layout_face, load_templates
from carddb.layout.fonts import BUILTIN_STYLES, REPLACEMENT
from carddb.rules.cards import Card

from .conftest import game, monster, templates, write_template

VERA_BOLD = str(BUILTIN_STYLES["bold"][0])
VERA = str(BUILTIN_STYLES["regular"][0])
NOTO = str(BUILTIN_STYLES["regular"][1])


def runs(face, box_text: str | None = None) -> list[TextRun]:
    return [op for op in face.ops if isinstance(op, TextRun)]


def test_title_lands_in_its_box_at_the_computed_baseline():
    face = layout_face(templates("shmod"), monster())
    title = runs(face)[:2]  # a line in one font is one run, its spaces measured like the layout's
    # box [5, 3.5, 49, 7.5], Vera Bold 11 pt, centred vertically:
    # height 11 * (1901 + 483) / 2048 pt = 4.5172 mm, top 4.9914 mm, baseline + 11 * 1901/2048 pt = 8.5934 mm
    assert [(r.x, r.y, r.text, r.size, r.font) for r in title] == [
        (5.0, 8.5934, "Blaze Drake", 11.0, VERA_BOLD), (4.0, 81.8373, "Shmod Base Set 012", 5.0, VERA)]


def test_a_long_title_shrinks_to_fit_its_width():
    face = layout_face(templates("shmod"), monster("Tempestus, Sky Sovereign", "STORM"))
    fit = face.fits[0]
    assert (fit.box, fit.size, fit.wanted, fit.overflow) == ("title", 9.25, 11.0, False)
    title = [r for r in runs(face) if r.size == 9.25]
    assert title[0].x == 5.0
    assert face.shrunk == [fit]


def test_text_that_cannot_fit_is_cut_with_an_ellipsis_and_reported():
    card = monster(name="x" * 300, type_="DARK")
    face = layout_face(templates("shmod"), card)
    fit = face.fits[0]
    assert (fit.box, fit.size, fit.overflow) == ("title", 6.5, True)
    title = [r for r in runs(face) if r.size == 6.5]
    assert title[-1].text == "\u2026"
    assert face.overflowed == [fit]


def test_bleed_grows_the_face_and_extends_the_background_only():
    face = layout_face(templates("shmod"), monster(), bleed_mm=3)
    assert (face.width, face.height, face.bleed, face.trim_size) == (65.0, 92.0, 3.0, (59.0, 86.0))
    assert face.ops[0] == Rect(0.0, 0.0, 65.0, 92.0, fill="#c8322a")
    assert (runs(face)[0].x, runs(face)[0].y) == (8.0, 11.5934)
    art = next(op for op in face.ops if isinstance(op, Rect) and op.stroke and op.w == 45)  # the art frame
    assert (art.x, art.y) == (10.0, 20.5)


def test_shmod_background_is_the_type_colour():
    colours = {t: layout_face(templates("shmod"), monster(type_=t)).ops[0].fill
               for t in ("FIRE", "WATER", "EARTH", "STORM", "DARK", "LIGHT", "COLOURLESS", "MULTI-TYPE")}
    assert colours == {"FIRE": "#c8322a", "WATER": "#2a62b8", "EARTH": "#3d8b37", "STORM": "#86cdee",
                       "DARK": "#4a2560", "LIGHT": "#f2d031", "COLOURLESS": "#e3d3ad", "MULTI-TYPE": "#c9a227"}
    spell = layout_face(templates("shmod"), Card("shmod", "Replenish", "spell", fields={"level": 2}))
    trap = layout_face(templates("shmod"), Card("shmod", "Yoink!", "trap", fields={"level": "X"}))
    assert (spell.ops[0].fill, trap.ops[0].fill) == ("#6e9469", "#8b7a99")


def test_an_inline_icon_sits_in_the_text_sized_to_it(scratch):
    write_template(scratch, "spell.toml", """
[[box]]
name = "text"
shape = "text"
at = [10, 10, 40, 20]
text = "Hit {KO} now"
size = 10
""")
    face = layout_face(load_templates(scratch, game("shmod")), Card("shmod", "S", "spell", fields={"level": 1}))
    hit, now = [r for r in runs(face) if r.size == 10]
    disc = next(op for op in face.ops if isinstance(op, Ellipse))
    # "Hit " is 1.7397 em of Vera: at 10 pt, 6.1375 mm; the icon starts 0.08 em (0.2822 mm) later,
    # is 1 em (3.5278 mm) square and centred on the capitals (cap height 0.7290 em)
    assert (hit.text, hit.x, hit.y) == ("Hit", 10.0, 13.2746)
    assert disc.x == pytest.approx(16.4197, abs=1e-4)
    assert disc.w == pytest.approx(3.5278, abs=1e-4)
    assert disc.y + disc.h / 2 == pytest.approx(13.2746 - 0.7290 * 10 * 25.4 / 72 / 2, abs=1e-3)
    assert now.x == pytest.approx(disc.x + disc.w + 0.2822 + 0.3178 * 10 * 25.4 / 72, abs=1e-3)


def test_a_character_the_main_font_lacks_comes_from_the_fallback_and_one_no_font_has_is_replaced():
    card = Card("shmod", "Жар-птица 漢", "spell", fields={"level": 1})
    face = layout_face(templates("shmod"), card)
    title = [r for r in runs(face) if r.size == 11.0 or r.text.startswith("Ж")]
    assert title[0].text.startswith("Жар") and title[0].font == NOTO
    assert any(r.text == REPLACEMENT for r in runs(face))
    assert face.warnings == ["Жар-птица 漢: no bundled font has '漢'; drawn as \ufffd"]


def test_the_placeholder_differs_for_every_card_and_is_coloured_by_type():
    ts = templates("shmod")

    def art(card: Card) -> list:
        return [op for op in layout_face(ts, card).ops if isinstance(op, Polygon)]

    assert art(monster("Blaze Drake")) == art(monster("Blaze Drake"))
    assert art(monster("Blaze Drake")) != art(monster("Cinder Hound"))
    fire = layout_face(ts, monster()).ops
    sky = next(op for op in fire if isinstance(op, Rect) and op.w == 45 and op.fill)
    assert sky.fill.startswith("#e") or sky.fill.startswith("#f")  # a light tint of red
    assert int(sky.fill[1:3], 16) > int(sky.fill[5:7], 16)  # more red than blue


def test_art_is_cropped_to_cover_its_box(scratch):
    from PIL import Image

    Image.new("RGB", (200, 100), "#123456").save(scratch / "rules" / "shmod" / "wide.png")
    card = monster()
    card.printings = [card.printings[0].__class__("base", "012", "rare", "wide.png")]
    face = layout_face(load_templates(scratch, game("shmod")), card)
    image = next(op for op in face.ops if isinstance(op, ImageOp))
    # the box is 45 x 36 mm (1.25:1); a 2:1 image keeps its full height and the middle 125 pixels
    assert (image.x, image.y, image.w, image.h, image.crop) == (7.0, 17.5, 45.0, 36.0, (37, 0, 162, 100))
    assert face.images == [str((scratch / "rules" / "shmod" / "wide.png").resolve())]


@pytest.mark.parametrize("game_id", ["ssbm", "shmod", "ssq", "minibattle", "website"])
def test_every_kind_and_the_back_have_a_template(game_id):
    ts = templates(game_id)
    assert sorted(ts.faces) == sorted(game(game_id).kinds)
    back = layout_back(ts)
    assert (back.width, back.height) == game(game_id).card_size_mm
