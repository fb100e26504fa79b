"""A sixth game's play helper from a package outside carddb: the package that docs/new-game.md writes, built as a
wheel and installed by pip into a folder of its own. Its one typed function appears as a command of ``carddb play``
and as a working form on the site's Play page, where the browser's rules engine answers it, and its one ``[play]``
key as a setting of game.toml, checked as the game is read: with no change to carddb."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.site.conftest import ENGINE_PATIENCE

# A plugin wheel installed by pip, a workspace made with it and its site built (8 s): `make test` runs it,
# `make test-fast` not.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "new-game.md"
NODE_MODULES = ROOT / "site" / "node_modules"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("## Play helpers of your own"):text.index("## Then")]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", _section(), re.S)


def _package_files() -> dict[str, str]:
    """The package's files as the page shows them: each Python block opens with ``# <its path>``."""
    files = {}
    for block in _blocks("python"):
        first, _, body = block.partition("\n")
        files[first.removeprefix("# ").strip()] = body
    return files


def _entry_points() -> str:
    (toml,) = [block for block in _blocks("toml") if "entry-points" in block]
    group = re.search(r'\[project\.entry-points\."([^"]+)"\]', toml)[1]
    lines = [f"{name} = {value}" for name, value in re.findall(r'^(\w+) = "([^"]+)"$', toml, re.M)]
    return f"[{group}]\n" + "\n".join(lines) + "\n"


def _wheel(folder: Path) -> Path:
    """A wheel of the page's package (a wheel is a zip with its metadata: no build backend needed offline)."""
    dist = "sixth_game-1.0.dist-info"
    members = {**_package_files(),
               f"{dist}/METADATA": "Metadata-Version: 2.1\nName: sixth-game\nVersion: 1.0\n",
               f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
               f"{dist}/entry_points.txt": _entry_points()}
    record = []
    for name, text in members.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    members[f"{dist}/RECORD"] = "\n".join([*record, f"{dist}/RECORD,,"]) + "\n"
    path = folder / "sixth_game-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in members.items():
            wheel.writestr(name, text)
    return path


@dataclass
class Installed:
    root: Path  # the workspace with the game ``sixth``
    env: dict[str, str]  # PYTHONPATH holding the installed package

    def carddb(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "carddb", "--root", str(self.root), "--db",
                               str(self.root / "catalogue.db"), *args], env=self.env, capture_output=True,
                              text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    folder = tmp_path_factory.mktemp("plugin")
    target = folder / "packages"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                          "--target", str(target), str(_wheel(folder))], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    assert (target / "sixth_game" / "play.py").is_file()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(ROOT)])}
    root = folder / "ws"
    made = subprocess.run([sys.executable, "-m", "carddb", "init", str(root), "--game", "sixth", "--name",
                           "Sixth Game", "--no-npm"], env=env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    (section,) = _blocks("markdown")
    rulebook = root / "rules" / "sixth" / "rulebook.md"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "\n" + section, encoding="utf-8")
    return Installed(root, env)


def test_the_helper_answers_on_the_command_line_as_the_page_says(installed: Installed) -> None:
    listed = installed.carddb("play", "--help")
    assert listed.returncode == 0 and "Sixth Game: which unit wins a clash." in listed.stdout
    (console,) = [b for b in re.findall(r"```console\n(.*?)```", _section(), re.S) if "carddb play sixth" in b]
    command, _, expected = console.partition("\n")
    ran = installed.carddb("play", "sixth", "clash", "Red Unit 3", "Blue Unit 1")
    assert command == '$ carddb play sixth clash "Red Unit 3" "Blue Unit 1"'
    assert (ran.returncode, ran.stdout) == (0, expected), ran.stderr
    as_json = json.loads(installed.carddb("play", "sixth", "clash", "Blue Unit 7", "Red Unit 3", "--json").stdout)
    assert as_json["winner"] is None and as_json["answer"] == "Both units are destroyed."  # Power 4 and 4
    unknown = installed.carddb("play", "sixth", "clash", "Red Unit 3", "Nobody")
    assert unknown.returncode == 2 and unknown.stderr.startswith("Error: no unit called 'Nobody'"), unknown.stderr


def test_the_command_and_its_help_come_from_the_typed_function(installed: Installed) -> None:
    shown = installed.carddb("play", "sixth", "clash", "--help")
    assert shown.returncode == 0 and "Usage: carddb play sixth clash [OPTIONS] FIRST SECOND" in shown.stdout
    assert "Which unit wins a clash" in shown.stdout and "The unit it clashes with." in shown.stdout


def test_the_play_key_is_a_checked_setting_of_game_toml(installed: Installed, tmp_path: Path) -> None:
    """The plugin's one [play] key: its default, a house rule in game.toml, and a wrong value or an unknown key
    refused when the game is read (a copy of the workspace: the other tests keep theirs)."""
    import shutil

    root = tmp_path / "ws"
    shutil.copytree(installed.root, root, ignore=shutil.ignore_patterns("output", "node_modules"))
    copy = Installed(root, installed.env)
    tied = ("play", "sixth", "clash", "Blue Unit 7", "Red Unit 3")  # Power 4 and 4
    assert copy.carddb(*tied).stdout.startswith("Both units are destroyed.")  # the declared default
    toml = root / "rules" / "sixth" / "game.toml"
    (house,) = [block for block in _blocks("toml") if "[play]" in block]
    written = toml.read_text(encoding="utf-8")
    toml.write_text(written + "\n" + house, encoding="utf-8")
    assert copy.carddb(*tied).stdout.startswith("Nothing happens: equal Power.")
    for bad, message in (('equal_power = 3', "play.equal_power: must be"),
                         ('equal_power = "nothing"\nequal_speed = 1', "play.equal_speed: unknown key; expected one "
                                                                       "of equal_power")):
        toml.write_text(written + f"\n[play]\n{bad}\n", encoding="utf-8")
        refused = copy.carddb(*tied)
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr


def test_without_the_package_the_game_has_no_helpers(installed: Installed) -> None:
    plain = {**installed.env, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run([sys.executable, "-m", "carddb", "--root", str(installed.root), "play", "sixth", "clash",
                          "Red Unit 3", "Blue Unit 1"], env=plain, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 2 and "no play helpers for 'sixth'; the games with play helpers: minibattle, shmod" \
        in ran.stderr and "docs/new-game.md#play-helpers-of-your-own" in ran.stderr


@pytest.fixture(scope="module")
def built(installed: Installed) -> Path:
    if not (NODE_MODULES / "pyodide").is_dir():
        pytest.skip("Pyodide is not installed (npm ci --prefix site); the site needs it")
    os.symlink(NODE_MODULES, installed.root / "site" / "node_modules")
    # the site and what it reads (the faces); the proxy sheets, the kit and the exports are tested elsewhere
    skips = [arg for step in ("sheets", "kit", "lackey", "apprentice", "tts", "cockatrice") for arg in ("--skip", step)]
    ran = installed.carddb("--quiet", "build", *skips)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return installed.root / "output" / "site"


def test_the_site_ships_the_helper_to_the_browser_engine(installed: Installed, built: Path, tmp_path: Path) -> None:
    page = (built / "games" / "sixth" / "play" / "index.html").read_text(encoding="utf-8")
    assert 'data-helper="clash"' in page and "play-sixth-unit" in page
    manifest = json.loads((built / "assets" / "carddb" / "manifest.json").read_text(encoding="utf-8"))
    with zipfile.ZipFile(built / manifest["package"]) as engine:
        names = set(engine.namelist())
        engine.extractall(tmp_path / "engine")
    assert {"sixth_game/__init__.py", "sixth_game/play.py"} <= names  # the whole package: one typed function
    entry = manifest["games"]["sixth"]
    toml, cards = ((built / entry[key]).read_text(encoding="utf-8") for key in ("toml", "cards"))
    # the engine alone, as the browser has it: only its own files and the standard library on the path
    probe = ("import sys, json; sys.path[:] = [sys.argv[1]] + [p for p in sys.path if 'site-packages' not in p "
             "and p not in ('', '.')]; from carddb.core.browser import play_json; "
             "print(play_json(sys.argv[2], sys.argv[3], 'clash', sys.argv[4]))")
    ran = subprocess.run([sys.executable, "-I", "-c", probe, str(tmp_path / "engine"), toml, cards,
                          json.dumps({"first": "Red Unit 3", "second": "Blue Unit 1"})], capture_output=True,
                         text=True, timeout=120, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    in_browser = json.loads(ran.stdout)
    on_command_line = json.loads(installed.carddb("play", "sixth", "clash", "Red Unit 3", "Blue Unit 1",
                                                  "--json").stdout)
    assert in_browser == on_command_line and in_browser["winner"] == "Red Unit 3"


@pytest.fixture
def served(built: Path) -> Iterator[str]:
    from carddb.site.serve import make_server, server_url

    server = make_server(built, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server_url(server)
    server.shutdown()
    server.server_close()


@pytest.mark.browser
def test_the_play_page_answers_in_the_browser(chromium: Any, served: str) -> None:
    page = chromium.new_page()
    try:
        page.add_init_script(ENGINE_PATIENCE)
        page.set_default_timeout(120_000)
        page.goto(f"{served}games/sixth/play/")
        page.wait_for_selector("[data-play][data-game=sixth] [data-engine][data-state=ready]")
        form = page.locator("form[data-play-form][data-helper=clash]")
        form.locator("input[name=first]").fill("Red Unit 3")
        form.locator("input[name=second]").fill("Blue Unit 1")
        form.locator("button[type=submit]").click()
        result = page.locator("[data-play-result=clash]")
        result.get_by_text("Red Unit 3 wins; Blue Unit 1 is destroyed.").wait_for()
        assert "Red Unit 3 has Power 4, Blue Unit 1 has Power 2." in result.inner_text()
    finally:
        page.close()
