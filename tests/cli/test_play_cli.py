"""``carddb play <game> <helper>`` as a player runs it: each example gives the library's answer for the same request,
every console example of the play docs prints what the docs show, bad input is one ``Error:`` line and exit 2."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from carddb.core.play.helpers import answer
from tests.core.decks import starter
from tests.play_examples import EXAMPLES, Example

REPO = Path(__file__).resolve().parents[2]
PLAY_DOCS = [REPO / "docs" / f"{g}-play.md" for g in ("ssbm", "shmod", "minibattle", "website")] + \
    [REPO / "docs" / "ssq.md", REPO / "docs" / "playtest.md"]


def group(example: Example) -> list[str]:
    return ["play", example.game]  # ssq too: a game like the others (carddb ssq is its alias)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_the_command_line_asks_the_library_the_same_question(cli, example: Example) -> None:  # type: ignore[no-untyped-def]
    result = cli(*group(example), example.helper, *example.args, "--json")
    game, cards = starter(example.game)
    expected = answer(game, cards, example.helper, example.request).to_dict()
    assert json.loads(result.stdout) == expected
    assert result.exit_code == (0 if expected["legal"] else 1)
    text = cli(*group(example), example.helper, *example.args)
    assert text.stdout.splitlines()[0] == expected["answer"]


def console_examples() -> list[tuple[str, str, str]]:
    """(doc, command, output shown) for every `$ carddb play ...`, `$ carddb ssq odds|clash-odds|items` and
    `$ carddb deck odds` line."""
    found = []
    for doc in PLAY_DOCS:
        command, shown, inside = None, [], False
        for line in [*doc.read_text(encoding="utf-8").splitlines(), "```"]:
            if line.startswith("```console"):
                inside = True
                continue
            if inside and (line.startswith("$ ") or line.startswith("```")):
                if command:
                    found.append((doc.name, command, "\n".join(shown)))
                command, shown = None, []
                if line.startswith("```"):
                    inside = False
                elif line.startswith(("$ carddb play ", "$ carddb ssq odds ", "$ carddb ssq clash-odds ",
                                      "$ carddb ssq items ", "$ carddb deck odds ")):
                    command = line[2:]
                continue
            if inside and command:
                shown.append(line)
    return found


EXAMPLES_OF_DOCS = console_examples()


def test_every_play_doc_has_examples() -> None:
    assert {doc for doc, _, _ in EXAMPLES_OF_DOCS} == {d.name for d in PLAY_DOCS}
    assert len(EXAMPLES_OF_DOCS) >= 35


@pytest.mark.parametrize(("doc", "command", "shown"), EXAMPLES_OF_DOCS,
                         ids=[f"{d}:{c[:60]}" for d, c, _ in EXAMPLES_OF_DOCS])
def test_the_docs_show_what_the_command_prints(cli, doc: str, command: str, shown: str) -> None:  # type: ignore[no-untyped-def]
    result = cli(*shlex.split(command)[1:])
    assert (result.stdout + result.stderr).rstrip("\n") == shown
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["play", "ssbm", "damage", "Ganondorf", "Set-Up Atack"],
     "Error: no play card called 'Set-Up Atack' in Super Smash Bros. Melee CCG; did you mean 'Set-Up Attack'?"),
    (["play", "ssbm", "ko", "Smash Attack", "Mario", "--damage", "85", "Jump", "Attack"],
     "Error: Attack is not a recovery card (no 1st or 2nd Recovery icon)"),
    (["play", "ssbm", "taken", "--", "-3"], "Error: damage must be from 0 to 999, not -3"),
    (["play", "ssbm", "damage", "Ganondorf", "Attack", "--failed", "2"],
     "Error: --failed 2: there is 1 attack, numbered from 1"),
    (["play", "ssbm", "match", "Link-Mario"],
     "Error: 'Link-Mario': write a KO as Link:Mario (Link KOs Mario), a self-destruct as Mario:sd"),
    (["play", "ssbm", "match", "--mode", "sudden-death", "Link:Mario"],
     "Error: mode must be time or stock, not 'sudden-death'"),
    (["play", "shmod", "battle", "Replenish"], "Error: Replenish is a spell, not a monster"),
    (["play", "shmod", "mana", "Magma Colossus", "FIRE"], "Error: mana 'FIRE': write the TYPE and how many, as FIRE=2"),
    (["play", "shmod", "--format", "strict", "battle", "Gloom Imp"],
     "Error: game.toml: game 'shmod' has no format 'strict' (formats: standard, open-stack)"),
    (["play", "minibattle", "battle", "Pikachu", "Squirtle", "--condition", "Burn"],
     "Error: 'Burn' is not a condition; use Prlz, Slp, Cnfs or Psn"),
    (["play", "minibattle", "battle", "Pikachu", "Squirtle", "--defender-hp", "0"],
     "Error: Squirtle's HP must be from 1 to 999, not 0"),
    (["play", "website", "site", "Neutral Base Card + Splash Page"],
     "Error: 2 cards are called 'Splash Page'; write one of: Splash Page (Neutral), Splash Page (Alan's Site)"),
    (["play", "ssq", "odds", "Mario", "Red Fireball", "Bowsr"],
     "Error: no fighter called 'Bowsr' in Super Smash Quest Skirmish; did you mean 'Bowser'?"),
    (["ssq", "odds", "Mario", "Red Fireball", "Bowser", "--attacks", "0"],
     "Error: attacks must be from 1 to 10, not 0"),
])
def test_bad_input_is_one_error_line(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli(*args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[0].replace("rules/shmod/game.toml", "game.toml").endswith(message[7:]) \
        and result.stderr.startswith("Error: "), result.stderr


def test_play_ssq_is_the_ssq_group(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["turn", "Mario", "Red Fireball", "--tick", "2", "--target", "Bowser", "--result", "3:1", "--json"]
    assert cli("play", "ssq", *args).stdout == cli("ssq", *args).stdout
    assert json.loads(cli("play", "ssq", "odds", "Mario", "Red Fireball", "Bowser", "--json").stdout)["pool"] == 5


def test_a_house_format_changes_the_reading(cli) -> None:  # type: ignore[no-untyped-def]
    standard = cli("play", "ssq", "odds", "Mario", "Red Fireball", "Bowser", "--json")
    rule_text = cli("play", "ssq", "odds", "Mario", "Red Fireball", "Bowser", "--format", "rule-text", "--json")
    assert json.loads(standard.stdout)["hit"] == json.loads(rule_text.stdout)["hit"]
    assert json.loads(standard.stdout)["expected_damage"] != json.loads(rule_text.stdout)["expected_damage"]
