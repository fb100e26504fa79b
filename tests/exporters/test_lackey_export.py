"""The exported LackeyCCG plugins, read back and compared with what the real plugins of the samples hold (kept
here as facts; checked against the real files where ``../shared/samples`` is there)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from PIL import Image

from carddb.exporters.lackey.checksum import file_checksum
from carddb.exporters.lackey.reader import read_card_data, read_dek, read_plugininfo, read_rows, read_updatelist
from carddb.exporters.output import MARKER

from .conftest import FACE_SIZE, GAMES

FIXTURES = Path(__file__).parent / "fixtures" / "lackey"
REAL_PLUGINS = ("lackey-example", "ccglorcana", "vtes")

#: The block tags, child tags and <kind> values that the three real plugins' plugininfo.txt use.
REAL_BLOCKS = {"cardfunction", "deckzone", "definition", "gamezone", "generalfunction", "globalstat", "phase",
               "playerstat", "pluginname"}
REAL_CHILDREN = {"PositionX", "PositionY", "color", "destinationgamezone", "destinationowner", "destinationposition",
                 "gamezonetoloadto", "includeasbutton", "initialvalue", "isshared", "kind", "label", "shuffle",
                 "sourcegamezone", "sourceowner", "sourceposition", "value", "visibletoothers", "visibletoowner",
                 "zonetoloadto"}
REAL_KINDS = {"ADDCOUNTER", "ADDCOUNTERBLUE", "ADDCOUNTERGREEN", "ADDCOUNTERRED", "ALLYOURCARDSMAKERIGHT0DEGREES",
              "ALLYOURCARDSMAKERIGHT90DEGREES", "CHANGEOWNER", "CLEARCARD", "CLONE", "DRAWCARD", "DRAWCARDTOTABLE",
              "EDITNOTE", "FLIPCOIN", "HOVER", "ISALLOWINGMULTIPLECARDBACKS", "ISYOURFACEDOWNVISIBLE",
              "MAKERIGHT0DEGREES", "MAKERIGHT90DEGREES", "NEXTPHASE", "NEXTTURN", "NUMDIGITSINSTAT", "PREVIOUSPHASE",
              "PREVIOUSTURN", "REMOVECOUNTER", "REMOVECOUNTERBLUE", "REMOVECOUNTERGREEN", "REMOVECOUNTERRED",
              "REUSECARDIMAGES", "ROLLD20", "ROLLD6", "SPAWNCARD", "TOGGLETURNALLIMMUNITY", "TRANSFERCARD",
              "TURNOVER"}


def plugin_dir(report) -> Path:
    return report.root


@pytest.mark.samples
def test_real_vocabulary_facts_match_the_real_plugins(samples):
    blocks, children, kinds = set(), set(), set()
    for name in REAL_PLUGINS:
        for tag, values in read_plugininfo((samples / "lackey" / name / "plugininfo.txt").read_text()):
            blocks.add(tag)
            children |= set(values)
            if "kind" in values:
                kinds.add(values["kind"])
    assert (blocks, children, kinds) == (REAL_BLOCKS, REAL_CHILDREN, REAL_KINDS)


def card_files(root: Path) -> list[Path]:
    listed = read_plugininfo((root / "ListOfCardDataFiles.txt").read_text())
    assert [tag for tag, _ in listed] == ["filetoinclude"] * len(listed) or listed == []
    text = (root / "ListOfCardDataFiles.txt").read_text()
    names = [line[len("<filetoinclude>"):-len("</filetoinclude>")] for line in text.splitlines()
             if line.startswith("<filetoinclude>")]
    assert names and text.startswith("<listofcarddatafiles>\n")
    return [root / "sets" / name for name in names]


@pytest.mark.parametrize("game", GAMES)
def test_folder_layout_matches_real_plugins(lackey_exports, game):
    report = lackey_exports[game]
    root = plugin_dir(report)
    assert root.parent == report.out_dir and (report.out_dir / MARKER).is_file()
    for name in ("plugininfo.txt", "ListOfCardDataFiles.txt", "formats.txt", "cardback.jpg", "spawned.jpg",
                 "version.txt", "updatelist.txt"):
        assert (root / name).is_file(), name
    for name in ("cardback.jpg", "spawned.jpg"):
        assert (root / name).read_bytes()[:2] == b"\xff\xd8"
    with Image.open(root / "cardback.jpg") as back:  # the back fixes the card's aspect ratio in Lackey
        assert abs(back.width / back.height - FACE_SIZE[0] / FACE_SIZE[1]) < 0.01
    assert (root / "packs" / "packdefinitions1.xml").is_file() == (game == "minibattle")
    assert {p.name for p in root.iterdir()} <= {"plugininfo.txt", "ListOfCardDataFiles.txt", "formats.txt",
                                                "cardback.jpg", "spawned.jpg", "version.txt", "updatelist.txt",
                                                "sets", "packs", "decks"}


@pytest.mark.parametrize("game", GAMES)
def test_plugininfo_uses_only_real_vocabulary(lackey_exports, game):
    parsed = read_plugininfo((plugin_dir(lackey_exports[game]) / "plugininfo.txt").read_text())
    assert {tag for tag, _ in parsed} <= REAL_BLOCKS
    assert {child for _, values in parsed for child in values} <= REAL_CHILDREN
    assert {values["kind"] for _, values in parsed if "kind" in values} <= REAL_KINDS
    gamezones = {values["label"] for tag, values in parsed if tag == "gamezone"}
    for tag, values in parsed:
        if tag == "deckzone":
            assert values["gamezonetoloadto"] in gamezones
        for key in ("shuffle", "visibletoowner", "visibletoothers", "includeasbutton"):
            assert values.get(key, "yes") in ("yes", "no")
        assert not any(c in v for v in values.values() for c in "<>&")


def test_shmod_plugininfo_has_life_phases_and_zones(lackey_exports):
    parsed = read_plugininfo((plugin_dir(lackey_exports["shmod"]) / "plugininfo.txt").read_text())
    by_tag = lambda tag: [values for t, values in parsed if t == tag]  # noqa: E731
    assert by_tag("playerstat") == [{"label": "Life", "initialvalue": "10"}]
    assert [p["label"] for p in by_tag("phase")] == ["Draw", "Untap", "Main 1", "Battle", "Main 2", "End"]
    assert [(z["label"], z["shuffle"]) for z in by_tag("deckzone")] == [("Deck", "yes"), ("Side", "no"),
                                                                         ("Stack", "no")]
    assert "FLIPCOIN" in {f["kind"] for f in by_tag("generalfunction")}
    assert not any(f["kind"].startswith("ROLL") for f in by_tag("generalfunction"))  # Shmod rolls no dice


def test_dice_buttons_follow_the_game(lackey_exports):
    def rolls(game):
        parsed = read_plugininfo((plugin_dir(lackey_exports[game]) / "plugininfo.txt").read_text())
        return [v["kind"] for t, v in parsed if t == "generalfunction" and v["kind"].startswith("ROLL")]

    assert rolls("minibattle") == ["ROLLD6", "ROLLD20"]
    assert rolls("ssq") == []
    assert any("d10" in w for w in lackey_exports["ssq"].warnings)


@pytest.mark.parametrize("game", GAMES)
def test_card_data_shape(lackey_exports, game):
    root = plugin_dir(lackey_exports[game])
    files = card_files(root)
    assert sorted(files) == sorted((root / "sets").glob("*.txt"))
    for path in files:
        data = path.read_bytes()
        assert max(data) < 0x80, path  # ASCII only
        header, rows = read_rows(path)
        assert header[:3] == ["Name", "Set", "ImageFile"] and header[-1] == "Legality"
        lines = data.decode("ascii").split("\n")
        assert lines[-1] == "" and all(line.count("\t") == len(header) - 1 for line in lines[:-1])
        names = [row[0] for row in rows]
        assert len(set(names)) == len(names)
        for row in rows:
            assert row[0] == " ".join(row[0].split())
            assert not any(cell.startswith('"') and cell.endswith('"') and len(cell) > 1 for cell in row)
            assert len({r[1] for r in rows}) == 1


@pytest.mark.parametrize("name", ["carddata-cr.txt", "carddata-crlf.txt"])
def test_the_reader_reads_card_data_with_any_line_ending(name):
    """The reader that checks our files reads CR-only files (classic Mac, as lackey-example's) and CRLF too."""
    header, rows = read_rows(FIXTURES / name)
    assert header == ["Name", "Set", "ImageFile", "Type", "Cost", "Text"]
    assert [row[0] for row in rows] == ["Ember Drake", "Moss Golem", "Tide Caller", "Wren's Lantern"]
    assert rows[1] == ["Moss Golem", "Core", "moss_golem", "Golem", "2", ""]


@pytest.mark.samples
def test_sample_card_data_has_the_same_shape_as_ours(samples):
    """The reader that checks our files reads the real ones too (lackey-example is CR-only)."""
    header, rows = read_rows(samples / "lackey" / "lackey-example" / "sets" / "carddata.txt")
    assert header[:3] == ["Name", "Set", "ImageFile"] and len(rows) == 5 and rows[0][0] == "Hacker Cat"
    header, rows = read_rows(samples / "lackey" / "vtes" / "sets" / "allsets.head21.txt")
    assert header[:3] == ["Name", "Set", "ImageFile"] and len(rows) == 20


@pytest.mark.parametrize("game", GAMES)
def test_every_row_has_its_image(lackey_exports, game):
    root = plugin_dir(lackey_exports[game])
    for path in card_files(root):
        for row in read_rows(path)[1]:
            image = root / "sets" / "setimages" / row[1] / f"{row[2]}.jpg"
            assert image.read_bytes()[:2] == b"\xff\xd8", image


@pytest.mark.parametrize("game", GAMES)
def test_export_then_read_gives_back_the_catalogue(lackey_exports, catalogue, game):
    definition = catalogue.game(game)
    root = plugin_dir(lackey_exports[game])
    read: dict[str, object] = {}
    for path in card_files(root):
        for card in read_card_data(path, definition):
            if card.key in read:
                read[card.key].printings += card.printings
            else:
                read[card.key] = card
    originals = {card.key: card for card in catalogue.cards(game)}
    assert set(read) == set(originals)
    for key, card in originals.items():
        back = read[key]
        assert (back.name, back.kind, back.qualifier, back.text, back.flavor) == \
            (card.name, card.kind, card.qualifier, card.text, card.flavor), key
        assert back.fields == card.fields, key
        assert sorted((p.set, p.number, p.rarity) for p in back.printings) == \
            sorted((p.set, p.number, p.rarity) for p in card.printings), key
    assert lackey_exports[game].rows == sum(len(c.printings) or 1 for c in originals.values())


def test_legality_column_carries_limits(lackey_exports):
    root = plugin_dir(lackey_exports["shmod"])
    rows = {row[0]: row[-1] for path in card_files(root) for row in read_rows(path)[1]}
    assert rows["Replenish"] == "Standard/Open stack (house rule): max 1 (LIMITED)"
    assert all(v.endswith(("max 4 (default)", "max 1 (LIMITED)")) for v in rows.values())
    root = plugin_dir(lackey_exports["minibattle"])
    rows = {row[0]: row[-1] for path in card_files(root) for row in read_rows(path)[1]}
    assert rows["Mewtwo"] == "Standard: max 1 (legendary); One legendary (house rule): max 3 (default), " \
                             "1 legendary in all"


@pytest.mark.parametrize("game", GAMES)
def test_deks_have_the_real_shape_and_resolve(lackey_exports, game):
    report = lackey_exports[game]
    root = plugin_dir(report)
    rows = {(row[0], row[1]) for path in card_files(root) for row in read_rows(path)[1]}
    parsed = read_plugininfo((root / "plugininfo.txt").read_text())
    zones = {values["label"] for tag, values in parsed if tag == "deckzone"}
    decks = sorted((root / "decks").glob("*.dek")) if (root / "decks").exists() else []
    assert len(decks) == report.decks == {"minibattle": 5, "shmod": 6, "ssbm": 6, "ssq": 0, "website": 5}[game]
    for path in decks:
        text = path.read_text()
        assert text.startswith('<deck version="0.8">\n\t<meta>\n\t\t<game>')  # as lackey-example's sample.dek
        dek = read_dek(path)
        assert dek.game == root.name and set(dek.zones) <= zones
        for cards in dek.zones.values():
            for card in cards:
                assert (card.name, card.set) in rows, (path.name, card)
                assert card.image_id


def test_the_dek_reader_reads_a_dek_of_the_real_shape():
    """Our own .dek in the real shape (one <card> per copy, an image id, an escaped apostrophe, two zones)."""
    dek = read_dek(FIXTURES / "fixture.dek")
    assert dek.game == "fixturegame" and set(dek.zones) == {"Deck", "Side"}
    assert [(c.name, c.set, c.image_id) for c in dek.zones["Deck"]] == [
        ("Ember Drake", "Core", "ember_drake")] * 2 + [("Wren's Lantern", "Core", "wrens_lantern")] * 3


@pytest.mark.samples
def test_the_dek_reader_reads_the_real_sample_dek(samples):
    sample = read_dek(samples / "lackey" / "lackey-example" / "decks" / "sample.dek")
    assert sample.game == "lolcats" and sum(len(cards) for cards in sample.zones.values()) == 12


@pytest.mark.parametrize("game", GAMES)
def test_updatelist_and_version(lackey_exports, game):
    root = plugin_dir(lackey_exports[game])
    (name, day), entries, sections = read_updatelist((root / "updatelist.txt").read_text())
    assert name == root.name and len(day) == 8 and day[2] == day[5] == "-"
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - {"updatelist.txt"}
    assert {local for local, _, _ in entries} == {f"plugins/{root.name}/{f}" for f in files}
    for local, url, checksum in entries:
        relative = local.split("/", 2)[2]
        assert url == f"https://example.org/{game}/{relative}"
        assert checksum == file_checksum(root / relative)
    assert set(sections) == {"CardGeneralURLs"}
    version = (root / "version.txt").read_text()
    assert f"<lastupdateYYMMDD>{day[6:]}{day[:2]}{day[3:5]}</lastupdateYYMMDD>" in version
    assert f"<updateurl>https://example.org/{game}/updatelist.txt</updateurl>" in version


def test_formats_and_packs(lackey_exports):
    root = plugin_dir(lackey_exports["minibattle"])
    sets = {row[1] for path in card_files(root) for row in read_rows(path)[1]}
    formats = (root / "formats.txt").read_text()
    assert formats.count("<format>") == 2 and "<label>Standard</label>" in formats
    assert {line.strip()[5:-6] for line in formats.splitlines() if line.strip().startswith("<set>")} == sets
    pack = (root / "packs" / "packdefinitions1.xml").read_text()
    assert [int(line.strip()[6:-7]) for line in pack.splitlines() if "<prob>" in line] == [88, 12]
    assert pack.count("<qty>3</qty><crit><field>Rarity</field><eval>IS</eval><data>common</data>") == 2
    assert "<data>super rare</data>" in pack and "<packcommoncrit><field>Set</field><eval>IS</eval><data>base" in pack


@pytest.mark.parametrize("game", GAMES)
def test_zip_holds_the_plugin(lackey_exports, game):
    report = lackey_exports[game]
    root = plugin_dir(report)
    with zipfile.ZipFile(report.zip_path) as archive:
        names = set(archive.namelist())
        assert names == {p.relative_to(root.parent).as_posix() for p in root.rglob("*") if p.is_file()}
        assert archive.read(f"{root.name}/plugininfo.txt") == (root / "plugininfo.txt").read_bytes()
