"""Every face of the five games, read back from a vector PDF: nothing printed twice, nothing too small to read.

Each game's faces (every card of its starter catalogue and its back) are drawn one to a page of a vector PDF
by the same painter the proxy sheets use; the test then reads the characters back with pdfplumber and judges
what a player would read: the font size of every letter, and the sentences, phrases and lists of each face.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from carddb.layout import TextRun, layout_back, layout_face, load_templates
from carddb.layout.repeats import find_repeats
from carddb.layout.roles import ROLE_MINIMUM_PT
from carddb.paint.vector import draw_face

from .pdftext import MM, blocks_of, page_chars

REPO = Path(__file__).resolve().parents[2]
GAMES = ("minibattle", "shmod", "ssbm", "ssq", "website")


@pytest.fixture(scope="module")
def faces(catalogue, tmp_path_factory):
    """game -> (cards, layouts, characters read back from each page), the back last."""
    folder = tmp_path_factory.mktemp("every-face")
    found = {}
    for game_id in GAMES:
        game = catalogue.game(game_id)
        cards = catalogue.cards(game_id)
        templates = load_templates(REPO, game)
        layouts = [layout_face(templates, card) for card in cards] + [layout_back(templates)]
        path = folder / f"{game_id}.pdf"
        canvas = Canvas(str(path), invariant=1)
        for face in layouts:
            canvas.setPageSize((face.width * mm, face.height * mm))
            # Only the text is drawn: the characters read back are the same (a text run's letters, sizes and
            # places do not depend on the shapes under it), and the textures and dot screens, thousands of paths
            # a face, made pdfplumber's reading 12 times as slow (19 s against 1.4 s for minibattle).
            draw_face(canvas, replace(face, ops=[op for op in face.ops if isinstance(op, TextRun)]), 0.0, 0.0)
            canvas.showPage()
        canvas.save()
        found[game_id] = (cards, layouts, page_chars(path))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_no_face_prints_a_sentence_or_list_twice(faces, game_id):
    cards, _layouts, pages = faces[game_id]
    names = [card.name for card in cards] + [""]
    repeats = {}
    for name, chars in zip(names, pages, strict=True):
        blocks = [("block", block.text) for block in blocks_of(chars)]
        found = find_repeats(blocks, name)
        if found:
            repeats[name or "(back)"] = [r.text for r in found]
    assert repeats == {}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_letter_is_at_least_its_roles_minimum_in_the_pdf(faces, game_id):
    cards, layouts, pages = faces[game_id]
    assert len(pages) == len(cards) + 1
    too_small = []
    for face, chars, label in zip(layouts, pages, [c.key for c in cards] + ["(back)"], strict=True):
        runs = [op for op in face.ops if isinstance(op, TextRun) and op.text.strip()]
        assert chars, label
        for char in chars:
            if not char["text"].strip():
                continue
            run = _run_at(runs, char, face.height)
            floor = ROLE_MINIMUM_PT[run.role]
            if char["size"] < floor - 0.01:
                too_small.append((label, char["text"], round(char["size"], 2), run.role))
        assert min(c["size"] for c in chars) >= 6.0 - 0.01, label  # labels, stats and symbols: 6 pt
    assert too_small == []


def _run_at(runs: list[TextRun], char: dict, face_height: float) -> TextRun:
    """The layout's run that drew a PDF character: same baseline, the character inside its extent."""
    x_mm, base_mm = char["x0"] * MM, char["bottom"] * MM
    near = [r for r in runs if abs(r.y - base_mm) < r.size * 0.45 * MM and r.x - 0.05 <= x_mm]
    assert near, (char["text"], x_mm, base_mm)
    return max(near, key=lambda r: r.x)


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_text_is_printed_at_6_5_pt_or_more_and_no_face_breaks_a_rule(faces, game_id):
    cards, layouts, _pages = faces[game_id]
    rules_sizes = [op.size for face in layouts for op in face.ops if isinstance(op, TextRun) and op.role == "rules"]
    assert rules_sizes and min(rules_sizes) >= 6.5
    problems = {label: [p.message for p in face.problems]
                for face, label in zip(layouts, [c.key for c in cards] + ["(back)"], strict=True) if face.problems}
    assert problems == {}
    assert all(not f.overflow for face in layouts for f in face.fits)


def test_the_raster_draws_the_same_sizes(faces, monkeypatch):
    """The PNG painter asks for every letter at its layout size, at the image's resolution."""
    from carddb.paint import raster

    asked: list[float] = []
    real = raster._font

    def spy(path: str, px: float):
        asked.append(px)
        return real(path, px)

    monkeypatch.setattr(raster, "_font", spy)
    dpi = 300
    for game_id in GAMES:
        _cards, layouts, _pages = faces[game_id]
        raster._word_mask.cache_clear()  # words rendered before are stamped from the cache, not asked again
        raster.render_image(layouts[0], dpi)
        smallest = min(op.size for op in layouts[0].ops if isinstance(op, TextRun))
        assert min(asked) >= smallest * dpi / 72 - 0.01 >= 6.0 * dpi / 72 - 0.01
        asked.clear()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_field_the_game_says_a_face_prints_changes_the_face(catalogue, game_id):
    """``face`` in game.toml is a promise: take the field away and the face no longer looks the same."""
    game = catalogue.game(game_id)
    templates = load_templates(REPO, game)
    silent = []
    for card in catalogue.cards(game_id):
        kind = game.kinds[card.kind]
        whole = layout_face(templates, card).ops
        for key in kind.face:
            value = card.fields.get(key)
            if value in (None, "", [], {}, False):
                continue
            without = _without(card, key, game.fields[key].type)
            if layout_face(templates, without).ops == whole:
                silent.append((card.key, key))
    assert silent == []


def _without(card, key: str, field_type: str):
    fields = dict(card.fields)
    if field_type == "bool":
        fields[key] = False
    else:
        fields.pop(key)
    return type(card)(card.game, card.name, card.kind, text=card.text, flavor=card.flavor, fields=fields,
                      printings=card.printings, qualifier=card.qualifier)


def test_the_reader_catches_a_fact_said_by_both_the_text_and_a_field(catalogue, tmp_path):
    """The check is not blind: the faces the review found (text repeating a printed field) fail it."""
    from carddb.paint.vector import face_pdf

    from .pdftext import blocks_of, page_chars

    def repeated(game_id: str, name: str, text: str) -> list[str]:
        game = catalogue.game(game_id)
        card = next(c for c in catalogue.cards(game_id) if c.name == name)
        old = type(card)(card.game, card.name, card.kind, text=text, fields=card.fields, printings=card.printings,
                         qualifier=card.qualifier)
        path = face_pdf(layout_face(load_templates(REPO, game), old), tmp_path / f"{game_id}.pdf")
        (chars,) = page_chars(path)
        return [r.text for r in find_repeats([("b", b.text) for b in blocks_of(chars)], name)]

    def caught(found: list[str], *phrases: str) -> bool:
        """Each phrase reported, whole or in part (a wrapped line may cut a sentence into two units)."""
        return all(any(hit in phrase for hit in found) for phrase in phrases) and bool(found)

    assert caught(repeated("website", "Dedicated Server", "Limit one per deck. This card cannot be removed from "
                                                          "play by any means."),
                  "limit one per deck", "this card cannot be removed from play by any means")
    assert caught(repeated("shmod", "Granite Behemoth", "Granite Sentinel. Immunity to Spells."), "granite sentinel")
    assert caught(repeated("ssbm", "Power Block", "Interrupt an attack or throw card: it deals no damage."),
                  "attack throw")
    assert repeated("ssbm", "Power Block", "The interrupted card deals no damage.") == []


@pytest.mark.parametrize("game_id", GAMES)
def test_no_line_or_letter_is_in_the_safe_zone_and_all_text_reaches_4_5_to_1(faces, game_id):
    """The print rules of the layout report on every face: every text box has its contrast measured."""
    cards, layouts, _pages = faces[game_id]
    labels = [c.key for c in cards] + ["(back)"]
    flagged = [(label, p.message) for face, label in zip(layouts, labels, strict=True) for p in face.problems
               if p.rule in ("safe-zone", "contrast")]
    assert flagged == []
    for face, label in zip(layouts, labels, strict=True):
        text_boxes = {box for box, text in face.blocks if text.strip()}
        assert text_boxes <= {c.box for c in face.contrasts}, label
        assert min(c.ratio for c in face.contrasts) >= 4.5, label


def test_minibattle_hp_is_its_biggest_number_and_its_stage_line_one_line(faces):
    cards, layouts, _pages = faces["minibattle"]
    for card, face in zip(cards, layouts, strict=False):
        numbers = [op for op in face.ops if isinstance(op, TextRun) and any(ch.isdigit() for ch in op.text)]
        biggest = max(numbers, key=lambda op: op.size)
        assert biggest.text == f"HP {card.get('hp')}", card.key
        stage = [op for op in face.ops if isinstance(op, TextRun) and op.role == "label" and 11 < op.y < 17.5]
        assert len({op.y for op in stage}) == 1, card.key  # wrap = false: one line, never two


DISPLAY_FONTS = {"minibattle": "LilitaOne", "shmod": "Marcellus", "ssbm": "RussoOne", "ssq": "TitanOne",
                 "website": "Righteous"}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_vector_sheet_embeds_a_display_font_of_its_own_beside_the_body_font(catalogue, tmp_path,
                                                                                          game_id):
    """A sheet of a few cards and their backs, its embedded fonts read back with pypdf: the game's display font
    (templates/<game>/fonts.toml) and no other game's, beside Vera, the body font."""
    from pypdf import PdfReader

    from carddb.paint.print_job import print_cards
    from carddb.paint.print_options import PrintOptions

    cards = catalogue.cards(game_id)[:4]
    out = tmp_path / f"{game_id}.pdf"
    print_cards(REPO, catalogue.game(game_id), cards, out, PrintOptions(layout="duplex-long"))
    embedded = set()
    for page in PdfReader(out).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            descriptor = font.get_object().get("/FontDescriptor")
            if descriptor is not None and "/FontFile2" in descriptor.get_object():
                embedded.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    families = {name.split("-")[0] for name in embedded}  # PostScript names: LilitaOne, Marcellus-Regular ...
    assert DISPLAY_FONTS[game_id] in families and "BitstreamVeraSans" in families, embedded
    assert not families & (set(DISPLAY_FONTS.values()) - {DISPLAY_FONTS[game_id]})
