"""Issue 24's first hour of a new user, case by case: each answer is what the user sees, one ``Error:`` line
and the exit code README.md documents, or a plain working result."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carddb.cli.main import app, every_command
from carddb.errors import ExitCode

REPO = Path(__file__).resolve().parents[2]
DECK = REPO / "rules" / "ssbm" / "decks" / "legal-mario-power-block.txt"


def _run(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    here = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    finally:
        os.chdir(here)
    return result.exit_code, result.stdout, result.stderr


def _one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), stderr
    return lines[0]


@pytest.fixture
def one_game(tmp_path: Path) -> Path:
    root = tmp_path / "w"
    code, _, err = _run("init", str(root), "--game", "solo", "--no-npm")
    assert code == 0, err
    return root


@pytest.mark.parametrize(("args", "said"), [
    (["roll", "d%", "--luck", "nan"], "Invalid value for '--luck': 'nan' is not a whole number"),
    (["collection", "add", "p", "Power Block", "--game", "ssbm", "-n", "1e30"], "'1e30' is not a whole number"),
    (["cards", "search", "--limit", "1" + "0" * 30], "is more than 9223372036854775807"),
    (["print", "rules/x.txt", "--gutter", "inf", "--game", "ssbm", "--out", "x.pdf"], "'inf' is not a usable number"),
    (["cards", "search", "--gam", "ssbm"], "No such option '--gam'. Did you mean '--game'?"),
    (["cards", "serch"], "no command 'serch' in 'carddb cards'. Did you mean 'search'?"),
    (["frobnicate"], "no command 'frobnicate' in 'carddb'"),
    (["deck", "check"], "Missing argument 'FILE'"),
])
def test_a_usage_error_or_bad_value_is_one_error_line_and_exit_2(cli, args: list[str], said: str) -> None:
    result = cli(*args)
    assert result.exit_code == ExitCode.BAD_INPUT == 2
    assert said in _one_error_line(result.stderr)
    assert result.stdout == ""


def test_print_without_out_names_the_command_typed(cli) -> None:
    result = cli("print", str(DECK), "--game", "ssbm")
    assert result.exit_code == 2
    assert _one_error_line(result.stderr) == "Error: Missing option '--out' / '-o'. (see 'carddb print --help')"
    assert "sheets" not in result.stderr


def test_no_usage_line_shows_a_python_placeholder() -> None:
    for path, _command in every_command():
        shown = CliRunner().invoke(app, [*path, "--help"]).stdout
        usage = shown.splitlines()[0]
        assert usage.startswith("Usage: carddb") and "{" not in usage, (path, usage)


def test_help_texts_name_every_export_and_every_ssq_command() -> None:
    export = CliRunner().invoke(app, ["export", "--help"]).stdout
    for name in ("LackeyCCG", "Apprentice", "Tabletop Simulator", "Cockatrice"):
        assert name in " ".join(export.split())
    build = " ".join(CliRunner().invoke(app, ["build", "--help"]).stdout.split())
    assert "LackeyCCG, Apprentice, Tabletop Simulator and Cockatrice" in build
    ssq = " ".join(CliRunner().invoke(app, ["play", "ssq", "--help"]).stdout.split())
    for word in ("a turn", "initiative", "clashes", "charging", "Smash Points", "recovery", "hit odds", "items"):
        assert word in ssq


def test_game_defaults_to_the_only_game_of_the_workspace(one_game: Path) -> None:
    deck = one_game / "rules" / "solo" / "decks" / "legal-starter.txt"
    code, out, err = _run("--root", str(one_game), "deck", "check", str(deck))
    assert (code, err) == (0, "")
    assert out.startswith(f"{deck}: LEGAL Solo deck")


def test_game_defaults_to_default_game_of_carddb_toml(one_game: Path) -> None:
    assert _run("init", str(one_game), "--game", "duo", "--no-npm")[0] == 0
    deck = one_game / "rules" / "duo" / "decks" / "legal-starter.txt"
    code, _, err = _run("--root", str(one_game), "deck", "check", str(deck))
    assert code == 2
    assert _one_error_line(err).startswith("Error: say which game with --game: one of duo, solo (or set "
                                           f"default_game in {one_game / 'carddb.toml'})")
    (one_game / "carddb.toml").write_text('default_game = "duo"\n', encoding="utf-8")
    code, out, err = _run("--root", str(one_game), "deck", "check", str(deck))
    assert (code, err) == (0, "") and "LEGAL Duo deck" in out
    (one_game / "carddb.toml").write_text('default_game = "trio"\n', encoding="utf-8")
    code, _, err = _run("--root", str(one_game), "deck", "check", str(deck))
    assert code == 2 and "default_game = 'trio' is not a game of the workspace" in _one_error_line(err)


def test_init_takes_any_name_and_writes_a_game_toml_that_parses(tmp_path: Path) -> None:
    root = tmp_path / "w"
    code, _, err = _run("init", str(root), "--game", "odd", "--name", 'The "Odd"\\ \nGame', "--no-npm")
    assert code == 0, err
    definition = tomllib.loads((root / "rules" / "odd" / "game.toml").read_text(encoding="utf-8"))
    assert definition["game"]["name"] == 'The "Odd"\\ Game'
    assert (root / "rules" / "odd" / "rulebook.md").read_text(encoding="utf-8").startswith('# The "Odd"\\ Game\n')


def test_a_second_init_adds_back_a_deleted_shared_file_and_says_no_cd_dot(one_game: Path) -> None:
    mkdocs = one_game / "site" / "mkdocs.yml"
    kept = one_game / "site" / "docs" / "about.md"
    kept.write_text("mine\n", encoding="utf-8")
    mkdocs.unlink()
    code, out, _ = _run("init", ".", "--no-npm", cwd=one_game)
    assert code == 0
    assert mkdocs.is_file() and kept.read_text(encoding="utf-8") == "mine\n"
    assert "created site/mkdocs.yml" in out.splitlines()
    code, out, _ = _run("init", ".", "--game", "more", "--no-npm", cwd=one_game)
    assert out.splitlines()[-1] == "Next: carddb build --game more"


def test_a_missing_output_folder_exits_3(cli, tmp_path: Path) -> None:
    result = cli("print", str(DECK), "--game", "ssbm", "--out", str(tmp_path / "no" / "such" / "deck.pdf"))
    assert result.exit_code == ExitCode.OUTPUT == 3
    assert _one_error_line(result.stderr) == f"Error: {tmp_path / 'no' / 'such'}: no such folder; nothing was written"


@pytest.mark.parametrize("url", ["postgresql://carddb:p@ss:w0rd@localhost/cards",
                                 "postgresql://carddb:hunter2@[localhost/cards"])
def test_a_postgresql_url_that_does_not_parse_is_one_line_without_its_password(url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "carddb", "--root", str(REPO), "--db", url, "cards", "search", "x"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    line = _one_error_line(done.stderr)
    assert "is not a database URL" in line and "percent-encode" in line
    assert "w0rd" not in line and "hunter2" not in line and "p@ss" not in line


def test_card_file_errors_say_field_in_yaml_and_guess_the_misspelt_one(cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("set: base\ncards:\n  - name: Imp\n    kind: spell\n    levle: 1\n", encoding="utf-8")
    result = cli("cards", "import", str(bad), "--game", "shmod", db=str(tmp_path / "c.db"))
    assert result.exit_code == 2
    assert (f"{bad} line 3 (Imp), field levle: unknown field for shmod; did you mean 'level'? fields are"
            in result.stderr)


def test_deck_check_names_zones_by_label(cli) -> None:
    deck = REPO / "rules" / "shmod" / "decks" / "illegal-zone-size-short-main-and-side.txt"
    lines = cli("deck", "check", str(deck), "--game", "shmod").stdout.splitlines()
    assert lines[1].split()[:4] == ["error", "zone-size", "Main", "deck"]


def test_counts_read_as_sentences(cli) -> None:
    rolled = cli("roll", "1d10", "--seed", "3").stdout
    assert rolled.endswith(" success\n") or (rolled.endswith(" successes\n") and " 1 successes" not in rolled)
    from carddb.core.wording import plural

    assert [plural(1, "deck"), plural(2, "deck"), plural(1, "success", "successes")] == ["1 deck", "2 decks",
                                                                                          "1 success"]


def test_a_template_of_an_unknown_kind_is_said_once_and_stops_before_the_site(one_game: Path) -> None:
    templates = one_game / "templates" / "solo"
    (templates / "unitt.toml").write_text((templates / "unit.toml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = _run("--root", str(one_game), "build")
    assert code == 1
    said = "templates/solo/unitt.toml: solo has no card kind 'unitt'"
    assert [line for line in err.splitlines() if line.startswith("Error:")] == [
        line for line in err.splitlines() if said in line]
    assert len(err.splitlines()) == 1
    assert sum(said in line for line in out.splitlines()) == 1
    assert "solo: sheets skipped: a template failed above" in out.splitlines()
    assert "site: not built, since a template failed above (the site would show faces that are not there)" in out
    assert not (one_game / "output" / "site").exists()
