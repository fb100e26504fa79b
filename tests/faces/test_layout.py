"""The layout engine with exact numbers: where a title lands, the size text shrank to, where an icon sits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from carddb.core.cards.card import Card
from carddb.errors import TemplateError
from carddb.layout import Ellipse, ImageOp, Polygon, Rect, TextRun, layout_back, layout_face, load_templates
from carddb.layout.fonts import BUILTIN_STYLES, REPLACEMENT, font_metrics, game_styles

from .conftest import REPO, game, monster, templates, write_template

VERA_BOLD = str(BUILTIN_STYLES["bold"][0])
VERA = str(BUILTIN_STYLES["regular"][0])
NOTO = str(BUILTIN_STYLES["regular"][1])
MARCELLUS = str(game_styles(REPO, "shmod")["display"][0])  # shmod's display font (templates/shmod/fonts.toml)


def runs(face, box_text: str | None = None) -> list[TextRun]:
    return [op for op in face.ops if isinstance(op, TextRun)]


def test_title_lands_in_its_box_at_the_computed_baseline():
    face = layout_face(templates("shmod"), monster())
    found = {r.text: r for r in runs(face)}
    title, number = runs(face)[0], found["Shmod Base Set 012"]  # a line in one font is one run
    # box [5.56, 4.1, 47.88, 7.39] less the 0.5 mm kept left and right, Marcellus 11 pt, centred vertically:
    # height 11 * (1995 + 573) / 2048 pt = 4.8563 mm, top 5.3319 mm, baseline + 11 * 1995/2048 pt = 9.1422 mm
    assert (title.x, title.y, title.text, title.size, title.font) == (6.06, 9.1422, "Blaze Drake", 11.0, MARCELLUS)
    # the set line [4.58, 78.65, 26.38, 4.92] at the 6 pt floor for labels, 0.5 mm in: top 78.65 + (4.92 -
    # 2.4638) / 2, baseline 81.8428
    assert (number.x, number.y, number.size, number.font) == (5.08, 81.8428, 6.0, VERA)


def test_a_long_title_shrinks_to_fit_its_width():
    face = layout_face(templates("shmod"), monster("Tempestus, Sovereign of the Storm Sky", "STORM"))
    fit = face.fits[0]
    assert (fit.box, fit.size, fit.wanted, fit.overflow) == ("title", 7.5, 11.0, False)
    title = [r for r in runs(face) if r.size == 7.5]
    assert title[0].x == 6.06
    assert face.shrunk == [fit]


def test_text_that_cannot_fit_is_cut_with_an_ellipsis_and_reported():
    card = monster(name="x" * 300, type_="DARK")
    face = layout_face(templates("shmod"), card)
    fit = face.fits[0]
    assert (fit.box, fit.size, fit.overflow) == ("title", 7.0, True)  # a title never goes under 7 pt
    title = [r for r in runs(face) if r.size == 7.0]
    assert title[-1].text == "\u2026"
    assert face.overflowed == [fit]
    assert [(p.box, p.rule) for p in face.problems] == [("title", "overflow")]
    assert face.problems[0].message == ("title: does not fit at the title minimum of 7 pt; it needs 340.54 mm more "
                                        "width (text cut)")


def test_a_long_title_takes_two_lines_only_when_its_minimum_is_too_wide(scratch):
    write_template(scratch, "spell.toml", """
[[box]]
name = "title"
shape = "text"
at = [5, 3.5, 30, 9]
text = "{{ card.name }}"
font = "bold"
size = 11
min_size = 7
wrap = false
""")
    ts = load_templates(scratch, game("shmod"))
    short = layout_face(ts, Card("shmod", "Mana Surge", "spell", fields={"level": 1}))
    long = layout_face(ts, Card("shmod", "Sanctuary Ward of the Ancient Kings", "spell", fields={"level": 1}))
    assert [(r.text, r.size) for r in runs(short)] == [("Mana Surge", 11.0)]  # one line, full size
    lines = runs(long)
    assert [r.text for r in lines] == ["Sanctuary Ward of", "the Ancient Kings"]  # wrapped at a space
    assert lines[0].size == lines[1].size >= 7.0 and lines[1].y > lines[0].y
    assert long.problems == []


def test_sizes_under_a_role_floor_are_raised_and_noted(scratch):
    write_template(scratch, "spell.toml", """
[[box]]
name = "rules"
shape = "text"
at = [5, 10, 40, 30]
text = "{{ card.text }}"
size = 5
min_size = 4
[[box]]
name = "set"
shape = "text"
at = [5, 70, 40, 5]
text = "Base 1"
size = 4
wrap = false
""")
    ts = load_templates(scratch, game("shmod"))
    face = layout_face(ts, Card("shmod", "S", "spell", text="Draw a card.", fields={"level": 1}))
    assert {r.text: r.size for r in runs(face)} == {"Draw a card.": 6.5, "Base 1": 6.0}
    floors = [n.split(": ", 1)[1] for n in ts.notes if " floor for " in n]  # (the scratch has no icon set: noted too)
    assert floors == [
        "rules asks for min_size 4 pt, under the 6.5 pt floor for rules text; it is drawn at 6.5 pt at the least",
        "rules asks for size 5 pt, under the 6.5 pt floor for rules text; it is drawn at 6.5 pt at the least",
        "set asks for size 4 pt, under the 6 pt floor for label text; it is drawn at 6 pt at the least"]


def test_a_label_too_wide_for_its_box_says_by_how_much(scratch):
    write_template(scratch, "spell.toml", """
[[box]]
name = "intelligence-label"
shape = "text"
at = [5, 10, 13.25, 3]
text = "INTELLIGENCE"
font = "bold"
size = 6
wrap = false
""")
    face = layout_face(load_templates(scratch, game("shmod")), Card("shmod", "S", "spell", fields={"level": 1}))
    # "INTELLIGENCE" in Vera Bold at 6 pt is 16.89 mm wide: 4.64 mm more than its 13.25 mm box less the 0.5 mm
    # kept clear at each end
    assert [p.message for p in face.problems] == [
        "intelligence-label: does not fit at the label minimum of 6 pt; it needs 4.64 mm more width (text cut)"]


def test_the_letters_of_an_inline_icon_under_6_pt_are_reported(scratch):
    write_template(scratch, "spell.toml", """
[[box]]
name = "text"
shape = "text"
at = [5, 10, 40, 20]
text = "Needs {ip} 3"
size = 7.5
""")
    face = layout_face(load_templates(scratch, game("shmod")), Card("shmod", "S", "spell", fields={"level": 1}))
    assert [(p.box, p.rule) for p in face.problems] == [("text", "too-small")]
    assert "under the 6 pt minimum" in face.problems[0].message


def test_a_flag_printed_by_the_template_and_said_again_by_the_text_is_a_repeat():
    from carddb.layout.repeats import find_repeats

    assert [r.describe() for r in find_repeats([
        ("text", "Limit one per deck. This card cannot be removed from play by any means.\n"
                 "Limit one per deck.\nThis card cannot be removed from play by any means.")])] == [
        "'limit one per deck' is printed twice (text)",
        "'this card cannot be removed from play by any means' is printed twice (text)"]
    # a list restated in a sentence, and a material named twice
    assert [r.text for r in find_repeats([("interrupts", "Interrupts: attack, throw"),
                                          ("text", "Interrupt an attack or throw card: it deals no damage.")])] == [
        "attack throw"]
    assert [r.text for r in find_repeats([("text", "Granite Sentinel\nGranite Sentinel. Immunity to Spells.")])] == [
        "granite sentinel"]
    # the card's name in its own text, short stats and different facts are not repeats
    assert find_repeats([("title", "Natasha-The Defender"),
                         ("text", "You may play this card on another Natasha-The Defender."),
                         ("provides", "CP 5"), ("requires", "Requires: CP 5")], "Natasha-The Defender") == []


def test_bleed_grows_the_face_and_extends_the_background_only():
    face = layout_face(templates("shmod"), monster(), bleed_mm=3)
    assert (face.width, face.height, face.bleed, face.trim_size) == (65.0, 92.0, 3.0, (59.0, 86.0))
    assert face.ops[0] == Rect(0.0, 0.0, 65.0, 92.0, fill="#c8322a")
    assert face.ops[1].fill == "#2b2116" and (face.ops[1].w, face.ops[1].h) == (65.0, 92.0)  # the edge, too
    assert (face.ops[2].x, face.ops[2].y, face.ops[2].w) == (6.0, 6.0, 53.0)  # the frame stays 3 mm inside
    assert (runs(face)[0].x, runs(face)[0].y) == (9.06, 12.1422)
    art = next(op for op in face.ops if isinstance(op, Rect) and op.stroke and op.w == 43.97)  # the art frame
    assert (art.x, art.y) == (10.52, 20.89)


def test_shmod_background_is_the_type_colour():
    colours = {t: layout_face(templates("shmod"), monster(type_=t)).ops[0].fill
               for t in ("FIRE", "WATER", "EARTH", "STORM", "DARK", "LIGHT", "COLOURLESS", "MULTI-TYPE")}
    assert colours == {"FIRE": "#c8322a", "WATER": "#2a62b8", "EARTH": "#388033", "STORM": "#86cdee",
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
    # 0.5 mm in from the box's left edge (its padding unsaid); "Hit " is 1.7397 em of Vera: at 10 pt,
    # 6.1375 mm; the icon starts 0.08 em (0.2822 mm) later, is 1 em (3.5278 mm) square and centred on the
    # capitals (cap height 0.7290 em)
    assert (hit.text, hit.x, hit.y) == ("Hit", 10.5, 13.2746)
    assert disc.x == pytest.approx(16.9197, abs=1e-4)
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


def test_the_placeholder_is_a_hatch_with_a_motif_of_the_kind_coloured_by_type_and_no_text(scratch):
    ts = load_templates(scratch, game("shmod"))  # a workspace without the icon set: no symbols, the placeholder
    (said,) = [note for note in ts.notes if "icon set" in note]  # once, not on every face
    assert "@iconify-json/game-icons, which is not installed (run `npm ci --prefix" in said
    fire = layout_face(ts, monster("Blaze Drake"))
    x0, y0, x1, y1 = 7.52, 17.89, 7.52 + 43.97, 17.89 + 35.46  # the art box
    ground = next(op for op in fire.ops if isinstance(op, Rect) and op.w == 43.97 and op.fill)
    assert ground.fill.startswith("#e") or ground.fill.startswith("#f")  # a light tint of red
    assert int(ground.fill[1:3], 16) > int(ground.fill[5:7], 16)  # more red than blue
    inside = [op for op in fire.ops if getattr(op, "y", 0) > y0 and getattr(op, "y", 99) < y1
              and getattr(op, "x", 0) > x0 and getattr(op, "x", 99) < x1]
    assert [op.text for op in inside if isinstance(op, TextRun)] == []  # the name is in the title only
    # no star, sun or diamond: the ground, parallel stripes (four corners or fewer) and a monster's figure
    # (a round head on rounded shoulders), all inside the art box
    polygons = [op for op in fire.ops if isinstance(op, Polygon)]
    stripes, figure = polygons[:-1], polygons[-1]
    assert stripes and all(len(op.points) <= 5 for op in stripes)
    assert len(figure.points) == 17 and figure.fill != stripes[0].fill
    heads = [op for op in fire.ops if isinstance(op, Ellipse)]
    assert len(heads) == 1 and heads[0].w == heads[0].h and heads[0].fill == figure.fill
    for shape in polygons:
        assert all(x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6 for x, y in shape.points)
    water = layout_face(ts, monster("Blaze Drake", "WATER"))
    assert [op.points for op in water.ops if isinstance(op, Polygon)] == [op.points for op in polygons]
    spell = layout_face(ts, Card("shmod", "Replenish", "spell", fields={"level": 2}))
    hills = [op for op in spell.ops if isinstance(op, Polygon)][-2:]
    assert [len(h.points) for h in hills] == [3, 3] and hills[0].fill == hills[1].fill  # a spell: two hills
    assert not [op for op in spell.ops if isinstance(op, Ellipse)]


def test_art_is_cropped_to_cover_its_box(scratch):
    from PIL import Image

    Image.new("RGB", (200, 100), "#123456").save(scratch / "rules" / "shmod" / "wide.png")
    card = monster()
    card.printings = [card.printings[0].__class__("base", "012", "rare", "wide.png")]
    face = layout_face(load_templates(scratch, game("shmod")), card)
    image = next(op for op in face.ops if isinstance(op, ImageOp))
    # the box is 43.97 x 35.46 mm (1.24:1); a 2:1 image keeps its full height and the middle 124 pixels
    assert (image.x, image.y, image.w, image.h, image.crop) == (7.52, 17.89, 43.97, 35.46, (38, 0, 162, 100))
    assert face.images == [str((scratch / "rules" / "shmod" / "wide.png").resolve())]


@pytest.mark.parametrize("game_id", ["ssbm", "shmod", "ssq", "minibattle", "website"])
def test_every_kind_and_the_back_have_a_template(game_id):
    ts = templates(game_id)
    assert sorted(ts.faces) == sorted(game(game_id).kinds)
    back = layout_back(ts)
    assert (back.width, back.height) == game(game_id).card_size_mm


def test_text_within_half_a_millimetre_of_its_box_edge_is_flagged(scratch):
    """Unsaid, a text box keeps its letters 0.5 mm from its left and right edges; a padding of 0 lets them touch,
    and the layout report says which edge and by how much (``render --strict`` fails on it, as on every rule)."""
    write_template(scratch, "spell.toml", """
[[box]]
name = "kept"
shape = "text"
at = [10, 10, 30, 6]
text = "ATK 24"
size = 8
wrap = false
align = "right"
valign = "middle"

[[box]]
name = "touching"
shape = "text"
at = [10, 20, 30, 6]
text = "DEF 12"
size = 8
wrap = false
align = "right"
valign = "middle"
padding = 0
""")
    face = layout_face(load_templates(scratch, game("shmod")), Card("shmod", "S", "spell", fields={"level": 1}))
    kept = next(r for r in runs(face) if r.text == "ATK 24")
    assert kept.x + font_metrics(kept.font).width(kept.text) * 8 * 25.4 / 72 == pytest.approx(39.5, abs=1e-3)
    assert [(p.box, p.rule, p.message) for p in face.problems] == [
        ("touching", "edge", "touching: its text is 0.00 mm from the box's right edge, under 0.5 mm")]


def test_a_display_font_comes_from_its_package_or_a_workspace_file_and_a_mistake_is_named(scratch):
    fonts = scratch / "templates" / "shmod" / "fonts.toml"
    styles = load_templates(scratch, game("shmod")).fonts.styles
    assert Path(styles["display"][0]).name == "Marcellus-Regular.ttf" and styles["display"][1:] == (NOTO,)
    (scratch / "fonts").mkdir()
    (scratch / "fonts" / "Stamp.ttf").write_bytes(Path(VERA_BOLD).read_bytes())
    fonts.write_text('display = "marcellus"\nstamp = "fonts/Stamp.ttf"\n')
    assert load_templates(scratch, game("shmod")).fonts.chain("stamp")[0] == str(scratch / "fonts" / "Stamp.ttf")
    for text, message in [('display = "no-such-family"\n', "the font package fontpkg-no-such-family is not installed "
                                                          "(pip install fontpkg-no-such-family)"),
                          ('display = "../x.ttf"\n', "display: no font file '../x.ttf' inside the workspace"),
                          ('Display = "marcellus"\n', "'Display' is not a style name")]:
        fonts.write_text(text)
        with pytest.raises(TemplateError, match=re.escape(message)):
            load_templates(scratch, game("shmod"))


def test_wrapping_text_shrinks_before_it_breaks_a_word(scratch):
    """"POW" in Vera Bold 12 pt is 10.9 mm: in a box 10.5 mm wide inside its padding it is set smaller, whole,
    rather than broken into "PO" and "W"."""
    write_template(scratch, "spell.toml", """
[[box]]
name = "labels"
shape = "text"
at = [10, 10, 11.5, 20]
text = "AGI\\nPOW\\nEND"
font = "bold"
size = 12
""")
    face = layout_face(load_templates(scratch, game("shmod")), Card("shmod", "S", "spell", fields={"level": 1}))
    assert [r.text for r in runs(face)] == ["AGI", "POW", "END"]
    assert face.fits[0].size < 12 and face.problems == []


def test_a_card_without_art_shows_the_symbol_its_template_names_filled_by_the_nonzero_rule():
    from carddb.layout.icon_set import load_icon_set
    from carddb.layout.ops import Contours
    from carddb.layout.svg_path import winding

    ts = templates("shmod")
    if load_icon_set(ts.root) is None:
        pytest.skip("the icon set is not installed (npm ci --prefix site)")
    warrior = layout_face(ts, monster("Blade", categories=["Fusion", "Warrior"]))  # Fusion has no symbol: Warrior
    (symbol,) = [op for op in warrior.ops if isinstance(op, Contours) and not op.texture and op.fill != "#e2d29c"]
    side = 35.46 * 0.72  # 72 % of the art box's height, centred in it
    left, top = 7.52 + (43.97 - side) / 2, 17.89 + (35.46 - side) / 2
    assert symbol.contours == tuple(tuple((round(left + u * side, 4), round(top + v * side, 4)) for u, v in contour)
                                    for contour in ts.icon_set.contours("crossed-swords"))
    assert symbol.fill == "#9c2721"  # FIRE's deep tone (symbol_colour)
    # the gears' hub is a hole: a contour turning the other way, so the nonzero rule leaves it empty
    gears = ts.icon_set.contours("gears")
    wound = {(x, y): winding(gears, x / 20, y / 20) for x in range(20) for y in range(20)}
    assert wound[(10, 10)] != 0 and 0 in wound.values()
    other = layout_face(ts, monster("Blade", categories=["Dragon"]))
    assert [op for op in other.ops if isinstance(op, Contours) and op.contours == symbol.contours] == []
