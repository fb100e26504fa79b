"""The printing engine the site ships, run by a bare CPython that sees nothing but the bundle (no site-packages,
so no Pillow and no installed carddb): it prints a deck to a PDF that passed its own geometry check."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pdfplumber

from carddb.catalogue.api import Catalogue
from carddb.rules.browser import builder_read_json
from carddb.rules.cards import Card
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
