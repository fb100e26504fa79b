"""Awkward cards and set names, busy output folders, missing faces: clear messages, nothing half-written,
nothing written outside the output folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import load_game_text
from carddb.errors import CardDataError, InputError, OutputError
from carddb.exporters.apprentice import export_apprentice, setcodes
from carddb.exporters.lackey import export_lackey
from carddb.exporters.lackey.reader import read_card_data, read_dek, read_rows
from carddb.exporters.output import inside

from .cardinfo_reader import decode
from .conftest import FACE_SIZE, FakeCatalogue, fake_render

ODD_GAME = """
[game]
id = "oddgame"
name = "Odd Game"
[[sets]]
code = "../evil set"
name = "Évil Set ★"
[fields.cost]
type = "str"
label = "Cost"
[fields.power]
type = "int"
label = "Power"
[kinds.unit]
label = "Unit"
fields = ["cost", "power"]
[zones.main]
label = "Deck"
takes = { kind = ["unit"] }
[lackey]
plugin_name = "Odd Game & <Co>"
[apprentice]
cost = "cost"
power = "power"
"""

NAMES = ["Tab\tName", "<script>&amp;", '"Quoted" Card', "Café Crème", "Star ★ Card", "“Curly” Card",
         "A Name Much Longer Than Twenty-Seven One", "A Name Much Longer Than Twenty-Seven Two", "../../etc/passwd"]


def odd_catalogue() -> FakeCatalogue:
    game = load_game_text(ODD_GAME, "odd.toml")
    cards = [Card(game="oddgame", name=name, kind="unit", text="Line one\nLine\ttwo “x”",
                  fields={"cost": "2R" if i == 0 else "3", "power": i},
                  printings=[Printing(set="../evil set", number=str(i + 1), rarity="common")])
             for i, name in enumerate(NAMES)]
    return FakeCatalogue(game, cards)


def snapshot(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_lackey_export_of_awkward_cards(tmp_path):
    (tmp_path / "faces").mkdir()
    before = snapshot(tmp_path)
    report = export_lackey(tmp_path, odd_catalogue(), "oddgame", tmp_path / "out", faces_dir=tmp_path / "faces",
                           renderer=fake_render)
    after = {p for p in snapshot(tmp_path) if not p.startswith(("out", "faces"))}
    assert after == set(before) - {"faces"}  # nothing written beside the output and faces folders
    root = tmp_path / "out" / "odd-game-co"
    assert report.root == root
    assert any("not a safe folder name" in w for w in report.warnings)
    data_file = root / "sets" / "evil-set.txt"
    assert max(data_file.read_bytes()) < 0x80
    header, rows = read_rows(data_file)
    names = [row[0] for row in rows]
    assert "Tab Name" in names and "<script>&amp;" in names and "Cafe Creme" in names
    assert '"Curly" Card' in names and "Star * Card" in names and '"Quoted" Card' in names
    assert all(row[1] == "evil-set" and (root / "sets/setimages/evil-set" / f"{row[2]}.jpg").is_file() for row in rows)
    assert any("Cafe Creme" in w or "Café Crème" in w for w in report.warnings)
    text = {row[0]: row[header.index("Text")] for row in rows}
    assert text["Tab Name"] == 'Line one | Line two "x"'
    back = {c.name: c for c in read_card_data(data_file, odd_catalogue().definition)}
    assert back["Tab Name"].text == 'Line one\nLine two "x"' and back["Tab Name"].fields == {"cost": "2R", "power": 0}
    assert "<plugin>" in (root / "plugininfo.txt").read_text()


def test_lackey_lists_a_card_once_a_set_whatever_its_printings(tmp_path):
    """Two printings of a card in one set are one row (Lackey knows a card once a set); its printing in another
    set is a row of that set's file."""
    game = load_game_text(ODD_GAME.replace('name = "Évil Set ★"', 'name = "Évil Set ★"\n[[sets]]\ncode = "two"\n'
                                           'name = "Two"'), "odd.toml")
    reprinted = Card(game="oddgame", name="Reprinted", kind="unit", fields={"cost": "1", "power": 1},
                     printings=[Printing(set="two", number="1"), Printing(set="two", number="9"),
                                Printing(set="../evil set", number="2")])
    other = Card(game="oddgame", name="Other", kind="unit", fields={"cost": "1", "power": 2},
                 printings=[Printing(set="two", number="2")])
    (tmp_path / "faces").mkdir()
    report = export_lackey(tmp_path, FakeCatalogue(game, [reprinted, other]), "oddgame", tmp_path / "out",
                           faces_dir=tmp_path / "faces", renderer=fake_render)
    root = tmp_path / "out" / "odd-game-co"
    assert sorted(row[0] for row in read_rows(root / "sets" / "two.txt")[1]) == ["Other", "Reprinted"]
    assert [row[0] for row in read_rows(root / "sets" / "evil-set.txt")[1]] == ["Reprinted"]
    assert report.rows == 3

def test_lackey_checksums_of_unchanged_images_come_from_the_previous_export(tmp_path, monkeypatch):
    """An image's checksum is found once, when it is made, and kept in the export's manifest: exporting again
    after one card changed checksums that card's image alone, and every checksum listed is still its file's."""
    from carddb.exporters.lackey import export as lackey_export
    from carddb.exporters.lackey.checksum import file_checksum
    from carddb.exporters.lackey.reader import read_updatelist

    catalogue = odd_catalogue()
    (tmp_path / "faces").mkdir()

    def render(workspace_root, game, cards, out_dir, **options):  # type: ignore[no-untyped-def]
        """``fake_render``, each face of its own colour: its card's text's length."""
        from PIL import Image

        from carddb.core.cards.slugs import card_stems

        fake_render(workspace_root, game, cards, out_dir, **options)
        stems = card_stems(card.key for card in cards)
        for card in cards:
            face = Path(out_dir) / game.id / f"{stems[card.key]}.png"
            Image.new("RGB", FACE_SIZE, (len(card.text), 40, 40)).save(face)

    def export():  # type: ignore[no-untyped-def]
        return export_lackey(tmp_path, catalogue, "oddgame", tmp_path / "out", faces_dir=tmp_path / "faces",
                             renderer=render, base_url="https://example.org/odd/")

    export()
    catalogue.card_list[3].text = "Changed."
    summed: list[int] = []
    real = lackey_export.lackey_checksum
    monkeypatch.setattr(lackey_export, "lackey_checksum", lambda data: summed.append(1) or real(data))
    root = export().root
    assert len(summed) == 1  # the changed card's image
    _, entries, _ = read_updatelist((root / "updatelist.txt").read_text(encoding="utf-8"))
    assert len(entries) > len(NAMES)
    for local, _url, checksum in entries:
        assert checksum == file_checksum(root / local.split("/", 2)[2]), local

def test_apprentice_export_of_awkward_cards(tmp_path, monkeypatch):
    monkeypatch.setattr(setcodes, "MAX_CARDS_PER_CODE", 4)
    report = export_apprentice(tmp_path, odd_catalogue(), "oddgame", tmp_path / "out")
    decoded = decode((tmp_path / "out" / "Sets" / "cardinfo.dat").read_bytes())
    names = [c["name"] for c in decoded["cards"]]
    assert len(names) == len(NAMES) and len({n.casefold() for n in names}) == len(names)
    assert "Café Crème" in names and "Star * Card" in names and "“Curly” Card" in names  # cp1252 has é and “”
    assert "A Name Much Longer Than" in names and "A Name Much Longer Than~2" in names  # cut at a word
    assert any("longer than Apprentice's 27" in w for w in report.warnings)
    assert any("taken by another card" in w for w in report.warnings)
    assert any("Windows-1252 lacks" in w and "★" in w for w in report.warnings)
    tab = next(c for c in decoded["cards"] if c["name"] == "Tab Name")
    assert tab["cost"] == "" and tab["text"].startswith("Cost: 2R\r\n")  # R would be drawn as red mana
    assert any("mana symbols" in w for w in report.warnings)
    expan = (tmp_path / "out" / "Expan.dat").read_bytes().decode("cp1252").split("\r\n")
    assert expan[:3] == ["EV-Évil Set *", "EI-Évil Set * (part 2)", "EL-Évil Set * (part 3)"]
    assert any("split over 3 codes" in w for w in report.warnings)


def test_busy_output_folder_is_refused_and_untouched(tmp_path, catalogue, repo_root):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(OutputError, match="already holds other files"):
        export_apprentice(repo_root, catalogue, "minibattle", out)
    assert snapshot(out) == ["notes.txt"] and snapshot(tmp_path) == ["busy", "busy/notes.txt"]


def test_previous_export_is_replaced_whole(tmp_path, catalogue, repo_root):
    out = tmp_path / "lk"
    faces = tmp_path / "faces"
    export_lackey(repo_root, catalogue, "ssq", out, base_url="https://example.org/ssq", faces_dir=faces,
                  renderer=fake_render)
    assert (out / "SuperSmashQuest" / "updatelist.txt").is_file()
    export_lackey(repo_root, catalogue, "ssq", out, faces_dir=faces, renderer=fake_render)
    assert not (out / "SuperSmashQuest" / "updatelist.txt").exists()  # nothing stale survives
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faces", "lk"]  # no staging folder left behind


def test_missing_faces_are_reported_and_nothing_is_written(tmp_path, catalogue, repo_root):
    def renders_nothing(*args, **kwargs):
        return None

    with pytest.raises(OutputError, match="no face image for"):
        export_lackey(repo_root, catalogue, "ssq", tmp_path / "out", faces_dir=tmp_path / "faces",
                      renderer=renders_nothing)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_failure_mid_export_keeps_the_previous_export(tmp_path, catalogue, repo_root):
    out, faces = tmp_path / "out", tmp_path / "faces"
    export_lackey(repo_root, catalogue, "ssq", out, faces_dir=faces, renderer=fake_render)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    victim = next((faces / "ssq").glob("*.png"))
    victim.write_bytes(b"not an image")
    with pytest.raises(OutputError, match="not a readable image"):
        export_lackey(repo_root, catalogue, "ssq", out, faces_dir=faces, renderer=lambda *a, **k: None)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faces", "out"]


@pytest.mark.parametrize("relative", ["../x", "a/../../x", "/etc/x", "C:/x", "a//b", "."])
def test_paths_outside_the_folder_are_refused(tmp_path, relative):
    with pytest.raises(OutputError):
        inside(tmp_path, relative)


def test_a_link_inside_the_folder_to_outside_it_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "sets").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "out" / "mine").mkdir()
    (tmp_path / "out" / "here").symlink_to(tmp_path / "out" / "mine", target_is_directory=True)
    with pytest.raises(OutputError, match="resolves outside"):
        inside(tmp_path / "out", "sets/x.jpg")
    assert inside(tmp_path / "out", "here/x.jpg") == tmp_path / "out" / "here" / "x.jpg"  # a link kept inside
    assert inside(tmp_path / "out", "new/deeper/x.jpg") == tmp_path / "out" / "new" / "deeper" / "x.jpg"

def test_base_url_must_be_http(tmp_path, catalogue, repo_root):
    with pytest.raises(InputError, match="base-url"):
        export_lackey(repo_root, catalogue, "ssq", tmp_path / "out", base_url="javascript:alert(1)",
                      faces_dir=tmp_path / "faces", renderer=fake_render)
    assert list(tmp_path.iterdir()) == []


def test_readers_refuse_bad_files(tmp_path):
    with pytest.raises(InputError, match="entities"):
        read_dek('<!DOCTYPE deck [<!ENTITY a "aaaa">]><deck version="0.8"><meta><game>&a;</game></meta></deck>')
    with pytest.raises(InputError, match="well-formed"):
        read_dek("<deck><superzone>")
    data = tmp_path / "cards.txt"
    data.write_text("Name\tSet\tImageFile\tMystery\nX\tbase\tx\t1\n")
    with pytest.raises(CardDataError, match="'Mystery' are not fields"):
        read_card_data(data, odd_catalogue().definition)


def test_lackey_base_url_in_the_game_definition_is_checked_and_used(tmp_path):
    from carddb.errors import DefinitionError

    with pytest.raises(DefinitionError, match=r"lackey\.base_url: must be an http:// or https:// URL"):
        load_game_text(ODD_GAME.replace("[lackey]\n", '[lackey]\nbase_url = "file:///etc"\n'), "odd.toml")
    game = load_game_text(ODD_GAME.replace("[lackey]\n", '[lackey]\nbase_url = "https://example.org/odd/"\n'),
                          "odd.toml")
    catalogue = odd_catalogue()
    catalogue.definition = game
    report = export_lackey(tmp_path, catalogue, "oddgame", tmp_path / "out", faces_dir=tmp_path / "faces",
                           renderer=fake_render)
    updatelist = (report.root / "updatelist.txt").read_text(encoding="utf-8")
    assert "\thttps://example.org/odd/plugininfo.txt\t" in updatelist and (report.root / "version.txt").is_file()
