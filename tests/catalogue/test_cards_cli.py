"""Import, export, show and search through the command line, as a user types them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from carddb.catalogue.api import open_catalogue
from carddb.catalogue.db import make_engine


def test_limited_search_on_shmod_lists_the_limited_list_and_deities(cli, catalogue) -> None:
    result = cli("cards", "search", "limited", "--game", "shmod", "--json")
    assert result.exit_code == 0
    names = {card["name"] for card in json.loads(result.stdout)}
    deities = {c.name for c in catalogue.cards("shmod") if "Deity" in c.fields.get("categories", [])
               and not {"Fusion", "Transformation"} & set(c.fields.get("categories", []))}
    assert deities, "the starter catalogue has Deity monsters"
    assert names == {"Replenish", "Yoink!", "Revival Stone", "Monster Bash"} | deities


def test_not_limited_is_the_complement(cli, catalogue) -> None:
    limited = json.loads(cli("cards", "search", "limited", "--game", "shmod", "--json").stdout)
    # a query starting with '-' follows '--', as for any command line
    others = json.loads(cli("cards", "search", "--game", "shmod", "--json", "--", "-limited").stdout)
    assert len(limited) + len(others) == len(catalogue.cards("shmod"))


def test_show_power_block_json_has_deck_limit_5(cli) -> None:
    result = cli("cards", "show", "Power Block", "--game", "ssbm", "--json")
    assert result.exit_code == 0
    card = json.loads(result.stdout)
    assert (card["name"], card["kind"], card["deck_limit"]) == ("Power Block", "play", 5)
    assert card["printings"][0]["set"] == "base"
    assert {"game", "name", "kind", "text", "printings"} <= set(card)


def test_show_matches_names_as_people_type_them(cli) -> None:
    result = cli("cards", "show", "  power   BLOCK ", "--game", "ssbm")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "Power Block"
    assert "Deck limit (DL)  5" in result.stdout


def test_show_same_named_cards_lists_both(cli) -> None:
    cards = json.loads(cli("cards", "show", "Splash Page", "--game", "website", "--json").stdout)
    assert sorted(card["site_type"] for card in cards) == ["Alan's Site", "Neutral"]


def test_search_numeric_and_choice_terms(cli, catalogue) -> None:
    result = cli("cards", "search", "type:fire atk>=2", "--game", "shmod", "--json")
    found = json.loads(result.stdout)
    expected = [c.name for c in catalogue.cards("shmod")
                if c.fields.get("type") == "FIRE" and isinstance(c.fields.get("atk"), int) and c.fields["atk"] >= 2]
    assert [c["name"] for c in found] == expected and expected


def test_search_text_table_output(cli) -> None:
    result = cli("cards", "search", "name:\"power block\"", "--game", "ssbm")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Name", "Kind", "Set", "Stats"]
    assert lines[2].startswith("Power Block") and "deck_limit 5" in lines[2]
    assert lines[-1] == "1 card"


def test_search_errors_name_the_problem(cli) -> None:
    result = cli("cards", "search", "speed<=fast", "--game", "ssbm")
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: search 'speed<=fast': speed<= needs a whole number, not 'fast'"
    result = cli("cards", "search", "colour:red", "--game", "shmod")
    assert result.exit_code == 2 and "unknown field 'colour'" in result.stderr


def test_unknown_game_is_exit_2(cli) -> None:
    result = cli("cards", "show", "Mario", "--game", "zelda")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: unknown game 'zelda'")


# --- import and export ---------------------------------------------------------------------------------

@pytest.fixture
def fresh_db(empty_db: str, workspace) -> str:
    """A catalogue holding shmod, on each engine (tests/catalogue/conftest.py)."""
    open_catalogue(empty_db).load_workspace_game(workspace, "shmod")
    return empty_db


def _snapshot(db: str) -> list[tuple]:
    with make_engine(db).connect() as conn:
        return [tuple(row) for table in ("card", "printing", "card_field", "card_set")
                for row in conn.execute(text(f"SELECT * FROM {table} ORDER BY id"))]


@pytest.mark.parametrize("fmt", ["csv", "yaml"])
def test_export_then_import_gives_the_same_catalogue(cli, fresh_db: str, tmp_path: Path, fmt: str, new_db,
                                                     engine_kind: str) -> None:
    out = tmp_path / f"shmod.{fmt}"
    assert cli("cards", "export", "--game", "shmod", "--format", fmt, "--out", str(out), db=fresh_db).exit_code == 0
    before = open_catalogue(fresh_db).cards("shmod")
    second = new_db(engine_kind)
    catalogue = open_catalogue(second)
    catalogue.save_game(open_catalogue(fresh_db).game("shmod"),
                        (Path(__file__).resolve().parents[2] / "rules/shmod/game.toml").read_text())
    result = cli("cards", "import", str(out), "--game", "shmod", db=second)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Imported {len(before)} cards into shmod from {out} ({len(before)} new")
    assert catalogue.cards("shmod") == before


BAD_INPUTS = {
    "unknown-column.csv": ("name,kind,level,colour,set\nZap,spell,1,red,base\n",
                           "row 2, column colour: unknown column for shmod"),
    "wrong-type.csv": ("name,kind,type,atk,def,level,set\nImp,monster,FIRE,strong,1,1,base\n",
                       "row 2, column atk: Imp: expected a whole number, got 'strong'"),
    "duplicate.csv": ("name,kind,level,set\nZap,spell,1,base\nZap,spell,2,base\n",
                      "row 3: duplicate card 'Zap' (first at"),
    "empty.csv": ("", "the card file is empty"),
    "bad-choice.yaml": ("set: base\ncards:\n  - {name: Imp, kind: monster, type: PURPLE, atk: 1, def: 1, level: 1}\n",
                        "field type: Imp: 'PURPLE' is not one of FIRE"),
    "not-yaml.yaml": ("cards: [\n", "not valid YAML"),
}


@pytest.mark.parametrize("file_name", sorted(BAD_INPUTS))
def test_bad_card_files_change_nothing(cli, fresh_db: str, tmp_path: Path, file_name: str) -> None:
    content, message = BAD_INPUTS[file_name]
    path = tmp_path / file_name
    path.write_text(content, encoding="utf-8")
    before = _snapshot(fresh_db)
    result = cli("cards", "import", str(path), "--game", "shmod", db=fresh_db)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and str(path) in result.stderr and message in result.stderr
    assert _snapshot(fresh_db) == before


def test_one_bad_row_among_good_ones_imports_nothing(cli, fresh_db: str, tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text("name,kind,level,set\nGood One,spell,1,base\nBad One,spell,high,base\n", encoding="utf-8")
    before = _snapshot(fresh_db)
    result = cli("cards", "import", str(path), "--game", "shmod", db=fresh_db)
    assert result.exit_code == 2 and "row 3, column level" in result.stderr
    assert _snapshot(fresh_db) == before


@pytest.mark.parametrize(("content", "message"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "looks like a binary file"),
    ("name,kind\nCaf\xe9,spell\n".encode("latin-1"), "is not UTF-8 text"),
])
def test_binary_and_non_utf8_files(cli, fresh_db: str, tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "cards.csv"
    path.write_bytes(content)
    result = cli("cards", "import", str(path), "--game", "shmod", db=fresh_db)
    assert result.exit_code == 2 and message in result.stderr


def test_huge_file_is_refused_before_reading(cli, fresh_db: str, tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    with path.open("wb") as handle:
        handle.write(b"name,kind,level,set\n")
        handle.truncate(100 * 1024 * 1024)
    result = cli("cards", "import", str(path), "--game", "shmod", db=fresh_db)
    assert result.exit_code == 2
    assert "100.0 MB is too big for a card file (the limit is 32 MB)" in result.stderr


def test_unknown_game_on_import(cli, fresh_db: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text("name,kind\nX,spell\n", encoding="utf-8")
    result = cli("cards", "import", str(path), "--game", "zelda", db=fresh_db)
    assert result.exit_code == 2 and "unknown game 'zelda'" in result.stderr


def test_csv_export_defuses_spreadsheet_formulas(cli, fresh_db: str, tmp_path: Path) -> None:
    path = tmp_path / "formula.csv"
    path.write_text('name,kind,level,text,set\nSum,spell,1,"=HYPERLINK(""x"")",base\n', encoding="utf-8")
    assert cli("cards", "import", str(path), "--game", "shmod", db=fresh_db).exit_code == 0
    exported = cli("cards", "export", "--game", "shmod", "--format", "csv", db=fresh_db).stdout
    assert "'=HYPERLINK" in exported
    card = json.loads(cli("cards", "show", "Sum", "--game", "shmod", "--json", db=fresh_db).stdout)
    assert card["text"] == '=HYPERLINK("x")'
