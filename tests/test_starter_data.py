"""The starter catalogues (rules/<game>/cards/*.yaml) and sample decks (rules/<game>/decks/*) are sound data:
every card file parses and builds against its game's definition, every card has an identity, every deck
promises its verdict in a well-formed line, names only cards that exist (unless it is the deck that shows an
unknown or ambiguous name), and the values the rulebooks state are the ones in the files."""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from carddb.catalogue.cardfiles import read_card_file
from carddb.catalogue.validate import build_cards
from carddb.core.cards.card import normalise_name
from carddb.core.decks.parse import parse_deck
from carddb.core.game.definition import SEVERITIES, GameDefinition, load_game

REPO = Path(__file__).resolve().parent.parent
GAMES = ("ssbm", "shmod", "ssq", "minibattle", "website")
DECK_GAMES = ("ssbm", "shmod", "minibattle", "website")
CARD_FILES = sorted(p for g in GAMES for p in (REPO / "rules" / g / "cards").glob("*.yaml"))
DECKS = sorted(p for g in DECK_GAMES for p in (REPO / "rules" / g / "decks").glob("*")
               if p.suffix in {".txt", ".dek", ".dec"})

#: The problem codes of games.md that each deck game's sample decks must show (not-owned needs a collection).
ERRORS_SHOWN = {
    "ssbm": {"parse", "unknown-card", "zone-size", "copy-limit", "wrong-zone", "character-only"},
    "shmod": {"parse", "unknown-card", "zone-size", "copy-limit", "wrong-zone"},
    "minibattle": {"parse", "unknown-card", "zone-size", "copy-limit", "level-cap", "no-basic"},
    "website": {"parse", "unknown-card", "ambiguous-card", "zone-size", "copy-limit", "wrong-zone", "no-component"},
}
WARNINGS_SHOWN = {
    "ssbm": set(),
    "shmod": {"mana-type", "fusion-material"},
    "minibattle": {"evolution-line"},
    "website": {"site-type", "requires-card"},
}

_CODES = r"[a-z]+(?:-[a-z0-9]+)*(?:, [a-z]+(?:-[a-z0-9]+)*)*"
EXPECT_LINE = re.compile(rf"^(?:#|//) expect: (?P<verdict>legal|illegal)(?:; errors: (?P<errors>{_CODES}))?"
                         rf"(?:; warnings: (?P<warnings>{_CODES}))?$")


def _game(game_id: str) -> GameDefinition:
    return load_game(REPO / "rules" / game_id)


@functools.cache
def _yaml_cards(game_id: str) -> list[dict[str, Any]]:
    """Every card of the game's YAML files as a flat mapping, with its set filled in from the file (read once:
    the tests only read it, and PyYAML's pure-Python reader took seconds for each card looked up)."""
    cards = []
    for path in sorted((REPO / "rules" / game_id / "cards").glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in document["cards"]:
            cards.append({"set": document["set"], **card})
    return cards


def _card(game_id: str, name: str, **match: Any) -> dict[str, Any]:
    found = [c for c in _yaml_cards(game_id) if c["name"] == name and all(c.get(k) == v for k, v in match.items())]
    assert len(found) == 1, f"{game_id}: {len(found)} cards named {name!r} with {match}"
    return found[0]


# ---------------------------------------------------------------------------------------------- card files

def test_every_game_has_a_catalogue() -> None:
    assert {p.parent.parent.name for p in CARD_FILES} == set(GAMES)


@pytest.mark.parametrize("path", CARD_FILES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CARD_FILES])
def test_card_file_parses_and_every_card_has_an_identity(path: Path) -> None:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(document) == {"set", "cards"}
    game = _game(path.parent.parent.name)
    assert document["set"] in {s.code for s in game.sets}
    numbers: Counter[tuple[str, str]] = Counter()
    for card in document["cards"]:
        for key in ("name", "kind", "number"):
            assert isinstance(card.get(key), str) and card[key].strip(), f"{card.get('name')}: no {key}"
        assert card["kind"] in game.kinds, card["name"]
        numbers[(card.get("set", document["set"]), card["number"])] += 1
        assert "limited" not in card, f"{card['name']}: limited is computed, never written"
        assert "art" not in card, card["name"]
        sample = card.get("sample", [])
        assert isinstance(sample, list)
        assert sample == ["*"] or all(key in card for key in sample), f"{card['name']}: sample names {sample}"
    assert [n for n, times in numbers.items() if times > 1] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_card_files_build_against_the_game_definition(game_id: str) -> None:
    """The catalogue's own reader types every value against game.toml and rejects nothing."""
    game = _game(game_id)
    raws = [raw for path in sorted((REPO / "rules" / game_id / "cards").glob("*.yaml"))
            for raw in read_card_file(path)[1]]
    cards = build_cards(game, raws, game_id)
    assert len(cards) == len(_yaml_cards(game_id))
    assert all(card.printings and card.printings[0].number for card in cards)


# ---------------------------------------------------------------------------------------------- decks

def _expectation(path: Path) -> tuple[str, set[str], set[str]]:
    """(verdict, error codes, warning codes) as the deck promises them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".dek":
        # XML holds no comment a LackeyCCG client keeps: the name promises the verdict.
        match = re.match(r"^(legal|illegal)-", path.stem)
        assert match, path.name
        return match[1], set(), set()
    if path.suffix == ".dec":
        assert lines[0].startswith("//NAME: "), "an Apprentice deck starts with its //NAME: line"
        line = lines[1]
    else:
        line = lines[0]
    match = EXPECT_LINE.match(line)
    assert match, f"{path.name}: first line {line!r} is not '# expect: legal|illegal[; errors: ...][; warnings: ...]'"

    def codes(group: str | None) -> set[str]:
        return set(group.split(", ")) if group else set()

    return match["verdict"], codes(match["errors"]), codes(match["warnings"])


@pytest.mark.parametrize("path", DECKS, ids=[f"{p.parent.parent.name}/{p.name}" for p in DECKS])
def test_deck_expectation_is_well_formed(path: Path) -> None:
    verdict, errors, warnings = _expectation(path)
    assert all(SEVERITIES.get(code) == "error" for code in errors), errors
    assert all(SEVERITIES.get(code) == "warning" for code in warnings), warnings
    assert (verdict == "legal") == (not errors)
    if verdict == "illegal":
        code = next(c for c in sorted(SEVERITIES, key=len, reverse=True) if path.stem.startswith(f"illegal-{c}-"))
        assert code in errors, f"{path.name} is named for {code}, which its expectation does not list"
    elif path.stem.startswith("legal-warn-"):
        assert any(path.stem.startswith(f"legal-warn-{code}-") for code in warnings), path.name
    else:
        assert warnings == set(), f"{path.name}: a deck with warnings is named legal-warn-<code>-..."


@pytest.mark.parametrize("path", DECKS, ids=[f"{p.parent.parent.name}/{p.name}" for p in DECKS])
def test_deck_names_only_cards_that_exist(path: Path) -> None:
    game_id = path.parent.parent.name
    _, errors, _ = _expectation(path)
    deck = parse_deck(path.read_text(encoding="utf-8"), _game(game_id), filename=path.name)
    assert bool(deck.problems) == ("parse" in errors), [p.message for p in deck.problems]
    cards = _yaml_cards(game_id)
    unknown, ambiguous = [], []
    for entry in deck.entries:
        found = [c for c in cards if normalise_name(c["name"]) == normalise_name(entry.name)]
        if entry.qualifier:
            wanted = normalise_name(entry.qualifier)
            found = [c for c in found if wanted in {normalise_name(c["set"]), normalise_name(c.get("site_type", ""))}]
        if not found:
            unknown.append(entry.name)
        elif len(found) > 1:
            ambiguous.append(entry.name)
    assert bool(unknown) == ("unknown-card" in errors), unknown
    assert bool(ambiguous) == ("ambiguous-card" in errors), ambiguous


@pytest.mark.parametrize("game_id", DECK_GAMES)
def test_sample_decks_show_every_problem_of_the_game(game_id: str) -> None:
    decks = [p for p in DECKS if p.parent.parent.name == game_id]
    expectations = {p.name: _expectation(p) for p in decks}
    assert sum(1 for v, e, w in expectations.values() if v == "legal" and not w) >= 3
    illegal_for = {p.stem.split("-")[1] for p in decks if p.stem.startswith("illegal-")}
    named = {c for c in SEVERITIES for stem in (p.stem for p in decks) if stem.startswith(f"illegal-{c}-")}
    assert named == ERRORS_SHOWN[game_id], illegal_for
    warned = {c for c in SEVERITIES for p in decks if p.stem.startswith(f"legal-warn-{c}-")}
    assert warned == WARNINGS_SHOWN[game_id]
    assert {p.suffix for p in decks} == {".txt", ".dek", ".dec"}


# ---------------------------------------------------------------------------------------------- rulebook values

def test_ssbm_values_the_rulebook_states() -> None:
    assert _card("ssbm", "Power Block")["deck_limit"] == 5
    assert _card("ssbm", "Ganondorf")["strength"] == 7
    assert _card("ssbm", "Super Cape")["symbol"] == "Mario"
    assert _card("ssbm", "Mario")["deck_limit_bonus"] == {"Mushroom": 1, "Fire Flower": 1, "Metal Box": 1}
    assert _card("ssbm", "Link's Spin Attack")["interrupts"] == ["Jump", "Dash", "Attack - Set-up"]
    assert _card("ssbm", "Link's Boomerang")["symbol"] == "Link"
    assert _card("ssbm", "Attack")["interrupts"] == ["Taunt"]
    assert _card("ssbm", "Set-Up Attack")["subtypes"] == ["set-up"]
    assert _card("ssbm", "Set-Up Attack")["damage"] == 3
    assert _card("ssbm", "Mario's Coin Jump")["icons"] == ["recovery-1", "recovery-2"]
    assert _card("ssbm", "Dodge: Air")["icons"] == ["recovery-2"]
    assert _card("ssbm", "Jump")["icons"] == ["recovery-1"]
    assert _card("ssbm", "Charge")["flags"] == ["uninterruptable"]
    assert {_card("ssbm", n)["symbol"] for n in ("Warlock Punch", "Gerudo Dragon")} == {"Ganondorf"}
    # Mario's Fireball deals the example's 7D in Mario's hands (both values are samples chosen to fit).
    assert _card("ssbm", "Mario")["strength"] + _card("ssbm", "Mario's Fireball")["damage"] == 7


def test_shmod_limited_cards_and_deities() -> None:
    for name in ("Replenish", "Yoink!", "Revival Stone", "Monster Bash"):
        assert _card("shmod", name)["kind"] == "spell"
    deities = [c for c in _yaml_cards("shmod") if "Deity" in c.get("categories", [])]
    assert len(deities) >= 3
    for card in _yaml_cards("shmod"):
        if {"Fusion", "Transformation"} & set(card.get("categories", [])):
            assert card["materials"], card["name"]
    assert {c["type"] for c in _yaml_cards("shmod") if c["kind"] == "monster"} == {
        "FIRE", "WATER", "EARTH", "STORM", "DARK", "LIGHT", "COLOURLESS", "MULTI-TYPE"}


def test_ssq_worked_examples() -> None:
    mario, bowser = _card("ssq", "Mario"), _card("ssq", "Bowser")
    fireball = _card("ssq", "Red Fireball")
    assert (mario["agi"], mario["pow"], mario["ranged"], mario["dodge"]) == (3, 3, 2, 2)
    assert (bowser["agi"], bowser["end"], bowser["melee"], bowser["dodge"]) == (1, 4, 4, 2)
    assert (fireball["power"], fireball["damage"], fireball["accuracy"], fireball["speed"]) == (3, 2, "AGI + Ranged", 4)
    # 3 successes against 1: Power 3 + 2 - END 4 = 1, times Damage 2.
    assert max(1, fireball["power"] + 2 - bowser["end"]) * fireball["damage"] == 2
    punch, klaw = _card("ssq", "Bowser's Punch"), _card("ssq", "Koopa Klaw")
    assert (punch["speed"], punch["rate"], klaw["speed"], klaw["rate"]) == (5, 3, 6, 3)
    assert 4 + max(punch["speed"], klaw["speed"]) == 10


def test_minibattle_sets_rarities_and_the_promo_pikachu() -> None:
    pikachu = _card("minibattle", "Pikachu")
    assert (pikachu["set"], pikachu["stage"]) == ("promo", "basic")
    base = Counter(c["rarity"] for c in _yaml_cards("minibattle") if c["set"] == "base")
    assert base["common"] >= 3 and base["uncommon"] >= 2 and base["rare"] >= 1 and base["super rare"] >= 1
    assert {c["stage"] for c in _yaml_cards("minibattle")} == {"baby", "basic", "stage 1", "stage 2"}
    assert any(c.get("legendary") for c in _yaml_cards("minibattle"))


def test_website_named_cards_and_splash_pages() -> None:
    assert {c["site_type"] for c in _yaml_cards("website") if c["name"] == "Splash Page"} == {"Neutral", "Alan's Site"}
    names = {c["name"] for c in _yaml_cards("website")}
    assert {"Alan-Site Master", "Alan-Nonprocrastonator", "Natasha-The Defender", "Alan-The Programmer",
            "Kathleen-The Helper", "Shannon-Truth or Dare Master", "Jack-The Assistant"} <= names
    assert {c["site_type"] for c in _yaml_cards("website") if c["kind"] == "base-site"} == {
        "Alan's Site", "APSN", "Neutral"}
    site_card = _card("website", "Site Card: Comics Page")
    assert (site_card["site_type"], site_card["ip"], site_card["gp"], site_card["cp"]) == ("Neutral", 1, 1, 1)
    first = _card("website", "First Edition Site Card: Comics Page")
    assert (first["ip"], first["gp"], first["cp"]) == (10, 10, 10)
    needs = [c for c in _yaml_cards("website") if c.get("requires_card")]
    assert needs and all(c["requires_card"] in names for c in needs)
