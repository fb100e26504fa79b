"""``carddb cards write-back``: catalogue cards into the workspace's card files, every other line kept, and
the next build has nothing to change."""

from __future__ import annotations

import json
from pathlib import Path

from carddb.catalogue.api import open_catalogue
from carddb.catalogue.workspace_cards import read_workspace_game
from carddb.workspace import Workspace

from .conftest import write_cards_csv
from .test_sources import EMBERS, _build, _source

CARDS = Path("rules") / "shmod" / "cards"


def _write_back(cli, db: str, root: Path, *args: str):  # type: ignore[no-untyped-def]
    result = cli("cards", "write-back", "--game", "shmod", *args, db=db, root=str(root))
    assert result.exit_code == 0, result.stderr
    return result


def test_imported_cards_go_into_a_card_file_of_their_own(cli, empty_db, shmod_root: Path, tmp_path: Path,
                                                         snapshot) -> None:
    _build(cli, empty_db, shmod_root)
    mine = write_cards_csv(tmp_path / "My Cards.csv", EMBERS)
    assert cli("cards", "import", str(mine), "--game", "shmod", db=empty_db, root=str(shmod_root)).exit_code == 0
    base_before = (shmod_root / CARDS / "base.yaml").read_bytes()
    result = _write_back(cli, empty_db, shmod_root)
    assert result.stdout.splitlines() == [
        "rules/shmod/cards/my-cards.yaml (new file): 5 added (Ember Knight, Ember Mage, Ember Wall, Ember Giant, "
        "Ember Imp)",
        "Wrote 5 cards of shmod into 1 card file: they now come from those files, so 'carddb build' has nothing "
        "to change."]
    assert (shmod_root / CARDS / "base.yaml").read_bytes() == base_before
    assert _source(cli, empty_db, shmod_root, "Ember Imp")["name"] == "rules/shmod/cards/my-cards.yaml"
    before = snapshot(empty_db)
    assert _build(cli, empty_db, shmod_root) == ["shmod: loaded 56 cards in 1 set (base): nothing changed"]
    assert snapshot(empty_db) == before
    again = _write_back(cli, empty_db, shmod_root)
    assert again.stdout == ("Nothing to write back: every card of shmod in the catalogue comes from its card files "
                            "already.\n")
    # the files alone give the same cards as the catalogue
    from_files = [card for card, _ in read_workspace_game(Workspace(shmod_root), "shmod").cards]
    assert sorted(from_files, key=lambda c: c.name) == sorted(open_catalogue(empty_db, shmod_root).cards("shmod"),
                                                              key=lambda c: c.name)


def test_a_changed_card_replaces_its_entry_and_every_other_line_stays(cli, empty_db, shmod_root: Path,
                                                                      tmp_path: Path) -> None:
    _build(cli, empty_db, shmod_root)
    change = write_cards_csv(tmp_path / "change.csv", ["Replenish,spell,2,Draw 1 card.,base",
                                                       "Monster Bash,spell,3,Destroy 2 monsters.,base"])
    assert cli("cards", "import", str(change), "--game", "shmod", db=empty_db, root=str(shmod_root)).exit_code == 0
    base = shmod_root / CARDS / "base.yaml"
    old = base.read_text(encoding="utf-8").splitlines()
    result = _write_back(cli, empty_db, shmod_root)
    assert result.stdout.splitlines()[0] == ("rules/shmod/cards/base.yaml (edited in place): 2 replaced "
                                             "(Replenish, Monster Bash)")
    new = base.read_text(encoding="utf-8").splitlines()
    first, last = old.index("  - name: Replenish"), old.index("  - name: Yoink!")
    assert new[:first] == old[:first]  # the file's comments and its other cards, line for line
    # in the file's own style: its order of keys, its quotes, no "set: base" that the file's own set gives
    assert new[first:first + 4] == ["  - name: Replenish", "    kind: spell", "    level: 2",
                                    '    text: "Draw 1 card."']
    assert new[first + 4:first + 4 + old.index("  - name: Monster Bash") - last] == \
        old[last:old.index("  - name: Monster Bash")]
    assert new[-40:] == old[-40:]
    assert len(new) == len(old) - 4  # each entry lost its number and sample lines
    assert _build(cli, empty_db, shmod_root) == ["shmod: loaded 51 cards in 1 set (base): nothing changed"]
    assert _source(cli, empty_db, shmod_root, "Replenish")["kind"] == "workspace"


def test_one_source_only_and_a_look_first(cli, empty_db, shmod_root: Path, tmp_path: Path, snapshot) -> None:
    _build(cli, empty_db, shmod_root)
    for name, rows in (("alpha.csv", EMBERS[:2]), ("beta.csv", EMBERS[2:])):
        assert cli("cards", "import", str(write_cards_csv(tmp_path / name, rows)), "--game", "shmod", db=empty_db,
                   root=str(shmod_root)).exit_code == 0
    before, files = snapshot(empty_db), sorted(p.name for p in (shmod_root / CARDS).iterdir())
    look = tmp_path / "look"
    shown = _write_back(cli, empty_db, shmod_root, "--source", "beta.csv", "--out", str(look))
    assert shown.stdout.splitlines() == [
        f"{look / 'beta.yaml'} (new file): 3 added (Ember Wall, Ember Giant, Ember Imp)",
        "Wrote 3 cards of shmod into 1 card file: nothing in the workspace or the catalogue changed."]
    assert [p.name for p in look.iterdir()] == ["beta.yaml"]
    assert snapshot(empty_db) == before and sorted(p.name for p in (shmod_root / CARDS).iterdir()) == files
    _write_back(cli, empty_db, shmod_root, "--source", "beta.csv")
    assert (shmod_root / CARDS / "beta.yaml").read_text() == (look / "beta.yaml").read_text()
    assert _source(cli, empty_db, shmod_root, "Ember Knight")["name"] == "alpha.csv"
    assert _build(cli, empty_db, shmod_root) == [
        "shmod: loaded 54 cards in 1 set (base): nothing changed; the catalogue also holds 2 imported cards"]
    unknown = cli("cards", "write-back", "--game", "shmod", "--source", "gamma.csv", db=empty_db,
                  root=str(shmod_root))
    assert (unknown.exit_code, unknown.stderr) == (2, "Error: no card of shmod comes from 'gamma.csv' (sources: "
                                                      "alpha.csv, rules/shmod/cards/base.yaml, "
                                                      "rules/shmod/cards/beta.yaml)\n")


def test_a_card_file_gone_is_written_again_from_the_catalogue(cli, empty_db, shmod_root: Path) -> None:
    _build(cli, empty_db, shmod_root)
    base = shmod_root / CARDS / "base.yaml"
    original = [card for card, _ in read_workspace_game(Workspace(shmod_root), "shmod").cards]
    base.unlink()
    result = _write_back(cli, empty_db, shmod_root, "--source", "rules/shmod/cards/base.yaml")
    assert result.stdout.splitlines()[0].startswith("rules/shmod/cards/base.yaml (new file): 51 added (Replenish, ")
    assert [card for card, _ in read_workspace_game(Workspace(shmod_root), "shmod").cards] == original
    assert _build(cli, empty_db, shmod_root) == ["shmod: loaded 51 cards in 1 set (base): nothing changed"]


def test_a_csv_card_file_is_written_whole(cli, empty_db, shmod_root: Path, tmp_path: Path) -> None:
    extra = write_cards_csv(shmod_root / CARDS / "extra.csv", ["Old Spell,spell,1,Old.,base"])
    _build(cli, empty_db, shmod_root)
    change = write_cards_csv(tmp_path / "extra.csv", ["Old Spell,spell,2,New.,base", "New Spell,spell,1,Hi.,base"])
    assert cli("cards", "import", str(change), "--game", "shmod", db=empty_db, root=str(shmod_root)).exit_code == 0
    result = _write_back(cli, empty_db, shmod_root)
    assert result.stdout.splitlines()[0] == ("rules/shmod/cards/extra.csv (written whole): 1 replaced (Old Spell); "
                                             "1 added (New Spell)")
    header, *rows = extra.read_text().splitlines()
    assert header.startswith("name,kind,text,flavor,set,number,rarity,art,sample,type,atk,def,level,")
    assert rows == ["Old Spell,spell,New.,,base,,,,,,,,2,,,", "New Spell,spell,Hi.,,base,,,,,,,,1,,,"]
    assert _build(cli, empty_db, shmod_root) == ["shmod: loaded 53 cards in 1 set (base): nothing changed"]
    shown = json.loads(cli("cards", "show", "New Spell", "--game", "shmod", "--json", db=empty_db,
                           root=str(shmod_root)).stdout)
    assert shown["source"]["name"] == "rules/shmod/cards/extra.csv"
