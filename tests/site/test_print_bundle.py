"""The printing engine the site ships, run by a bare CPython that sees nothing but the bundle (no site-packages,
so no Pillow and no installed carddb): it prints a deck to a PDF that passed its own geometry check."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from typer.testing import CliRunner

from carddb.catalogue.api import Catalogue
from carddb.cli.main import app
from carddb.core.browser import builder_deck, builder_read_json
from carddb.core.cards.card import Card
from carddb.core.decks.write import write_text
from carddb.site.builder_page import builder_section
from carddb.site.bundle import rules_zip
from carddb.site.print_bundle import print_zip

REPO = Path(__file__).resolve().parents[2]
MM = 25.4 / 72

RUN = """
import json, sys
sys.path[:0] = [sys.argv[1]]
for name in ("PIL", "reportlab", "jinja2", "carddb"):
    __import__(name)
    assert sys.modules[name].__file__.startswith(sys.argv[1]), (name, sys.modules[name].__file__)
from carddb.site.browser_print import print_deck_json
args = json.load(open(sys.argv[2]))
print(print_deck_json(*args["positional"], workspace_root=sys.argv[1] + "/workspace", out=sys.argv[3], name="test"))
"""


def test_the_bundle_prints_a_deck_on_its_own(tmp_path: Path, catalogue: Catalogue) -> None:
    game = catalogue.game("minibattle")
    cards = catalogue.cards("minibattle")
    cards_json = json.dumps([Card.to_dict(c) for c in cards])
    toml = (REPO / "rules" / "minibattle" / "game.toml").read_text(encoding="utf-8")
    deck = (REPO / "rules" / "minibattle" / "decks" / "legal-charizard-line.txt").read_text(encoding="utf-8")
    entries = json.loads(builder_read_json(toml, cards_json, deck, "legal-charizard-line.txt"))["entries"]
    folder = tmp_path / "engine"
    zipfile.ZipFile(io.BytesIO(rules_zip(REPO))).extractall(folder)
    zipfile.ZipFile(io.BytesIO(print_zip(REPO, REPO, ["minibattle"]))).extractall(folder)
    args = tmp_path / "args.json"
    args.write_text(json.dumps({"positional": [toml, cards_json, json.dumps(entries),
                                               json.dumps({"paper": "a4", "layout": "fronts", "bleed": 3})]}))
    out = tmp_path / "deck.pdf"
    run = subprocess.run([sys.executable, "-I", "-S", "-c", RUN, str(folder), str(args), str(out)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report.get("error") is None, report
    assert report["cards"] == 10 and "checked: page sizes" in report["summary"]
    assert "test.pdf" in report["summary"] and str(out) not in report["summary"]
    width, height = game.card_size_mm
    with pdfplumber.open(out) as pdf:
        sizes = [(round(r["width"] * MM, 1), round(r["height"] * MM, 1)) for r in pdf.pages[0].rects]
    assert sizes.count((width + 6, height + 6)) >= 1  # a card at its size with 3 mm of bleed a side


def panel_defaults(game: Any) -> dict[str, Any]:
    """What the site's print panel sends when nothing in it is touched, read from its HTML as builder.js reads
    the fields (an empty number field is sent as null)."""
    html = "".join(builder_section(game))
    panel = html[html.index("data-print>"):]

    def selected(name: str) -> str:
        select = panel[panel.index(f'<select name="{name}">'):]
        select = select[:select.index("</select>")]
        found = re.search(r'<option value="([^"]*)" selected>', select)
        return found[1] if found else re.search(r'<option value="([^"]*)"', select)[1]

    def number(name: str) -> float | None:
        value = re.search(rf'<input type="number" name="{name}"[^>]* value="([^"]*)"', panel)[1]
        return float(value) if value else None

    marks = re.search(r'<input type="checkbox" name="marks"([^>]*)>', panel)[1]
    return {"paper": selected("paper"), "card": selected("card") or None, "layout": selected("layout"),
            "bleed": number("bleed"), "gutter": number("gutter"), "marks": "checked" in marks}


@pytest.mark.parametrize("game_id", ["shmod", "ssbm"])
def test_the_untouched_panel_prints_the_bytes_carddb_print_writes(tmp_path: Path, catalogue: Catalogue,
                                                                    loaded_db: str, game_id: str) -> None:
    """One set of defaults: the same deck, the panel left as it opens and `carddb print DECK` without options."""
    game = catalogue.game(game_id)
    cards_json = json.dumps([Card.to_dict(c) for c in catalogue.cards(game_id)])
    toml = (REPO / "rules" / game_id / "game.toml").read_text(encoding="utf-8")
    sample = sorted((REPO / "rules" / game_id / "decks").glob("legal-*.txt"))[0]
    read = builder_read_json(toml, cards_json, sample.read_text(encoding="utf-8"), sample.name)
    entries = json.loads(read)["entries"]
    options = panel_defaults(game)
    assert options["bleed"] is None  # the automatic bleed, as on the command line (it used to be 0 here)
    folder = tmp_path / "engine"
    zipfile.ZipFile(io.BytesIO(rules_zip(REPO))).extractall(folder)
    zipfile.ZipFile(io.BytesIO(print_zip(REPO, REPO, [game_id]))).extractall(folder)
    args = tmp_path / "args.json"
    args.write_text(json.dumps({"positional": [toml, cards_json, json.dumps(entries), json.dumps(options)]}))
    in_browser = tmp_path / "browser.pdf"
    run = subprocess.run([sys.executable, "-I", "-S", "-c", RUN, str(folder), str(args), str(in_browser)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout).get("error") is None, run.stdout
    # The deck as the builder downloads it ("deck list (.txt)"), named as the browser names its PDF ("test").
    _game, _index, deck = builder_deck(toml, cards_json, json.dumps(entries), "test")
    deck_file = tmp_path / "test.txt"
    deck_file.write_text(write_text(deck, game), encoding="utf-8")
    on_cli = tmp_path / "cli.pdf"
    result = CliRunner().invoke(app, ["--root", str(REPO), "--db", loaded_db, "print", str(deck_file), "--game",
                                      game_id, "--out", str(on_cli)], catch_exceptions=False)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert in_browser.read_bytes() == on_cli.read_bytes()
    with pdfplumber.open(on_cli) as pdf:  # and they are the sheets with the automatic bleed and every mark
        assert len(pdf.pages) >= 2


def test_the_rules_zip_is_made_once_for_the_same_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every site build asks for the rules engine's zip: it is zipped once for the same code, and what is kept is
    what zipping it afresh gives."""
    from carddb.site import bundle

    zipped: list[Path] = []
    real = bundle._rules_zip
    monkeypatch.setattr(bundle, "_rules_zip", lambda root, files: zipped.append(root) or real(root, files))
    first, again = rules_zip(REPO), rules_zip(REPO)
    assert again == first
    assert len(zipped) <= 1  # none when an earlier test of this process made it
    assert first == real(REPO, bundle.engine_plugin_files())
