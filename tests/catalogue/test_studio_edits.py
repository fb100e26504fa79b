"""The card studio's edits on a workspace's card files, YAML and CSV: a save changes exactly the lines of the
values changed (comments and the other cards kept), new, duplicate and delete, undo of the last edit, a file
changed on disk since the form was opened refused as a conflict, and every problem of a form named with its field.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from carddb.catalogue.api import Catalogue
from carddb.catalogue.cardfiles import cards_to_csv
from carddb.catalogue.studio_edits import Studio
from carddb.catalogue.workspace_cards import read_workspace_game
from carddb.catalogue.writeback import write_back
from carddb.core.cards.card import Card, Printing
from carddb.errors import CardDataError, ConflictError, InputError, NotFoundError
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parents[2]
CARDS = "rules/shmod/cards/base.yaml"


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    shutil.copytree(REPO / "rules" / "shmod", tmp_path / "rules" / "shmod")
    return Workspace(tmp_path)


@pytest.fixture
def csv_workspace(workspace: Workspace) -> Workspace:
    found = read_workspace_game(workspace, "shmod")
    (workspace.root / CARDS).unlink()
    (workspace.root / "rules/shmod/cards/base.csv").write_text(
        cards_to_csv(found.game, [card for card, _ in found.cards]), encoding="utf-8", newline="")
    return workspace


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines removed and the lines added, as ``git diff`` shows them."""
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


def entry_text(text: str, name: str) -> str:
    """The lines of the card ``name``'s entry in a YAML card file (up to the next entry, comment or blank line)."""
    lines = text.splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.lstrip(" -").startswith(f"name: {name}\n"))
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next((n for n in range(start + 1, len(lines)) if not lines[n].strip() or lines[n].lstrip().startswith("#")
                or lines[n].startswith(" " * indent + "- ")), len(lines))
    return "".join(lines[start:end])


def test_a_save_changes_only_the_lines_of_the_values_changed(workspace: Workspace) -> None:
    studio = Studio(workspace)
    before = (workspace.root / CARDS).read_text(encoding="utf-8")
    opened = studio.open("shmod", "Replenish")
    values = {**opened["values"], "level": "4", "text": "Shuffle your Graveyard into your deck, then draw 2 cards."}
    saved = studio.save("shmod", "Replenish", opened["digest"], values)
    after = (workspace.root / CARDS).read_text(encoding="utf-8")
    assert changed_lines(before, after) == (
        ["    level: 2", '    text: "Shuffle your Graveyard into your deck."'],
        ["    level: 4", '    text: "Shuffle your Graveyard into your deck, then draw 2 cards."'])
    assert after.startswith("# Shmod base set.")  # the comments are the file's own
    assert saved.page == "games/shmod/cards/replenish/" and saved.file == CARDS
    card = next(card for card, _ in read_workspace_game(workspace, "shmod").cards if card.key == "Replenish")
    assert card.fields["level"] == 4 and card.sample == ["kind", "level", "text"]  # its sample marks kept


def test_a_value_added_and_one_emptied(workspace: Workspace) -> None:
    studio = Studio(workspace)
    before = (workspace.root / CARDS).read_text(encoding="utf-8")
    opened = studio.open("shmod", "Cinder Hound")
    studio.save("shmod", "Cinder Hound", opened["digest"], {**opened["values"], "flavor": "Hot.", "number": "",
                                                          "categories": "Beast; Hound"})
    after = (workspace.root / CARDS).read_text(encoding="utf-8")
    assert entry_text(after, "Cinder Hound") == (  # the flavour where the file's order puts it, quoted as it does
        "  - name: Cinder Hound\n"
        "    kind: monster\n"
        "    type: FIRE\n"
        "    atk: 3\n"
        "    def: 2\n"
        "    level: 2\n"
        "    categories: [Beast, Hound]\n"
        '    flavor: "Hot."\n'
        '    sample: ["*"]\n')
    assert changed_lines(before, after) == (['    number: "M02"', "    categories: [Beast]"],
                                            ["    categories: [Beast, Hound]", '    flavor: "Hot."'])


def test_new_duplicate_delete_and_undo(workspace: Workspace) -> None:
    studio = Studio(workspace)
    path = workspace.root / CARDS
    original = path.read_text(encoding="utf-8")
    opened = studio.open("shmod", "Monster Bash")
    new = {**opened["values"], "name": "Second Bash", "number": "S99"}
    studio.create("shmod", CARDS, new)
    keys = [card.key for card, _ in read_workspace_game(workspace, "shmod").cards]
    assert keys[-1] == "Second Bash"

    copied = studio.duplicate("shmod", "Yoink!", studio.open("shmod", "Yoink!")["digest"])
    keys = [card.key for card, _ in read_workspace_game(workspace, "shmod").cards]
    assert copied.key == "Yoink! (copy)" and keys[keys.index("Yoink!") + 1] == "Yoink! (copy)"

    with_copy = path.read_text(encoding="utf-8")
    deleted = studio.delete("shmod", "Monster Bash", studio.open("shmod", "Monster Bash")["digest"])
    assert deleted.key is None
    keys = [card.key for card, _ in read_workspace_game(workspace, "shmod").cards]
    assert "Monster Bash" not in keys and "Second Bash" in keys
    assert "# ---------------------------------------------------------------- FIRE monsters" in path.read_text()

    studio.undo()  # the delete, undone: the file as it was before it
    assert path.read_text(encoding="utf-8") == with_copy
    with pytest.raises(NotFoundError, match="no edit to undo"):
        studio.undo()
    assert with_copy != original


def test_the_last_edit_is_undone_by_a_studio_started_again(workspace: Workspace, tmp_path: Path) -> None:
    kept = tmp_path / "state" / "studio-undo.json"
    path = workspace.root / CARDS
    original = path.read_text(encoding="utf-8")
    studio = Studio(workspace, undo_file=kept)
    studio.save("shmod", "Replenish", studio.open("shmod", "Replenish")["digest"],
                {**studio.open("shmod", "Replenish")["values"], "level": "5"})
    assert kept.is_file()
    again = Studio(workspace, undo_file=kept)  # the server stopped and started again
    assert again.undo().said == "undid: saved Replenish into rules/shmod/cards/base.yaml"
    assert path.read_text(encoding="utf-8") == original
    assert not kept.exists()
    with pytest.raises(NotFoundError, match="no edit to undo"):
        Studio(workspace, undo_file=kept).undo()


def test_a_kept_edit_that_cannot_be_trusted_is_never_undone(workspace: Workspace, tmp_path: Path) -> None:
    kept = tmp_path / "studio-undo.json"
    path = workspace.root / CARDS
    studio = Studio(workspace, undo_file=kept)
    studio.save("shmod", "Replenish", studio.open("shmod", "Replenish")["digest"],
                {**studio.open("shmod", "Replenish")["values"], "level": "5"})
    saved = path.read_text(encoding="utf-8")
    path.write_text(saved + "\n", encoding="utf-8")  # changed in a text editor while the server was down
    with pytest.raises(ConflictError, match="changed on disk since the studio saved Replenish"):
        Studio(workspace, undo_file=kept).undo()
    path.write_text(saved, encoding="utf-8")
    good = kept.read_text(encoding="utf-8")
    for broken in ["{", "[]", good.replace('"game"', '"gamer"'),
                   good.replace("rules/shmod/cards/base.yaml", "../../etc/passwd")]:
        kept.write_text(broken, encoding="utf-8")
        with pytest.raises((NotFoundError, ConflictError, InputError)):
            Studio(workspace, undo_file=kept).undo()
        assert path.read_text(encoding="utf-8") == saved


def test_a_file_changed_on_disk_since_the_form_opened_is_a_conflict(workspace: Workspace) -> None:
    studio = Studio(workspace)
    path = workspace.root / CARDS
    opened = studio.open("shmod", "Replenish")
    edited = path.read_text(encoding="utf-8").replace("Take control of 1", "Take control of 2")
    path.write_text(edited, encoding="utf-8")  # the designer's text editor, meanwhile
    with pytest.raises(ConflictError, match="changed on disk"):
        studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "level": "5"})
    assert path.read_text(encoding="utf-8") == edited  # never overwritten


def test_undo_refuses_a_file_changed_since_the_edit(workspace: Workspace) -> None:
    studio = Studio(workspace)
    path = workspace.root / CARDS
    opened = studio.open("shmod", "Replenish")
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "level": "5"})
    path.write_text(path.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    with pytest.raises(ConflictError, match="nothing was undone"):
        studio.undo()
    assert path.read_text(encoding="utf-8").endswith("# a note\n")


def test_every_problem_of_a_form_is_named_with_its_field(workspace: Workspace) -> None:
    studio = Studio(workspace)
    opened = studio.open("shmod", "Cinder Hound")
    values = {**opened["values"], "atk": "lots", "type": "PLASMA", "set": "nope"}
    card, problems = studio.check("shmod", values, "Cinder Hound")
    assert card is None
    assert problems["atk"] == "expected a whole number, got 'lots'"
    assert problems["type"].startswith("'PLASMA' is not one of FIRE")
    assert "which rules/shmod/game.toml does not declare" in problems["set"]
    before = (workspace.root / CARDS).read_text(encoding="utf-8")
    with pytest.raises(CardDataError, match=r"the card is not saved: type: .*; atk: expected a whole number"):
        studio.save("shmod", "Cinder Hound", opened["digest"], values)
    assert (workspace.root / CARDS).read_text(encoding="utf-8") == before


def test_unknown_fields_games_and_files_are_refused(workspace: Workspace) -> None:
    studio = Studio(workspace)
    opened = studio.open("shmod", "Replenish")
    with pytest.raises(InputError, match="shmod has no field 'power'"):
        studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "power": "9"})
    with pytest.raises(NotFoundError, match=r"no game '\.\./shmod'"):
        studio.open("../shmod", "Replenish")
    with pytest.raises(NotFoundError, match="is not a card file of shmod"):
        studio.create("shmod", "../../etc/passwd", opened["values"])
    with pytest.raises(NotFoundError, match="is not a card file of shmod"):
        studio.create("shmod", str(workspace.root / CARDS), opened["values"])
    with pytest.raises(InputError, match="at most 4000 characters"):
        studio.check("shmod", {**opened["values"], "text": "x" * 5000})


def test_other_printings_are_listed_checked_and_written_to_yaml_and_csv(workspace: Workspace) -> None:
    studio = Studio(workspace)
    path = workspace.root / CARDS
    before = path.read_text(encoding="utf-8")
    opened = studio.open("shmod", "Replenish")
    assert opened["values"]["more_printings"] == []
    wrong = {**opened["values"], "level": "lots", "more_printings": [{"set": "nope"}, {"number": "P2"}]}
    card, problems = studio.check("shmod", wrong, "Replenish")
    assert card is None
    assert problems["level"] == "expected a whole number or X, got 'lots'"  # every problem at once, the printings' too
    assert "printing 2: " in problems["printings.2.set"] and "'nope'" in problems["printings.2.set"]
    assert problems["printings.3.set"] == "printing 3: Replenish has no set"
    promo = {"set": "base", "number": "P01", "rarity": "promo", "art": ""}
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "more_printings": [promo]})
    assert entry_text(path.read_text(encoding="utf-8"), "Replenish") == (
        "  - name: Replenish\n"
        "    kind: spell\n"
        "    level: 2\n"
        "    printings:\n"  # in block style, indented as the file's list of cards, quoted as its numbers
        "      - set: base\n"
        '        number: "S01"\n'
        "      - set: base\n"
        '        number: "P01"\n'
        "        rarity: promo\n"
        '    text: "Shuffle your Graveyard into your deck."\n'
        "    sample: [kind, level, text]\n")
    assert path.read_text(encoding="utf-8").replace(entry_text(path.read_text(encoding="utf-8"), "Replenish"), "") \
        == before.replace(entry_text(before, "Replenish"), "")  # every other line as it was
    opened = studio.open("shmod", "Replenish")
    assert opened["values"]["more_printings"] == [promo]
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "level": "4"})  # a save keeps them
    card = next(card for card, _ in read_workspace_game(workspace, "shmod").cards if card.key == "Replenish")
    assert [p.number for p in card.printings] == ["S01", "P01"] and card.fields["level"] == 4
    opened = studio.open("shmod", "Replenish")
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "more_printings": []})
    card = next(card for card, _ in read_workspace_game(workspace, "shmod").cards if card.key == "Replenish")
    assert [p.number for p in card.printings] == ["S01"]


def test_a_csv_card_file_holds_a_printing_as_a_row(csv_workspace: Workspace) -> None:
    studio = Studio(csv_workspace)
    path = csv_workspace.root / "rules/shmod/cards/base.csv"
    before = path.read_text(encoding="utf-8")
    opened = studio.open("shmod", "Replenish")
    promo = {"set": "base", "number": "P01", "rarity": "promo", "art": ""}
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "more_printings": [promo]})
    removed, added = changed_lines(before, path.read_text(encoding="utf-8"))
    assert removed == [] and len(added) == 1
    assert added[0].startswith("Replenish,spell,") and ",P01," in added[0] and "promo" in added[0]
    card = next(card for card, _ in read_workspace_game(csv_workspace, "shmod").cards if card.key == "Replenish")
    assert [(p.number, p.rarity) for p in card.printings] == [("S01", ""), ("P01", "promo")]


def test_a_list_of_printings_that_is_no_list_of_printings_is_refused(workspace: Workspace) -> None:
    studio = Studio(workspace)
    values = studio.open("shmod", "Replenish")["values"]
    for wrong, said in [("P01", "must be a list"), ([{"set": "base"}] * 101, "at most 100"),
                        ([{"set": "base", "price": "1"}], "a printing must be an object of set, number, rarity, art"),
                        (["base"], "a printing must be an object"),
                        ([{"number": "x" * 5000}], "at most 4000 characters")]:
        with pytest.raises(InputError, match=said):
            studio.check("shmod", {**values, "more_printings": wrong}, "Replenish")


def test_a_card_renamed_into_another_cards_name_is_refused(workspace: Workspace) -> None:
    studio = Studio(workspace)
    opened = studio.open("shmod", "Replenish")
    with pytest.raises(CardDataError, match=r"shmod has a card named .Yoink!. already .*nothing was saved$"):
        studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "name": "Yoink!"})


def test_csv_edits_keep_every_other_row(csv_workspace: Workspace) -> None:
    studio = Studio(csv_workspace)
    path = csv_workspace.root / "rules/shmod/cards/base.csv"
    before = path.read_text(encoding="utf-8")
    opened = studio.open("shmod", "Replenish")
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "level": "4"})
    removed, added = changed_lines(before, path.read_text(encoding="utf-8"))
    assert len(removed) == len(added) == 1 and removed[0].startswith("Replenish,spell,")
    assert added[0] == removed[0].replace(",2,", ",4,", 1)
    studio.duplicate("shmod", "Replenish", studio.open("shmod", "Replenish")["digest"])
    studio.delete("shmod", "Yoink!", studio.open("shmod", "Yoink!")["digest"])
    keys = [card.key for card, _ in read_workspace_game(csv_workspace, "shmod").cards]
    assert keys[:3] == ["Replenish", "Replenish (copy)", "Revival Stone"]
    studio.undo()
    assert "Yoink!" in [card.key for card, _ in read_workspace_game(csv_workspace, "shmod").cards]


def test_a_save_updates_the_catalogue_and_an_imported_card_is_saved_in_it(workspace: Workspace,
                                                                         tmp_path: Path) -> None:
    catalogue = Catalogue(str(tmp_path / "catalogue.db"), workspace)
    catalogue.load_workspace_game(workspace, "shmod")
    game = catalogue.game("shmod")
    imported = Card(game="shmod", name="Imported Idea", kind="spell", fields={"level": 1},
                    printings=[Printing(set="base", number="X1")])
    catalogue.write(game, [imported], "ideas.yaml")
    studio = Studio(workspace, catalogue)
    opened = studio.open("shmod", "Replenish")
    studio.save("shmod", "Replenish", opened["digest"], {**opened["values"], "level": "6"})
    assert catalogue.find("shmod", "Replenish")[0].fields["level"] == 6
    opened = studio.open("shmod", "Imported Idea")
    assert opened["file"] is None
    saved = studio.save("shmod", "Imported Idea", opened["digest"], {**opened["values"], "level": "3"})
    assert "write-back" in saved.said
    (card, source), = catalogue.find_with_sources("shmod", "Imported Idea")
    assert card.fields["level"] == 3 and source.kind == "edit"
    write_back(catalogue, workspace, "shmod")  # and from the catalogue into a card file
    written = [card for card, _ in read_workspace_game(workspace, "shmod").cards if card.key == "Imported Idea"]
    assert [card.fields["level"] for card in written] == [3]


NEW_MONSTER = {"kind": "monster", "name": "Ash Drake", "type": "FIRE", "atk": "4", "def": "3", "level": "3",
               "categories": "Dragon; Beast", "text": "Flying.", "set": "base", "number": "M90"}


def test_a_new_card_and_a_copy_are_written_in_the_files_own_style(workspace: Workspace) -> None:
    studio = Studio(workspace)
    path = workspace.root / CARDS
    studio.create("shmod", CARDS, NEW_MONSTER)
    copied = studio.duplicate("shmod", "Cinder Hound", studio.open("shmod", "Cinder Hound")["digest"])
    text = path.read_text(encoding="utf-8")
    # the keys in the order of the file's monsters, lists in flow style, numbers and texts double-quoted as the
    # file's are, and no "set: base": the file's own set says it
    assert text.endswith(
        "  - name: Ash Drake\n"
        "    kind: monster\n"
        '    number: "M90"\n'
        "    type: FIRE\n"
        "    atk: 4\n"
        "    def: 3\n"
        "    level: 3\n"
        "    categories: [Dragon, Beast]\n"
        '    text: "Flying."\n')
    # a copy right after its card, with the next collector number free in its set (M03 to M27 are taken), its
    # sample marks kept (its values are as invented as the original's), written as the file writes them
    assert copied.key == "Cinder Hound (copy)"
    assert entry_text(text, "Cinder Hound (copy)") == (
        "  - name: Cinder Hound (copy)\n"
        "    kind: monster\n"
        '    number: "M28"\n'
        "    type: FIRE\n"
        "    atk: 3\n"
        "    def: 2\n"
        "    level: 2\n"
        "    categories: [Beast]\n"
        '    sample: ["*"]\n')
    assert text.index("name: Cinder Hound (copy)") < text.index("name: Magma Colossus")
    again = studio.duplicate("shmod", "Cinder Hound", studio.open("shmod", "Cinder Hound")["digest"])
    assert again.key == "Cinder Hound (copy 2)"
    assert '    number: "M29"\n' in entry_text(path.read_text(encoding="utf-8"), "Cinder Hound (copy 2)")


BLOCK_STYLE = """\
# a file written by hand in another style: block lists at the key's column, single quotes, no set of its own
cards:
- name: 'Old Flame'
  kind: monster
  set: base
  number: '7'
  type: FIRE
  level: 1
  atk: 1
  def: 1
  categories:
  - Beast
  text: 'Burns.'   # a comment that stays
  flavor: |
    Old.
"""


def test_a_file_in_another_style_gets_its_own_style(workspace: Workspace) -> None:
    (workspace.root / "rules/shmod/cards/hand.yaml").write_text(BLOCK_STYLE, encoding="utf-8")
    studio = Studio(workspace)
    studio.create("shmod", "rules/shmod/cards/hand.yaml", {**NEW_MONSTER, "number": "8"})
    opened = studio.open("shmod", "Old Flame")
    studio.save("shmod", "Old Flame", opened["digest"], {**opened["values"], "text": "Burns twice.",
                                                          "categories": "Beast; Spirit", "flavor": "Older."})
    assert (workspace.root / "rules/shmod/cards/hand.yaml").read_text(encoding="utf-8") == """\
# a file written by hand in another style: block lists at the key's column, single quotes, no set of its own
cards:
- name: 'Old Flame'
  kind: monster
  set: base
  number: '7'
  type: FIRE
  level: 1
  atk: 1
  def: 1
  categories:
  - Beast
  - Spirit
  text: 'Burns twice.'   # a comment that stays
  flavor: |-
    Older.
- name: 'Ash Drake'
  kind: monster
  set: base
  number: '8'
  type: FIRE
  level: 3
  atk: 4
  def: 3
  categories:
  - Dragon
  - Beast
  text: 'Flying.'
"""
