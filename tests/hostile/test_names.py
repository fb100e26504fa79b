"""A card name is data: whatever it is, the card gets a safe, readable, unique and stable file name, and
render, the LackeyCCG export and the site all use that same name (``carddb.core.cards.slugs.card_stems``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from carddb.core.cards.slugs import card_stems, slugify
from tests.hostile.conftest import Ledger, in_process, tree

HOSTILE_NAMES = ["Bowser's Fire Breath", "A" * 120 + " " + "b" * 179, "火の鳥", "..", "Fire!", "Fire?", "Back",
                 "CON", "../../escape", "a/b\\c", "Ｆｕｌｌｗｉｄｔｈ", "<img src=x onerror=alert(1)>"]


def test_readable_names_stay_readable_and_clashes_get_a_hash() -> None:
    stems = card_stems(HOSTILE_NAMES)
    assert stems["Bowser's Fire Breath"] == "bowsers-fire-breath"  # apostrophes dropped, not "-s-"
    assert stems["Ｆｕｌｌｗｉｄｔｈ"] == "fullwidth"
    assert stems["<img src=x onerror=alert(1)>"] == "img-src-x-onerror-alert-1"
    assert stems["../../escape"] == "escape" and stems["a/b\\c"] == "a-b-c"
    for clash in ("Fire!", "Fire?"):
        assert re.fullmatch(r"fire-[0-9a-f]{6}", stems[clash])
    assert stems["Fire!"] != stems["Fire?"]
    assert re.fullmatch(r"card-[0-9a-f]{6}", stems["火の鳥"]) and re.fullmatch(r"card-[0-9a-f]{6}", stems[".."])
    assert stems["火の鳥"] != stems[".."]
    assert re.fullmatch(r"back-[0-9a-f]{6}", stems["Back"]) and re.fullmatch(r"con-[0-9a-f]{6}", stems["CON"])
    long = stems["A" * 120 + " " + "b" * 179]
    assert len(long) <= 64 and long.startswith("aaaa") and re.search(r"-[0-9a-f]{6}$", long)
    assert card_stems(reversed(HOSTILE_NAMES)) == stems  # stable: the order of the cards does not matter
    # A name that slugs alike only within its own game: alone, "Fire!" is plain "fire".
    assert card_stems(["Fire!"]) == {"Fire!": "fire"}
    assert slugify("Alan's Site") == "alans-site"


@pytest.fixture(scope="module")
def named_ws(hostile_ws: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workspace with a set of cards named as badly as the names above."""
    import shutil

    root = tmp_path_factory.mktemp("names") / "ws"
    shutil.copytree(hostile_ws, root, symlinks=True)
    cards = [{"name": name, "kind": "action", "cost": 1, "colour": "Red", "set": "core", "text": "x"}
             for name in HOSTILE_NAMES]
    (root / "rules" / "mini" / "cards" / "hostile.yaml").write_text(
        yaml.safe_dump({"cards": cards}, allow_unicode=True), encoding="utf-8")
    loaded = in_process(root, "cards", "import", str(root / "rules" / "mini" / "cards" / "hostile.yaml"),
                        "--game", "mini")
    assert loaded.exit_code == 0, loaded
    return root


def test_render_export_and_site_agree_on_every_name(named_ws: Path, tmp_path: Path, ledger: Ledger) -> None:
    out = tmp_path / "out"
    before = {k: v for k, v in tree(named_ws).items() if not k.startswith("output/")}
    rendered = in_process(named_ws, "render", "--game", "mini", "--out", str(out / "faces"), "--dpi", "40")
    ledger.run("hostile names", rendered)
    assert rendered.exit_code == 0, rendered
    cards = in_process(named_ws, "cards", "search", "kind:action", "--game", "mini", "--json")
    keys = [c["name"] for c in json.loads(cards.stdout)]
    assert set(HOSTILE_NAMES) <= set(keys)
    all_keys = [c["name"] for c in json.loads(
        in_process(named_ws, "cards", "search", "game:mini", "--json").stdout)]
    stems = card_stems(all_keys)
    faces = sorted(p.name for p in (out / "faces" / "mini").glob("*.png"))
    assert faces == sorted([f"{stems[k]}.png" for k in all_keys] + ["back.png"])
    assert all(len(name) <= 68 for name in faces)

    exported = in_process(named_ws, "export", "lackey", "--game", "mini", "--out", str(out / "lackey"))
    ledger.run("hostile names", exported)
    assert exported.exit_code == 0, exported
    (data,) = (out / "lackey").glob("*/sets/core.txt")
    rows = [line.split("\t") for line in data.read_text(encoding="ascii").splitlines()[1:]]
    images = {row[2] for row in rows}
    assert images == set(stems.values())  # the ImageFile column is each card's file name
    jpegs = {p.stem for p in data.parent.glob("setimages/core/*.jpg")}
    assert jpegs == images

    site = in_process(named_ws, "site", "build", "--out", str(out / "site"))
    ledger.run("hostile names", site)
    assert site.exit_code == 0, site
    gallery = (out / "site" / "games" / "mini" / "cards" / "index.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<li class="carddb-card" id="([^"]+)"', gallery))
    assert anchors == set(stems.values())
    site_faces = {p.stem for p in (out / "site" / "assets" / "faces" / "mini").glob("*.png")}
    assert site_faces - {"back"} == set(stems.values())
    # Nothing was written anywhere but the output folders named (and the workspace's own output/).
    after = {k: v for k, v in tree(named_ws).items() if not k.startswith("output/")}
    assert after == before
    assert not list(tmp_path.glob("escape*")) and not (named_ws.parent / "escape.png").exists()


def test_names_are_stable_across_runs(named_ws: Path, tmp_path: Path) -> None:
    first = in_process(named_ws, "render", "--game", "mini", "--out", str(tmp_path / "a"), "--dpi", "40")
    second = in_process(named_ws, "render", "--game", "mini", "--set", "core", "--out", str(tmp_path / "b"),
                        "--dpi", "40")
    assert first.exit_code == second.exit_code == 0
    names = sorted(p.name for p in (tmp_path / "a" / "mini").glob("*.png"))
    assert names == sorted(p.name for p in (tmp_path / "b" / "mini").glob("*.png"))
