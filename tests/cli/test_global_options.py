"""The root's options (``-q``, ``--root``, ``--db``) work where people type them: after the command too."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.cli.main import GLOBAL_FLAGS, GLOBAL_VALUED, app, every_command, hoist_global_options

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("typed", "parsed"), [
    (["build", "-q"], ["-q", "build"]),
    (["render", "--game", "shmod", "--quiet"], ["--quiet", "render", "--game", "shmod"]),
    (["cards", "search", "x", "--root", "../games", "--db=c.db"], ["--root", "../games", "--db=c.db", "cards",
                                                                     "search", "x"]),
    (["--root", "r", "deck", "check", "d.txt", "-q"], ["--root", "r", "-q", "deck", "check", "d.txt"]),
    (["cards", "search", "--", "-q"], ["cards", "search", "--", "-q"]),  # after --, a word like any other
    (["-q"], ["-q"]),
    (["--root", "r"], ["--root", "r"]),
])
def test_the_roots_options_after_the_command_are_moved_before_it(typed, parsed) -> None:
    assert hoist_global_options(typed) == parsed


def test_a_roots_option_after_the_command_without_its_value_is_refused_so() -> None:
    refused = CliRunner().invoke(app, ["build", "--root"])
    assert refused.exit_code == 2 and refused.stderr == "Error: Option '--root' requires an argument.\n"


def test_no_command_has_an_option_of_the_roots_names() -> None:
    """Moving them is only safe while no command gives one of these names a meaning of its own."""
    roots = GLOBAL_FLAGS | GLOBAL_VALUED
    for path, command in every_command(hidden=True):
        if not path:
            continue
        names = {name for param in command.params for name in getattr(param, "opts", [])}
        assert not names & roots, (path, names & roots)


def test_a_command_runs_the_same_with_root_written_after_it() -> None:
    before = CliRunner().invoke(app, ["--root", str(REPO), "-q", "play", "ssbm", "taken", "5"])
    after = CliRunner().invoke(app, ["play", "ssbm", "taken", "5", "--root", str(REPO), "-q"])
    assert before.exit_code == after.exit_code == 0, (before.output, after.output)
    assert after.stdout == before.stdout and after.stdout.strip()
