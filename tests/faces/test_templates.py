"""Template errors name the file and the line; nothing else is accepted silently."""

from __future__ import annotations

import pytest

from carddb.core.cards.card import Card
from carddb.errors import TemplateError
from carddb.layout import layout_face, load_templates

from .conftest import game, monster, write_template

SPELL = Card("shmod", "Replenish", "spell", fields={"level": 2})


def error(root) -> str:
    with pytest.raises(TemplateError) as caught:
        load_templates(root, game("shmod"))
    return str(caught.value)


def test_a_jinja_syntax_error_names_file_and_line(scratch):
    path = write_template(scratch, "spell.toml", '# a comment\n\n[[box]]\nshape = "text"\nat = [1, 1, 10, 10]\n'
                                                 'text = "{{ card.name "\n')
    assert error(scratch).startswith(f"{path}:6: template syntax error: ")


def test_an_unknown_field_names_file_line_and_the_fields_there_are(scratch):
    path = write_template(scratch, "spell.toml", '[[box]]\nshape = "text"\nat = [1, 1, 10, 10]\n'
                                                 'text = "LV {{ card.levle }}"\n')
    message = error(scratch)
    assert message.startswith(f"{path}:4: unknown field card.levle (shmod fields: atk, categories, def, level,")


def test_an_unknown_key_or_shape_or_palette_is_refused(scratch):
    path = write_template(scratch, "spell.toml", '[[box]]\nshape = "text"\nat = [1, 1, 10, 10]\ncolor = "#000000"\n')
    assert error(scratch).startswith(f"{path}:4: unknown key 'color' for a text box")
    write_template(scratch, "spell.toml", '[[box]]\nshape = "circle"\nat = [1, 1, 10, 10]\n')
    assert error(scratch).startswith(f"{path}:1: box needs a shape, one of rect, ellipse")
    write_template(scratch, "spell.toml", 'background = "{{ pick(\'tpye\', card.type) }}"\n')
    assert error(scratch) == f"{path}:1: no palette 'tpye' (palettes: none)"


def test_a_template_for_a_kind_the_game_lacks_is_refused(scratch):
    path = write_template(scratch, "monstr.toml", "")
    assert error(scratch) == (f"{path}: shmod has no card kind 'monstr' (kinds: monster, spell, trap; "
                              "the card back is back.toml)")


def test_bad_toml_and_a_bad_colour(scratch):
    path = write_template(scratch, "spell.toml", "[[box]\n")
    assert error(scratch).startswith(f"{path}: not valid TOML")
    write_template(scratch, "spell.toml", '[[box]]\nshape = "rect"\nat = [1, 1, 10, 10]\nfill = "red"\n')
    ts = load_templates(scratch, game("shmod"))
    with pytest.raises(TemplateError, match=r"spell.toml:1: fill: 'red' is not a colour; write it as \"#rrggbb\""):
        layout_face(ts, SPELL)


def test_a_missing_kind_template_is_reported_when_a_card_needs_it(scratch):
    (scratch / "templates" / "shmod" / "trap.toml").unlink()
    ts = load_templates(scratch, game("shmod"))
    with pytest.raises(TemplateError, match=r"trap.toml: no template for shmod cards of kind 'trap'"):
        layout_face(ts, Card("shmod", "Yoink!", "trap", fields={"level": 1}))
    assert layout_face(ts, monster()).ops  # the other kinds still draw


def test_a_box_named_like_one_it_extends_replaces_it(scratch):
    write_template(scratch, "spell.toml", 'extends = "_frame.toml"\n[[box]]\nname = "title"\nshape = "text"\n'
                                          'at = [5, 3.5, 49, 7.5]\ntext = "X {{ card.name }}"\n')
    face = layout_face(load_templates(scratch, game("shmod")), SPELL)
    assert [f.box for f in face.fits][:1] == ["title"]
    # the title box replaced in place (the art placeholder writes nothing)
    assert [op.text for op in face.ops if getattr(op, "text", "").endswith("Replenish")] == ["X Replenish"]
