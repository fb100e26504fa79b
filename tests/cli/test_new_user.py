"""A new user's first steps: `carddb init` a game in a new folder, then build it, as README.md tells them to."""

from __future__ import annotations

from pathlib import Path

from typer.core import TyperGroup
from typer.testing import CliRunner

from carddb.cli.main import app, every_command


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_init_writes_templates_so_the_new_game_builds(tmp_path: Path) -> None:
    root = tmp_path / "mygame"
    code, out, _ = _run("init", str(root), "--game", "mygame", "--name", "My Game", "--no-npm")
    assert code == 0
    assert f"created {root / 'templates' / 'mygame' / 'unit.toml'}" in out.splitlines()
    assert sorted(p.name for p in (root / "templates" / "mygame").iterdir()) == [
        "_frame.toml", "action.toml", "back.toml", "unit.toml"]

    code, out, err = _run("--root", str(root), "build")
    lines = out.splitlines()
    assert code == 0, out + err
    assert f"mygame: faces in {root / 'output' / 'faces' / 'mygame'}: 15 drawn, 0 reused" in lines
    # the sample deck and every card, each as fronts and as duplex (docs/printing.md)
    assert f"mygame: 4 proxy PDFs in {root / 'output' / 'sheets' / 'mygame'}" in lines
    assert f"site: skipped, the site's Pyodide is not installed (run `npm ci --prefix {root / 'site'}` once)" in lines
    assert not any("FAILED" in line for line in lines)
    assert (root / "output" / "faces" / "mygame" / "back.png").is_file()


def test_init_refuses_a_game_whose_templates_exist(tmp_path: Path) -> None:
    (tmp_path / "templates" / "mygame").mkdir(parents=True)
    code, _, err = _run("init", str(tmp_path), "--game", "mygame")
    assert code == 2
    assert err == f"Error: {tmp_path / 'templates' / 'mygame'} already exists; nothing was changed\n"
    assert not (tmp_path / "rules").exists()


def test_site_build_without_a_site_folder_says_how_to_get_one(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "mygame"
    _run("init", str(root), "--game", "mygame", "--no-npm")
    shutil.rmtree(root / "site")  # a workspace made by an earlier carddb, which wrote no site
    code, _, err = _run("--root", str(root), "site", "build")
    assert code == 2
    assert err.splitlines() == [
        f"Error: {root / 'site' / 'mkdocs.yml'} is missing: this workspace has no site configuration",
        "To publish a site, run `carddb init .` in the workspace (it adds the site's files) and "
        "`npm ci --prefix site` once.",
    ]
    code, out, _ = _run("init", str(root), "--no-npm")  # what the hint says: the site comes back, nothing else
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("created ")] == [f"created {root / 'site'}"]
    assert (root / "site" / "mkdocs.yml").is_file() and not (root / "rules" / "mygame-2").exists()


def test_print_help_shows_the_options_of_printing_a_deck() -> None:
    code, out, _ = _run("print", "--help")
    assert code == 0
    assert "Usage: carddb print [OPTIONS] [DECKFILE]" in out
    for option in ("--game", "--out", "--paper", "--layout", "--bleed", "--profile", "--grid"):
        assert option in out
    assert "'carddb print calibration --help'" in out


def _command_paths() -> list[str]:
    """Every visible command of `carddb`, as typed: 'init', 'cards search', 'db status' ..."""
    return [" ".join(path) for path, command in every_command() if path and not isinstance(command, TyperGroup)]


def test_readme_table_and_command_line_guide_name_every_command() -> None:
    repo = Path(__file__).resolve().parents[2]
    table = [line for line in (repo / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("| `carddb ")]
    guide = (repo / "site" / "docs" / "guide" / "command-line.md").read_text(encoding="utf-8")
    paths = _command_paths()
    assert "db status" in paths and "print calibration" in paths
    missing_from_readme = sorted({p.split()[0] for p in paths
                                  if not any(f"`carddb {p.split()[0]}" in row for row in table)})
    assert missing_from_readme == []
    assert [p for p in paths if f"carddb {p}" not in guide] == []


def test_every_search_example_of_the_docs_finds_cards(cli) -> None:  # type: ignore[no-untyped-def]
    """A new user pastes the examples of README.md and docs/*.md; each must find something in the bundled games."""
    import shlex

    repo = Path(__file__).resolve().parents[2]
    examples = []
    for doc in [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]:
        for line in doc.read_text(encoding="utf-8").splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("carddb cards search "):
                examples.append(shlex.split(line.split("  #")[0])[1:])
    assert len(examples) >= 5
    for args in examples:
        result = cli(*args)
        assert result.exit_code == 0, args
        assert result.stdout.strip() not in ("No cards match.", "[]"), args


def test_an_out_of_the_wrong_kind_is_an_error_not_a_traceback(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a_file = tmp_path / "faces.pdf"
    a_file.write_text("not a folder")
    rendered = cli("render", "--game", "ssbm", "--out", str(a_file))
    assert (rendered.exit_code, rendered.stderr) == (2, f"Error: {a_file} is a file; --out takes the folder the "
                                                        "faces go in\n")
    deck = Path(__file__).resolve().parents[2] / "rules/ssbm/decks/legal-bowser-koopa.dec"
    converted = cli("deck", "convert", str(deck), "--game", "ssbm", "--to", "text", "--out", str(tmp_path))
    assert (converted.exit_code, converted.stderr) == (2, f"Error: {tmp_path} is a folder; --out takes the deck "
                                                          "file to write\n")
    # What no command foresaw still gives one line: here the game's face folder is taken by a file.
    (tmp_path / "ssbm").write_text("in the way")
    blocked = cli("render", "--game", "ssbm", "--out", str(tmp_path))
    assert (blocked.exit_code, blocked.stderr) == (3, f"Error: {tmp_path / 'ssbm'}: File exists\n")


def test_site_build_never_replaces_a_file_or_a_folder_that_is_not_a_site(catalogue, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from carddb.errors import OutputError
    from carddb.site.build import build_site

    repo = Path(__file__).resolve().parents[2]
    mine = tmp_path / "my-folder"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    a_file = tmp_path / "sheet.pdf"
    a_file.write_text("mine")
    for out in (mine, a_file):
        with pytest.raises(OutputError) as refused:
            build_site(repo, catalogue, out)
        assert str(refused.value) == (f"{out} exists and is not a site (no index.html); choose a new or empty "
                                      "folder, or an earlier site (nothing was changed)")
    assert (mine / "notes.txt").read_text() == "mine" and a_file.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-folder", "sheet.pdf"]


def test_an_export_into_a_folder_names_the_folder(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    exported = cli("cards", "export", "--game", "ssbm", "--out", str(tmp_path))
    assert (exported.exit_code, exported.stderr) == (3, f"Error: {tmp_path}: Is a directory\n")
