"""The deck checker's readers of Cockatrice ``.cod`` and Tabletop Simulator saved objects, on files carddb did
not write: hand-made, hostile, broken. Every problem is a message; nothing is expanded or fetched."""

from __future__ import annotations

import json

import pytest

from carddb.core.checker.check import check_deck
from carddb.core.decks.parse import detect_format, parse_deck
from carddb.core.decks.write import write_deck


@pytest.fixture(scope="module")
def ssbm(catalogue):
    return catalogue.game("ssbm")


@pytest.fixture(scope="module")
def shmod(catalogue):
    return catalogue.game("shmod")


COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
  <deckname>Hand made</deckname>
  <comments>{comments}</comments>
  <zone name="main"><card number="4" name="Taunt"/><card number="56" name="Attack"/></zone>
  <zone name="side"><card number="1" name="Pikachu"/></zone>
  <zone name="tokens"><card number="3" name="Some Token"/></zone>
</cockatrice_deck>
"""


def test_a_hand_made_cod_reads_with_the_character_from_the_sideboard(ssbm, catalogue):
    text = COD.format(comments="")
    assert detect_format(text) == "cockatrice"
    deck = parse_deck(text, ssbm, "hand.cod")
    assert deck.name == "Hand made" and deck.problems == []
    assert deck.zone_counts(("character", "main")) == {"character": 1, "main": 60}
    found = {p.code for p in check_deck(deck, ssbm, catalogue.cards("ssbm"))}
    assert found == {"copy-limit"}  # 56 Attack is too many; every card was found, every zone is right


def test_cod_comments_move_sideboard_cards_to_their_zones(shmod, catalogue, repo_root):
    cards = catalogue.cards("shmod")
    source = parse_deck((repo_root / "rules/shmod/decks/legal-storm-dark-side-deck.txt").read_text(encoding="utf-8"),
                        shmod)
    text = write_deck(source, shmod, "cockatrice")
    back = parse_deck(text, shmod, "x.cod")
    assert back.zone_counts(tuple(shmod.zones)) == source.zone_counts(tuple(shmod.zones))
    assert [p for p in check_deck(back, shmod, cards) if p.severity == "error"] == []
    too_many = text.replace("Stack: 2 Vortex Wyvern", "Stack: 9 Vortex Wyvern")
    assert any("9" not in p.message and "more 'Vortex Wyvern'" in p.message
               for p in parse_deck(too_many, shmod).problems)


@pytest.mark.parametrize("text, message", [
    ('<!DOCTYPE d [<!ENTITY a "aaaa">]><cockatrice_deck><deckname>&a;</deckname></cockatrice_deck>', "entities"),
    ('<!DOCTYPE cockatrice_deck SYSTEM "http://example.org/evil.dtd"><cockatrice_deck>'
     '<zone name="main"><card number="x" name="Taunt"/></zone></cockatrice_deck>', "not a usable count"),
    ("<cockatrice_deck><zone name='main'><card number='2' name='Taunt'/>", "not well-formed"),
    ("<cockatrice_deck><zone name='hand'><card number='2' name='Taunt'/></zone></cockatrice_deck>", "no zone called"),
])
def test_hostile_or_broken_cod_files_give_problems(ssbm, text, message):
    deck = parse_deck(text, ssbm, "bad.cod")
    assert any(message in p.message for p in deck.problems), deck.problems


def tts(objects, **extra) -> str:
    return json.dumps({"SaveName": "", "ObjectStates": objects, **extra})


def card(name, notes=""):
    return {"Name": "Card", "Nickname": name, "GMNotes": notes, "CardID": 100}


def test_a_third_party_saved_object_reads_by_nicknames(ssbm, catalogue):
    main = {"Name": "DeckCustom", "Nickname": "My deck", "ContainedObjects":
            [card("Taunt")] * 4 + [card("Attack")] * 56}
    character = card("Pikachu") | {"Nickname": "Pikachu"}
    bag = {"Name": "Bag", "Nickname": "Character", "ContainedObjects": [character]}
    deck = parse_deck(tts([main, bag]), ssbm, "x.json")
    assert detect_format(tts([main])) == "tts" and deck.problems == []
    assert deck.zone_counts(("character", "main")) == {"character": 1, "main": 60}
    found = {p.code for p in check_deck(deck, ssbm, catalogue.cards("ssbm"))}
    assert found == {"copy-limit"}  # 56 Attack is too many; every card was found, every zone is right


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ('{"Some": "thing"}', "no ObjectStates"),
    ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    (tts([{"Name": "Deck", "Nickname": "x", "DeckIDs": [100, 101]}]), "lists no ContainedObjects"),
    (tts([card("")]), "has no nickname"),
    (tts([{"Name": "Bag", "ContainedObjects": []}]), "holds no cards"),
])
def test_broken_saved_objects_give_problems(ssbm, text, message):
    deck = parse_deck(text, ssbm, "bad.json")
    assert any(message in p.message for p in deck.problems), deck.problems


def test_gm_notes_that_are_not_carddbs_are_ignored(ssbm):
    deck = parse_deck(tts([card("Taunt", notes="remember to shuffle"), card("Taunt", notes='{"card": 3}')]), ssbm)
    assert [(e.name, e.count) for e in deck.entries] == [("Taunt", 2)]


def test_dec_sb_lines_after_a_zone_comment_go_to_that_zone(shmod):
    text = ("//NAME: x\n        50 Flame Imp\n// ZONE: Fusion/Transformation Stack\nSB:  3 Steam Titan\n"
            "// ZONE: Side deck\nSB:  2 Flame Imp\n// ZONE: Nowhere\nSB:  1 Flame Imp\n")
    deck = parse_deck(text, shmod)
    assert deck.zone_counts(("main", "side", "stack")) == {"main": 50, "side": 2, "stack": 3}
    assert any(p.code == "unknown-zone" and "no zone called 'Nowhere'" in p.message for p in deck.problems)
    old_form = "//NAME: x\n        50 Flame Imp\n// ZONE: Stack\n        3 Steam Titan\n"  # written before
    assert parse_deck(old_form, shmod).zone_counts(("main", "stack")) == {"main": 50, "stack": 3}
