"""Help as a user reads it: every text shown as written, no type noise, one meaning per option name, and old
option spellings still working with a note."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from carddb.cli.main import app, every_command

TYPE_NOISE = re.compile(r"<(str|bool|int|float|path|list\[[^\]]*\])>")

#: What each option name means, whichever command it is on. A name on two commands means one thing.
MEANINGS = {
    "--format": "one of the game's formats (house rules)",
    "--file-format": "the format of the file written",
    "--to": "the deck format converted to",
    "--out": "where to write",
    "-p": "--port",
}


def _commands() -> list[tuple[list[str], object]]:
    return every_command()


def _help(path: list[str]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, path
    flat = re.sub(r"-\n\s*", "-", result.stdout)  # a line wrapped after a hyphen (Kathleen-The Helper)
    return " ".join(flat.split())


@pytest.mark.parametrize(("path", "command"), _commands(), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_help_shows_every_text_as_written_without_type_noise(path, command) -> None:
    shown = _help(path)
    assert not TYPE_NOISE.search(shown), (path, TYPE_NOISE.search(shown))
    for param in command.params:
        if param.hidden or not getattr(param, "help", None):
            continue
        written = " ".join(param.help.replace("\\[", "[").split())
        assert written in shown, (path, written)


def test_booster_help_keeps_its_brackets() -> None:
    assert "(its game.toml must declare [booster])" in _help(["booster", "open"])


def test_an_option_name_means_one_thing_across_commands() -> None:
    helps: dict[str, set[str]] = {}
    for path, command in _commands():
        for param in command.params:
            if param.param_type_name == "option" and not param.hidden:
                for name in param.opts:
                    helps.setdefault(name, set()).add(" ".join(path))
    ssq_formats = {"ssq turn", "ssq clash", "ssq odds", "ssq clash-odds"}  # carddb ssq is an alias, not listed
    assert helps["--format"] == {"deck check", *(f"play {p}" for p in ssq_formats),  # a house rule
                                 "play ssbm", "play shmod", "play minibattle", "play website", "play ssq"}
    assert helps["--file-format"] == {"render", "cards export"}
    assert helps["--to"] == {"deck convert"}
    assert helps["-p"] == {"site serve"}
    assert "--out" in {name for _, c in _commands() if c.name == "dump" for p in c.params for name in p.opts}
    assert set(MEANINGS) <= set(helps)


def test_old_spellings_still_work_with_a_deprecation_note(cli, tmp_path) -> None:
    exported = cli("cards", "export", "--game", "shmod", "--format", "csv")
    assert exported.exit_code == 0 and exported.stdout.startswith("name,")
    assert exported.stderr == "warning: --format is deprecated, use --file-format\n"
    sp = cli("ssq", "sp", "Mario", "--sp", "1", "--from", "3", "--to", "14")
    assert sp.exit_code == 0 and sp.stdout == cli("ssq", "sp", "Mario", "--sp", "1", "--from-tick", "3",
                                                   "--to-tick", "14").stdout
    assert "--from is deprecated, use --from-tick" in sp.stderr
    dumped = cli("db", "dump", str(tmp_path / "old"))
    assert dumped.exit_code == 0 and (tmp_path / "old").is_dir()
    assert "deprecated, use --out FOLDER" in dumped.stderr
    assert cli("db", "dump", "--out", str(tmp_path / "new")).exit_code == 0
    missing = cli("db", "dump")
    assert (missing.exit_code, missing.stderr) == (2, "Error: say where to write the dump with --out FOLDER\n")
