"""The command line's reference cannot drift: docs/cli.md and README.md's command table are what
``python -m carddb.cli.reference`` writes from the commands, and ``carddb --help``'s table agrees with them."""

from __future__ import annotations

import pytest
from typer.core import TyperGroup

from carddb.cli import bundled_click as click
from carddb.cli import reference
from carddb.cli.main import COMMANDS, load_command, root_command


def test_docs_cli_and_the_readme_table_are_generated_from_the_commands(capsys) -> None:
    assert reference.main(["--check"]) == 0, capsys.readouterr().err


def test_the_reference_shows_every_command_help_as_printed() -> None:
    text = reference.cli_reference()
    for path in (["cards", "search"], ["deck", "check"], ["play", "shmod", "battle"], ["print", "calibration"]):
        assert f"## carddb {' '.join(path)}\n\n```text\n{reference.help_text(path).rstrip()}\n```" in text
    assert "--limit N" in reference.help_text(["cards", "search"])


@pytest.mark.parametrize("name", list(COMMANDS))
def test_carddb_help_lists_each_group_with_its_own_help(name: str) -> None:
    command = load_command(name)
    if isinstance(command, TyperGroup) and not hasattr(command, "default_command"):  # print's help is its own
        assert command.help == COMMANDS[name][1]
    root = root_command()
    listed = " ".join(root.get_help(click.Context(root, info_name="carddb", terminal_width=500)).split())
    assert f"{name} {COMMANDS[name][1]}" in listed
