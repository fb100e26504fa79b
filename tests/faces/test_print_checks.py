"""The print rules of the layout report: the safe zone, the contrast of text, and a placeholder with no words."""

from __future__ import annotations

import pytest
from PIL import Image

from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import load_game
from carddb.errors import CarddbError
from carddb.layout import FaceLayout, TextRun, layout_face, load_templates
from carddb.layout.placeholder import placeholder_ops
from carddb.layout.print_checks import contrast_ratio
from carddb.paint.raster import render_image

from .conftest import game, monster, write_template

SPELL = Card("shmod", "Replenish", "spell", text="Draw 2 cards.", fields={"level": 1},
             printings=[Printing("base", "S01", "common")])
#: A designer's spell: a yellow frame and white text on it.
YELLOW_FRAME = '''background = "#1b1408"
[[box]]
name = "frame"
shape = "rect"
at = [4, 4, 51, 78]
fill = "#f2c21b"
radius = 2
[[box]]
name = "title"
shape = "text"
at = [6, 6, 47, 8]
text = "{{ card.name }}"
font = "bold"
size = 11
wrap = false
colour = "#ffffff"
'''


def problems(face, rule: str) -> list[str]:
    return [p.message for p in face.problems if p.rule == rule]


def test_the_contrast_ratio_is_the_wcag_formula():
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the famous near miss
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio("#c62f26", "#c62f26") == pytest.approx(1.0)


def test_white_text_on_a_yellow_frame_is_flagged_with_its_ratio(scratch):
    write_template(scratch, "spell.toml", YELLOW_FRAME)
    face = layout_face(load_templates(scratch, game("shmod")), SPELL)
    assert problems(face, "contrast") == ["title: text #ffffff on #f2c21b, a contrast of 1.68:1, under 4.5:1"]
    assert [(c.box, c.colour, c.behind, round(c.ratio, 2)) for c in face.contrasts] == [
        ("title", "#ffffff", "#f2c21b", 1.68)]


def test_render_strict_fails_on_a_yellow_frame_with_white_text(cli, scratch, tmp_path):
    (scratch / "rules" / "shmod" / "cards").mkdir(exist_ok=True)
    (scratch / "rules" / "shmod" / "cards" / "one.yaml").write_text(
        "cards:\n  - name: Replenish\n    kind: spell\n    level: 1\n    text: Draw 2 cards.\n"
        "    printings: [{set: base, number: S01, rarity: common}]\n", encoding="utf-8")
    for kind in ("monster", "trap"):
        (scratch / "templates" / "shmod" / f"{kind}.toml").unlink()  # only the spell is drawn
    clean = cli("render", "--game", "shmod", "--out", str(tmp_path / "a"), "--dpi", "30", "--strict",
                root=str(scratch), db=str(tmp_path / "a.db"))
    assert clean.exit_code == 0, clean.stdout + clean.stderr
    write_template(scratch, "spell.toml", YELLOW_FRAME)
    result = cli("render", "--game", "shmod", "--out", str(tmp_path / "b"), "--dpi", "30", "--strict",
                 root=str(scratch), db=str(tmp_path / "b.db"))
    assert result.exit_code == 1
    assert "  contrast: Replenish: title: text #ffffff on #f2c21b, a contrast of 1.68:1, under 4.5:1\n" \
        in result.stdout
    error = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and result.stderr.count("\n") == 1
    assert "Replenish" in error[0] and "title" in error[0] and "1.68:1" in error[0]
    assert sorted(p.name for p in (tmp_path / "b" / "shmod").glob("*.png")) == ["back.png", "replenish.png"]


def test_text_and_lines_in_the_safe_zone_are_flagged_and_a_game_may_widen_it(scratch):
    write_template(scratch, "spell.toml", '''background = "#ffffff"
[[box]]
name = "keyline"
shape = "rect"
at = [1.5, 1.5, 55, 82]
stroke = "#000000"
stroke_width = 0.4
[[box]]
name = "edge-to-edge"
shape = "rect"
at = [0, 0, 59, 20]
fill = "#dddddd"
[[box]]
name = "title"
shape = "text"
at = [4, 4, 40, 8]
text = "{{ card.name }}"
size = 9
wrap = false
''')
    face = layout_face(load_templates(scratch, game("shmod")), SPELL)
    # a fill running off the card is what the bleed is for; the keyline is not; the title is 4 mm in
    assert problems(face, "safe-zone") == [
        "keyline: its line is 1.30 mm from the left trim, inside the 3 mm safe zone (1.70 mm too far out)"]
    toml = scratch / "rules" / "shmod" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[print]\nsafe_zone_mm = 5\n", encoding="utf-8")
    wider = layout_face(load_templates(scratch, load_game(scratch / "rules" / "shmod")), SPELL)
    assert [m.split(":")[0] for m in problems(wider, "safe-zone")] == ["keyline", "title"]
    assert "inside the 5 mm safe zone" in problems(wider, "safe-zone")[1]
    toml.write_text(toml.read_text(encoding="utf-8").replace("safe_zone_mm = 5", "safe_zone_mm = 50"),
                    encoding="utf-8")
    with pytest.raises(CarddbError, match=r"print.safe_zone_mm.*between 0 and 20 mm"):
        load_game(scratch / "rules" / "shmod")


def test_text_on_art_is_judged_by_the_pixels_under_it(scratch):
    write_template(scratch, "spell.toml", '''background = "#333333"
[[box]]
name = "art"
shape = "art"
at = [4, 4, 51, 40]
[[box]]
name = "caption"
shape = "text"
at = [6, 30, 47, 8]
text = "{{ card.name }}"
size = 9
wrap = false
colour = "#ffffff"
''')
    folder = scratch / "rules" / "shmod"
    light = Image.new("RGB", (200, 160), "#101010")
    light.paste((250, 250, 245), (0, 100, 200, 160))  # the lower part, under the caption, is pale
    light.save(folder / "pale.png")
    Image.new("RGB", (200, 160), "#101010").save(folder / "dark.png")
    ts = load_templates(scratch, game("shmod"))
    on_pale = layout_face(ts, Card("shmod", "Replenish", "spell", fields={"level": 1},
                                   printings=[Printing("base", "S01", "common", "pale.png")]))
    assert [m.split(" on #")[0] for m in problems(on_pale, "contrast")] == ["caption: text #ffffff"]
    assert on_pale.contrasts[0].ratio < 1.1  # white on the pale part of the picture, not on its dark top
    on_dark = layout_face(ts, Card("shmod", "Replenish", "spell", fields={"level": 1},
                                   printings=[Printing("base", "S01", "common", "dark.png")]))
    assert problems(on_dark, "contrast") == []
    assert on_dark.contrasts[0].ratio > 15


def test_the_placeholder_draws_a_motif_and_no_text():
    for motif in ("figure", "landscape"):
        ops = placeholder_ops(0.0, 0.0, 45.0, 36.0, "#c8322a", motif)
        assert not [op for op in ops if isinstance(op, TextRun)]
        # read back: the picture has its three tints and nothing else (no letters in another ink)
        image = render_image(FaceLayout(45.0, 36.0, 0.0, list(ops)), 100)
        colours = {colour for _count, colour in image.getcolors(10_000)}
        fills = {op.fill for op in ops}
        assert {"#{:02x}{:02x}{:02x}".format(*c) for c in colours} - {"#ffffff"} == fills and len(fills) == 3
    figure = placeholder_ops(0.0, 0.0, 45.0, 36.0, "#c8322a", "figure")
    hills = placeholder_ops(0.0, 0.0, 45.0, 36.0, "#c8322a", "landscape")
    assert figure[-2:] != hills[-2:]


def test_a_card_without_art_prints_its_name_once(scratch):
    face = layout_face(load_templates(scratch, game("shmod")), monster("Blaze Drake"))
    assert [op.text for op in face.ops if isinstance(op, TextRun) and "Blaze" in op.text] == ["Blaze Drake"]
