"""The incremental build keeps nothing stale: after each kind of change, ``output/`` is byte for byte what a build
from nothing makes, and the build did again only part of its work.

The workspace is a small one (a Mini-Battle of ten cards, two decks, the docs and the site) so that a build from
nothing takes seconds; every change is made, built incrementally, then compared with a clean build of the same
files. The table of changes (``CHANGES``) runs in ``test_incremental_changes.py``, a module of its own, so that
pytest-xdist can run it on one worker while this module's tests run on another (each module builds its own
workspace once).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from carddb.app.build import build
from carddb.catalogue.api import open_catalogue
from carddb.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
CARDS = ("Charmander", "Charmeleon", "Charizard", "Magby", "Magmar", "Moltres", "Squirtle", "Pidgey", "Pikachu",
         "Bulbasaur")
DECKS = ("legal-charizard-line.txt", "legal-charizard-line.dek", "illegal-copy-limit-four-charmander.txt")
#: Not outputs: the catalogue (the source of truth, kept by a clean build too), the cache of costly bundles
#: (``.carddb/cache``) and the build stamp (the status of the files, times included, when the build ended).
NOT_COMPARED = ("catalogue.db", "catalogue.db-wal", "catalogue.db-shm", "build-stamp.json")
CACHE = ".carddb/cache/"
OLD_COPIES = ".carddb/old-copies"  # the exports' old copies an incremental build keeps to refill

pytestmark = pytest.mark.slow


def small_workspace(root: Path) -> Path:
    game = root / "rules" / "minibattle"
    shutil.copytree(REPO / "rules" / "minibattle", game)
    data = yaml.safe_load((game / "cards" / "base.yaml").read_text(encoding="utf-8"))
    data["cards"] = [card for card in data["cards"] if card["name"] in CARDS]
    (game / "cards" / "base.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                                              encoding="utf-8")
    for deck in (game / "decks").iterdir():
        if deck.name not in DECKS:
            deck.unlink()
    (root / "templates").mkdir()
    shutil.copytree(REPO / "templates" / "minibattle", root / "templates" / "minibattle")
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copytree(REPO / "site", root / "site", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    if (REPO / "site" / "node_modules").is_dir():
        (root / "site" / "node_modules").symlink_to(REPO / "site" / "node_modules", target_is_directory=True)
    return root


def run_build(root: Path, site_url: str | None = None):  # type: ignore[no-untyped-def]
    workspace = Workspace(root)
    report = build(workspace, open_catalogue(str(root / "output" / "catalogue.db"), str(root)), site_url=site_url)
    assert not report.failures, report.failures
    return report


def snapshot(out: Path) -> dict[str, bytes]:
    """Every output file's bytes, and every output folder (as ``name/``): an incremental build leaves no folder that
    a clean build does not make (the site's stage is given the previous site's folders before MkDocs runs)."""
    found: dict[str, bytes] = {}
    for path in sorted(out.rglob("*")):
        relative = path.relative_to(out).as_posix()
        if path.name in NOT_COMPARED or relative.startswith((CACHE, OLD_COPIES)):
            continue
        if path.is_file():
            found[relative] = path.read_bytes()
        elif path.is_dir():
            found[f"{relative}/"] = b""
    return found


def assert_same_as_clean(root: Path, site_url: str | None = None) -> None:
    """Every output removed, the catalogue kept (it is the source of truth, not an output: its cards keep the
    order they were added in), built again: the same bytes."""
    out = root / "output"
    incremental = snapshot(out)
    for path in out.iterdir():
        if path.name not in NOT_COMPARED:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    run_build(root, site_url)
    clean = snapshot(out)
    assert sorted(incremental) == sorted(clean), "files differ: " + ", ".join(
        sorted(set(incremental) ^ set(clean))[:10])
    differing = [name for name in clean if incremental[name] != clean[name]]
    assert not differing, f"{len(differing)} files differ from a clean build, e.g. {differing[:5]}" + "".join(
        json_difference(name, incremental[name], clean[name]) for name in differing[:3])


def json_difference(name: str, incremental: bytes, clean: bytes) -> str:
    """Where a JSON file (a manifest) differs from a clean build's: the first few paths to differing values, for
    the failure's message (a file's name alone says nothing of which of its keys is stale)."""
    import json

    if not name.endswith(".json"):
        return ""
    found: list[str] = []

    def walk(path: str, a: object, b: object) -> None:
        if len(found) >= 5 or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                walk(f"{path}/{key}", a.get(key, "<absent>"), b.get(key, "<absent>"))
        else:
            found.append(f"{path}: incremental {str(a)[:200]!r}, clean {str(b)[:200]!r}")

    walk("", json.loads(incremental), json.loads(clean))
    return f"\n{name}:\n  " + "\n  ".join(found)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def without_play_table(path: Path) -> None:
    """A copy of a game.toml without its ``[play]`` table (its keys are the game's plugin's) and the pieces that read
    it, for a copy of a game under an id no plugin has."""
    kept, dropping = [], False
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("["):
            dropping = line.strip("[]\n").startswith(("play", "components"))
        if not dropping:
            kept.append(line)
    path.write_text("".join(kept), encoding="utf-8")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = small_workspace(tmp_path_factory.mktemp("incremental"))
    first = run_build(root)
    assert not first.up_to_date or first.redone  # a first build does the work
    again = run_build(root)
    assert not again.redone, again.redone  # and a second one finds everything up to date
    return root


def change_card(root: Path, name: str, **fields: object) -> None:
    """Change a card of the small workspace's card file, as a designer saving it would."""
    path = root / "rules" / "minibattle" / "cards" / ("promo.yaml" if name == "Pikachu" else "base.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for card in data["cards"]:
        if card["name"] == name:
            card.update(fields)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _cards(root: Path) -> tuple[Path, dict]:
    path = root / "rules" / "minibattle" / "cards" / "base.yaml"
    return path, yaml.safe_load(path.read_text(encoding="utf-8"))


def add_card(root: Path, card: dict) -> None:
    path, data = _cards(root)
    data["cards"].append(card)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


PONYTA = {"name": "Ponyta", "kind": "pokemon", "number": "077", "rarity": "common", "level": 12, "hp": 40, "atk": 10,
          "def": 5, "type": "Fire", "stage": "basic", "ability": "Run Away"}


def remove_card(root: Path, name: str, added_first: dict | None = None) -> None:
    """Remove the card ``name``; ``added_first``: the card as the case before this one adds it, added and built here
    when that case did not run on this workspace (``-k "card removed"`` alone)."""
    path, data = _cards(root)
    if added_first is not None and all(card["name"] != name for card in data["cards"]):
        add_card(root, dict(added_first))
        run_build(root)
        path, data = _cards(root)
    data["cards"] = [card for card in data["cards"] if card["name"] != name]
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


CHANGES = {
    "card": lambda root: change_card(root, "Charmander", ability="ATK+3 vs Grass"),
    "game.toml": lambda root: edit(root / "rules" / "minibattle" / "game.toml", 'label = "Standard"',
                                   'label = "Standard play"'),
    "template": lambda root: change_template_fill(root, "#4d6c84"),
    "icon": lambda root: edit(root / "templates" / "icons.toml", 'fill = "#7a3fb5"', 'fill = "#6a3fb5"'),
    "deck": lambda root: edit(root / "rules" / "minibattle" / "decks" / "legal-charizard-line.txt",
                              "2 Magmar", "1 Magmar\n1 Squirtle"),
    "rulebook": lambda root: append(root / "rules" / "minibattle" / "rulebook.md", "\nOne more line.\n"),
    "guide": lambda root: append(root / "docs" / "card-files.md", "\nOne more line.\n"),
    "card added": lambda root: add_card(root, dict(PONYTA)),
    "card removed": lambda root: remove_card(root, "Ponyta", added_first=PONYTA),
    "deck removed": lambda root: (root / "rules" / "minibattle" / "decks" / "legal-charizard-line.dek").unlink(),
    "field type": lambda root: edit(root / "rules" / "minibattle" / "game.toml",
                                    '[fields.ability]\ntype = "text"', '[fields.ability]\ntype = "str"'),
    "template extends": lambda root: extend_template(root),
    "extended template": lambda root: change_template_fill(root, "#3d6c84", extended=True),
    "art relative to the root": lambda root: root_art(root, (30, 90, 200)),
    "art relative to the root changed": lambda root: root_art(root, (200, 90, 30)),
    "deck rule": lambda root: edit(root / "rules" / "minibattle" / "game.toml", "cap = 200", "cap = 210"),
    "icon set": lambda root: change_icon_set(root),
    "symbol": lambda root: edit(next(path for path in (root / "templates" / "minibattle").glob("*.toml")
                                     if 'fire = "flame"' in path.read_text(encoding="utf-8")),
                                'fire = "flame"', 'fire = "campfire"'),  # pokemon.toml, or what it extends
}


def extend_template(root: Path) -> None:
    """Pokemon faces drawn from a template that extends another file, holding what the kind's file held."""
    folder = root / "templates" / "minibattle"
    if (folder / "_base.toml").is_file():
        return  # done already ("extended template" makes it too, and may run alone: pytest -k)
    (folder / "_base.toml").write_text((folder / "pokemon.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "pokemon.toml").write_text('extends = "_base.toml"\n', encoding="utf-8")


def change_template_fill(root: Path, colour: str, *, extended: bool = False) -> None:
    """The Pokemon template's fill colour changed, in whichever file holds it (``pokemon.toml``, or the file it
    extends once "template extends" ran; with ``extended``, after making it extend one)."""
    import re

    if extended:
        extend_template(root)
    folder = root / "templates" / "minibattle"
    path = folder / "_base.toml" if (folder / "_base.toml").is_file() else folder / "pokemon.toml"
    text = path.read_text(encoding="utf-8")
    found = re.search(r'fill = "#[0-9a-f]d6c[0-9a-f]{2}"', text)
    assert found and found[0] != f'fill = "{colour}"', f"no other fill to change in {path}"
    path.write_text(text.replace(found[0], f'fill = "{colour}"', 1), encoding="utf-8")


def change_icon_set(root: Path) -> None:
    """The icon set updated under the workspace: its Fire symbol (Charmander's, "flame") drawn otherwise. The
    workspace's node_modules becomes a folder of its own, linking the rest of the repository's."""
    import json

    installed = REPO / "site" / "node_modules"
    if not (installed / "@iconify-json" / "game-icons" / "icons.json").is_file():
        pytest.skip("the icon set is not installed (npm ci --prefix site)")
    modules = root / "site" / "node_modules"
    modules.unlink()
    modules.mkdir()
    for entry in installed.iterdir():
        if entry.name != "@iconify-json":
            (modules / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    folder = modules / "@iconify-json" / "game-icons"
    shutil.copytree(installed / "@iconify-json" / "game-icons", folder)
    icons = json.loads((folder / "icons.json").read_text(encoding="utf-8"))
    icons["icons"]["flame"] = icons["icons"]["fire-ring"]
    (folder / "icons.json").write_text(json.dumps(icons), encoding="utf-8")


def root_art(root: Path, colour: tuple[int, int, int]) -> None:
    """Art named relative to the workspace root (``art/...`` beside ``rules/``), not to the game's folder."""
    from PIL import Image

    art = root / "art" / "pikachu.png"
    art.parent.mkdir(exist_ok=True)
    Image.new("RGB", (900, 700), colour).save(art)
    change_card(root, "Pikachu", art="art/pikachu.png")


def test_card_size_redraws_every_face_at_the_new_size_and_explain_names_it(workspace: Path) -> None:
    from PIL import Image

    before = Image.open(workspace / "output" / "faces" / "minibattle" / "back.png").size
    edit(workspace / "rules" / "minibattle" / "game.toml", 'card_size = "poker"', 'card_size = "yugioh"')
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "11 of 11 faces"
    explained = "\n".join(report.explanation())
    assert "minibattle faces: 11 parts redone" in explained and "game.toml game.card_size changed" in explained
    assert "minibattle lackey: 1 part redone" in explained
    faces = workspace / "output" / "faces" / "minibattle"
    assert before == (744, 1039) and Image.open(faces / "back.png").size == (697, 1016)  # 59 x 86 mm at 300 DPI
    assert Image.open(workspace / "output" / "site" / "assets" / "faces" / "minibattle" / "back.png").size \
        == (697, 1016)
    assert_same_as_clean(workspace)
    edit(workspace / "rules" / "minibattle" / "game.toml", 'card_size = "yugioh"', 'card_size = "poker"')
    run_build(workspace)


def test_a_deck_rule_redraws_no_face(workspace: Path) -> None:
    edit(workspace / "rules" / "minibattle" / "game.toml", "max = 10\n", "max = 11\n")
    report = run_build(workspace)
    assert "minibattle faces" not in report.redone  # [zones] are no part of a face
    assert "minibattle decks" in report.redone and "minibattle lackey" in report.redone
    assert_same_as_clean(workspace)


def test_the_layout_engine_changed(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """carddb's own code is an input: an edited layout module (a copy of the package, the running code the same)
    redraws every face, and names the code; an edited command-line module redraws none."""
    from carddb import incremental

    package = tmp_path / "carddb"
    shutil.copytree(incremental.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(incremental, "PACKAGE", package)
    incremental.forget_code()
    run_build(workspace)
    append(package / "cli" / "build.py", "\n# an edit of the command line\n")
    incremental.forget_code()
    report = run_build(workspace)
    assert "minibattle faces" not in report.redone and "minibattle lackey" in report.redone
    append(package / "layout" / "engine.py", "\n# an edit of the layout engine\n")
    incremental.forget_code()
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "11 of 11 faces"
    assert "carddb code changed" in "\n".join(report.explanation())
    assert_same_as_clean(workspace)
    monkeypatch.undo()
    incremental.forget_code()
    run_build(workspace)


def test_a_library_version_changed(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from carddb import incremental

    real = incremental.library_versions
    monkeypatch.setattr(incremental, "library_versions", lambda: {**real(), "pillow": "99.0"})
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "11 of 11 faces" and "site" in report.redone
    assert "libraries" in "\n".join(report.explanation())
    assert_same_as_clean(workspace)
    monkeypatch.undo()
    run_build(workspace)


def test_a_hand_edited_manifest_removes_nothing_outside_output(workspace: Path, tmp_path: Path) -> None:
    """A manifest is a file anyone can edit: a part named ``../../../victim/victim`` removes no file elsewhere,
    and one nested 100,000 deep only means the faces are drawn again."""
    import json

    victim = workspace / "victim" / "victim.png"
    victim.parent.mkdir()
    victim.write_bytes(b"a user's picture")
    manifest = workspace / "output" / "faces" / "minibattle" / ".build-inputs.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["parts"]["../../../victim/victim"] = {"key": "0" * 64}
    manifest.write_text(json.dumps(data), encoding="utf-8")
    sheets = workspace / "output" / "sheets" / "minibattle" / ".build-inputs.json"
    data = json.loads(sheets.read_text(encoding="utf-8"))
    data["parts"]["gone.pdf"] = {"key": "0", "files": ["../../../victim/victim.png"]}
    sheets.write_text(json.dumps(data), encoding="utf-8")
    run_build(workspace)
    assert victim.read_bytes() == b"a user's picture"
    manifest.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "11 of 11 faces"
    assert "no earlier build" in "\n".join(report.explanation())
    assert_same_as_clean(workspace)


def test_a_removed_game_leaves_no_outputs_and_its_cards_stay(workspace: Path) -> None:
    other = workspace / "rules" / "minitwo"
    shutil.copytree(workspace / "rules" / "minibattle", other)
    edit(other / "game.toml", 'id = "minibattle"', 'id = "minitwo"')
    without_play_table(other / "game.toml")  # [play] keys are the plugin's, and minitwo has no play helpers
    shutil.copytree(workspace / "templates" / "minibattle", workspace / "templates" / "minitwo")
    run_build(workspace)
    assert (workspace / "output" / "faces" / "minitwo" / "back.png").is_file()
    shutil.rmtree(other)
    shutil.rmtree(workspace / "templates" / "minitwo")
    report = run_build(workspace)
    said = [line for line in report.lines if "minitwo" in line]
    assert said == ["minitwo: rules/minitwo is gone, so its outputs were removed; its 10 cards stay in the catalogue"]
    for kind in ("faces", "sheets", "lackey", "apprentice", "tts", "cockatrice"):
        assert not (workspace / "output" / kind / "minitwo").exists(), kind
    assert_same_as_clean(workspace)
    assert not [line for line in run_build(workspace).lines if "minitwo" in line]  # said once


def test_one_card_redoes_one_face_and_only_the_pages_that_show_it(workspace: Path) -> None:
    change_card(workspace, "Bulbasaur", ability="Psn Atk: 25%")
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "1 of 11 faces"
    built, total = map(int, report.redone["site"].split(" pages")[0].split(" of "))
    assert 0 < built <= 4 < total  # the card's page, the gallery, the deck builder's data ... not the rulebook
    assert "minibattle decks" in report.redone and "minibattle apprentice" in report.redone
    assert report.redone["minibattle lackey"] == "1 of 11 images converted"
    assert_same_as_clean(workspace)


def test_the_kit_takes_its_decks_from_the_sheets_printed_beside_the_site(workspace: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A card of a sample deck changed: the kit is made again on both papers, but prints no deck itself; the
    proxy sheets' step, run beside the site, printed the deck on A4 and on Letter into the build's cache."""
    from carddb.kit import make

    printed: list[str] = []
    real = make._print_deck
    monkeypatch.setattr(make, "_print_deck", lambda *args: printed.append(args[4].paper) or real(*args))
    change_card(workspace, "Charmander", hp=60)
    report = run_build(workspace)
    assert report.redone["minibattle kit"] == "2 of 2 kits"
    assert printed == []
    monkeypatch.undo()
    assert_same_as_clean(workspace)


def test_the_compression_setting_is_an_input_of_the_site(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``CARDDB_QUICK_COMPRESSION`` (set for the whole suite) changed, and nothing else: the build does not take
    the last build's stamp for its answer, and the site's compressed copies are made again, as a clean build of
    that setting makes them."""
    from carddb.site.precompress import QUICK_ENV

    monkeypatch.setenv(QUICK_ENV, "0")
    report = run_build(workspace)
    assert "site" in report.redone, report.incremental_summary()
    assert_same_as_clean(workspace)
    monkeypatch.setenv(QUICK_ENV, "1")
    assert "site" in run_build(workspace).redone


def test_an_added_or_removed_card_builds_its_page_and_the_pages_that_list_it(workspace: Path) -> None:
    add_card(workspace, {"name": "Rapidash", "kind": "pokemon", "number": "078", "rarity": "common", "level": 40,
                         "hp": 70, "atk": 30, "def": 10, "type": "Fire", "stage": "basic"})
    report = run_build(workspace)
    built, total = map(int, report.redone["site"].split(" pages")[0].split(" of "))
    assert built <= 10 < total, report.redone["site"]  # not every page: no page depends on the list of files
    assert report.reasons["site"]["games/minibattle/cards/rapidash/index.html"] == ["a new part"]
    assert "games/minibattle/cards/index.html" in report.reasons["site"]  # the gallery lists it
    assert "games/minibattle/rulebook/index.html" not in report.reasons["site"]
    assert_same_as_clean(workspace)
    remove_card(workspace, "Rapidash")
    report = run_build(workspace)
    built, total = map(int, report.redone["site"].split(" pages")[0].split(" of "))
    assert built <= 10 < total, report.redone["site"]
    assert "games/minibattle/cards/index.html" in report.reasons["site"]
    assert_same_as_clean(workspace)


def test_a_page_linking_to_a_removed_card_page_is_built_again(workspace: Path) -> None:
    """A hand-written guide links to a card's page: the page is kept while the link finds the same page, and
    built again (failing, as a clean build does: the site is strict) once the card is gone."""
    guide = workspace / "docs" / "card-files.md"
    before = guide.read_text(encoding="utf-8")
    add_card(workspace, {"name": "Vulpix", "kind": "pokemon", "number": "079", "rarity": "common", "level": 11,
                         "hp": 40, "atk": 10, "def": 10, "type": "Fire", "stage": "basic"})
    append(guide, "\nSee [Vulpix](../games/minibattle/cards/vulpix.md).\n")
    run_build(workspace)
    change_card(workspace, "Bulbasaur", ability="Psn Atk: 30%")
    assert "guide/card-files/index.html" not in run_build(workspace).reasons.get("site", {})
    remove_card(workspace, "Vulpix")
    report = build(Workspace(workspace), open_catalogue(str(workspace / "output" / "catalogue.db"),
                                                        str(workspace)))
    assert any("vulpix" in failure for failure in report.failures), report.failures
    guide.write_text(before, encoding="utf-8")
    run_build(workspace)
    assert_same_as_clean(workspace)


def test_a_page_missing_from_the_previous_site_is_built_again(workspace: Path) -> None:
    """A kept page is taken from the previous site only when its file is there: one deleted by hand (or by a disk
    tool) is built again by the next build that rebuilds the site, however little changed."""
    run_build(workspace)
    site = workspace / "output" / "site"
    gone = site / "games" / "minibattle" / "cards" / "pidgey" / "index.html"
    gone.unlink()
    change_card(workspace, "Bulbasaur", ability="Missing Page")
    report = run_build(workspace)
    assert report.reasons["site"]["games/minibattle/cards/pidgey/index.html"] == ["its output file is missing"]
    assert gone.is_file()
    assert_same_as_clean(workspace)


def test_an_art_file_added_changed_and_deleted(workspace: Path) -> None:
    from PIL import Image

    art = workspace / "rules" / "minibattle" / "art" / "bulbasaur.png"
    art.parent.mkdir(exist_ok=True)
    Image.new("RGB", (1200, 900), (40, 160, 60)).save(art)
    change_card(workspace, "Bulbasaur", art="art/bulbasaur.png")
    run_build(workspace)
    Image.new("RGB", (1200, 900), (200, 40, 60)).save(art)
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "1 of 11 faces"
    assert_same_as_clean(workspace)
    art.unlink()  # the face is drawn with a placeholder and says so
    report = run_build(workspace)
    assert any("bulbasaur.png" in warning for warning in report.warnings)
    assert_same_as_clean(workspace)


def test_a_font_changed(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from carddb.layout import fonts

    regular = tmp_path / "Regular.ttf"
    shutil.copy(fonts.BUILTIN_STYLES["regular"][0], regular)
    styles = {**fonts.BUILTIN_STYLES, "regular": (regular, *fonts.BUILTIN_STYLES["regular"][1:])}
    monkeypatch.setattr(fonts, "BUILTIN_STYLES", styles)
    run_build(workspace)
    shutil.copy(fonts.BUILTIN_STYLES["bold"][0], regular)  # other letters in the same file
    # in the same process, as a long `build --watch` or `site serve` builds again: what it read of the font before
    # (its metrics, its registrations with the painters) is forgotten, not drawn from
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "11 of 11 faces"
    assert_same_as_clean(workspace)


def test_a_font_saved_over_in_a_long_process_is_read_again(workspace: Path, tmp_path: Path) -> None:
    """As a designer's `build --watch` or `site serve` lives: one card edited (its face laid out and drawn in this
    process, which reads the game's own font file), then a new font saved over that file. Every face is drawn again
    from the new file, here and in the drawing processes forked from here, as a clean build draws it."""
    from carddb.layout import fonts

    styles = workspace / "templates" / "minibattle" / "fonts.toml"
    kept = styles.read_text(encoding="utf-8")
    display = workspace / "fonts" / "Display.ttf"
    display.parent.mkdir(exist_ok=True)
    shutil.copy(fonts.BUILTIN_STYLES["regular"][0], display)
    styles.write_text('display = "fonts/Display.ttf"\n', encoding="utf-8")
    try:
        run_build(workspace)
        change_card(workspace, "Bulbasaur", ability="Psn Atk: 35%")
        assert run_build(workspace).redone["minibattle faces"] == "1 of 11 faces"  # laid out in this process
        assert str(display.resolve()) in fonts._READ_AS  # which read the font then
        shutil.copy(fonts.BUILTIN_STYLES["bold"][0], display)  # a new font saved over it: other letters
        assert run_build(workspace).redone["minibattle faces"] == "11 of 11 faces"
        # the clean build in a process of its own: one in this process would read what this one remembers
        clean = tmp_path / "clean"
        for name in ("rules", "templates", "docs", "site", "fonts"):
            shutil.copytree(workspace / name, clean / name, symlinks=True)
        built = subprocess.run([sys.executable, "-m", "carddb", "--root", str(clean), "build", "--skip", "site",
                                "--skip", "kit"], capture_output=True, text=True, check=False)
        assert built.returncode == 0, built.stderr
        faces = workspace / "output" / "faces" / "minibattle"
        drawn = sorted(path.name for path in faces.glob("*.png"))
        assert len(drawn) == 11 and drawn == sorted(path.name for path in (clean / "output" / "faces" /
                                                                           "minibattle").glob("*.png"))
        stale = [name for name in drawn if (faces / name).read_bytes() !=
                 (clean / "output" / "faces" / "minibattle" / name).read_bytes()]
        assert not stale, f"drawn with the font as it was before it was saved over: {stale}"
    finally:
        styles.write_text(kept, encoding="utf-8")
        display.unlink()
        run_build(workspace)


def test_a_new_carddb_version_makes_everything_again(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import carddb

    monkeypatch.setattr(carddb, "__version__", carddb.__version__ + "+next")
    report = run_build(workspace)
    assert "minibattle sheets" in report.redone and "site" in report.redone
    assert_same_as_clean(workspace)


def test_the_build_cache_keeps_what_the_last_build_used(tmp_path: Path) -> None:
    from carddb.incremental import digest, remember_in, remembered

    old, kept, new = digest("old"), digest("kept"), digest("new")
    (tmp_path / old).write_bytes(b"a bundle no build asks for any more")
    (tmp_path / kept).write_bytes(b"kept")
    (tmp_path / "notes.txt").write_text("not a cache entry", encoding="utf-8")
    with remember_in(tmp_path):
        assert remembered(kept, lambda: b"made again") == b"kept"  # read from the folder
        assert remembered(new, lambda: b"new") == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([kept, new, "notes.txt"])
    with pytest.raises(RuntimeError), remember_in(tmp_path):  # a failed build removes nothing
        raise RuntimeError("the build failed")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([kept, new, "notes.txt"])


def test_the_site_keys_the_exports_images_by_their_manifests_not_their_bytes(workspace: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Each export links its kept images anew (a new status), so the site read every image of every client in
    every build to key its copies of them; it takes the key their export's manifest gives them instead."""
    from carddb import incremental

    read: list[str] = []
    real = incremental._digest_of
    monkeypatch.setattr(incremental, "_digest_of", lambda path, *status: read.append(path) or real(path, *status))
    change_card(workspace, "Bulbasaur", ability="Overgrow")
    assert "site" in run_build(workspace).redone
    keyed = set()  # the exported files whose manifest gives the key they were made from
    for client in ("lackey", "cockatrice", "tts"):
        folder = workspace / "output" / client / "minibattle"
        keyed |= {str(folder / name) for name in incremental.Manifest.read(folder / incremental.MANIFEST).parts}
    assert len(keyed) > 2 * len(CARDS)
    assert not keyed & set(read), sorted(keyed & set(read))[:3]
    assert_same_as_clean(workspace)

def test_the_site_links_the_exports_files_and_copies_the_faces(workspace: Path) -> None:
    """An exported picture and the LackeyCCG plugin's zip are put on the site as hard links to the files carddb made
    in output/ (which it only ever replaces whole): a 5,000-card game copied 10,000 images and a 200 MB zip in a
    build that added one card. A face is copied: the steps find a face unchanged by its status, which a link
    changes (its change time), so linked faces would all be read again at the next build. The workspace's own files
    (hand-written pages and scripts, which an editor may write into) are copied."""
    out = workspace / "output"
    site = out / "site"
    faces = sorted((out / "faces" / "minibattle").glob("*.png"))
    change_card(workspace, "Bulbasaur", ability="Chlorophyll")
    assert "site" in run_build(workspace).redone
    before = {face.name: face.stat().st_ctime_ns for face in faces if face.stem != "bulbasaur"}
    change_card(workspace, "Bulbasaur", ability="Overgrow")
    assert "site" in run_build(workspace).redone
    after = {face.name: face.stat().st_ctime_ns for face in faces if face.stem != "bulbasaur"}
    assert after == before, "a build changed the status of faces it did not draw"
    face = out / "faces" / "minibattle" / "bulbasaur.png"
    assert not os.path.samefile(face, site / "assets" / "faces" / "minibattle" / face.name)
    zipped = next((site / "clients" / "minibattle" / "lackey").glob("*.zip"))
    assert zipped.stat().st_nlink == 2, "the site's zip is the cache's file, linked"
    pictures = sorted((out / "cockatrice" / "minibattle" / "pics").rglob("*.jpg"))
    on_site = {path.name: path for path in (site / "clients" / "minibattle" / "cockatrice" / "pics").rglob("*.jpg")}
    linked = [picture for picture in pictures if picture.name in on_site
              and os.path.samefile(picture, on_site[picture.name])]
    assert linked, "no exported picture on the site is the export's file"
    hand_written = next(path for path in (workspace / "site" / "docs").rglob("*.js"))
    assert not os.path.samefile(hand_written, site / hand_written.relative_to(workspace / "site" / "docs"))
    assert_same_as_clean(workspace)


def test_nothing_changed_opens_no_catalogue_and_says_what_the_last_build_said(workspace: Path) -> None:
    first = run_build(workspace)
    opened = []

    def catalogue():  # type: ignore[no-untyped-def]
        opened.append(True)
        return open_catalogue(str(workspace / "output" / "catalogue.db"), str(workspace))

    again = build(Workspace(workspace), catalogue, db=str(workspace / "output" / "catalogue.db"))
    assert not opened and not again.redone and not again.failures
    assert again.lines[:-2] == first.lines[:-2]  # each step's lines; then what was redone, and how long it took
    assert again.lines[-2] == f"Everything was up to date ({len(first.redone) + len(first.up_to_date)} steps)"
    assert again.warnings == first.warnings


def test_the_old_copies_are_gone_when_the_build_returns_and_the_stamp_leaves_leftovers_out(workspace: Path) -> None:
    """The old copy of a replaced folder (the site's, an export's) is deleted in the background while the stamp is
    made, until the build returns: the stamp leaves carddb's leftovers out, so it is the stamp of the outputs that a
    build with nothing to do finds; and nothing is left behind once the build has returned."""
    from carddb.app.build_stamp import inputs_digest, stamp_digest
    from carddb.files.replacing import is_leftover

    change_card(workspace, "Bulbasaur", ability="Leaf Guard")
    assert "site" in run_build(workspace).redone
    assert not [path for path in (workspace / "output").rglob("*") if is_leftover(path.name)]
    assert not run_build(workspace).redone  # the stamp made while the old copies went finds nothing to do
    out = workspace / "output"
    stamp = lambda: stamp_digest(out, inputs_digest(workspace.resolve(), out / "catalogue.db", []))  # noqa: E731
    before = stamp()
    leftover = out / "lackey" / ".minibattle.carddb-new-999999-0123abcd"  # being deleted, or a killed run's
    (leftover / "images").mkdir(parents=True)
    (leftover / "images" / "card.jpg").write_bytes(b"old")
    try:
        assert stamp() == before
        (out / "lackey" / "minibattle" / "stray.txt").write_text("an output folder changed", encoding="utf-8")
        assert stamp() != before  # what is not a leftover is still seen
    finally:
        shutil.rmtree(leftover, ignore_errors=True)
        (out / "lackey" / "minibattle" / "stray.txt").unlink()


def test_the_outputs_are_walked_before_a_build_only_when_its_inputs_are_unchanged(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a build has anything to do is asked of the inputs first: after an edit (a build runs anyway) the
    outputs, 55,000 files in a game of 5,000 cards, are walked once, for the new stamp, not twice."""
    import carddb.app.build_stamp as build_stamp

    out = (workspace / "output").resolve()
    walked: list[Path] = []
    real = build_stamp._tree_status

    def walking(root: Path, *args: object) -> object:
        walked.append(Path(root).resolve())
        return real(root, *args)

    monkeypatch.setattr(build_stamp, "_tree_status", walking)
    change_card(workspace, "Bulbasaur", ability="Chlorophyll")
    assert "site" in run_build(workspace).redone
    assert walked.count(out) == 1  # after the steps, for the stamp
    walked.clear()
    assert not run_build(workspace).redone
    assert walked.count(out) == 1  # the inputs as the stamp says: the outputs looked at, and found as it left them
    (out / "lackey" / "minibattle" / "stray.txt").write_text("an output changed by hand", encoding="utf-8")
    try:
        assert run_build(workspace).redone  # and an output changed is still seen
    finally:
        (out / "lackey" / "minibattle" / "stray.txt").unlink(missing_ok=True)


def test_an_edit_that_keeps_size_and_time_is_still_seen(workspace: Path) -> None:
    """The stamp reads the change time, which no editor or ``touch`` sets back: an edit of the same size, its
    modification time restored, still redraws the face."""
    import os

    run_build(workspace)
    path = workspace / "rules" / "minibattle" / "cards" / "base.yaml"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert "ATK+3 vs Grass" in text
    path.write_text(text.replace("ATK+3 vs Grass", "ATK+4 vs Grass", 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    report = run_build(workspace)
    assert report.redone["minibattle faces"].startswith("1 of")
    assert_same_as_clean(workspace)


def test_an_output_removed_or_the_catalogue_written_elsewhere_is_seen(workspace: Path) -> None:
    run_build(workspace)
    (workspace / "output" / "faces" / "minibattle" / "back.png").unlink()
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "1 of 11 faces"
    other = open_catalogue(str(workspace / "output" / "catalogue.db"), str(workspace))  # another process's write
    with other.transaction() as session:
        from sqlalchemy import text

        session.execute(text("UPDATE card SET text = text || ' (errata)' WHERE name = 'Squirtle'"))
    other.close()
    report = run_build(workspace)
    assert report.redone["minibattle faces"] == "1 of 11 faces", report.lines  # Squirtle's, with its errata


def test_carddbs_code_digest_does_not_depend_on_the_folder_it_runs_in(tmp_path: Path) -> None:
    """The code key reads carddb's files and the game plugins' packages, never the working folder (a build runs in
    its workspace, whose output/ changes from one build to the next)."""
    import os
    import subprocess
    import sys

    probe = "from carddb.incremental import code_digest; print(code_digest())"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    first = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120)
    (tmp_path / "new-output.txt").write_text("made by a build", encoding="utf-8")
    second = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout


def test_carddbs_code_digest_leaves_out_its_bytecode(tmp_path: Path) -> None:
    """The package's own ``__pycache__`` (written by whichever run compiles a changed module first, or by none
    where bytecode is not written) is no source: a build that writes it does not make everything again next time."""
    from carddb.incremental import _code_digest

    package = tmp_path / "carddb"
    (package / "__pycache__").mkdir(parents=True)
    (package / "errors.py").write_text("X = 1\n", encoding="utf-8")
    before = _code_digest("1", None, str(package), "{}")
    (package / "__pycache__" / "errors.cpython-311.pyc").write_bytes(b"compiled")
    _code_digest.cache_clear()
    assert _code_digest("1", None, str(package), "{}") == before
    (package / "errors.py").write_text("X = 2\n", encoding="utf-8")
    _code_digest.cache_clear()
    assert _code_digest("1", None, str(package), "{}") != before


def test_a_builds_file_digests_are_kept_by_status_and_a_write_is_seen(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The next build takes a file's digest from the last one while its status is the same, and reads the file again
    once anything wrote it, even with its size and modification time kept."""
    import os

    from carddb import incremental
    from carddb.incremental import _digest_of, file_digest, remember_in

    monkeypatch.setattr(incremental._FileDigests, "RECENT_NS", 0)  # a file's change time cannot be set back
    card = tmp_path / "face.png"
    card.write_bytes(b"first")
    old = (card.stat().st_atime_ns, card.stat().st_mtime_ns - 10_000_000_000)
    os.utime(card, ns=old)
    changed = card.stat().st_ctime_ns
    digests = tmp_path / "cache" / "file-digests.json"
    with remember_in(tmp_path / "cache", digests=digests):
        first = file_digest(card)
    assert digests.is_file() and str(card) in digests.read_text(encoding="utf-8")
    _digest_of.cache_clear()
    with remember_in(tmp_path / "cache", digests=digests):
        assert file_digest(card) == first
    while card.stat().st_ctime_ns == changed:  # the same size and, set back, the same modification time: only
        card.write_bytes(b"other")            # its change time tells (a coarse clock may need a second write)
        os.utime(card, ns=old)
    _digest_of.cache_clear()
    with remember_in(tmp_path / "cache", digests=digests):
        assert file_digest(card) != first


def test_a_card_file_saved_unchanged_keeps_the_sites_and_the_sheets_cache(workspace: Path) -> None:
    """A card file saved as it was (every step runs, every output is kept) keeps in the build's cache what the site,
    the proxy PDFs and the Tabletop Simulator export were made with (the site's Python library and printing bundle,
    each face's deflated drawing, each face resized to a sheet's cell), so the next real change finds them instead
    of making them again."""
    from carddb.incremental import MANIFEST, Manifest, _keys_of_part

    run_build(workspace)
    cache = workspace / "output" / CACHE
    site_inputs = Manifest.read(workspace / "output" / "site" / MANIFEST).inputs
    sheets = Manifest.read(workspace / "output" / "sheets" / "minibattle" / MANIFEST)
    notes = [_keys_of_part(site_inputs), *(_keys_of_part(part["key"]) for part in sheets.parts.values())]
    noted = {key for note in notes for key in (cache / note).read_text(encoding="ascii").split()}
    assert len(noted) > len(notes)  # the site's bundles, the PDFs' deflated faces
    cells = {entry.name for entry in cache.iterdir() if entry.suffix == ".rgb"}
    assert cells  # the Tabletop Simulator export's resized faces
    path = workspace / "rules" / "minibattle" / "cards" / "base.yaml"
    path.write_bytes(path.read_bytes())
    report = run_build(workspace)
    assert report.redone == {}  # every step ran and kept its outputs
    assert sorted(key for key in noted | cells if not (cache / key).is_file()) == []


def test_the_exports_and_the_site_refill_their_old_copies_and_still_equal_a_clean_build(workspace: Path) -> None:
    """Each export and the site are built into the copy the build before replaced (kept in ``.carddb/old-copies``),
    four builds in a row: a card edited, a card added, the edit undone (the old copy then holds that card's page and
    face as they were two builds ago: other files, which go), the card removed (its page's folder goes). An image no
    build changed stays the same file throughout (never written again), and the end equals a clean build."""
    run_build(workspace)
    out = workspace / "output"
    _, data = _cards(workspace)
    ability = next(card["ability"] for card in data["cards"] if card["name"] == "Bulbasaur")
    image = next(path for path in (out / "lackey" / "minibattle").rglob("*.jpg") if "charmander" in path.name.lower())
    inode = image.stat().st_ino
    growlithe = {"name": "Growlithe", "kind": "pokemon", "number": "058", "rarity": "common", "level": 15, "hp": 50,
                 "atk": 10, "def": 5, "type": "Fire", "stage": "basic"}
    for change in (lambda: change_card(workspace, "Bulbasaur", ability="Refilled: 30%"),
                   lambda: add_card(workspace, growlithe),
                   lambda: change_card(workspace, "Bulbasaur", ability=ability),
                   lambda: remove_card(workspace, "Growlithe")):
        change()
        report = run_build(workspace)
        assert "minibattle lackey" in report.redone and "site" in report.redone, report.redone
        assert len(list((out / ".carddb" / "old-copies").iterdir())) >= 5  # four exports and the site
        assert image.stat().st_ino == inode
    assert not (out / "site" / "games" / "minibattle" / "cards" / "growlithe").exists()
    assert_same_as_clean(workspace)
