"""Issue 38's newcomer's list, each as the newcomer meets it: what ``carddb init`` says next, a colon in a card
text, sample decks meant to be illegal, a misspelt card name for ``cards show``, a deck checked under the wrong
game, a deck list printed with unknown cards."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.cli.main import app
from carddb.core.game.definition import load_game
from carddb.exporters.decks import sample_decks

REPO = Path(__file__).resolve().parents[2]


def test_init_of_a_new_workspace_says_build_as_the_readme_does(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["init", str(tmp_path / "mygames"), "--no-npm"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"Next: cd {tmp_path / 'mygames'} && carddb build"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    new_game = (REPO / "docs" / "new-game.md").read_text(encoding="utf-8")
    for text in (readme, new_game):
        assert "pipx install ." in text and "install pipx" in text.replace("`", "")
        assert "carddb init mygames && cd mygames && carddb build\n" in text
    assert "pipx install ./carddb" not in new_game


def test_a_colon_in_a_card_text_says_to_quote_it(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cards = tmp_path / "colon.yaml"
    cards.write_text("set: base\ncards:\n  - name: Imp\n    kind: spell\n    text: Draw 2: then discard one.\n",
                     encoding="utf-8")
    result = cli("cards", "import", str(cards), "--game", "shmod", db=str(tmp_path / "c.db"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: {cards} line 5: not valid YAML (mapping values are not allowed in this context)",
        'a colon followed by a space inside a value starts a new key: put the value in quotes '
        '(text: "Draw 2: then discard one.")']


def test_sample_decks_meant_to_be_illegal_are_left_out_without_a_word(catalogue, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "ssbm", root / "rules" / "ssbm")
    game = load_game(root / "rules" / "ssbm" / "game.toml")
    cards = catalogue.cards("ssbm")
    notes: list[str] = []
    decks = sample_decks(root, game, cards, notes)
    assert decks and notes == []  # five illegal samples, each promising it
    broken = root / "rules" / "ssbm" / "decks" / "legal-broken.txt"
    broken.write_text("# expect: legal\nCharacter:\n1 Mario\nDeck:\n99 Power Block\n", encoding="utf-8")
    sample_decks(root, game, cards, notes)
    assert notes == ["left out 1 sample deck that should pass `carddb deck check` but do not: legal-broken.txt"]


def test_cards_show_suggests_the_card_meant(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("cards", "show", "Powr Block", "--game", "ssbm")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no card named 'Powr Block' in ssbm; did you mean 'Power Block'")


def test_a_deck_checked_under_the_wrong_game_says_which_it_looks_like(cli) -> None:  # type: ignore[no-untyped-def]
    deck = REPO / "rules" / "ssbm" / "decks" / "legal-mario-power-block.txt"
    result = cli("deck", "check", str(deck), "--game", "shmod")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1].startswith("hint: this looks like a Super Smash Bros. Melee CCG deck (")
    assert result.stdout.splitlines()[-1].endswith("check it with --game ssbm")
    right = cli("deck", "check", str(deck), "--game", "ssbm")
    assert right.exit_code == 0 and "hint:" not in right.stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
def test_the_deck_list_page_keeps_whole_reasons_and_marks_what_is_not_printed(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = tmp_path / "typos.txt"
    deck.write_text("Character:\n1 Mario\nDeck:\n3 Power Block\n2 Powr Blok\n1 Zzzz Unknown\n", encoding="utf-8")
    out = tmp_path / "typos.pdf"
    result = cli("print", str(deck), "--game", "ssbm", "--deck-list", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    page = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    words = " ".join(page.split())
    assert "3 Power Block 2 Powr Blok (not printed) 1 Zzzz Unknown (not printed)" in words
    assert "line 5: 2 Powr Blok: no such card (did you mean Power Block, Bowser Bomb?)" in words
    assert "…" not in page


def test_play_of_a_game_without_helpers_points_to_the_guide(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "sixth", "damage")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "Error: no play helpers for 'sixth'; the games with play helpers: minibattle, shmod, ssbm, ssq, website. "
        "A game's own helpers are a package of its own: docs/new-game.md#play-helpers-of-your-own "
        "(see 'carddb play --help')")


def test_a_turn_short_of_smash_points_never_says_minus_left(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("ssq", "turn", "Mario", "Red Fireball", "Red Fireball", "--sp", "1")
    assert result.exit_code == 1
    assert "SP needed 2, 1 more than the fighter has" in result.stdout.splitlines()[1]
    assert "-1 left" not in result.stdout


def test_a_bare_word_finds_the_cards_of_that_category(cli) -> None:  # type: ignore[no-untyped-def]
    found = cli("cards", "search", "fusion", "--game", "shmod")
    assert found.exit_code == 0
    assert "Steam Titan" in found.stdout  # categories Fusion/Golem; its text never says "fusion"
    assert cli("cards", "search", "none", "--game", "shmod").stdout.strip() == "No cards match."
