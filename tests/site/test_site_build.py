"""The built site read back: a strict build, construction tables equal to the game definitions, escaped card
data, only the Pyodide files needed, a rules bundle that imports with the standard library alone."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from carddb.catalogue.api import Catalogue
from carddb.core.cards.slugs import card_stems
from carddb.core.game.definition import SEVERITIES
from carddb.errors import InputError
from carddb.site.bundle import PYODIDE_FILES, find_pyodide
from tests.site.conftest import FACES_GAME, HOSTILE_GAME, HOSTILE_NAME, HOSTILE_TEXT, BuiltSite
from tests.site.htmlread import table, tables


def test_strict_build_has_every_page_of_every_game(site: BuiltSite, catalogue: Catalogue) -> None:
    games = site.report.games
    assert games == [g for g in ("minibattle", "shmod", "ssbm", "ssq", "website") if g in catalogue.games()]
    for game_id in games:
        game = catalogue.game(game_id)
        for page, title in [("rulebook", None), ("construction", f"{game.name}: "
                                                 + ("deck construction" if game.deck_game else "game data")),
                            ("cards", f"{game.name}: cards"),
                            ("checker", f"{game.name}: " + ("deck builder" if game.deck_game else "turn calculator"))]:
            html = site.html(f"games/{game_id}/{page}.md")
            if title:
                assert f">{title}<" in html.replace('<a class="headerlink"', "<")
    assert (site.folder / "index.html").is_file()
    assert (site.folder / "guide" / "command-line" / "index.html").is_file()


def test_no_page_names_another_host(site: BuiltSite) -> None:
    # Links to other sites are fine in text (credits); nothing may be *loaded* from one. A canonical link names the
    # address the site is built for (site_url) and loads nothing.
    loaded = re.compile(r"""<(?:script|img|link|iframe|source)\b(?![^>]*\brel="canonical")[^>]*\b(?:src|href)="""
                        r"""["']((?:https?:)?//[^"']*)""", re.I)
    for page in site.folder.rglob("*.html"):
        for url in loaded.findall(page.read_text(encoding="utf-8")):
            assert url.startswith(site.url), f"{page} loads {url}"


def test_zone_tables_match_the_definitions(site: BuiltSite, catalogue: Catalogue) -> None:
    for game_id in site.report.games:
        game = catalogue.game(game_id)
        if not game.deck_game:
            continue
        rows = table(site.html(f"games/{game_id}/construction.md"), "zones")
        assert [(r[0], r[1]) for r in rows] == [(z.label, z.size_text()) for z in game.zones.values()]
        for row, zone in zip(rows, game.zones.values(), strict=True):
            assert row[3].split(", ") == list(dict.fromkeys([zone.label, *zone.aliases, zone.id]))
            assert row[4] == ("rule" if zone.rule else "")


def test_shmod_construction_tables_say_what_games_md_says(site: BuiltSite) -> None:
    html = site.html("games/shmod/construction.md")
    assert [r[:2] for r in table(html, "zones")] == [["Main deck", "at least 50"], ["Side deck", "empty or exactly 15"],
                                                    ["Fusion/Transformation Stack", "any number"]]
    assert table(html, "zones")[2][2] == "Monster cards with Fusion or Transformation in their Categories"
    limits = table(html, "copy-limits")
    assert [r[:2] for r in limits] == [["default", "4"], ["LIMITED", "1"]]
    assert limits[1][2] == ("cards named Monster Bash, Replenish, Revival Stone or Yoink!, or cards with Deity in "
                            "their Categories, except cards with Fusion or Transformation in their Categories")


def test_copy_limits_sum_caps_and_checks_match_the_definitions(site: BuiltSite, catalogue: Catalogue) -> None:
    for game_id in site.report.games:
        game = catalogue.game(game_id)
        if not game.deck_game:
            continue
        html = site.html(f"games/{game_id}/construction.md")
        found = tables(html)
        if game.copies is not None:
            rows = table(html, "copy-limits")
            expected = ([[game.copies.default_source, str(game.copies.default)]] if game.copies.default else [])
            if game.copies.per_card_field:
                expected.append([game.copies.per_card_source,
                                 f"the card's {game.fields[game.copies.per_card_field].label}"])
            expected += [[limit.source, str(limit.limit)] for limit in game.copies.limits]
            assert [r[:2] for r in rows] == expected
        assert ("totals" in found) == bool(game.sum_caps)
        if game.sum_caps:
            assert [[r[0], r[1]] for r in table(html, "totals")] == [
                [game.fields[c.field].label, str(c.cap)] for c in game.sum_caps]
        problems = table(html, "what-the-checker-reports")
        codes = [(r[0], r[1]) for r in problems]
        for check in game.checks:
            assert (check.code, check.severity) in codes
        declared = {c.code for c in game.checks}
        assert all(severity == SEVERITIES[code] for code, severity in codes if code not in declared)
        assert [r[0] for r in table(html, "readings")] == [r.title for r in game.readings]
        assert [r[0] for r in table(html, "formats")] == list(game.formats)


def test_minibattle_level_cap_row(site: BuiltSite, catalogue: Catalogue) -> None:
    if "minibattle" not in site.report.games:
        pytest.skip("minibattle is not in the test catalogue")
    assert table(site.html("games/minibattle/construction.md"), "totals") == [["Level", "200", "Deck", "rule"]]


def test_gallery_lists_every_card_as_text(site: BuiltSite, catalogue: Catalogue) -> None:
    for game_id in site.report.games:
        html = site.html(f"games/{game_id}/cards.md")
        expected = len(catalogue.cards(game_id)) + (game_id == HOSTILE_GAME)
        assert html.count('<li class="carddb-card"') == expected
    html = site.html(f"games/{HOSTILE_GAME}/cards.md")
    assert HOSTILE_NAME not in html and HOSTILE_TEXT not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in html


def test_gallery_shows_every_rendered_face(site: BuiltSite, catalogue: Catalogue) -> None:
    page = site.folder / "games" / FACES_GAME / "cards" / "index.html"
    sources = re.findall(r'<img src="([^"]+)"', page.read_text(encoding="utf-8"))
    cards = catalogue.cards(FACES_GAME)
    stems = card_stems(card.key for card in cards)
    assert sources == [f"../../../assets/faces/{FACES_GAME}/{stems[card.key]}.png" for card in cards]
    for src in sources:
        assert (page.parent / src).resolve().read_bytes().startswith(b"\x89PNG"), src
    assert site.report.faces == len(catalogue.cards(FACES_GAME))


def test_only_the_needed_pyodide_files_are_shipped(site: BuiltSite, repo_root: Path) -> None:
    version = find_pyodide(repo_root / "site").version
    assert site.report.pyodide_version == version
    manifest = json.loads((site.folder / "assets" / "carddb" / "manifest.json").read_text())
    assert manifest["pyodide"].startswith(f"assets/pyodide/{version}-")
    shipped = sorted(p.name for p in (site.folder / manifest["pyodide"]).iterdir() if p.suffix not in (".br", ".gz"))
    assert shipped == sorted(PYODIDE_FILES)


def test_rules_bundle_imports_with_the_standard_library_alone(site: BuiltSite, tmp_path: Path) -> None:
    manifest = json.loads((site.folder / "assets" / "carddb" / "manifest.json").read_text())
    with zipfile.ZipFile(site.folder / manifest["package"]) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert "carddb/core/browser.py" in names and "carddb/errors.py" in names
    assert not [n for n in names if n.startswith(("carddb/catalogue", "carddb/site", "carddb/cli"))]
    # -I -S: no site-packages, no user path: what Pyodide has, less nothing.
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import carddb.core.browser, carddb.core.checker.report; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] not in sys.stdlib_module_names "
             "and m != '__main__'))")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", probe, str(tmp_path)], capture_output=True, text=True,
                         check=True).stdout
    assert all(m.startswith("carddb") for m in eval(out)), out


def test_manifest_names_each_games_data(site: BuiltSite, repo_root: Path) -> None:
    manifest = json.loads((site.folder / "assets" / "carddb" / "manifest.json").read_text())
    assert sorted(manifest["games"]) == site.report.games
    for game_id, entry in manifest["games"].items():
        toml = (site.folder / entry["toml"]).read_text(encoding="utf-8")
        assert toml == (repo_root / "rules" / game_id / "game.toml").read_text(encoding="utf-8")
        cards = json.loads((site.folder / entry["cards"]).read_text(encoding="utf-8"))
        assert all(c["game"] == game_id for c in cards)
        for filename, path in entry["decks"].items():
            assert (site.folder / path).read_bytes().decode() == \
                (repo_root / "rules" / game_id / "decks" / filename).read_text(encoding="utf-8", errors="replace")


def test_missing_pyodide_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"dependencies": {"pyodide": "314.0.7"}}')
    with pytest.raises(InputError) as caught:
        find_pyodide(tmp_path)
    assert caught.value.message == f"Pyodide 314.0.7 is not installed in {tmp_path / 'node_modules' / 'pyodide'}"
    assert caught.value.hint == f"run `npm ci --prefix {tmp_path}` to install it from the npm registry"


def test_guide_names_every_command(repo_root: Path) -> None:
    from typer.core import TyperGroup

    from carddb.cli.main import every_command

    guide = (repo_root / "site" / "docs" / "guide" / "command-line.md").read_text(encoding="utf-8")
    for path, command in every_command():
        if len(path) == 2 or (len(path) == 1 and not isinstance(command, TyperGroup)):  # as `carddb play ssq`
            full = f"carddb {' '.join(path)}"
            assert f"`{full}" in guide, f"{full} is not in the command line guide"


def test_serving_on_a_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    from carddb.site.serve import make_server

    first = make_server(tmp_path, "127.0.0.1", 0)
    try:
        port = first.server_address[1]
        with pytest.raises(InputError) as caught:
            make_server(tmp_path, "127.0.0.1", port)
        assert caught.value.message == (f"cannot listen on 127.0.0.1:{port} (Address already in use); "
                                        "pick another port with --port")
    finally:
        first.server_close()


def test_the_server_gives_wasm_and_modules_their_types(site: BuiltSite) -> None:
    import urllib.request

    engine = json.loads((site.folder / "assets" / "carddb" / "manifest.json").read_text())["pyodide"]
    for path, wanted in [(f"{engine}pyodide.asm.wasm", "application/wasm"),
                         (f"{engine}pyodide.mjs", "text/javascript")]:
        with urllib.request.urlopen(site.url + path) as response:
            assert response.headers["Content-Type"] == wanted


def test_a_rule_link_to_a_missing_heading_fails_the_build_and_keeps_the_old_site(
        tmp_path: Path, repo_root: Path, catalogue: Catalogue) -> None:
    import shutil

    from carddb.errors import OutputError
    from carddb.site.build import build_site

    root = tmp_path / "workspace"
    shutil.copytree(repo_root / "rules" / "shmod", root / "rules" / "shmod")
    shutil.copytree(repo_root / "site", root / "site", ignore=shutil.ignore_patterns("node_modules"))
    (root / "site" / "node_modules").symlink_to(repo_root / "site" / "node_modules")
    rulebook = root / "rules" / "shmod" / "rulebook.md"
    text = rulebook.read_text(encoding="utf-8")
    assert "\n### Side deck\n" in text
    rulebook.write_text(text.replace("\n### Side deck\n", "\n### The extra cards\n"), encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("the site as it was")
    with pytest.raises(OutputError) as caught:
        build_site(root, catalogue, out, game_ids=["shmod"])
    assert "construction.md" in caught.value.message and "#side-deck" in caught.value.message
    assert [p.name for p in out.iterdir()] == ["index.html"]
    assert (out / "index.html").read_text() == "the site as it was"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "workspace"]  # no staging folder left behind
