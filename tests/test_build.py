"""`carddb build`, the main job, as a user runs it on a workspace: everything lands in output/."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from carddb.catalogue.api import open_catalogue

# A whole game built, every step (11 s): `make test` runs it, `make test-fast` not.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    from typer.testing import CliRunner

    from carddb.cli.main import app

    root = tmp_path_factory.mktemp("workspace")
    shutil.copytree(REPO / "rules", root / "rules")
    shutil.copytree(REPO / "templates", root / "templates")
    toml = root / "rules" / "minibattle" / "game.toml"  # a game that declares where its plugin is hosted
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        '[lackey]\n', '[lackey]\nbase_url = "https://example.org/minibattle"\n', 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["--root", str(root), "--db", str(root / "output" / "catalogue.db"),
                                      "build", "--game", "minibattle", "--skip", "site"])
    return root, result


def test_build_reports_each_step_and_succeeds(built) -> None:
    root, result = built
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "minibattle: loaded 67 cards in 2 sets (base, promo): 67 new"
    assert lines[1].startswith("minibattle: checked 13 sample decks (")
    assert any(line.startswith("minibattle: faces in ") and "68 drawn" in line for line in lines)
    assert lines[-1].startswith(f"Built 1 game into {root / 'output'} in ")


def test_build_outputs_can_be_read_back(built) -> None:
    root, _ = built
    out = root / "output"
    assert len(open_catalogue(str(out / "catalogue.db")).cards("minibattle")) == 67
    assert len(list((out / "faces" / "minibattle").glob("*.png"))) == 68  # 67 cards and the back
    sheets = sorted(p.name for p in (out / "sheets" / "minibattle").glob("*.pdf"))
    assert {"minibattle-all-cards-fronts.pdf", "minibattle-all-cards-duplex-long.pdf"} <= set(sheets)
    assert all(not s.startswith("illegal-") for s in sheets)
    assert all(p.read_bytes().startswith(b"%PDF-") for p in (out / "sheets" / "minibattle").glob("*.pdf"))
    plugin = out / "lackey" / "minibattle" / "PokemonMiniBattle"
    assert (plugin / "plugininfo.txt").is_file()
    header = (plugin / "sets" / "base.txt").read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert header[:3] == ["Name", "Set", "ImageFile"]
    with zipfile.ZipFile(out / "lackey" / "minibattle" / "PokemonMiniBattle.zip") as archive:
        assert "PokemonMiniBattle/plugininfo.txt" in archive.namelist()
    assert (out / "apprentice" / "minibattle" / "Sets" / "cardinfo.dat").stat().st_size > 1000


def test_build_again_reuses_every_face(built) -> None:
    from typer.testing import CliRunner

    from carddb.cli.main import app

    root, _ = built
    result = CliRunner().invoke(app, ["--root", str(root), "--db", str(root / "output" / "catalogue.db"),
                                      "build", "--game", "minibattle", "--skip", "site", "--skip", "sheets",
                                      "--skip", "lackey", "--skip", "apprentice"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "minibattle: loaded 67 cards in 2 sets (base, promo): nothing changed"
    assert "0 drawn, 68 reused" in result.stdout


def test_build_fails_when_a_sample_deck_breaks_its_promise(built, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from carddb.cli.main import app

    root, _ = built
    liar = root / "rules" / "minibattle" / "decks" / "legal-liar.txt"
    liar.write_text("# expect: legal\n11 Pikachu\n", encoding="utf-8")
    # illegal as promised, but not for the promised reason: the build says which codes differ
    wrong_reason = root / "rules" / "minibattle" / "decks" / "illegal-copy-limit-liar.txt"
    wrong_reason.write_text("# expect: illegal; errors: copy-limit\n1 Pikachu\n", encoding="utf-8")
    try:
        # the decks checked alone: every step after them skipped (they read no verdict, and stay as built)
        skips = [arg for step in ("faces", "sheets", "lackey", "apprentice", "tts", "cockatrice", "kit", "site")
                 for arg in ("--skip", step)]
        result = CliRunner().invoke(app, ["--root", str(root), "--db", str(tmp_path / "c.db"), "build",
                                          "--game", "minibattle", *skips])
    finally:
        liar.unlink()
        wrong_reason.unlink()
    assert result.exit_code == 1
    assert ("Error: minibattle: sample deck legal-liar.txt does not keep its promise: it is illegal, not legal; "
            "errors found but not promised: ") in result.stderr
    said = next(line for line in result.stderr.splitlines() if "illegal-copy-limit-liar.txt" in line)
    assert said.startswith("Error: minibattle: sample deck illegal-copy-limit-liar.txt does not keep its promise: "
                           "errors promised but not found: copy-limit; errors found but not promised: ")


def test_unknown_game_and_step(cli) -> None:
    assert cli("build", "--game", "zelda").exit_code == 2
    result = cli("build", "--skip", "coffee")
    assert result.exit_code == 2 and "unknown build step 'coffee'" in result.stderr


def test_lackey_card_data_imports_back(built, tmp_path: Path, cli) -> None:
    root, _ = built
    out = root / "output"
    db = str(tmp_path / "import.db")
    source = open_catalogue(str(out / "catalogue.db"))
    target = open_catalogue(db)
    target.save_game(source.game("minibattle"), (root / "rules/minibattle/game.toml").read_text())
    data = out / "lackey" / "minibattle" / "PokemonMiniBattle" / "sets" / "base.txt"
    result = cli("cards", "import", str(data), "--game", "minibattle", db=db)
    assert result.exit_code == 0, result.stderr
    original = {c.name: c for c in source.cards("minibattle", "base")}
    imported = {c.name: c for c in target.cards("minibattle")}
    assert imported.keys() == original.keys()
    for name, card in imported.items():
        assert card.fields == original[name].fields, name
        assert json.dumps(card.kind) == json.dumps(original[name].kind)


def test_build_writes_the_online_table_exports_and_a_hostable_plugin(built) -> None:
    root, result = built
    out = root / "output"
    plugin = out / "lackey" / "minibattle" / "PokemonMiniBattle"
    assert "https://example.org/minibattle/sets/base.txt" in (plugin / "updatelist.txt").read_text(encoding="utf-8")
    assert "<versionurl>https://example.org/minibattle/version.txt</versionurl>" in \
        (plugin / "version.txt").read_text(encoding="utf-8")
    tts = out / "tts" / "minibattle" / "PokemonMiniBattle"
    assert (tts / "every-card-base.json").is_file() and (tts / "every-card-base.png").is_file()
    assert json.loads((tts / "legal-pikachu-line.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert (out / "cockatrice" / "minibattle" / "customsets" / "carddb-minibattle.xml").is_file()
    assert len(list((out / "cockatrice" / "minibattle" / "decks").glob("*.cod"))) == 5
    lines = result.stdout.splitlines()
    assert any(line.startswith("minibattle: Tabletop Simulator saved objects in ") for line in lines)
    assert any(line.startswith("minibattle: Cockatrice card database in ") for line in lines)


def test_build_makes_the_print_and_play_kit_on_both_papers(built) -> None:
    root, result = built
    kits = root / "output" / "kit" / "minibattle"
    for paper, width in (("a4", 210.0), ("letter", 215.9)):
        reader = PdfReader(kits / paper / "minibattle-kit.pdf")
        assert round(float(reader.pages[0].mediabox.width) * 25.4 / 72, 1) == width
        assert (kits / paper / "minibattle-tuckbox.pdf").is_file()
    assert f"minibattle: print-and-play kits in {kits} (A4, Letter)" in result.stdout.splitlines()
