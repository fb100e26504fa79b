"""Rendering faces to files: incremental, safe file names, bad art, the command line."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

from PIL import Image

from carddb.core.cards.card import Card, Printing
from carddb.paint.render import face_path, render_faces

from .conftest import game, monster

DPI = 40


def cards() -> list[Card]:
    return [monster("Blaze Drake"), monster("Coral Warden", "WATER"),
            Card("shmod", "Replenish", "spell", text="Draw 2 cards.", fields={"level": 2})]


def mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if not p.name.startswith(".")}


def test_faces_are_written_and_then_reused(scratch, tmp_path):
    out = tmp_path / "faces"
    first = render_faces(scratch, game("shmod"), cards(), out, dpi=DPI)
    assert sorted(first.drawn) == ["(card back)", "Blaze Drake", "Coral Warden", "Replenish"]
    assert first.reused == []
    assert sorted(p.name for p in (out / "shmod").iterdir()) == [
        ".build-inputs.json", "back.png", "blaze-drake.png", "coral-warden.png", "replenish.png"]
    with Image.open(out / "shmod" / "blaze-drake.png") as image:
        assert image.size == (round(59 * DPI / 25.4), round(86 * DPI / 25.4))
    second = render_faces(scratch, game("shmod"), cards(), out, dpi=DPI)
    assert second.drawn == [] and len(second.reused) == 4


def test_changing_one_card_redraws_exactly_its_face(scratch, tmp_path):
    out = tmp_path / "faces"
    render_faces(scratch, game("shmod"), cards(), out, dpi=DPI)
    before = mtimes(out / "shmod")
    changed = cards()
    changed[1].text = "A new text."
    report = render_faces(scratch, game("shmod"), changed, out, dpi=DPI)
    assert report.drawn == ["Coral Warden"]
    after = mtimes(out / "shmod")
    assert [name for name in after if after[name] != before[name]] == ["coral-warden.png"]


def test_changing_a_template_redraws_its_kind_and_a_new_dpi_redraws_all(scratch, tmp_path):
    out = tmp_path / "faces"
    render_faces(scratch, game("shmod"), cards(), out, dpi=DPI)
    spell = scratch / "templates" / "shmod" / "spell.toml"
    spell.write_text(spell.read_text().replace('background = "#6e9469"', 'background = "#6e9470"'))
    assert render_faces(scratch, game("shmod"), cards(), out, dpi=DPI).drawn == ["Replenish"]
    frame = scratch / "templates" / "shmod" / "_frame.toml"
    frame.write_text(frame.read_text() + "\n")
    assert len(render_faces(scratch, game("shmod"), cards(), out, dpi=DPI).drawn) == 3  # not the back
    assert len(render_faces(scratch, game("shmod"), cards(), out, dpi=DPI + 1).drawn) == 4


def test_a_deleted_face_file_is_drawn_again(scratch, tmp_path):
    out = tmp_path / "faces"
    render_faces(scratch, game("shmod"), cards(), out, dpi=DPI)
    (out / "shmod" / "replenish.png").unlink()
    assert render_faces(scratch, game("shmod"), cards(), out, dpi=DPI).drawn == ["Replenish"]


def test_unsafe_names_never_leave_the_output_folder(scratch, tmp_path):
    out = tmp_path / "out"
    names = ["../x", "a/b", "CON", "Yoink!", "Back", "..", "/etc/passwd"]
    spells = [Card("shmod", n, "spell", fields={"level": 1}) for n in names]
    report = render_faces(scratch, game("shmod"), spells, out, dpi=DPI)
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.png"))
    # Readable where the name allows; a reserved name (the back, a Windows device) or one with no letters
    # left gets the hash of the card's name instead.
    pattern = re.compile(r"out/shmod/(a-b|back|back-[0-9a-f]{6}|card-[0-9a-f]{6}|con-[0-9a-f]{6}|etc-passwd|x|yoink)"
                         r"\.png")
    assert len(written) == 8 and all(pattern.fullmatch(p) for p in written), written
    assert len(report.drawn) == 8
    assert face_path(out, "../../evil", "x", "jpg") == (out / "evil" / "x.jpg").resolve()


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares its size but holds no pixels: enough for a size check, never decodable."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"") + chunk(b"IEND", b"")


def test_missing_corrupt_huge_and_outside_art_draw_a_placeholder_and_say_why(scratch, tmp_path):
    art = scratch / "rules" / "shmod"
    (art / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really a png")
    (art / "huge.png").write_bytes(_png_header_only(20000, 20000))
    (art / "big.png").write_bytes(_png_header_only(8000, 7000))  # under Pillow's bomb limit, over ours
    (scratch.parent / "outside.png").write_bytes(b"")  # beside the workspace, not in it
    Image.new("RGB", (300, 200), "#00ff00").save(art / "good.png")
    files = ["missing.png", "corrupt.png", "huge.png", "../../../outside.png", "big.png", "good.png"]
    spells = [Card("shmod", f"Card {i}", "monster", fields={"type": "FIRE", "atk": 1, "def": 1, "level": 1},
                   printings=[Printing("base", str(i), "", f)]) for i, f in enumerate(files)]
    report = render_faces(scratch, game("shmod"), spells, tmp_path / "faces", dpi=DPI)
    assert sorted(report.warnings) == [
        "Card 0: art 'missing.png' was not found; drawn a placeholder",
        "Card 1: art 'corrupt.png' is not a readable image; drawn a placeholder",
        "Card 2: art 'huge.png' is too big (more than 50 million pixels); drawn a placeholder",
        "Card 3: art '../../../outside.png' is outside the workspace; drawn a placeholder",
        "Card 4: art 'big.png' is too big (more than 50 million pixels); drawn a placeholder",
    ]
    with Image.open(tmp_path / "faces" / "shmod" / "card-5.png") as image:
        centre = image.getpixel((round(29.5 * DPI / 25.4), round(35 * DPI / 25.4)))
    assert centre == (0, 255, 0)  # the real art, drawn in its box


def test_the_render_command(cli, tmp_path):
    result = cli("render", "--game", "minibattle", "--out", str(tmp_path), "--dpi", "30", "--file-format", "jpg")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"minibattle: drew 68 faces, reused 0, in {tmp_path / 'minibattle'}\n")
    assert "  shrunk: " in result.stdout
    assert len(list((tmp_path / "minibattle").glob("*.jpg"))) == 68
    again = cli("render", "--game", "minibattle", "--out", str(tmp_path), "--dpi", "30", "--file-format", "jpg")
    assert again.stdout.startswith("minibattle: drew 0 faces, reused 68")
    bad = cli("render", "--game", "minibattle", "--out", str(tmp_path), "--file-format", "gif")
    assert (bad.exit_code, bad.stderr) == (2, "Error: unknown image format 'gif' (use png or jpg)\n")


def test_strict_rendering_fails_on_a_face_that_breaks_a_legibility_rule(cli, scratch, tmp_path):
    """The layout report names the card, the box and by how much; --strict makes it an error (exit 1)."""
    import shutil

    from .conftest import write_template

    shutil.copytree(Path(__file__).resolve().parents[2] / "rules" / "shmod" / "cards", scratch / "rules" / "shmod" /
                    "cards")
    clean = cli("render", "--game", "shmod", "--out", str(tmp_path / "a"), "--dpi", "20", "--strict",
                root=str(scratch), db=str(tmp_path / "a.db"))
    assert clean.exit_code == 0, clean.stdout + clean.stderr
    write_template(scratch, "spell.toml", 'extends = "_frame.toml"\n[[box]]\nname = "level"\nshape = "text"\n'
                                          'at = [4, 11.6, 5, 5]\ntext = "LEVEL {{ card.level }}"\nfont = "bold"\n'
                                          'size = 6\nwrap = false\n')
    result = cli("render", "--game", "shmod", "--out", str(tmp_path / "b"), "--dpi", "20", "--strict",
                 root=str(scratch), db=str(tmp_path / "b.db"))
    assert result.exit_code == 1
    assert "  overflow: Replenish: level: does not fit at the label minimum of 6 pt; it needs 5.44 mm more width " \
           "(text cut)\n" in result.stdout
    assert result.stderr.startswith("Error: 13 faces of shmod break a legibility rule (listed above)")
    lenient = cli("render", "--game", "shmod", "--out", str(tmp_path / "c"), "--dpi", "20",
                  root=str(scratch), db=str(tmp_path / "c.db"))
    assert lenient.exit_code == 0 and "  overflow: Replenish: level:" in lenient.stdout


def test_a_games_display_font_is_its_own_and_changing_it_redraws_every_face(scratch, tmp_path):
    out = tmp_path / "faces"
    render_faces(scratch, game("shmod"), cards(), out, dpi=DPI)
    fonts = scratch / "templates" / "shmod" / "fonts.toml"
    assert 'display = "marcellus"' in fonts.read_text()
    fonts.write_text('display = "russo-one"\n')
    assert len(render_faces(scratch, game("shmod"), cards(), out, dpi=DPI).drawn) == 4  # the back's title too
    assert render_faces(scratch, game("shmod"), cards(), out, dpi=DPI).drawn == []
