"""``carddb play ssq lose-life`` and ``smash-powers`` as a player runs them: a fighter with no lives left and a second
Smash Power on a turn exit 1 with the rule they break; input that cannot be read is one ``Error:`` line, exit 2."""

from __future__ import annotations

import json

import pytest


def test_the_last_life_is_a_game_over(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "ssq", "lose-life", "Mario", "--lives", "1", "--coins", "125", "--session", "4", "--json")
    assert result.exit_code == 0
    got = json.loads(result.stdout)
    assert (got["game_over"], got["coins_after"], got["sits_out"], got["returns_in_session"],
            got["returns_with_lives"]) == (True, 63, [4, 5], 6, 3)


def test_no_lives_left_exits_1_with_the_rule(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "ssq", "lose-life", "Mario", "--lives", "0")
    assert result.exit_code == 1 and result.stderr == ""
    assert result.stdout.splitlines() == [
        "Mario has no lives left to lose.",
        "Problem: Mario has no lives left: a fighter at Game Over recovers in the infirmary and cannot lose another "
        "life.",
        "Rules: rules/ssq/rulebook.md#death"]


def test_a_second_smash_power_exits_1_and_the_shield_between_turns_0(cli) -> None:  # type: ignore[no-untyped-def]
    two = cli("ssq", "smash-powers", "Mario", "Bubble Shield", "Bubble Shield")
    assert two.exit_code == 1
    assert "Problem: Mario uses 2 Smash Powers on one turn (Bubble Shield, Bubble Shield); a turn allows 1." \
        in two.stdout.splitlines()
    one = cli("ssq", "smash-powers", "Mario", "Bubble Shield", "--between", "Bubble Shield")
    assert one.exit_code == 0 and one.stdout.startswith("Allowed: Mario uses 1 Smash Power this turn")


@pytest.mark.parametrize(("args", "message"), [
    (["lose-life", "Maro"], "Error: no fighter called 'Maro' in Super Smash Quest Skirmish; did you mean 'Mario' or "
                            "'Marth'?"),
    (["lose-life", "Mario", "--cause", "drowned"],
     "Error: cause must be fall or hp or smash or star-finish, not 'drowned'"),
    (["lose-life", "Mario", "--coins", "-5"], "Error: coins must be from 0 to 999999, not -5"),
    (["smash-powers", "Mario", "Bubble Shiel"],
     "Error: no move called 'Bubble Shiel' in Super Smash Quest Skirmish; did you mean 'Bubble Shield'?"),
    (["smash-powers", "Mario", "--between", "Bowser"], "Error: Bowser is a fighter, not a move"),
])
def test_unreadable_input_is_one_error_line(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "ssq", *args)
    assert (result.exit_code, result.stdout, result.stderr.splitlines()) == (2, "", [message])
