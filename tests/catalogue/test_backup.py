"""``carddb db dump`` / ``carddb db restore``: dump, restore, dump gives the same bytes, on each engine."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from carddb.catalogue.api import open_catalogue
from carddb.catalogue.models import BoosterOpening, Collection, CollectionEntry


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture
def full_db(empty_db: str, workspace) -> str:
    """Every bundled game, a collection and two booster openings."""
    catalogue = open_catalogue(empty_db)
    for game_id in workspace.game_ids():
        if workspace.card_files(game_id):
            catalogue.load_workspace_game(workspace, game_id)
    with catalogue.transaction() as session:
        collection = Collection(game_id="minibattle", name="Sam's binder")
        session.add(collection)
        session.flush()
        session.add_all([CollectionEntry(collection_id=collection.id, card_key="Pikachu", count=3),
                         CollectionEntry(collection_id=collection.id, card_key="Bulbasaur", count=1)])
        session.add_all([BoosterOpening(game_id="minibattle", player="sam", seed=7, cards=["Pikachu", "Eevee"],
                                        opened_at=datetime(2026, 3, 1, 18, 30, tzinfo=UTC)),
                         BoosterOpening(game_id="minibattle", player="alex", seed=None, cards=[],
                                        opened_at=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))])
    return empty_db


def test_dump_restore_dump_gives_the_same_bytes(cli, full_db: str, new_db, engine_kind: str, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    result = cli("db", "dump", "--out", str(first), db=full_db)
    assert result.exit_code == 0, result.stderr
    original = open_catalogue(full_db)
    total = sum(len(original.cards(g)) for g in original.games())
    assert result.stdout == f"Dumped 5 games, {total} cards, 1 collection, 2 boosters to {first}.\n"
    restored_db = new_db(engine_kind)
    result = cli("db", "restore", str(first), db=restored_db)
    assert (result.exit_code, result.stdout) == (0, f"Restored 5 games, {total} cards, 1 collection, 2 boosters "
                                                    f"from {first}.\n")
    assert cli("db", "dump", "--out", str(second), db=restored_db).exit_code == 0
    assert _files(second) == _files(first)
    restored = open_catalogue(restored_db)
    for game_id in original.games():
        assert restored.cards(game_id) == original.cards(game_id)
        assert restored.sets(game_id) == original.sets(game_id)
    assert [c.name for c in restored.search("hp>=60", "minibattle")] == \
        [c.name for c in original.search("hp>=60", "minibattle")]
    manifest = json.loads((first / "manifest.json").read_text(encoding="utf-8"))
    assert [g["id"] for g in manifest["games"]] == ["minibattle", "shmod", "ssbm", "ssq", "website"]
    assert json.loads((first / "collections.json").read_text(encoding="utf-8")) == [
        {"game": "minibattle", "name": "Sam's binder", "cards": [["Bulbasaur", 1], ["Pikachu", 3]]}]
    assert json.loads((first / "boosters.json").read_text(encoding="utf-8"))[0] == {
        "game": "minibattle", "player": "sam", "opened_at": "2026-03-01T18:30:00+00:00", "seed": 7,
        "cards": ["Pikachu", "Eevee"]}


def test_a_dump_restores_on_the_other_engine_too(cli, full_db: str, new_db, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert cli("db", "dump", "--out", str(first), db=full_db).exit_code == 0
    if "://" not in full_db and not os.environ.get("CARDDB_TEST_PG"):
        pytest.skip("needs a PostgreSQL server (CARDDB_TEST_PG)")
    other = new_db("sqlite" if "://" in full_db else "postgresql")
    assert cli("db", "restore", str(first), db=other).exit_code == 0
    assert cli("db", "dump", "--out", str(second), db=other).exit_code == 0
    assert _files(second) == _files(first)


def test_restore_refuses_a_catalogue_that_is_not_empty(cli, full_db: str, tmp_path: Path, snapshot) -> None:
    folder = tmp_path / "dump"
    assert cli("db", "dump", "--out", str(folder), db=full_db).exit_code == 0
    before = snapshot(full_db)
    result = cli("db", "restore", str(folder), db=full_db)
    assert result.exit_code == 2
    shown = full_db.replace(":carddb@", ":***@")  # a URL's password is never printed
    assert result.stderr == (f"Error: restore needs an empty catalogue; {shown} already holds minibattle, shmod, "
                             "ssbm, ssq, website\n")
    assert snapshot(full_db) == before


def test_a_broken_dump_restores_nothing(cli, full_db: str, new_db, engine_kind: str, tmp_path: Path) -> None:
    folder = tmp_path / "dump"
    assert cli("db", "dump", "--out", str(folder), db=full_db).exit_code == 0
    cards = folder / "games" / "ssbm" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("kind: play", "kind: plai", 1), encoding="utf-8")
    target = new_db(engine_kind)
    result = cli("db", "restore", str(folder), db=target)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {cards}: 1 problem; nothing was imported")
    assert open_catalogue(target).held_games() == []
    (folder / "manifest.json").write_text('{"format": "something else"}', encoding="utf-8")
    result = cli("db", "restore", str(folder), db=target)
    assert (result.exit_code, result.stderr) == (2, f"Error: {folder / 'manifest.json'}: not a carddb dump manifest\n")


def test_dump_refuses_to_overwrite_a_folder_of_other_files(cli, full_db: str, tmp_path: Path) -> None:
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    result = cli("db", "dump", "--out", str(folder), db=full_db)
    assert result.exit_code == 3
    assert result.stderr == f"Error: {folder} exists and is not an earlier carddb dump; choose a new or empty folder\n"
    assert _files(folder) == {"notes.txt": b"mine"}
