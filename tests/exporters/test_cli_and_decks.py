"""The export commands as a user runs them, and the exported decks read back by carddb's own deck checker."""

from __future__ import annotations

import pytest

from carddb.core.checker.check import check_deck
from carddb.core.decks.parse import parse_deck

from .cardinfo_reader import decode
from .conftest import GAMES


def test_export_apprentice_command(cli, tmp_path):
    result = cli("export", "apprentice", "--game", "minibattle", "--out", str(tmp_path / "ap"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("apprentice: 67 cards, 67 cardinfo.dat records, 5 decks, 9 files in ")
    assert "Install: copy Sets/cardinfo.dat and Expan.dat from" in result.stdout
    assert decode((tmp_path / "ap" / "Sets" / "cardinfo.dat").read_bytes())["card_count"] == 67


def test_export_commands_refuse_bad_input(cli, tmp_path):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("x")
    result = cli("export", "lackey", "--game", "shmod", "--out", str(busy))
    assert result.exit_code == 3 and result.stderr.startswith(f"Error: {busy} already holds other files")
    result = cli("export", "lackey", "--game", "shmod", "--out", str(tmp_path / "new"), "--base-url", "ftp://x")
    assert result.exit_code == 2 and "is not an http:// or https:// address" in result.stderr
    result = cli("export", "apprentice", "--game", "nosuchgame", "--out", str(tmp_path / "new"))
    assert result.exit_code == 2 and "unknown game 'nosuchgame'" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy"]


@pytest.mark.parametrize("game", GAMES)
def test_exported_deks_pass_the_deck_checker(lackey_exports, catalogue, game):
    definition = catalogue.game(game)
    cards = catalogue.cards(game)
    decks = sorted((lackey_exports[game].root / "decks").glob("*.dek")) if game != "ssq" else []
    for path in decks:
        deck = parse_deck(path.read_text(), definition, path.name)
        errors = [p for p in check_deck(deck, definition, cards) if p.severity == "error"]
        assert errors == [], (path.name, errors)
        assert deck.source_format == "lackey" and deck.total > 0


def test_an_export_of_one_of_each_says_it_in_the_singular(tmp_path) -> None:
    from carddb.exporters.report import ExportReport

    report = ExportReport("shmod", "tts", tmp_path, tmp_path, files=["deck.json"], cards=1, rows=1, decks=1)
    assert report.summary().splitlines()[0] == f"tts: 1 card, 1 saved object, 1 deck, 1 file in {tmp_path}"
