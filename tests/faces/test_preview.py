"""``carddb render --card NAME``: one face at once, its path printed, its layout report; ``--open`` without a
display says so instead of failing."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[2]


def test_one_card_is_drawn_and_its_path_printed(cli, tmp_path: Path) -> None:
    out = tmp_path / "faces"
    result = cli("render", "--game", "ssbm", "--card", "mario", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    path = Path(lines[0])
    assert path == out / "ssbm" / "mario.png"
    with Image.open(path) as image:  # a 63 x 88 mm card at 300 dpi
        assert image.size == (744, 1039)
    assert sorted(p.name for p in path.parent.glob("*.png")) == ["back.png", "mario.png"]  # nothing else drawn
    assert lines[1] == "  drawn"
    # the layout report: which box was shrunk, from what size to what
    assert "  shrunk: the history text from 7 pt to 6.75 pt to fit" in lines
    again = cli("render", "--game", "ssbm", "--card", "Mario", "--out", str(out))
    assert again.stdout.splitlines()[:2] == [str(path), "  unchanged, not drawn again"]


def test_an_overflow_names_the_box_and_the_room_it_lacks(cli, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "workspace"
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod")
    shutil.copytree(REPO / "templates", root / "templates")
    cards = root / "rules" / "shmod" / "cards" / "base.yaml"
    long_text = " ".join(["Shuffle your Graveyard into your deck, then draw a card."] * 12)
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        '"Shuffle your Graveyard into your deck."', f'"{long_text}"', 1), encoding="utf-8")
    # a catalogue that does not hold shmod yet: render reads the card files as they are
    result = cli("render", "--game", "shmod", "--card", "Replenish", root=str(root), db=str(tmp_path / "new.db"))
    assert result.exit_code == 0, result.stderr
    overflow = [line for line in result.stdout.splitlines() if line.startswith("  overflow: ")]
    assert len(overflow) == 1
    assert overflow[0].startswith("  overflow: text: does not fit at the ") and "mm" in overflow[0]
    strict = cli("render", "--game", "shmod", "--card", "Replenish", "--strict", root=str(root),
                 db=str(tmp_path / "new.db"))
    assert strict.exit_code == 1 and "breaks a legibility rule" in strict.stderr


def test_unknown_and_ambiguous_names_are_refused_with_the_candidates(cli, tmp_path: Path) -> None:
    unknown = cli("render", "--game", "ssbm", "--card", "Marioo", "--out", str(tmp_path))
    assert unknown.exit_code == 2
    assert unknown.stderr.strip() == "Error: ssbm has no card 'Marioo' (did you mean Mario, Mario Tornado?)"
    several = cli("render", "--game", "website", "--card", "Splash Page", "--out", str(tmp_path))
    assert several.exit_code == 2 and "Splash Page (Neutral), Splash Page (Alan's Site)" in several.stderr
    exact = cli("render", "--game", "website", "--card", "splash page (neutral)", "--out", str(tmp_path))
    assert exact.exit_code == 0 and exact.stdout.startswith(str(tmp_path / "website"))
    assert not (tmp_path / "ssbm").exists()  # a refused name draws nothing


def test_open_without_a_display_says_where_the_image_is(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = cli("render", "--game", "ssbm", "--card", "Mario", "--open", "--out", str(tmp_path))
    assert result.exit_code == 0
    assert "no display to open it on" in result.stderr
    assert Path(result.stdout.splitlines()[0]).is_file()
    alone = cli("render", "--game", "ssbm", "--open", "--out", str(tmp_path))
    assert alone.exit_code == 2 and "name it with --card" in alone.stderr
