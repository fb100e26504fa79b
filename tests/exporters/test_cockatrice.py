"""The Cockatrice export: valid against Cockatrice's published schemas, laid out as the client looks files up,
and read back into the same cards and the same decks."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from carddb.core.checker.check import card_index, check_deck
from carddb.core.decks.file import decode_deck_bytes
from carddb.core.decks.parse import parse_deck
from carddb.exporters.cockatrice import export_cockatrice
from carddb.exporters.cockatrice.mapping import correct_name
from carddb.exporters.cockatrice.reader import read_cod, read_database
from carddb.workspace import Workspace

from .conftest import GAMES, pattern_render
from .test_bad_input import odd_catalogue

CARD_ORDER = ["name", "text", "prop", "set", "related", "reverse-related", "token", "tablerow", "cipt", "upsidedown",
              "landscapeOrientation"]


@pytest.fixture(scope="module")
def trice_exports(tmp_path_factory, catalogue, repo_root):
    out, faces = tmp_path_factory.mktemp("cockatrice"), tmp_path_factory.mktemp("trice-faces")
    return {game: export_cockatrice(repo_root, catalogue, game, out / game, faces_dir=faces,
                                    renderer=pattern_render) for game in GAMES}


def schema(samples, name: str):
    xmlschema = pytest.importorskip("xmlschema", reason="xmlschema validates against Cockatrice's schemas")
    path = samples / "cockatrice" / name
    if not path.is_file():
        pytest.skip(f"Cockatrice's published {name} is not in {path.parent}")
    return xmlschema.XMLSchema(str(path))


def samples_or_none():
    """The sample files' folder where it is there (``$CARDDB_SAMPLES``, else ``../shared/samples``), else None."""
    folder = Path(os.environ.get("CARDDB_SAMPLES") or Path(__file__).resolve().parents[2].parent / "shared" / "samples")
    return folder if (folder / "cockatrice").is_dir() else None


def database_path(report):
    return report.out_dir / "customsets" / f"carddb-{report.game}.xml"


@pytest.mark.samples
@pytest.mark.parametrize("game", GAMES)
def test_database_and_decks_validate_against_the_published_schemas(trice_exports, samples, game):
    report = trice_exports[game]
    cards_xsd, deck_xsd = schema(samples, "cards.xsd"), schema(samples, "deck.xsd")
    cards_xsd.validate(str(database_path(report)))
    decks = sorted((report.out_dir / "decks").glob("*.cod"))
    assert len(decks) == report.decks
    for path in decks:
        deck_xsd.validate(str(path))


@pytest.mark.parametrize("game", GAMES)
def test_database_structure(trice_exports, catalogue, game):
    """What the client's parser needs, checked without the schema: version 4, ordered elements, known sets."""
    report = trice_exports[game]
    root = ET.parse(database_path(report)).getroot()
    assert root.tag == "cockatrice_carddatabase" and root.get("version") == "4"
    assert [child.tag for child in root] == ["info", "sets", "cards"]
    sets = {s.findtext("name") for s in root.iterfind("sets/set")}
    assert all(re.fullmatch(r"[A-Z0-9-]+", s) and s.startswith(game.upper() + "-") for s in sets)
    names = [c.findtext("name") for c in root.iterfind("cards/card")]
    assert len(names) == len(catalogue.cards(game)) == len({n.casefold() for n in names})
    for card in root.iterfind("cards/card"):
        order = [CARD_ORDER.index(child.tag) for child in card]
        assert order == sorted(order), [child.tag for child in card]
        assert card.findall("set") and {s.text for s in card.iterfind("set")} <= sets
        props = [p.tag for p in card.iterfind("prop/*")]
        assert props[:2] == ["type", "maintype"] and not any("-" in p for p in props)  # "-" props are hidden
        assert card.findtext("tablerow") in ("1", "2")


@pytest.mark.parametrize("game", GAMES)
def test_read_back_gives_the_same_cards(trice_exports, catalogue, game):
    database = read_database(database_path(trice_exports[game]), catalogue.game(game))
    ours = {c.key: c for c in catalogue.cards(game)}
    back = {c.key: c for c in database.cards}
    assert back.keys() == ours.keys()
    for key, card in ours.items():
        other = back[key]
        assert (other.kind, other.fields, other.text) == (card.kind, card.fields, card.text), key
        assert [p.rarity for p in other.printings] == [p.rarity for p in card.printings]
        assert [database.sets[p.set] for p in other.printings] == \
            [f"{catalogue.game(game).name}: {s.name}" for p in card.printings
             for s in catalogue.game(game).sets if s.code == p.set]


@pytest.mark.parametrize("game", GAMES)
def test_every_printing_has_its_picture_where_cockatrice_looks(trice_exports, game):
    report = trice_exports[game]
    root = ET.parse(database_path(report)).getroot()
    pictures = {p.relative_to(report.out_dir).as_posix() for p in (report.out_dir / "pics").rglob("*.jpg")}
    wanted = set()
    for card in root.iterfind("cards/card"):
        for printing in card.iterfind("set"):
            # Cockatrice's "{name}_{set}_{collector}" scheme under pics/CUSTOM, with its corrected name.
            wanted.add(f"pics/CUSTOM/{printing.text}/{correct_name(card.findtext('name'))}_{printing.text}_"
                       f"{printing.get('num')}.jpg")
    assert wanted == pictures
    with Image.open(report.out_dir / sorted(pictures)[0]) as image:
        assert image.format == "JPEG" and image.height == 680


def test_corrected_names_follow_cockatrice():
    assert correct_name('Fire // Ice') == "FireIce"
    assert correct_name('Circle of Protection: Red') == "Circle of Protection Red"
    assert correct_name('"Ach! Hans, Run!"') == "Ach! Hans, Run!"
    assert correct_name("Who/What/When") == "Who What When"


@pytest.mark.parametrize("game", [g for g in GAMES if g != "ssq"])
def test_sample_decks_read_back_with_their_counts(trice_exports, catalogue, repo_root, game):
    definition, cards = catalogue.game(game), catalogue.cards(game)
    index = card_index(definition, cards)
    shipped = {}
    for path in Workspace(repo_root).deck_files(game):
        shipped.setdefault(path.stem, path)
    for path in sorted((trice_exports[game].out_dir / "decks").glob("*.cod")):
        source = parse_deck(decode_deck_bytes(shipped[path.stem].read_bytes()), definition, path.name)
        back = read_cod(path, definition)
        assert back.problems == [] and back.source_format == "cockatrice"
        assert [p for p in check_deck(back, definition, cards) if p.severity == "error"] == []

        def counts(deck):
            out = Counter()
            for entry in deck.entries:
                out[(entry.zone, index.names.resolve(entry.name, entry.qualifier, entry.set_hint).card.key)] += \
                    entry.count
            return out

        assert counts(back) == counts(source), path.name
        root = ET.parse(path).getroot()  # Cockatrice deals main as the library: it must be the main deck alone
        main = sum(int(c.get("number")) for c in root.iterfind("zone[@name='main']/card"))
        assert main == source.zone_counts().get(definition.main_zone, 0)
        assert {z.get("name") for z in root.iterfind("zone")} <= {"main", "side"}


def test_awkward_names_get_a_message_not_a_broken_file(tmp_path):
    report = export_cockatrice(tmp_path, odd_catalogue(), "oddgame", tmp_path / "out", faces_dir=tmp_path / "faces",
                               renderer=pattern_render)
    path = tmp_path / "out" / "customsets" / "carddb-oddgame.xml"
    names = [c.findtext("name") for c in ET.parse(path).getroot().iterfind("cards/card")]
    assert "<script>&amp;" in names and "Tab Name" in names and "../../etc/passwd" in names
    if samples_or_none() is not None:  # the published schema where it is here; the checks above everywhere
        schema(samples_or_none(), "cards.xsd").validate(str(path))
    for picture in (tmp_path / "out").rglob("*.jpg"):
        assert picture.resolve().is_relative_to((tmp_path / "out" / "pics" / "CUSTOM").resolve())
    assert report.cards == len(names)


def test_a_name_no_file_system_allows_gets_a_warning(tmp_path):
    catalogue = odd_catalogue()
    catalogue.card_list[0].name = "Pipe | Card."
    report = export_cockatrice(tmp_path, catalogue, "oddgame", tmp_path / "out", faces_dir=tmp_path / "faces",
                               renderer=pattern_render)
    assert any("Pipe | Card." in w and "no local picture" in w for w in report.warnings)
    assert not [p for p in (tmp_path / "out").rglob("*") if "|" in p.name]


def test_export_cockatrice_command_and_deck_convert(cli, tmp_path, repo_root, tmp_workspace):
    result = cli("export", "cockatrice", "--game", "website", "--out", str(tmp_path / "c"), root=str(tmp_workspace))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("cockatrice: 40 cards, 40 printings, 5 decks, ")
    assert "Cockatrice's data folder" in result.stdout
    deck = repo_root / "rules" / "shmod" / "decks" / "legal-fire-water-fusion.txt"
    out = tmp_path / "fusion.cod"
    result = cli("deck", "convert", str(deck), "--game", "shmod", "--to", "cockatrice", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "Fusion/Transformation Stack: 3 Steam Titan" in out.read_text(encoding="utf-8")
    check = cli("deck", "check", str(out), "--game", "shmod")
    assert check.exit_code == 0 and "(Main deck 50, Side deck 0, Fusion/Transformation Stack 5)" in check.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("4 Nothing Like This\n", encoding="utf-8")
    result = cli("deck", "convert", str(bad), "--game", "shmod", "--to", "cockatrice")
    assert result.exit_code == 2 and "'Nothing Like This'" in result.stderr
