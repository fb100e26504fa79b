"""The Apprentice patch: an independent reader decodes our own cardinfo.dat fixture (and, where
``../shared/samples`` is there, the real samples) and reads back every exported card."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from carddb.core.decks.parse import parse_deck
from carddb.exporters.apprentice import export_apprentice
from carddb.exporters.apprentice.cardinfo import Record, write_cardinfo

from .cardinfo_reader import decode
from .conftest import GAMES

FIXTURE = Path(__file__).parent / "fixtures" / "apprentice" / "cardinfo.expected.json"
#: The first ten field labels of a card in a spoiler list as Magic Set Editor's export_mws writes it
#: (``shared/samples/apprentice/synthetic/fan-spoiler.txt``), which Apprentice reads.
SPOILER_KEYS = ["Card Name:", "Card Color:", "Mana Cost:", "Type & Class:", "Pow/Tou:", "Card Text:",
                "Flavor Text:", "Artist:", "Rarity:", "Card #:"]
STRICT_DEC = re.compile(r"^(//NAME: .+|// .{5,}|        [1-9]\d* \S.*|SB:  [1-9]\d* \S.*)$")


@pytest.fixture(scope="module")
def apprentice_exports(tmp_path_factory, catalogue, repo_root):
    out = tmp_path_factory.mktemp("apprentice")
    return {game: export_apprentice(repo_root, catalogue, game, out / game) for game in GAMES}


def _records(expected: dict) -> list[Record]:
    return [Record(name=c["name"], type=c["type"], cost=c["cost"], pt=c["pt"], text=c["text"],
                   flavor=c["flavor"], color=c["color"], sets=c["sets"]) for c in expected["cards"]]


def test_writer_and_reader_agree_on_our_fixture():
    """Our own three cards (Windows-1252 quotes and dashes, empty fields, CRLF text, two sets): the writer lays
    them out at the offsets the format gives (a u32 index offset, then per body five u16-length strings) and
    the independent reader finds each field there."""
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data = write_cardinfo(_records(expected))
    assert len(data) == expected["file_size"] == 233
    assert [c["body_offset"] for c in expected["cards"]] == [4, 96, 111]  # 4 + 92 + 15: the bodies are back to back
    assert decode(data) == expected


@pytest.mark.samples
@pytest.mark.parametrize("sample", ["arcanistccg-demo/cardinfo", "synthetic/fan-cardinfo"])
def test_reader_decodes_samples_to_expected_json(samples, sample):
    data = (samples / "apprentice" / f"{sample}.dat").read_bytes()
    expected = (samples / "apprentice" / f"{sample}.expected.json").read_text(encoding="utf-8")
    assert decode(data) == json.loads(expected)


@pytest.mark.samples
@pytest.mark.parametrize("sample", ["arcanistccg-demo/cardinfo", "synthetic/fan-cardinfo"])
def test_writer_reproduces_samples_byte_for_byte(samples, sample):
    expected = json.loads((samples / "apprentice" / f"{sample}.expected.json").read_text(encoding="utf-8"))
    assert write_cardinfo(_records(expected)) == (samples / "apprentice" / f"{sample}.dat").read_bytes()


@pytest.mark.parametrize("game", GAMES)
def test_export_then_read_gives_back_every_card(apprentice_exports, catalogue, game):
    report = apprentice_exports[game]
    decoded = decode((report.out_dir / "Sets" / "cardinfo.dat").read_bytes())
    cards = catalogue.cards(game)
    assert decoded["card_count"] == len(cards) == report.rows
    names = [c["name"] for c in decoded["cards"]]
    assert len({n.casefold() for n in names}) == len(names)
    assert all(len(n) <= 27 and c["spacer_hex"] == "0000" for n, c in zip(names, decoded["cards"], strict=True))
    by_name = {c["name"]: c for c in decoded["cards"]}
    codes = dict(line.split("-", 1) for line in (report.out_dir / "Expan.dat").read_text("cp1252").splitlines()
                 if not line.startswith("-"))
    clashing = Counter(c.name for c in cards)
    for card in cards:
        wanted = card.key if clashing[card.name] > 1 else card.name  # the version only where names clash
        record = by_name.get(wanted) or by_name[max((n for n in by_name if wanted.startswith(n)), key=len)]
        assert len(record["name"]) <= 27 and (record["name"] == wanted or len(wanted) > 27)
        assert record["text"].endswith(card.text.replace("\n", "\r\n"))
        set_names = {codes[item.split("-")[0]] for item in record["sets"].split(",")}
        wanted = {s.name for s in catalogue.game(game).sets if s.code in {p.set for p in card.printings}}
        assert set_names == wanted, card.key


def test_minibattle_mapping(apprentice_exports, catalogue):
    decoded = decode((apprentice_exports["minibattle"].out_dir / "Sets" / "cardinfo.dat").read_bytes())
    pikachu = next(c for c in decoded["cards"] if c["name"] == "Pikachu")
    card = next(c for c in catalogue.cards("minibattle") if c.name == "Pikachu")
    f = card.fields
    assert (pikachu["type"], pikachu["cost"], pikachu["pt"], pikachu["color"]) == \
        ("Pokemon - Electric", str(f["level"]), f"{f['atk']}/{f['def']}", 0x01)
    assert pikachu["text"].startswith(f"HP: {f['hp']}\r\nStage: {f['stage']}\r\n")
    assert pikachu["sets"] == ",".join("BA" if p.set == "base" else "PR" for p in card.printings)
    assert {c["sets"] for c in decoded["cards"]} <= {"BA", "PR", "BA,PR", "PR,BA"}  # bare codes: every reader
    for card in decoded["cards"]:
        assert not set(card["cost"]) & set("WUBRGwubrg")  # no letter Apprentice would draw as mana


def test_shmod_colours_and_limited(apprentice_exports):
    decoded = decode((apprentice_exports["shmod"].out_dir / "Sets" / "cardinfo.dat").read_bytes())
    by_type = {}
    for card in decoded["cards"]:
        by_type.setdefault(card["type"], set()).add(card["color"])
    assert by_type.get("Monster - FIRE") == {0x08}
    assert by_type.get("Monster - STORM") == {0x02 | 0x08 | 0x20}
    replenish = next(c for c in decoded["cards"] if c["name"] == "Replenish")
    assert "LIMITED" in replenish["text"] and replenish["color"] == 0x40


@pytest.mark.parametrize("game", GAMES)
def test_expan_and_decks_strict_form(apprentice_exports, game):
    out = apprentice_exports[game].out_dir
    expan = (out / "Expan.dat").read_bytes()
    assert expan.endswith(b"\r\n") and b"\n" not in expan.replace(b"\r\n", b"")
    for line in expan.decode("cp1252").split("\r\n")[:-1]:
        assert re.fullmatch(r"[A-Z0-9]{2}-.+|-[CURM]-.+", line), line
    names = {c["name"] for c in decode((out / "Sets" / "cardinfo.dat").read_bytes())["cards"]}
    decks = sorted((out / "decks").glob("*.dec")) if (out / "decks").exists() else []
    assert len(decks) == apprentice_exports[game].decks
    for path in decks:
        data = path.read_bytes()
        assert data.endswith(b"\r\n") and b"\n" not in data.replace(b"\r\n", b"")
        lines = data.decode("cp1252").split("\r\n")[:-1]
        assert lines[0].startswith("//NAME: ")
        for line in lines:
            assert STRICT_DEC.match(line), (path.name, line)
            if not line.startswith("//"):
                assert line.split(" ", 1)[1].lstrip().split(" ", 1)[1] in names, line
    assert (out / "carddb-export.json").is_file()


@pytest.mark.samples
def test_spoiler_key_facts_match_the_sample(samples):
    sample = (samples / "apprentice" / "synthetic" / "fan-spoiler.txt").read_bytes().decode("cp1252")
    keys = [line.split("\t")[0] for line in sample.split("\r\n") if re.match(r"^[A-Z][^\t]*:\t", line)]
    assert keys[:10] == SPOILER_KEYS


def test_spoiler_layout_matches_sample(apprentice_exports):
    ours = (apprentice_exports["minibattle"].out_dir / "spoilers" / "BA.txt").read_bytes()
    assert b"\n" not in ours.replace(b"\r\n", b"")
    text = ours.decode("cp1252")
    first = text.split("\r\n\r\n")[2]
    assert [line.split("\t")[0] for line in first.split("\r\n") if not line.startswith("\t")] == SPOILER_KEYS
    assert text.startswith("Pokemon Mini-Battle Card Game - Base Set Spoiler List\r\nSet exported using carddb\r\n")


def test_website_names_are_shortened_before_they_are_told_apart(apprentice_exports):
    names = {c["name"] for c in decode((apprentice_exports["website"].out_dir / "Sets" / "cardinfo.dat")
                                       .read_bytes())["cards"]}
    assert {"Hit Counter", "Site Card: Comics Page", "Site Card: Downloads Page", "Alan's Site Base Card",
            "Splash Page (Neutral)", "Splash Page (Alan's Site)", "First Edition Site Card"} <= names
    for name in names:
        assert len(name) <= 27 and name.count("(") == name.count(")") and not name.endswith(("(", " ", ":"))


@pytest.mark.parametrize("game", ["ssbm", "shmod", "website"])
def test_extra_zones_keep_main_deck_counts_in_other_readers(apprentice_exports, catalogue, game):
    """A reader that knows only main lines and SB: lines (XMage, ArcanistCCG) counts the main deck right;
    carddb's reader puts every SB: line back in its zone."""
    definition = catalogue.game(game)
    for path in sorted((apprentice_exports[game].out_dir / "decks").glob("*.dec")):
        text = path.read_bytes().decode("cp1252")
        main = sum(int(line.split()[0]) for line in text.split("\r\n") if line.startswith("        "))
        deck = parse_deck(text.replace("\r\n", "\n"), definition, path.name)
        counts = deck.zone_counts(tuple(definition.zones))
        assert main == counts[definition.main_zone], path.name
        for line in text.split("\r\n"):
            assert not line.startswith("// ZONE:") or line[9:] != definition.zones[definition.main_zone].label
        assert sum(counts.values()) == deck.total and not deck.problems
