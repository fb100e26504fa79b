"""``carddb deck check`` / ``deck convert``, ``carddb ssq``, ``carddb roll`` through the CLI: output, JSON
shape, exit codes, and every bad input of issue 3."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MARIO = REPO / "rules/ssbm/decks/legal-mario-power-block.txt"
ILLEGAL = REPO / "rules/ssbm/decks/illegal-copy-limit-link-over-deck-limits.txt"


def test_legal_deck_text_output(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(MARIO), "--game", "ssbm")
    assert result.exit_code == 0
    assert result.stdout == f"{MARIO}: LEGAL Super Smash Bros. Melee CCG deck, Standard format (Character 1, " \
                            f"Deck 62)\n"


def test_illegal_deck_text_output_one_line_per_problem(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(ILLEGAL), "--game", "ssbm")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        "error   copy-limit      line 8     6 copies of Power Block; its deck limit is 5.",
        "                                   rule: rules/ssbm/rulebook.md#deck-limit",
        "error   copy-limit      line 9     4 copies of Mushroom; its deck limit is 3."]  # the same rule: said once


def test_json_shape(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(ILLEGAL), "--game", "ssbm", "--json")
    data = json.loads(result.stdout)
    assert list(data) == ["game", "format", "legal", "zones", "problems"]
    assert (data["game"], data["format"], data["legal"], data["zones"]) == ("ssbm", "standard", False,
                                                                           {"character": 1, "main": 63})
    assert data["problems"][0] == {
        "code": "copy-limit", "severity": "error", "zone": "main", "count": 6, "limit": 5, "source": "deck limit",
        "message": "6 copies of Power Block; its deck limit is 5.", "rule": "rules/ssbm/rulebook.md#deck-limit",
        "line": 8, "card": "Power Block"}


def test_zone_size_json_matches_the_design_example(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.core.decks import filler

    deck = tmp_path / "short-side.txt"
    deck.write_text(f"Main:\n{filler('shmod', 50)}\nSide:\n{filler('shmod', 14, reverse=True)}\n")
    data = json.loads(cli("deck", "check", str(deck), "--game", "shmod", "--json").stdout)
    assert data["zones"] == {"main": 50, "side": 14, "stack": 0}
    assert data["problems"] == [{"code": "zone-size", "severity": "error", "zone": "side", "count": 14, "min": 15,
                                 "max": 15, "message": "Side deck has 14 cards; it must be empty or exactly 15.",
                                 "rule": "rules/shmod/rulebook.md#side-deck", "line": None, "card": None}]


def test_a_house_format(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = tmp_path / "legends.txt"
    deck.write_text("1 Moltres\n1 Zapdos\n3 Magnemite\n3 Squirtle\n2 Bulbasaur\n")
    assert cli("deck", "check", str(deck), "--game", "minibattle").exit_code == 0
    house = cli("deck", "check", str(deck), "--game", "minibattle", "--format", "one-legendary", "--json")
    assert house.exit_code == 1
    assert json.loads(house.stdout)["format"] == "one-legendary"
    unknown = cli("deck", "check", str(deck), "--game", "minibattle", "--format", "nope")
    assert unknown.exit_code == 2 and "has no format 'nope'" in unknown.stderr


def test_a_lackey_dek_without_converting(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(REPO / "rules/ssbm/decks/legal-pikachu-thunder.dek"), "--game", "ssbm")
    assert result.exit_code == 0 and "LEGAL" in result.stdout


@pytest.mark.parametrize("to", ["text", "lackey", "apprentice"])
def test_convert_round_trips(cli, tmp_path: Path, to: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / f"deck.{to}"
    result = cli("deck", "convert", str(MARIO), "--game", "ssbm", "--to", to, "--out", str(out))
    assert result.exit_code == 0 and f"Wrote {out}" in result.stdout
    back = tmp_path / "back.txt"
    assert cli("deck", "convert", str(out), "--game", "ssbm", "--to", "text", "--out", str(back)).exit_code == 0
    original = cli("deck", "check", str(MARIO), "--game", "ssbm", "--json").stdout
    again = cli("deck", "check", str(back), "--game", "ssbm", "--json").stdout
    assert json.loads(original) == json.loads(again)
    if to == "apprentice":
        assert out.read_bytes().startswith(b"//NAME: legal-mario-power-block\r\n")


def test_convert_prints_when_no_out(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "convert", str(MARIO), "--game", "ssbm", "--to", "text")
    assert result.stdout.startswith("# legal-mario-power-block\n\nCharacter:\n1 Mario\n\nDeck:\n")
    bad = cli("deck", "convert", str(MARIO), "--game", "ssbm", "--to", "pdf")
    assert bad.exit_code == 2 and "unknown deck format 'pdf'" in bad.stderr


# ---------------------------------------------------------------------------------------------- bad input
def test_missing_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(tmp_path / "nope.txt"), "--game", "ssbm")
    assert (result.exit_code, result.stderr) == (2, f"Error: {tmp_path / 'nope.txt'}: no such deck file\n")


def test_a_directory(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(tmp_path), "--game", "ssbm")
    assert (result.exit_code, result.stderr) == (2, f"Error: {tmp_path}: is a folder, not a deck file\n")


def test_a_binary_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    result = cli("deck", "check", str(path), "--game", "ssbm")
    assert result.exit_code == 2 and "is not a text file" in result.stderr and "Traceback" not in result.stderr


def test_a_fifty_megabyte_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    result = cli("deck", "check", str(path), "--game", "ssbm")
    assert result.exit_code == 2 and "50.0 MB is too big for a deck file (the limit is 10 MB)" in result.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_utf16_and_latin1_files(cli, tmp_path: Path, encoding: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_bytes(MARIO.read_text(encoding="utf-8").encode(encoding))
    if encoding == "utf-16":
        assert path.read_bytes()[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    assert cli("deck", "check", str(path), "--game", "ssbm").exit_code == 0


def test_latin1_accented_name_is_read(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_bytes("1 Pokémon Center\n".encode("latin-1"))
    data = json.loads(cli("deck", "check", str(path), "--game", "minibattle", "--json").stdout)
    assert any(p["card"] == "Pokémon Center" and p["code"] == "unknown-card" for p in data["problems"])


def test_an_xml_bomb_is_a_parse_problem(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.core.test_parsers import BOMB

    path = tmp_path / "bomb.dek"
    path.write_text(BOMB)
    data = json.loads(cli("deck", "check", str(path), "--game", "ssbm", "--json").stdout)
    assert data["problems"][0]["code"] == "parse" and data["zones"] == {"character": 0, "main": 0}


def test_a_deck_for_the_wrong_game(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("deck", "check", str(MARIO), "--game", "shmod", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert {p["code"] for p in data["problems"]} == {"unknown-zone", "unknown-card"}
    assert data["problems"][0]["message"].startswith("Shmod has no zone called 'Character'")


def test_an_empty_deck(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "empty.txt"
    path.write_text("")
    result = cli("deck", "check", str(path), "--game", "minibattle")
    assert result.exit_code == 1
    assert "Deck has 0 cards; it must have exactly 10." in result.stdout
    assert "no Basic or Baby Pokemon" in result.stdout


def test_unknown_game_and_a_game_without_decks(cli) -> None:  # type: ignore[no-untyped-def]
    unknown = cli("deck", "check", str(MARIO), "--game", "chess")
    assert unknown.exit_code == 2 and unknown.stderr.startswith("Error: unknown game 'chess'")
    ssq = cli("deck", "check", str(MARIO), "--game", "ssq")
    assert ssq.exit_code == 2 and "has no decks" in ssq.stderr


# --------------------------------------------------------------------------------------------- ssq, roll
def test_ssq_turn_worked_examples(cli) -> None:  # type: ignore[no-untyped-def]
    mario = cli("ssq", "turn", "Mario", "Red Fireball", "--tick", "2", "--target", "Bowser", "--result", "3:1")
    assert mario.exit_code == 0
    assert "Red Fireball: 5 dice against 3 dice; 3 vs 1: hit, 3 + 2 - 4 = 1, x2 = 2 damage" in mario.stdout
    assert "next turn on tick 6" in mario.stdout
    bowser = cli("ssq", "turn", "Bowser", "move", "Bowser's Punch", "Koopa Klaw", "--tick", "4", "--json")
    data = json.loads(bowser.stdout)
    assert (data["next_tick"], data["actions"], data["max_actions"], data["legal"]) == (10, 3, 3, True)
    too_many = cli("ssq", "turn", "Bowser", "move", "jump", "Bowser's Punch", "Koopa Klaw")
    assert too_many.exit_code == 1 and "Problem: 4 actions, but the lowest Rate of this turn is 3." in too_many.stdout


def test_ssq_initiative(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("ssq", "initiative", "Pikachu=5", "Mario=3", "Link=3", "Bowser=1", "--json")
    assert json.loads(result.stdout)["ticks"] == {"Pikachu": 0, "Mario": 2, "Link": 2, "Bowser": 4}
    rolled = cli("ssq", "initiative", "Mario", "Bowser", "--seed", "3")
    assert rolled.exit_code == 0 and "(7 dice" in rolled.stdout and "(4 dice" in rolled.stdout


def test_roll(cli) -> None:  # type: ignore[no-untyped-def]
    pool = json.loads(cli("roll", "7d10", "--seed", "1", "--json").stdout)
    assert len(pool["faces"]) == 7
    assert pool["successes"] == sum({7: 1, 8: 1, 9: 1, 10: 2}.get(f, 0) for f in pool["faces"])
    pct = json.loads(cli("roll", "d%", "--seed", "1", "--luck", "2", "--json").stdout)
    assert 3 <= pct["value"] <= 102
    bad = cli("roll", "lots")
    assert bad.exit_code == 2 and "is not a dice pool" in bad.stderr
