"""Every card knows where it came from, and a build changes only what came from the workspace's card files:
imported cards survive every build, conflicts are named (and --take-files settles them), a catalogue of the
previous schema is adopted without a card lost. On each engine (conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carddb.app.build import STEPS
from carddb.catalogue.api import open_catalogue
from carddb.site.build import content_from_workspace

from .conftest import REPO, write_cards_csv
from .test_migrations import first_schema_catalogue

LOAD_ONLY = ["build", "--game", "shmod", *[arg for step in STEPS for arg in ("--skip", step)]]  # the load step alone
EMBERS = [f"Ember {what},spell,{n},Burns {n}.,base" for n, what in enumerate(["Knight", "Mage", "Wall", "Giant",
                                                                             "Imp"], start=1)]


def _build(cli, db: str, root: Path, *args: str) -> list[str]:
    result = cli(*LOAD_ONLY, *args, db=db, root=str(root))
    assert result.exit_code == 0, result.stdout + result.stderr
    return [line for line in result.stdout.splitlines() if line.startswith("shmod: ")]


def _source(cli, db: str, root: Path, name: str) -> dict:
    shown = cli("cards", "show", name, "--game", "shmod", "--json", db=db, root=str(root))
    assert shown.exit_code == 0, shown.stderr
    return json.loads(shown.stdout)["source"]


def test_imported_cards_survive_every_build(cli, empty_db, shmod_root: Path, tmp_path: Path, snapshot,
                                            monkeypatch) -> None:
    mine = write_cards_csv(tmp_path / "mycards.csv", EMBERS)
    imported = cli("cards", "import", str(mine), "--game", "shmod", db=empty_db, root=str(shmod_root))
    assert imported.stdout == f"Imported 5 cards into shmod from {mine} (5 new, 0 updated; sets: base).\n"
    assert _build(cli, empty_db, shmod_root) == [
        "shmod: loaded 51 cards in 1 set (base): 51 new; the catalogue also holds 5 imported cards"]
    before = snapshot(empty_db)
    assert _build(cli, empty_db, shmod_root) == [
        "shmod: loaded 51 cards in 1 set (base): nothing changed; the catalogue also holds 5 imported cards"]
    assert snapshot(empty_db) == before  # not a row rewritten, not even a time
    # what `carddb site build` (and a plain `mkdocs build`) makes of the catalogue: read, never written
    monkeypatch.setenv("CARDDB_DB", empty_db)
    content = content_from_workspace(REPO)
    assert "shmod" in content.games and content.cards == 56  # the other games of the workspace: no cards
    assert snapshot(empty_db) == before
    found = json.loads(cli("cards", "search", "ember", "--game", "shmod", "--json", db=empty_db,
                           root=str(shmod_root)).stdout)
    assert [card["name"] for card in found] == ["Ember Knight", "Ember Mage", "Ember Wall", "Ember Giant",
                                                "Ember Imp", "Ember Whelp"]  # in the order they came
    assert [card["source"]["kind"] for card in found] == ["import"] * 5 + ["workspace"]
    assert found[0]["source"]["name"] == "mycards.csv" and found[5]["source"]["name"] == "rules/shmod/cards/base.yaml"


def test_show_says_where_a_card_came_from(cli, empty_db, shmod_root: Path, tmp_path: Path) -> None:
    _build(cli, empty_db, shmod_root)
    write_cards_csv(shmod_root / "mycards.csv", EMBERS[:1])  # inside the workspace: named by its path there
    assert cli("cards", "import", str(shmod_root / "mycards.csv"), "--game", "shmod", db=empty_db,
               root=str(shmod_root)).exit_code == 0
    text = cli("cards", "show", "Ember Whelp", "--game", "shmod", db=empty_db, root=str(shmod_root)).stdout
    at = _source(cli, empty_db, shmod_root, "Ember Whelp")["at"]
    assert [line.split(None, 1) for line in text.splitlines() if line.startswith("source")] == [
        ["source", f"card file rules/shmod/cards/base.yaml (loaded on {at[:10]} {at[11:16]} UTC)"]]
    imported = _source(cli, empty_db, shmod_root, "Ember Knight")
    assert (imported["kind"], imported["what"], imported["name"]) == ("import", "imported file", "mycards.csv")
    assert len(imported["fingerprint"]) == 24 and imported["at"].endswith("+00:00")
    text = cli("cards", "show", "Ember Knight", "--game", "shmod", db=empty_db, root=str(shmod_root)).stdout
    assert "source    imported from mycards.csv on " in text
    card = json.loads(cli("cards", "show", "Ember Knight", "--game", "shmod", "--json", db=empty_db,
                          root=str(shmod_root)).stdout)
    assert {"game", "name", "kind", "text", "printings", "level", "source"} <= set(card)


def test_changes_in_the_files_are_loaded_and_only_their_cards_removed(cli, empty_db, shmod_root: Path,
                                                                      tmp_path: Path) -> None:
    assert cli("cards", "import", str(write_cards_csv(tmp_path / "mine.csv", EMBERS)), "--game", "shmod",
               db=empty_db, root=str(shmod_root)).exit_code == 0
    _build(cli, empty_db, shmod_root)
    base = shmod_root / "rules" / "shmod" / "cards" / "base.yaml"
    text = base.read_text(encoding="utf-8")
    text = text.replace('text: "Shuffle your Graveyard into your deck."', 'text: "Shuffle your Graveyard in."')
    start = text.index("  - name: Monster Bash")
    base.write_text(text[:start] + text[text.index("  - name:", start + 5):], encoding="utf-8")
    assert _build(cli, empty_db, shmod_root) == [
        "shmod: loaded 50 cards in 1 set (base): 1 updated, 1 removed; the catalogue also holds 5 imported cards",
        "shmod: removed, as no card file holds them any more: Monster Bash"]
    cards = {card.name: card for card in open_catalogue(empty_db, shmod_root).cards("shmod")}
    assert cards["Replenish"].text == "Shuffle your Graveyard in." and "Monster Bash" not in cards
    assert len(cards) == 55 and {f"Ember {w}" for w in ("Knight", "Mage", "Wall", "Giant", "Imp")} <= set(cards)
    # a card that moves to another card file is the same card, now that file's
    (shmod_root / "rules" / "shmod" / "cards" / "extra.csv").write_text(
        "name,kind,level,text,set\nMonster Bash,spell,2,Destroy 1 monster on the field.,base\n", encoding="utf-8")
    assert _build(cli, empty_db, shmod_root)[0].startswith("shmod: loaded 51 cards in 1 set (base): 1 new;")
    assert _source(cli, empty_db, shmod_root, "Monster Bash")["name"] == "rules/shmod/cards/extra.csv"


def test_a_card_changed_in_the_catalogue_is_kept_and_named(cli, empty_db, shmod_root: Path, tmp_path: Path) -> None:
    _build(cli, empty_db, shmod_root)
    change = write_cards_csv(tmp_path / "change.csv", ["Replenish,spell,2,Draw 1 card.,base"])
    imported = cli("cards", "import", str(change), "--game", "shmod", db=empty_db, root=str(shmod_root))
    assert imported.stderr == (
        "note: 1 of them came from the workspace's card files (rules/shmod/cards/base.yaml) and now come from "
        "change.csv: 'carddb build' keeps this version and says so, 'carddb cards write-back --game shmod' "
        "writes it into the card files.\n")
    at = _source(cli, empty_db, shmod_root, "Replenish")["at"]
    when = f"{at[:10]} {at[11:16]} UTC"
    lines = _build(cli, empty_db, shmod_root)
    assert lines == [
        "shmod: loaded 51 cards in 1 set (base): nothing changed; the catalogue also holds 1 imported card",
        f"shmod: kept the catalogue's version of 1 card that the card files give differently: Replenish "
        f"(imported from change.csv on {when}). 'carddb cards write-back --game shmod' writes the catalogue's "
        "into the card files; 'carddb build --take-files' takes the files' versions instead"]
    assert open_catalogue(empty_db, shmod_root).find("shmod", "Replenish")[0].text == "Draw 1 card."
    assert _build(cli, empty_db, shmod_root) == lines  # said again at every build until settled
    taken = _build(cli, empty_db, shmod_root, "--take-files")
    assert taken == ["shmod: loaded 51 cards in 1 set (base): nothing changed",
                     f"shmod: took the card files' version of 1 card (--take-files): Replenish (imported from "
                     f"change.csv on {when})"]
    assert open_catalogue(empty_db, shmod_root).find("shmod", "Replenish")[0].text.startswith("Shuffle")
    assert _source(cli, empty_db, shmod_root, "Replenish")["kind"] == "workspace"
    assert _build(cli, empty_db, shmod_root) == ["shmod: loaded 51 cards in 1 set (base): nothing changed"]


def test_an_identical_card_of_another_source_is_left_alone(cli, empty_db, shmod_root: Path) -> None:
    base = shmod_root / "rules" / "shmod" / "cards" / "base.yaml"
    result = cli("cards", "import", str(base), "--game", "shmod", db=empty_db, root=str(shmod_root))
    assert result.stdout.startswith(f"Imported 51 cards into shmod from {base} (51 new, 0 updated; ")
    assert _build(cli, empty_db, shmod_root) == [
        "shmod: loaded 51 cards in 1 set (base): nothing changed; the catalogue also holds 51 imported cards"]
    again = cli("cards", "import", str(base), "--game", "shmod", db=empty_db, root=str(shmod_root))
    assert "(0 new, 0 updated, 51 unchanged; sets: base)" in again.stdout


def test_a_card_in_two_card_files_changes_nothing(cli, empty_db, shmod_root: Path, snapshot) -> None:
    _build(cli, empty_db, shmod_root)
    before = snapshot(empty_db)
    extra = shmod_root / "rules" / "shmod" / "cards" / "extra.csv"
    extra.write_text("name,kind,level,set\nNew One,spell,1,base\nreplenish,spell,2,base\n", encoding="utf-8")
    result = cli(*LOAD_ONLY, db=empty_db, root=str(shmod_root))
    base = shmod_root / "rules/shmod/cards/base.yaml"
    line = base.read_text(encoding="utf-8").splitlines().index("  - name: Replenish") + 1
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {shmod_root / 'rules/shmod/cards'}: 1 problem; no card was loaded\n"
                             f"  {extra} row 3: duplicate card 'replenish' (first at {base} line {line} "
                             "(Replenish))\n")
    assert snapshot(empty_db) == before


def test_a_catalogue_of_the_previous_schema_is_adopted_without_loss(cli, engine_kind, new_db, tmp_path: Path,
                                                                   shmod_root: Path) -> None:
    db = first_schema_catalogue(engine_kind, new_db, tmp_path)
    base = shmod_root / "rules" / "shmod" / "cards" / "base.yaml"
    text = base.read_text(encoding="utf-8")
    start = text.index("  - name: Monster Bash")
    base.write_text(text[:start] + text[text.index("  - name:", start + 5):], encoding="utf-8")
    lines = [line for line in _build(cli, db, shmod_root) if "game definition updated" not in line]
    assert lines[0] == ("shmod: loaded 50 cards in 1 set (base): 50 adopted; the catalogue also holds "
                        "1 card of unknown source")
    assert lines[1].startswith("shmod: 50 cards of unknown source (recorded before carddb kept where cards come "
                               "from) are in the card files, so they come from them now")
    assert lines[2] == ("shmod: kept 1 card of unknown source that no card file holds: Monster Bash ('carddb "
                        "cards write-back --game shmod' writes them into a card file)")
    catalogue = open_catalogue(db, shmod_root)
    assert len(catalogue.cards("shmod")) == 51
    assert _source(cli, db, shmod_root, "Monster Bash")["kind"] == "unknown"
    assert _source(cli, db, shmod_root, "Replenish")["kind"] == "workspace"
    again = _build(cli, db, shmod_root)  # adopted once; the card of unknown source kept, and said, every time
    assert again == [lines[0].replace("50 adopted", "nothing changed"), lines[2]]


@pytest.mark.parametrize("set_code", ["nosuchset", "../../etc"])
def test_a_set_the_game_does_not_declare_is_refused(cli, empty_db, shmod_root: Path, tmp_path: Path, set_code: str,
                                                   snapshot) -> None:
    _build(cli, empty_db, shmod_root)
    before = snapshot(empty_db)
    csv_file = write_cards_csv(tmp_path / "odd.csv", ["Fine,spell,1,Fine.,base", f"Odd,spell,1,Odd.,{set_code}"])
    yaml_file = tmp_path / "odd.yaml"
    yaml_file.write_text(f"set: base\ncards:\n  - name: Fine\n    kind: spell\n    level: 1\n"
                         f"  - name: Odd\n    kind: spell\n    level: 1\n    set: {json.dumps(set_code)}\n",
                         encoding="utf-8")
    for path, where in ((csv_file, "row 3, column"), (yaml_file, "line 6 (Odd), field")):
        result = cli("cards", "import", str(path), "--game", "shmod", db=empty_db, root=str(shmod_root))
        assert result.exit_code == 2
        assert result.stderr.splitlines()[1] == (f"  {path} {where} set: Odd is in set {set_code!r}, which "
                                                 "rules/shmod/game.toml does not declare; its sets are base")
    assert snapshot(empty_db) == before


def test_one_imported_card_is_said_in_the_singular(cli, empty_db, shmod_root: Path, tmp_path: Path) -> None:
    mine = write_cards_csv(tmp_path / "one.csv", EMBERS[:1])
    imported = cli("cards", "import", str(mine), "--game", "shmod", db=empty_db, root=str(shmod_root))
    assert imported.stdout == f"Imported 1 card into shmod from {mine} (1 new, 0 updated; sets: base).\n"
