"""ssq lives and the one Smash Power a turn, as the rulebook says them: a life lost, the Game Over (half the coins,
the rest of the session and the next one sat out, three lives on return), a fighter with no lives refused with its
rule; the Bubble Shield between turns not counted, a second Smash Power on a turn refused, and the count the same
as the turn checker's for every turn of up to three moves."""

from __future__ import annotations

import itertools

import pytest

from carddb.core.game.definition import load_game_text
from carddb.core.play.helpers import answer
from carddb.errors import DefinitionError, InputError, NotFoundError
from carddb.games.ssq import turn as ssq
from tests.core.decks import REPO, starter

GAME, CARDS = starter("ssq")
DEATH = "rules/ssq/rulebook.md#death"
SMASH_POINTS = "rules/ssq/rulebook.md#smash-points"


def lose_life(**request: object):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, "lose-life", request)


def smash_powers(**request: object):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, "smash-powers", request)


# ---------------------------------------------------------------------------------------------- lives, Game Over
def test_a_life_lost_leaves_the_rest_and_keeps_the_coins() -> None:
    got = lose_life(fighter="Mario", coins=125)  # the sheet's 3 lives
    assert got.summary == "Mario loses a life: 2 lives left."
    assert (got.values["lives_before"], got.values["lives_left"], got.values["game_over"]) == (3, 2, False)
    assert (got.values["coins_lost"], got.values["coins_after"]) == (0, 125)
    assert [s.text for s in got.working] == ["Mario falls off a ledge and dies: a life lost.",
                                             "3 lives - 1 = 2 lives left; lives do not come back between fights or "
                                             "missions."]
    assert {s.rule for s in got.working} == {DEATH} and got.legal


def test_the_last_life_is_game_over_as_the_rulebook_says() -> None:
    """"you lose half your coins, and you cannot take part in the rest of the current session nor in the next one
    ... After that session has passed you return with three lives.\""""
    got = lose_life(fighter="Mario", lives=1, coins=100, session=4)
    assert got.values | {"working": None} == got.values | {
        "lives_left": 0, "game_over": True, "coins_before": 100, "coins_lost": 50, "coins_after": 50,
        "sits_out": [4, 5], "returns_in_session": 6, "returns_with_lives": 3, "working": None}
    assert got.summary == ("Game Over: Mario loses 50 of 100 coins and sits out the rest of session 4 and session 5; "
                           "back in session 6 with 3 lives.")
    assert [s.text for s in got.working][2:] == [
        "No lives left: Game Over.", "Loses half of 100 coins: 100 - 50 = 50.",
        "In the infirmary: sits out the rest of session 4 and session 5; back in session 6 with 3 lives."]


def test_an_odd_number_of_coins_loses_the_smaller_half_and_says_so() -> None:
    got = lose_life(fighter="Bowser", lives=1, coins=125)
    assert (got.values["coins_lost"], got.values["coins_after"]) == (62, 63)
    assert "Loses half of 125 coins: 125 - 62 = 63 (the loss rounded down)." in [s.text for s in got.working]
    assert "the rest of this session and the next one; back in the session after that with 3 lives" in got.summary


@pytest.mark.parametrize(("cause", "words", "rule"), [
    ("hp", "drops to 0 HP in HP mode", "death"),
    ("smash", "is killed outright by a Smash", "beyond-recovery"),
    ("star-finish", "is blasted off in a star finish", "star-finish"),
])
def test_each_death_costs_a_life_and_links_its_rule(cause: str, words: str, rule: str) -> None:
    got = lose_life(fighter="Pikachu", lives=2, cause=cause)
    assert got.working[0].text.startswith(f"Pikachu {words}") and got.working[0].rule.endswith(f"#{rule}")
    assert got.values["lives_left"] == 1


def test_a_fighter_with_no_lives_left_is_refused_with_the_rule() -> None:
    got = lose_life(fighter="Mario", lives=0, coins=40)
    assert not got.legal and got.summary == "Mario has no lives left to lose."
    assert [(p.text, p.rule) for p in got.problems] == [
        ("Mario has no lives left: a fighter at Game Over recovers in the infirmary and cannot lose another life.",
         DEATH)]
    assert (got.values["lives_left"], got.values["coins_after"], got.values["game_over"]) == (0, 40, False)


def test_every_life_count_and_purse_adds_up() -> None:
    """Brute force: for 1 to 6 lives and 0 to 400 coins, a loss takes one life; only the last is a Game Over,
    which takes half the coins rounded down and nothing else."""
    for lives, coins in itertools.product(range(1, 7), range(0, 401)):
        got = lose_life(fighter="Link", lives=lives, coins=coins, session=7)
        values = got.values
        assert values["lives_left"] == lives - 1 and values["game_over"] == (lives == 1)
        assert values["coins_lost"] + values["coins_after"] == coins
        assert values["coins_lost"] == (coins // 2 if lives == 1 else 0)
        assert values["coins_after"] >= values["coins_lost"]
        assert values["sits_out"] == ([7, 8] if lives == 1 else [])
        assert values["returns_in_session"] == (9 if lives == 1 else None)


def test_a_house_format_changes_the_numbers() -> None:
    text = (REPO / "rules" / "ssq" / "game.toml").read_text(encoding="utf-8") + (
        '\n[formats.harsh]\nlabel = "Harsh"\n[formats.harsh.override.play]\ngame_over_coins_rounding = "up"\n'
        "game_over_sessions_out = 2\nlives_on_return = 2\n")
    harsh = load_game_text(text, "game.toml", "harsh")
    got = answer(harsh, CARDS, "lose-life", {"fighter": "Mario", "lives": 1, "coins": 125, "session": 4})
    assert (got.values["coins_lost"], got.values["sits_out"], got.values["returns_in_session"],
            got.values["returns_with_lives"]) == (63, [4, 5, 6], 7, 2)
    assert "sits out the rest of session 4 and session 5 and session 6; back in session 7 with 2 lives" in got.summary


def test_a_share_of_no_coins_is_refused_as_a_definition_error() -> None:
    text = (REPO / "rules" / "ssq" / "game.toml").read_text(encoding="utf-8") + (
        '\n[formats.broken]\nlabel = "Broken"\n[formats.broken.override.play]\ngame_over_coins_divisor = 0\n')
    broken = load_game_text(text, "game.toml", "broken")
    with pytest.raises(DefinitionError, match="game_over_coins_divisor is 0"):
        answer(broken, CARDS, "lose-life", {"fighter": "Mario", "lives": 1, "coins": 10})


@pytest.mark.parametrize(("request_", "error", "message"), [
    ({"fighter": "Maro"}, NotFoundError, "no fighter called 'Maro'"),
    ({"fighter": "Red Fireball"}, InputError, "is a move, not a fighter"),
    ({"fighter": "Mario", "lives": -1}, InputError, "lives must be from 0 to 99, not -1"),
    ({"fighter": "Mario", "coins": "lots"}, InputError, "coins must be a whole number, not 'lots'"),
    ({"fighter": "Mario", "cause": "drowned"}, InputError, "cause must be fall or hp or smash or star-finish"),
    ({"fighter": "Mario", "session": 0}, InputError, "session must be from 1 to 9999, not 0"),
])
def test_unreadable_requests_raise(request_: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        answer(GAME, CARDS, "lose-life", request_)


# -------------------------------------------------------------------------------------------- one Smash Power
def test_the_bubble_shield_between_turns_does_not_count() -> None:
    """"Defensive abilities used between your turns, such as the Bubble Shield, do not count towards this.\""""
    got = smash_powers(fighter="Mario", turn=["Red Fireball", "Bubble Shield"], between_turns=["Bubble Shield"])
    assert got.legal and got.summary == "Allowed: Mario uses 1 Smash Power this turn; a turn allows 1."
    assert (got.values["smash_powers"], got.values["between_turns"]) == (["Bubble Shield"], ["Bubble Shield"])
    assert [(s.text, s.rule.rsplit("#", 1)[1]) for s in got.working] == [
        ("Red Fireball, on the turn: a special move, not a Smash Power.", "move-anatomy"),
        ("Bubble Shield, on the turn: a Smash Power (1 this turn).", "smash-points"),
        ("Bubble Shield, between Mario's turns: a defensive Smash Power; it does not count towards the turn's.",
         "smash-points")]


def test_a_second_smash_power_on_a_turn_is_refused_with_the_rule() -> None:
    got = smash_powers(fighter="Samus", turn=["Bubble Shield", "Charge Shot", "Bubble Shield"])
    assert not got.legal and got.summary == "Not allowed: Samus uses 2 Smash Powers on one turn."
    assert [(p.text, p.rule) for p in got.problems] == [
        ("Samus uses 2 Smash Powers on one turn (Bubble Shield, Bubble Shield); a turn allows 1.", SMASH_POINTS)]


def test_a_turn_without_smash_powers_and_another_fighters_move() -> None:
    assert smash_powers(fighter="Mario").summary == "Allowed: Mario uses no Smash Power this turn."
    other = smash_powers(fighter="Mario", turn=["Koopa Klaw"])
    assert [p.text for p in other.problems] == ["Koopa Klaw is Bowser's move, not Mario's."]
    assert other.summary == "Not allowed: Koopa Klaw is Bowser's move, not Mario's."


def test_the_count_agrees_with_the_turn_checker_for_every_turn() -> None:
    """Every turn of up to three of Mario's moves and the shared ones: the helper refuses exactly the turns whose
    Smash Powers the turn checker refuses."""
    mario = ssq.find_fighter(CARDS, "Mario")
    moves = [c for c in CARDS if c.kind == "move" and c.get("fighter") in (None, "", "Mario")]
    assert "Bubble Shield" in {m.name for m in moves}
    for size in range(4):
        for turn in itertools.product(moves, repeat=size):
            report = ssq.check_turn(GAME, mario, [ssq.Action("attack", m) for m in turn])
            got = smash_powers(fighter="Mario", turn=[m.name for m in turn])
            assert got.legal == ("smash-power" not in [p.code for p in report.problems]), [m.name for m in turn]


def test_an_unknown_move_is_unreadable() -> None:
    with pytest.raises(NotFoundError, match=r"no move called 'Bubble Shiel'.*did you mean 'Bubble Shield'"):
        smash_powers(fighter="Mario", turn=["Bubble Shiel"])
