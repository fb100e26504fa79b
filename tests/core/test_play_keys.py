"""A game's ``[play]`` keys are its plugin's (``GamePlugin.play``), checked by the game definition's parser as every
other table: an undeclared key, a wrong type and a table for a game without play helpers are refused; the core
names none of them (issue 36)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from carddb.core.game.definition import load_game, load_game_text
from carddb.core.play.registry import plugins
from carddb.errors import DefinitionError

ROOT = Path(__file__).resolve().parents[2]
SSBM = ROOT / "rules" / "ssbm" / "game.toml"


def test_each_game_reads_its_own_keys() -> None:
    for game_id, found in plugins().items():
        game = load_game(ROOT / "rules" / game_id / "game.toml")
        assert set(game.play) <= set(found.play), game_id


def test_an_undeclared_key_or_a_wrong_type_is_refused() -> None:
    text = SSBM.read_text(encoding="utf-8")
    with pytest.raises(DefinitionError, match=r"play\.life: unknown key; expected one of .*combo_step"):
        load_game_text(text.replace("[play]\n", "[play]\nlife = 10\n", 1), str(SSBM))  # shmod's key, not ssbm's
    with pytest.raises(DefinitionError, match=r"play\.combo_step: must be"):
        load_game_text(re.sub(r"(?m)^combo_step = .*$", 'combo_step = "one"', text), str(SSBM))


def test_a_game_without_play_helpers_has_no_play_table() -> None:
    text = SSBM.read_text(encoding="utf-8").replace('id = "ssbm"', 'id = "nohelpers"', 1)
    with pytest.raises(DefinitionError, match="'nohelpers' has no play helpers installed to read \\[play\\]"):
        load_game_text(text, "game.toml")


def test_the_core_lists_no_game_key() -> None:
    """No table of the game definition's parser lists a game's [play] keys (two are also keys of [playtest] and
    [lackey], tables every game shares)."""
    from carddb.core.game import parser

    declared = {key for found in plugins().values() for key in found.play}
    tables = {name: set(value) & declared for name, value in vars(parser).items() if isinstance(value, dict)}
    assert {name: keys for name, keys in tables.items() if keys} == {"_PLAYTEST": {"opening_hand"},
                                                                   "_LACKEY": {"hand_size"}}
