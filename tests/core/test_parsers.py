"""The deck readers: the text format, LackeyCCG .dek and text decks, Apprentice .dec (our own files in their
shapes, and the real files of ../shared/samples where they are there), format detection, safe XML, encodings,
and the writers' round trip."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from carddb.core.decks.file import decode_deck_bytes
from carddb.core.decks.parse import detect_format, parse_deck
from carddb.core.decks.write import merged, write_deck
from carddb.errors import InputError
from tests.core.decks import REPO, check, starter

FIXTURES = Path(__file__).parent / "fixtures"
EXPORT_FIXTURES = Path(__file__).parents[1] / "exporters" / "fixtures" / "lackey"


def read(game_id: str, text: str):  # type: ignore[no-untyped-def]
    return parse_deck(text, starter(game_id)[0])


def rows(deck) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(e.zone, e.count, e.name, e.qualifier, e.line) for e in deck.entries]


def test_text_format_count_forms_qualifiers_and_comments() -> None:
    deck = read("website", "# a comment\n4 Guestbook\n3x Hit Counter\n2 x Links Page\n1\tSite Search\n"
                           "Splash Page (Neutral)\n2 Splash Page [Alan's Site]  // trailing is part of nothing\n"
                           "// another comment\nBase:\n1 Neutral Base Card\n")
    assert rows(deck)[:5] == [("main", 4, "Guestbook", "", 2), ("main", 3, "Hit Counter", "", 3),
                              ("main", 2, "Links Page", "", 4), ("main", 1, "Site Search", "", 5),
                              ("main", 1, "Splash Page", "Neutral", 6)]
    assert rows(deck)[-1] == ("base", 1, "Neutral Base Card", "", 10)
    assert deck.source_format == "text"


def test_zone_headers_by_id_label_alias_and_generic_words() -> None:
    deck = read("shmod", "Deck:\n4 Ember Whelp\nSideboard:\n4 Gloom Imp\nFusion/Transformation Stack:\n"
                         "1 Steam Titan\nMain Deck:\n1 Replenish\nExtra Deck:\n1 Vortex Wyvern\n")
    assert [e.zone for e in deck.entries] == ["main", "side", "stack", "main", "stack"]
    assert deck.problems == []


def test_unreadable_lines_and_unknown_zones_are_problems_and_reading_goes_on() -> None:
    deck = read("ssbm", "Character:\n1 Mario\nDeck:\n0 Jump\n3\n-2 Dash\nCrypt:\n4 Attack\nDeck:\n5 Power Block\n")
    assert [(p.code, p.line) for p in deck.problems] == [("parse", 4), ("parse", 5), ("unknown-zone", 7)]
    assert deck.problems[0].message == "0 is not a usable count (1 to 999): '0 Jump'."
    assert deck.problems[1].message == "A count but no card name: '3'."
    assert deck.problems[2].message.startswith("Super Smash Bros. Melee CCG has no zone called 'Crypt'")
    # "-2 Dash" is read as one card named "-2 Dash" (unknown), and the cards under Crypt: are not counted.
    assert [(e.name, e.count) for e in deck.entries] == [("Mario", 1), ("-2 Dash", 1), ("Power Block", 5)]


def test_a_name_ending_in_brackets_wins_over_a_qualifier() -> None:
    from carddb.core.cards.card import Card
    from carddb.core.cards.names import NameIndex

    index = NameIndex([Card("g", "B.F.M. (Big Furry Monster)", "k"), Card("g", "Power Block", "k")])
    assert index.resolve("B.F.M.", "Big Furry Monster").card.name == "B.F.M. (Big Furry Monster)"


def test_set_name_or_code_as_qualifier() -> None:
    problems = check("ssbm", "Character:\n1 Mario (base)\nDeck:\n5 Power Block [Base Set]\n6 Attack (promo)\n")
    assert [(p.code, p.card) for p in problems] == [("unknown-card", "Attack (promo)"), ("zone-size", None)]


def test_lackey_dek_of_the_real_shape_one_card_element_per_copy() -> None:
    text = (EXPORT_FIXTURES / "fixture.dek").read_text(encoding="utf-8")
    assert detect_format(text) == "lackey"
    deck = read("shmod", text)
    assert [(e.zone, e.name, e.count, e.set_hint) for e in deck.entries] == [
        ("main", "Ember Drake", 2, "Core"), ("main", "Wren's Lantern", 3, "Core"), ("side", "Moss Golem", 1, "Core")]
    assert deck.problems == []


def test_lackey_text_deck_of_the_real_shape_with_a_zone_header() -> None:
    text = (FIXTURES / "lackey-text-deck.txt").read_text(encoding="utf-8")
    assert detect_format(text) == "lackey-text"
    deck = read("shmod", text)
    assert [(e.count, e.name) for e in deck.entries] == [(4, "Ember Whelp"), (2, "Gloom Imp"), (1, "Mirror Guard")]
    assert [(p.code, p.line) for p in deck.problems] == [("unknown-zone", 4)]
    assert "no zone called 'Crypt'" in deck.problems[0].message


@pytest.mark.parametrize("name", ["apprentice-loose.dec", "apprentice-no-indent.dec"])
def test_apprentice_loose_variants(name: str) -> None:
    """What real-world .dec files do: `// Name:` in any case, section comments, CRLF, no indent, blank lines."""
    text = decode_deck_bytes((FIXTURES / name).read_bytes())
    assert detect_format(text) == "apprentice"
    deck = read("shmod", text)
    assert [(e.zone, e.count, e.name) for e in deck.entries] == [
        ("main", 4, "Ember Whelp"), ("main", 2, "Gloom Imp"), ("side", 3, "Mirror Guard")]
    assert deck.problems == []
    assert deck.name == ("a deck pasted from a forum" if name == "apprentice-loose.dec" else "")


@pytest.mark.samples
def test_lackey_dek_sample_one_card_element_per_copy(samples) -> None:
    text = (samples / "lackey/lackey-example/decks/sample.dek").read_text()
    assert detect_format(text) == "lackey"
    deck = read("ssbm", text)
    assert [(e.zone, e.name, e.count, e.set_hint, e.line) for e in deck.entries] == [
        ("main", "Hacker Cat", 3, "Alpha", 6), ("main", "Kaiser Soze", 3, "Alpha", 9),
        ("main", "Hover Cat", 3, "Alpha", 12), ("main", "Tough Cat", 3, "Alpha", 15)]
    assert deck.problems == []


@pytest.mark.samples
def test_lackey_dek_real_plugin_deck_with_escapes(samples) -> None:
    text = (samples / "lackey/ccglorcana/decks/Amber_and_Amethyst_tfc.dek").read_text()
    deck = read("ssbm", text)
    assert deck.problems == []
    assert deck.total == text.count("<card>")
    assert any("'" in e.name for e in deck.entries)  # &apos; decoded


@pytest.mark.samples
def test_lackey_text_deck_with_a_zone_header(samples) -> None:
    text = (samples / "lackey/vtes/decks/Precon_Brujah_V5.txt").read_text()
    assert detect_format(text) == "lackey-text"
    deck = read("ssbm", text)
    assert deck.entries[0].name == "Anarch Free Press, The" and deck.entries[1].count == 4
    crypt = next(p for p in deck.problems if "Crypt" in p.message)
    assert crypt.line == text.splitlines().index("Crypt:") + 1


@pytest.mark.samples
@pytest.mark.parametrize("name", ["CardWithAEName.dec", "DeckInMultipleFormats1.dec", "DeckInMultipleFormats2.dec",
                                  "NormalDeck.dec"])
def test_apprentice_real_world_variants(samples, name: str) -> None:
    text = decode_deck_bytes((samples / "apprentice/octgn-deckconverter-dec" / name).read_bytes())
    deck = read("shmod", text)
    assert deck.problems == []
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("//")]
    assert len(deck.entries) == len(lines)
    assert sum(e.count for e in deck.entries) == sum(int(ln.replace("SB:", "").split()[0]) for ln in lines)
    if name == "CardWithAEName.dec":
        assert detect_format(text) == "apprentice"
        assert [(e.zone, e.count, e.name) for e in deck.entries if e.zone == "side"] == [
            ("side", 4, "Disperse"), ("side", 4, "Remove Soul")]
        assert deck.entries[0].name == "AEther Adept"


@pytest.mark.samples
def test_apprentice_canonical_dec(samples) -> None:
    text = decode_deck_bytes((samples / "apprentice/synthetic/strict.dec").read_bytes())
    deck = read("shmod", text)
    assert deck.name == "Fan Red Deck"
    assert rows(deck) == [("main", 4, "Blaze Drake", "", 2), ("main", 2, "Golem of Ages", "", 3),
                          ("main", 18, "Ancient Vault", "", 4), ("side", 3, "Golem of Ages", "", 5)]


def test_apprentice_sb_line_goes_to_the_only_other_zone_when_there_is_no_side_deck() -> None:
    deck = read("ssbm", "//NAME: Bowser\n        5 Power Block\nSB:  1 Bowser\n")
    assert [(e.zone, e.name) for e in deck.entries] == [("main", "Power Block"), ("character", "Bowser")]
    deck = read("minibattle", "//NAME: x\nSB:  1 Pikachu\n")
    assert deck.problems[0].message.startswith("A sideboard line (SB:), but Pokemon Mini-Battle")


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<deck version="0.8"><superzone name="Deck"><card><name>&lol3;</name><set>x</set></card></superzone></deck>
"""
XXE = """<?xml version="1.0"?>
<!DOCTYPE deck [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<deck version="0.8"><superzone name="Deck"><card><name>&xxe;</name><set>x</set></card></superzone></deck>
"""


@pytest.mark.parametrize("text", [BOMB, XXE], ids=["billion-laughs", "external-entity"])
def test_xml_entities_are_refused_before_parsing(text: str) -> None:
    deck = read("ssbm", text)
    assert deck.entries == []
    assert [(p.code, p.line) for p in deck.problems] == [("parse", 2)]
    assert "refuses to expand" in deck.problems[0].message


def test_an_entity_declared_without_a_doctype_subset_is_still_refused() -> None:
    text = '<deck version="0.8"><!ENTITY a "b"><superzone name="Deck"></superzone></deck>'
    assert read("ssbm", text).problems[0].code == "parse"


def test_the_old_lackey_shape_with_an_external_doctype_is_read_without_fetching() -> None:
    text = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE deck SYSTEM "http://www.lackeyccg.com/deck.dtd">\n'
            '<deck version="0.8"><meta><title>Old</title></meta>\n<superzone name="Deck">\n'
            '<card><name id="x">Power Block</name><set>base</set></card>\n</superzone></deck>\n')
    deck = read("ssbm", text)
    assert deck.problems == [] and deck.name == "Old"
    assert rows(deck) == [("main", 1, "Power Block", "", 5)]


def test_malformed_xml_is_a_parse_problem_with_its_line() -> None:
    text = '<deck version="0.8">\n<superzone name="Deck">\n<card><name>Jump</name></card>\n<card><name>Dash\n</deck>'
    deck = read("ssbm", text)
    assert [(p.code, p.line) for p in deck.problems] == [("parse", 5)]
    assert [(e.name, e.count) for e in deck.entries] == [("Jump", 1)]


def test_mtgo_dek_is_read_too() -> None:
    text = ('<?xml version="1.0"?>\n<Deck>\n<Cards CatID="1" Quantity="4" Sideboard="false" Name="Ember Whelp"/>\n'
            '<Cards CatID="2" Quantity="2" Sideboard="true" Name="Gloom Imp"/>\n</Deck>\n')
    assert detect_format(text) == "mtgo-dek"
    assert [(e.zone, e.count, e.name) for e in read("shmod", text).entries] == [
        ("main", 4, "Ember Whelp"), ("side", 2, "Gloom Imp")]


def test_decoding_bom_utf16_latin1_cp1252_and_refusals() -> None:
    text = "Character:\n1 Ness\nDeck:\n3 Ness’ PSI Magnet\n"
    assert decode_deck_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le")) == text
    assert decode_deck_bytes(text.encode("utf-16-le")) == text
    assert decode_deck_bytes(codecs.BOM_UTF8 + text.encode()) == text
    assert decode_deck_bytes(text.encode("cp1252")) == text
    assert decode_deck_bytes("2 Pokémon\r\n".encode("latin-1")) == "2 Pokémon\n"
    with pytest.raises(InputError, match="not a text file"):
        decode_deck_bytes(bytes(range(256)) * 4)
    with pytest.raises(InputError, match="at most 10 MB"):
        decode_deck_bytes(b"1 Jump\n" * 1_600_000)


ROUND_TRIP = {
    "ssbm": "Character:\n1 Mario\nDeck:\n5 Power Block\n4 Mushroom\n2 Super Cape\n3 Power Block\n",
    "shmod": "Main:\n4 Ember Whelp\nSide:\n2 Gloom Imp\nStack:\n1 Steam Titan\n",
    "website": "Base:\n1 Alan's Site Base Card\nDeck:\n2 Splash Page (Neutral)\n2 Splash Page (Alan's Site)\n",
    "minibattle": "3 Pikachu\n1 Pichu\n",
}


@pytest.mark.parametrize("fmt", ["text", "lackey", "apprentice", "cockatrice"])
@pytest.mark.parametrize("game_id", sorted(ROUND_TRIP))
def test_writers_round_trip(game_id: str, fmt: str) -> None:
    game = starter(game_id)[0]
    deck = parse_deck(ROUND_TRIP[game_id], game)
    written = write_deck(deck, game, fmt)
    back = parse_deck(written, game)
    assert back.problems == []
    assert back.source_format == {"text": "text", "lackey": "lackey", "apprentice": "apprentice",
                                  "cockatrice": "cockatrice"}[fmt]

    def shape(d):  # type: ignore[no-untyped-def]
        return {z: [(e.count, e.name, e.qualifier) for e in es] for z, es in merged(d, game).items()}

    assert shape(back) == shape(deck)
    assert write_deck(back, game, fmt) == written


def test_apprentice_writer_shape() -> None:
    game = starter("shmod")[0]
    deck = parse_deck(ROUND_TRIP["shmod"], game)
    deck.name = "Mine"
    assert write_deck(deck, game, "apprentice") == (
        "//NAME: Mine\r\n        4 Ember Whelp\r\n// ZONE: Side deck\r\nSB:  2 Gloom Imp\r\n"
        "// ZONE: Fusion/Transformation Stack\r\nSB:  1 Steam Titan\r\n")


def test_a_comment_after_whitespace_ends_the_card_part_of_a_line() -> None:
    deck = read("shmod", "4 Ember Whelp # my note\n2 Gloom Imp\t// a note after a tab\n"
                         "Side: # against control\n3 Mirror Guard  #no space after the hash is fine too\n")
    assert rows(deck) == [("main", 4, "Ember Whelp", "", 1), ("main", 2, "Gloom Imp", "", 2),
                          ("side", 3, "Mirror Guard", "", 4)]
    assert deck.problems == []


def test_a_hash_inside_a_name_stays_part_of_the_name() -> None:
    deck = read("shmod", "2 Card#5\n1 Splash Page (Neutral)#x\n1 a//b\n")
    assert [(e.count, e.name, e.qualifier) for e in deck.entries] == [(2, "Card#5", ""),
                                                                       (1, "Splash Page (Neutral)#x", ""),
                                                                       (1, "a//b", "")]


def test_comments_after_qualifiers_and_sideboard_lines() -> None:
    deck = read("website", "2 Splash Page [Alan's Site]  // trailing note\n")
    assert rows(deck) == [("main", 2, "Splash Page", "Alan's Site", 1)]
    deck = read("shmod", "//NAME: x\n        4 Ember Whelp # main\nSB:  2 Gloom Imp // side\n")
    assert [(e.zone, e.count, e.name) for e in deck.entries] == [("main", 4, "Ember Whelp"), ("side", 2, "Gloom Imp")]


def test_a_trailing_comment_does_not_make_a_legal_deck_unknown() -> None:
    text = (REPO / "rules/shmod/decks/legal-fire-water-fusion.txt").read_text(encoding="utf-8")
    noted = "\n".join(line + ("  # noted" if line[:1].isdigit() else "") for line in text.splitlines())
    assert "  # noted" in noted
    assert [p.code for p in check("shmod", noted) if p.severity == "error"] == []
