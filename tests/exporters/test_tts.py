"""Tabletop Simulator saved objects, read back as TTS reads them: every CardID to a cell of a sheet whose
pixels match its grid, every card of every deck with its count, every cell showing that card's face."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

from carddb.core.cards.slugs import card_stems
from carddb.core.checker.check import card_index
from carddb.core.decks.file import decode_deck_bytes
from carddb.core.decks.parse import parse_deck
from carddb.exporters.tts import export_tts
from carddb.exporters.tts.reader import card_cells, read_deck
from carddb.workspace import Workspace

from .conftest import GAMES, pattern_render

ENVELOPE = {"SaveName", "Date", "VersionNumber", "GameMode", "Gravity", "PlayArea", "Table", "Sky", "Note",
            "TabStates", "Tags", "ObjectStates", "LuaScript", "LuaScriptState", "XmlUI"}


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    return tmp_path_factory.mktemp("tts-faces")


@pytest.fixture(scope="module")
def tts_exports(tmp_path_factory, catalogue, repo_root, faces):
    out = tmp_path_factory.mktemp("tts")
    return {game: export_tts(repo_root, catalogue, game, out / game, faces_dir=faces, renderer=pattern_render)
            for game in GAMES}


def objects(path: Path) -> list[dict]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) >= ENVELOPE and isinstance(data["ObjectStates"], list)
    return data["ObjectStates"]


def local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def walk_cards(obj: dict):
    """(zone, card key) for every physical card, from carddb's GMNotes, walked here without carddb's reader."""
    zone = json.loads(obj["GMNotes"]).get("zone")
    if obj["Name"] == "Card":
        yield zone, json.loads(obj["GMNotes"])["card"]
        return
    assert obj["Name"] == "Deck"
    assert len(obj["DeckIDs"]) == len(obj["ContainedObjects"]) >= 2
    for card_id, card in zip(obj["DeckIDs"], obj["ContainedObjects"], strict=True):
        assert card["Name"] == "Card" and card["CardID"] == card_id
        yield zone, json.loads(card["GMNotes"])["card"]


def check_sheets(path: Path, face_of) -> int:
    """Every card's CardID leads to a cell that shows its face; returns the number of cards checked."""
    checked = 0
    sheets: dict[Path, Image.Image] = {}
    for obj in objects(path):
        cards = obj["ContainedObjects"] if obj["Name"] == "Deck" else [obj]
        for card in cards:
            key, slot = str(card["CardID"] // 100), card["CardID"] % 100
            entry = card["CustomDeck"][key]
            if obj["Name"] == "Deck":
                assert obj["CustomDeck"][key] == entry
            columns, rows = entry["NumWidth"], entry["NumHeight"]
            assert 1 <= columns <= 10 and 1 <= rows <= 7 and slot < columns * rows and slot <= 68
            assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
            sheet_path = local(entry["FaceURL"])
            if sheet_path not in sheets:
                sheets[sheet_path] = Image.open(sheet_path)
            sheet = sheets[sheet_path]
            assert sheet.mode == "RGB" and max(sheet.size) <= 4096
            assert sheet.width % columns == 0 and sheet.height % rows == 0, (sheet.size, columns, rows)
            width, height = sheet.width // columns, sheet.height // rows
            column, row = slot % columns, slot // columns
            cell = sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))
            face = face_of(json.loads(card["GMNotes"])["card"]).convert("RGB").resize(cell.size, Image.LANCZOS)
            difference = ImageStat.Stat(ImageChops.difference(cell, face)).mean
            assert max(difference) < 12, (card["Nickname"], difference)
            assert local(entry["BackURL"]).is_file()
            checked += 1
    return checked


def expected_counts(deck_path: Path, game, cards) -> Counter:
    deck = parse_deck(decode_deck_bytes(deck_path.read_bytes()), game, deck_path.name)
    index = card_index(game, cards)
    counts: Counter = Counter()
    for entry in deck.entries:
        counts[(entry.zone, index.names.resolve(entry.name, entry.qualifier, entry.set_hint).card.key)] += entry.count
    return counts


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_every_deck_with_its_count(tts_exports, catalogue, repo_root, game):
    report = tts_exports[game]
    definition, cards = catalogue.game(game), catalogue.cards(game)
    shipped = {}
    for path in Workspace(repo_root).deck_files(game) if definition.deck_game else []:
        shipped.setdefault(path.stem, path)
    decks = [p for p in sorted(report.root.glob("*.json")) if not p.name.startswith("every-card-")]
    assert len(decks) == report.decks == len([s for s in shipped if not s.startswith("illegal-")])
    for path in decks:
        counts = Counter()
        for obj in objects(path):
            counts.update(walk_cards(obj))
        assert counts == expected_counts(shipped[path.stem], definition, cards), path.name


@pytest.mark.parametrize("game", GAMES)
def test_every_set_object_holds_each_card_once(tts_exports, catalogue, game):
    report = tts_exports[game]
    definition, cards = catalogue.game(game), catalogue.cards(game)
    for info in definition.sets:
        members = {c.key for c in cards if any(p.set == info.code for p in c.printings)}
        path = report.root / f"every-card-{info.code}.json"
        if not members:
            assert not path.exists()
            continue
        keys = [key for obj in objects(path) for _, key in walk_cards(obj)]
        assert sorted(keys) == sorted(members)


@pytest.mark.parametrize("game", GAMES)
def test_card_ids_lead_to_the_right_face(tts_exports, catalogue, faces, game):
    report = tts_exports[game]
    slugs = card_stems(c.key for c in catalogue.cards(game))

    def face_of(key: str) -> Image.Image:
        return Image.open(faces / game / f"{slugs[key]}.png")

    total = sum(check_sheets(path, face_of) for path in report.root.glob("*.json"))
    assert total >= len(slugs)


@pytest.mark.parametrize("game", ["ssbm", "website", "shmod"])
def test_zones_lie_beside_the_main_deck(tts_exports, catalogue, game):
    report = tts_exports[game]
    definition = catalogue.game(game)
    for path in report.root.glob("legal-*.json"):
        found = {}
        for obj in objects(path):
            notes = json.loads(obj["GMNotes"])
            found[notes["zone"]] = obj
        main = found.pop(definition.main_zone)
        assert main["Name"] == "Deck" and main["Transform"]["posX"] == 0 and main["Transform"]["rotZ"] == 180
        xs = [obj["Transform"]["posX"] for obj in found.values()]
        assert len(set(xs)) == len(xs) and all(x > 2 for x in xs)  # beside the deck, not on it
        for zone, obj in found.items():
            if obj["Name"] == "Card":  # the character or the base site: one card, face up
                assert obj["Transform"]["rotZ"] == 0
            else:  # the stack or the side deck: a face-down deck named after its zone
                assert obj["Transform"]["rotZ"] == 180
                assert obj["Nickname"].endswith(f"({definition.zones[zone].label})")


def test_nicknames_and_descriptions_come_from_the_catalogue(tts_exports, catalogue):
    cards = {c.key: c for c in catalogue.cards("website")}
    path = tts_exports["website"].root / "every-card-base.json"
    seen = {}
    for obj in objects(path):
        for card in obj["ContainedObjects"]:
            seen[json.loads(card["GMNotes"])["card"]] = card
    assert seen["Hit Counter (Neutral)"]["Nickname"] == "Hit Counter"  # the version only where names clash
    assert {seen["Splash Page (Neutral)"]["Nickname"], seen["Splash Page (Alan's Site)"]["Nickname"]} == \
        {"Splash Page (Neutral)", "Splash Page (Alan's Site)"}
    for key, card in seen.items():
        description = card["Description"]
        assert description.startswith(catalogue.game("website").kinds[cards[key].kind].label)
        assert cards[key].text in description
    hit = seen["Hit Counter (Neutral)"]["Description"]
    assert "Component - Neutral" in hit and "IP: " in hit


@pytest.mark.parametrize("game", GAMES)
def test_thumbnails_and_the_deck_checker(tts_exports, catalogue, game):
    report = tts_exports[game]
    definition, cards = catalogue.game(game), catalogue.cards(game)
    for path in report.root.glob("*.json"):
        with Image.open(path.with_suffix(".png")) as thumbnail:
            assert thumbnail.size == (256, 256) and thumbnail.mode == "RGBA"
            assert thumbnail.getpixel((0, 0))[3] == 0 and thumbnail.getpixel((128, 128))[3] == 255
        if path.name.startswith("legal-"):
            deck = read_deck(path, definition)
            from carddb.core.checker.check import check_deck

            assert deck.source_format == "tts" and deck.problems == []
            assert [p for p in check_deck(deck, definition, cards) if p.severity == "error"] == []
        assert [c.problem for c in card_cells(path) if c.problem] == []


def test_base_url_points_every_image_there(tmp_path, catalogue, repo_root):
    report = export_tts(repo_root, catalogue, "minibattle", tmp_path / "out", base_url="https://example.org/mb/",
                        faces_dir=tmp_path / "faces", renderer=pattern_render)
    urls = set()
    for path in report.root.glob("*.json"):
        for obj in objects(path):
            for card in obj.get("ContainedObjects", [obj]):
                for entry in card["CustomDeck"].values():
                    urls |= {entry["FaceURL"], entry["BackURL"]}
    assert urls and all(u.startswith("https://example.org/mb/sheets/") for u in urls)
    assert {u.rsplit("/", 1)[1] for u in urls} <= {p.name for p in (report.root / "sheets").iterdir()}
    cells = [c for p in report.root.glob("*.json") for c in card_cells(p, report.root, "https://example.org/mb/")]
    assert cells and all(c.sheet.is_file() and not c.problem for c in cells)


def test_export_tts_command_and_deck_convert(cli, tmp_path, tmp_workspace):
    def run(*args: str):  # type: ignore[no-untyped-def]
        return cli(*args, root=str(tmp_workspace))

    result = run("export", "tts", "--game", "shmod", "--out", str(tmp_path / "t"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("tts: 51 cards, ") and "Saves/Saved Objects" in result.stdout
    deck = tmp_workspace / "rules" / "ssbm" / "decks" / "legal-pikachu-thunder.dek"
    result = run("deck", "convert", str(deck), "--game", "ssbm", "--to", "tts", "--out", str(tmp_path / "one"))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "one" / "SSBMCCG").iterdir()) == \
        ["legal-pikachu-thunder.json", "legal-pikachu-thunder.png", "sheets"]
    check = run("deck", "check", str(tmp_path / "one" / "SSBMCCG" / "legal-pikachu-thunder.json"), "--game", "ssbm")
    assert check.exit_code == 0 and "LEGAL" in check.stdout and "(Character 1, Deck 60)" in check.stdout
    result = run("deck", "convert", str(deck), "--game", "ssbm", "--to", "tts")
    assert result.exit_code == 2 and "give it with --out DIR" in result.stderr
    assert (tmp_workspace / "output" / "faces" / "ssbm").is_dir()  # the faces went to the workspace used


BIG_GAME = """
[game]
id = "biggame"
name = "Big Game"
[[sets]]
code = "core"
name = "Core"
[kinds.unit]
label = "Unit"
[zones.main]
label = "Deck"
takes = { kind = ["unit"] }
"""


def test_a_deck_too_big_for_one_sheet_gets_several(tmp_path):
    from functools import partial

    from carddb.core.cards.card import Card, Printing
    from carddb.core.game.definition import load_game_text

    from .conftest import FakeCatalogue, pattern_face

    game = load_game_text(BIG_GAME, "big.toml")
    cards = [Card(game="biggame", name=f"Card {i:03d}", kind="unit", text=f"Text {i}",
                  printings=[Printing(set="core", number=str(i))]) for i in range(150)]
    deck = "\n".join(f"{1 + i % 3} Card {i:03d}" for i in range(150))
    render = partial(pattern_render, size=(420, 586))  # larger than a 10 x 7 sheet's cells: shrunk to fit
    report = export_tts(tmp_path, FakeCatalogue(game, cards), "biggame", tmp_path / "out", deck_text=(deck, "big.txt"),
                        sets=False, faces_dir=tmp_path / "faces", renderer=render)
    path = report.root / "big.json"
    (pile,) = objects(path)
    assert sorted(pile["CustomDeck"]) == sorted({str(i // 100) for i in pile["DeckIDs"]})
    assert len(pile["CustomDeck"]) == 3
    grids = [(e["NumWidth"], e["NumHeight"]) for e in pile["CustomDeck"].values()]
    assert all(columns <= 10 and rows <= 7 for columns, rows in grids)
    assert Counter(key for _, key in walk_cards(pile)) == {f"Card {i:03d}": 1 + i % 3 for i in range(150)}
    for entry in pile["CustomDeck"].values():
        with Image.open(local(entry["FaceURL"])) as sheet:
            assert max(sheet.size) <= 4096
    stems = card_stems(c.key for c in cards)
    assert check_sheets(path, lambda key: pattern_face(stems[key], (420, 586))) \
        == sum(1 + i % 3 for i in range(150))


def test_awkward_names_stay_inside_and_read_back(tmp_path):
    from .test_bad_input import NAMES, odd_catalogue

    catalogue = odd_catalogue()
    deck = "\n".join(f"2 {' '.join(name.split())}" for name in NAMES)
    report = export_tts(tmp_path, catalogue, "oddgame", tmp_path / "out", deck_text=(deck, "../../evil deck.txt"),
                        faces_dir=tmp_path / "faces", renderer=pattern_render)
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert all(p.resolve().is_relative_to((tmp_path / "out").resolve()) for p in files)
    assert (report.root / "evil-deck.json").is_file()
    nicknames = {card["Nickname"] for obj in objects(report.root / "evil-deck.json")
                 for card in obj["ContainedObjects"]}
    assert nicknames == {" ".join(n.split()) for n in NAMES}
    deck_back = read_deck(report.root / "evil-deck.json", catalogue.definition)
    assert deck_back.problems == [] and deck_back.total == 2 * len(NAMES)


def test_missing_faces_and_unknown_cards_are_refused_and_nothing_is_written(tmp_path, catalogue, repo_root):
    from carddb.errors import InputError, OutputError

    with pytest.raises(OutputError, match="no face image for"):
        export_tts(repo_root, catalogue, "ssq", tmp_path / "out", faces_dir=tmp_path / "faces",
                   renderer=lambda *a, **k: None)
    with pytest.raises(InputError, match="'Falcon Punch'"):
        export_tts(repo_root, catalogue, "ssbm", tmp_path / "out", deck_text=("4 Falcon Punch\n", "x.txt"),
                   faces_dir=tmp_path / "faces", renderer=pattern_render)
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out.*"))  # nothing half-written


def test_every_object_has_its_own_guid(tts_exports):
    """TTSModManager, which takes saves apart by object, refuses an object without a GUID."""
    for path in tts_exports["shmod"].root.glob("*.json"):
        guids = [o["GUID"] for obj in objects(path) for o in [obj, *obj.get("ContainedObjects", [])]]
        assert all(len(g) == 6 and int(g, 16) >= 0 for g in guids) and len(set(guids)) == len(guids)


def test_a_card_added_to_a_set_of_many_sheets_changes_one_sheet(tmp_path, small_sheets):
    """The sheets of a set are cut where the cards' keys say, not every 69 cards: a card added among the first
    sheet's cards redraws that sheet (and the deck's), the sheets after it are the earlier export's files, and the
    export equals one made from nothing."""
    first = big_export(tmp_path, "out", sets_only=True)
    sheets_before = {p.name: p.read_bytes() for p in (first.root / "sheets").glob("every-*.jpg")}
    assert len(sheets_before) == 3
    again = big_export(tmp_path, "out", sets_only=True, extra="Card 0205")
    assert again.images_made[0] == 1  # one sheet of the set; the back and the others reused
    after = {p.name: p.read_bytes() for p in (again.root / "sheets").glob("every-*.jpg")}
    assert len(after) == 3 and sum(after[name] != sheets_before[name] for name in after) == 1
    fresh = big_export(tmp_path, "fresh", sets_only=True, extra="Card 0205")
    assert {p.name: p.read_bytes() for p in (fresh.root / "sheets").glob("every-*.jpg")} == after


#: The faces of ``big_export``: small, and shrunk into their cells all the same (``small_sheets``), so that the tests
#: of which sheets are drawn again, and on which pool, draw a tenth of the pixels of real sheets (the limit of 4096
#: pixels a side itself: ``test_a_deck_too_big_for_one_sheet_gets_several``).
SMALL_FACE = (126, 176)


@pytest.fixture
def small_sheets(monkeypatch):
    """Sheets at most 1024 pixels a side, so ten ``SMALL_FACE`` columns (1260 pixels) are shrunk to fit, as real
    faces are on real sheets."""
    from carddb.exporters.tts import sheets

    monkeypatch.setattr(sheets, "MAX_SIDE", 1024)


def big_export(tmp_path, out: str, render=None, *, sets_only: bool = False, extra: str = ""):
    from functools import partial

    from carddb.core.cards.card import Card, Printing
    from carddb.core.game.definition import load_game_text

    from .conftest import FakeCatalogue

    game = load_game_text(BIG_GAME, "big.toml")
    cards = [Card(game="biggame", name=f"Card {i:03d}", kind="unit", text=f"Text {i}",
                  printings=[Printing(set="core", number=str(i))]) for i in range(150)]
    if extra:
        cards.append(Card(game="biggame", name=extra, kind="unit", text="Added",
                          printings=[Printing(set="core", number="999")]))
    deck = ("1 Card 000", "one.txt") if sets_only else ("\n".join(f"{1 + i % 3} Card {i:03d}" for i in range(150)),
                                                       "big.txt")
    return export_tts(tmp_path, FakeCatalogue(game, cards), "biggame", tmp_path / out, deck_text=deck,
                      faces_dir=tmp_path / "faces", renderer=render or partial(pattern_render, size=SMALL_FACE))


@pytest.mark.slow  # more than a few seconds: `make test` runs it, `make test-fast` not
def test_sheets_are_drawn_on_one_pool_whatever_its_size(tmp_path, monkeypatch, small_sheets):
    """Every sheet of an export is drawn on one pool of threads, sized from the cores, none inside another; the
    sheets are the same whether one thread draws them or several, and drawn together or alone."""
    from carddb.exporters.tts import sheets

    pools: list[int | None] = []

    class Counted(sheets.ThreadPoolExecutor):
        def __init__(self, max_workers=None, *args, **kwargs):
            pools.append(max_workers)
            super().__init__(max_workers, *args, **kwargs)

    monkeypatch.setattr(sheets, "ThreadPoolExecutor", Counted)
    report = big_export(tmp_path, "out")
    assert pools == [sheets.workers()]  # one pool for the 3 deck sheets and the 3 sheets of the set
    assert report.images_made == (9, 9)  # 6 sheets, the back, 2 thumbnails
    paths = sorted((report.root / "sheets").glob("big-*.jpg")) + sorted((report.root / "sheets").glob("every-*.jpg"))
    assert len(paths) == 6
    keys = [f"Card {i:03d}" for i in range(150)]
    stems = card_stems(keys)
    jobs = [(sheets.plan_grid(len(chunk), SMALL_FACE),
             [tmp_path / "faces" / "biggame" / f"{stems[key]}.png" for key in chunk]) for chunk in sheets.split(keys)]
    drawn = {threads: sheets.compose_all(jobs, threads) for threads in (1, 2, 5)}
    assert drawn[1] == drawn[2] == drawn[5] == [sheets.compose(grid, chunk) for grid, chunk in jobs]
    assert drawn[1] == [path.read_bytes() for path in paths[3:]]  # the set's sheets hold the faces in this order


@pytest.mark.slow  # more than a few seconds: `make test` runs it, `make test-fast` not
def test_one_changed_face_draws_only_the_sheets_that_hold_it(tmp_path, small_sheets):
    """The export after one face changed draws again only that face's sheets (its deck's and its set's), and
    gives the same files as an export made from nothing."""
    from .conftest import pattern_face

    first = big_export(tmp_path, "out")
    changed = tmp_path / "faces" / "biggame" / "card-075.png"
    pattern_face("another face", SMALL_FACE).save(changed)
    again = big_export(tmp_path, "out")
    assert again.images_made == (2, 9)
    fresh = big_export(tmp_path, "fresh")
    assert fresh.images_made == (9, 9)
    images = sorted(p.relative_to(again.root) for p in again.root.rglob("*") if p.suffix in (".jpg", ".png"))
    assert images == sorted(p.relative_to(fresh.root) for p in fresh.root.rglob("*") if p.suffix in (".jpg", ".png"))
    assert all((again.root / p).read_bytes() == (fresh.root / p).read_bytes() for p in images)
    assert first.root == again.root
