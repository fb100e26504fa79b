"""The fast path of `deck check` answers exactly as the Typer command does, and leaves anything else to Typer."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.cli.fastcheck import try_fast_check

REPO = Path(__file__).resolve().parents[2]
CASES = [
    ["rules/ssbm/decks/legal-mario-power-block.txt", "--game", "ssbm"],
    ["rules/ssbm/decks/illegal-copy-limit-link-over-deck-limits.txt", "-g", "ssbm", "--json"],
    ["--json", "--game", "minibattle", "rules/minibattle/decks/legal-charizard-line.dek", "--format", "one-legendary"],
    ["rules/shmod/decks/legal-storm-dark-sideboard.dec", "--game", "shmod"],
    ["rules/ssbm/decks/nope.txt", "--game", "ssbm"],
    ["rules/ssbm/decks/legal-mario-power-block.txt", "--game", "chess"],
    ["rules/ssbm/decks/legal-mario-power-block.txt", "--game", "ssq"],
    ["rules", "--game", "ssbm"],
]


@pytest.mark.parametrize("args", CASES, ids=range(len(CASES)))
def test_same_answer_as_typer(args: list[str], cli, loaded_db: str, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(REPO)
    slow = cli("deck", "check", *args)
    code = try_fast_check(["--root", str(REPO), "--db", loaded_db, "deck", "check", *args])
    fast = capsys.readouterr()
    assert (code, fast.out, fast.err) == (slow.exit_code, slow.stdout, slow.stderr)


@pytest.mark.parametrize("argv", [
    ["deck", "check", "--help"], ["deck", "check", "x.txt", "--game", "ssbm", "--collection", "ash"],
    ["deck", "check", "x.txt"], ["deck", "convert", "x.txt", "--game", "ssbm", "--to", "text"], ["--version"],
    ["deck", "check", "x.txt", "--game"], ["--root"], ["cards", "search", "x"]])
def test_other_command_lines_go_to_typer(argv: list[str]) -> None:
    assert try_fast_check(argv) is None


def test_the_entry_point_hands_other_commands_to_typer(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from carddb import __version__
    from carddb.cli.fastcheck import main

    monkeypatch.setattr("sys.argv", ["carddb", "--version"])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code in (0, None)
    assert capsys.readouterr().out == f"carddb {__version__}\n"
