"""Every game of the workspace is known to every catalogue, a new or empty one included; reading never makes
a catalogue; outside a workspace a command says so; a search without a query lists every card."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from carddb.catalogue.api import Catalogue, open_catalogue

from .conftest import REPO, write_cards_csv
from .test_sources import EMBERS, _build

LEGAL_SHMOD = REPO / "rules" / "shmod" / "decks" / "legal-storm-dark-sideboard.dec"


def test_a_new_catalogue_takes_an_import_at_once(cli, empty_db) -> None:
    base = REPO / "rules" / "shmod" / "cards" / "base.yaml"
    result = cli("cards", "import", str(base), "--game", "shmod", db=empty_db)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Imported 51 cards into shmod from {base} (51 new, 0 updated; sets: base).\n"
    catalogue = open_catalogue(empty_db, REPO)
    assert catalogue.held_games() == ["shmod"]  # registered by its first write, from the workspace's game.toml
    assert catalogue.sets("shmod") == [("base", "Shmod Base Set")]
    for args in (["cards", "search", "type:fire", "--game", "shmod"], ["deck", "check", str(LEGAL_SHMOD), "--game",
                                                                       "shmod"]):
        assert cli(*args, db=empty_db).exit_code == 0, args
    # the other workspace games are known to it too: a search finds no card, a show says so, a render draws
    assert cli("cards", "search", "mario", "--game", "ssbm", db=empty_db).stdout == "No cards match.\n"
    shown = cli("cards", "show", "Mario", "--game", "ssbm", db=empty_db)
    assert (shown.exit_code, shown.stderr) == (2, "Error: no card named 'Mario' in ssbm\n")


def test_render_print_and_export_read_a_new_catalogue(cli, empty_db, tmp_path: Path, snapshot) -> None:
    cli("cards", "import", str(write_cards_csv(tmp_path / "mine.csv", EMBERS[:2])), "--game", "shmod", db=empty_db)
    before = snapshot(empty_db)
    rendered = cli("render", "--game", "shmod", "--dpi", "20", "--out", str(tmp_path / "faces"), db=empty_db)
    assert rendered.stdout.startswith("shmod: drew 3 faces, reused 0, in "), rendered.stderr  # and the back
    printed = cli("print", "--game", "shmod", "--out", str(tmp_path / "all.pdf"), db=empty_db)
    assert printed.exit_code == 0, printed.stderr
    exported = cli("export", "apprentice", "--game", "shmod", "--out", str(tmp_path / "apprentice"), db=empty_db)
    assert exported.exit_code == 0, exported.stderr
    assert "Ember Knight" in (tmp_path / "apprentice" / "Sets" / "cardinfo.dat").read_bytes().decode("latin-1")
    other = cli("render", "--game", "ssq", "--dpi", "20", "--out", str(tmp_path / "faces"), db=empty_db)
    # a game the catalogue does not hold: drawn from its card files, which are read, not loaded
    assert other.stdout.startswith("ssq: drew 32 faces, reused 0, in "), other.stderr
    assert snapshot(empty_db) == before  # none of them wrote a card


def test_reading_a_catalogue_that_does_not_exist_makes_nothing(cli, tmp_path: Path) -> None:
    db = tmp_path / "new" / "catalogue.db"
    search = cli("cards", "search", "--game", "shmod", db=str(db))
    assert (search.exit_code, search.stdout) == (0, "No cards match.\n")
    assert search.stderr == (f"note: the catalogue {db} does not exist yet, so it holds no cards: 'carddb build' (or "
                             "'carddb init') loads the workspace's card files into it, 'carddb cards import FILE' a "
                             "file of cards\n")
    listed = cli("cards", "search", "", "--json", db=str(db))
    assert (listed.exit_code, listed.stdout) == (0, "[]\n")
    shown = cli("cards", "show", "Replenish", "--game", "shmod", db=str(db))
    assert shown.exit_code == 2 and shown.stderr.startswith(f"Error: no card named 'Replenish' in shmod: the "
                                                            f"catalogue {db} does not exist yet")
    status = cli("db", "status", db=str(db))
    assert status.stdout == (f"Catalogue: {db}\nSchema: none yet (no such file; the first command that writes "
                             "makes it, at revision 0004)\n")
    # a deck is checked against the card files, as the first build will load them
    checked = cli("deck", "check", str(LEGAL_SHMOD), "--game", "shmod", "--json", db=str(db))
    assert (checked.exit_code, json.loads(checked.stdout)["legal"]) == (0, True)
    assert cli("db", "upgrade", db=str(db)).exit_code == 2
    assert list(tmp_path.iterdir()) == []


def test_the_default_catalogue_is_not_made_by_reading(cli, shmod_root: Path, monkeypatch) -> None:
    monkeypatch.delenv("CARDDB_DB", raising=False)
    monkeypatch.chdir(shmod_root / "rules" / "shmod")  # the workspace is found upwards
    from typer.testing import CliRunner

    from carddb.cli.main import app

    for args in (["cards", "search", "--game", "shmod"], ["db", "status"], ["cards", "show", "x", "--game", "shmod"]):
        CliRunner().invoke(app, args, catch_exceptions=False)
    assert not (shmod_root / "output").exists()
    loaded = CliRunner().invoke(app, ["init"], catch_exceptions=False)
    assert loaded.stdout.splitlines() == ["shmod: loaded 51 cards in 1 set (base): 51 new",
                                          f"Catalogue ready at {shmod_root / 'output' / 'catalogue.db'} (1 game)."]
    assert len(open_catalogue(str(shmod_root / "output" / "catalogue.db")).cards("shmod")) == 51


def test_outside_a_workspace_a_command_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    from typer.testing import CliRunner

    from carddb.cli.main import app

    for name in ("CARDDB_DB", "CARDDB_ROOT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    said = (f"Error: no workspace found: neither {tmp_path.resolve()} nor any folder above it holds a rules/ folder\n"
            "Run carddb inside a workspace, name one with --root DIR, or start one with 'carddb init DIR'.\n")
    for args in (["cards", "search", "fire"], ["cards", "show", "x", "--game", "shmod"], ["db", "status"],
                 ["deck", "check", str(LEGAL_SHMOD), "--game", "shmod"], ["init"], ["build"]):
        result = CliRunner().invoke(app, args, catch_exceptions=False)
        assert (result.exit_code, result.stderr) == (2, said), args
    assert list(tmp_path.iterdir()) == []


def test_a_search_without_a_query_lists_every_card(cli, loaded_db: str, catalogue) -> None:
    every = [card.name for card in catalogue.cards("ssbm")]
    for args in (["--game", "ssbm"], ["", "--game", "ssbm"], ["  ", "--game", "ssbm"]):
        found = json.loads(cli("cards", "search", *args, "--json").stdout)
        assert [card["name"] for card in found] == every
    table = cli("cards", "search", "--game", "ssbm").stdout.splitlines()
    assert table[-1] == f"{len(every)} cards"
    assert len(json.loads(cli("cards", "search", "--json", "--limit", "7").stdout)) == 7
    everything = json.loads(cli("cards", "search", "--json").stdout)
    assert len(everything) == sum(len(catalogue.cards(g)) for g in catalogue.held_games())


def test_a_changed_game_toml_counts_at_once(cli, empty_db, shmod_root: Path) -> None:
    _build(cli, empty_db, shmod_root)
    definition = shmod_root / "rules" / "shmod" / "game.toml"
    text = definition.read_text(encoding="utf-8")
    definition.write_text(text.replace('[zones.main]\nlabel = "Main deck"\nmin = 50',
                                       '[zones.main]\nlabel = "Main deck"\nmin = 70'), encoding="utf-8")
    deck = cli("deck", "check", str(LEGAL_SHMOD), "--game", "shmod", "--json", db=empty_db, root=str(shmod_root))
    problems = json.loads(deck.stdout)["problems"]
    assert deck.exit_code == 1 and [(p["code"], p["min"]) for p in problems] == [("zone-size", 70)]
    assert _build(cli, empty_db, shmod_root)[1] == "shmod: game definition updated from its game.toml"
    assert Catalogue(empty_db).game("shmod").zones["main"].minimum == 70  # the catalogue's own copy, seen from nowhere


@pytest.mark.skipif(not os.environ.get("CARDDB_TEST_PG"), reason="needs a PostgreSQL server (CARDDB_TEST_PG)")
def test_a_new_postgresql_catalogue_takes_an_import_at_once(cli, new_db, tmp_path: Path) -> None:
    url = new_db("postgresql")
    mine = write_cards_csv(tmp_path / "mine.csv", EMBERS)
    result = cli("cards", "import", str(mine), "--game", "shmod", db=url)
    assert result.stdout == f"Imported 5 cards into shmod from {mine} (5 new, 0 updated; sets: base).\n"
    found = json.loads(cli("cards", "search", "--game", "shmod", "--json", db=url).stdout)
    assert [card["name"] for card in found] == [f"Ember {w}" for w in ("Knight", "Mage", "Wall", "Giant", "Imp")]
