"""A workspace made to attack the site: a copy of the bundled minibattle game whose cards, set, field values and
art paths carry markup, script, template and Markdown syntax, and addresses of a foreign host. Every value is
one a card file may hold (it loads without an error): what a downloaded card file or a shared catalogue can
bring, and a game definition shared with its cards: its name and a set's. Each ``alert``'s argument names the
value that carried it."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carddb.cli.main import app


def _y(text: str) -> str:
    """``text`` as a YAML string (a JSON string is one)."""
    return json.dumps(text)


REPO = Path(__file__).resolve().parents[2]
GAME = "minibattle"
#: A host no request may ever go to.
FOREIGN = "evil.example"
#: The issue's own card: its name closed the page's <title>.
TITLE_BREAKER = "Evil</title><img src=x onerror=alert('title')>"
SCRIPT_CLOSER = "</script><script>alert('script')</script><!--"
QUOTES = "\"'><svg onload=alert('attr')>"
TEMPLATE = "{{ config.site_name }}{% raw %}{# x #}"
LINKED = "javascript:alert('href')"
MARKDOWN = f"[click](javascript:alert('md')) ![x](https://{FOREIGN}/md.png) <b onclick=alert('b')>b</b>"
HOSTILE_GAME = "Mini-Battle <img src=x onerror=alert('game')>"
HOSTILE_SET = f"Promo</title><script>alert('set')</script><img src=https://{FOREIGN}/set.png>"

CARDS = f"""set: promo
cards:
  - name: {_y(TITLE_BREAKER)}
    kind: pokemon
    number: "P90"
    rarity: "<img src=x onerror=alert('rarity')>"
    art: "javascript:alert('art')"
    level: 5
    hp: 20
    atk: 5
    def: 5
    type: Fire
    stage: basic
    evolves_from: {_y(QUOTES)}
    ability: {_y(MARKDOWN)}
    text: {_y(SCRIPT_CLOSER)}
    flavor: {_y(TEMPLATE)}
  - name: {_y(SCRIPT_CLOSER)}
    kind: pokemon
    number: "P91"
    art: "https://{FOREIGN}/art.png"
    level: 5
    hp: 20
    atk: 5
    def: 5
    type: Water
    stage: basic
    text: {_y(TITLE_BREAKER)}
  - name: {_y(QUOTES)}
    kind: pokemon
    number: "P92"
    level: 5
    hp: 20
    atk: 5
    def: 5
    type: Grass
    stage: basic
    ability: {_y(LINKED)}
  - name: {_y(TEMPLATE)}
    kind: pokemon
    number: "P93"
    level: 5
    hp: 20
    atk: 5
    def: 5
    type: Grass
    stage: basic
    evolves_from: {_y(LINKED)}
  - name: {_y(MARKDOWN)}
    kind: pokemon
    number: "P94"
    level: 5
    hp: 20
    atk: 5
    def: 5
    type: Grass
    stage: basic
"""
#: The names of the hostile cards, as the catalogue holds them.
NAMES = (TITLE_BREAKER, SCRIPT_CLOSER, QUOTES, TEMPLATE, MARKDOWN)


def make_hostile_workspace(root: Path) -> Path:
    """``carddb init --example minibattle`` at ``root`` (the repository's Pyodide linked), the hostile cards added
    and the game and its promo set given hostile names, built by ``carddb build``. Returns the built site's folder."""
    runner = CliRunner()
    made = runner.invoke(app, ["init", str(root), "--example", GAME, "--no-npm"], catch_exceptions=False)
    assert made.exit_code == 0, made.output
    modules = REPO / "site" / "node_modules"
    if modules.is_dir():
        (root / "site" / "node_modules").symlink_to(modules, target_is_directory=True)
    definition = root / "rules" / GAME / "game.toml"
    toml = definition.read_text(encoding="utf-8")
    for said, hostile in (("Pokemon Mini-Battle Card Game", HOSTILE_GAME), ("Promo", HOSTILE_SET)):
        assert f'name = "{said}"' in toml
        toml = toml.replace(f'name = "{said}"', f"name = {_toml(hostile)}", 1)
    definition.write_text(toml, encoding="utf-8")
    (root / "rules" / GAME / "cards" / "hostile.yaml").write_text(CARDS, encoding="utf-8")
    built = runner.invoke(app, ["--root", str(root), "build", "--game", GAME], catch_exceptions=False)
    assert built.exit_code == 0, built.output
    return root / "output" / "site"


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
