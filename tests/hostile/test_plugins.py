"""A game plugin (an installed package under the ``carddb.games`` entry points) that fails as it is loaded:
``sys.exit(0)`` or ``sys.exit(1)`` at import, an exception, an entry point that is not a ``GamePlugin``. Its
failure is that plugin's: reported in one warning naming it, and never the end of carddb's run (a
``SystemExit(0)`` once made ``carddb build`` exit 0 having built nothing after it)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from carddb.core.play import registry
from tests.hostile.conftest import Ledger, in_process, one_error_line

BROKEN = {
    "exit0": "raise SystemExit(0)\n",
    "exit1": "import sys\nsys.exit('bye')\n",
    "raises": "raise RuntimeError('half installed')\n",
    "not-a-plugin": "PLUGIN = 42\n",
}


@pytest.fixture(params=list(BROKEN))
def broken_plugin(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An installed distribution ``evil-plugin`` whose entry point is the module above (found on ``sys.path``
    as pip's own installs are)."""
    folder = tmp_path / "site-packages"
    info = folder / "evil_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (folder / "evil_plugin.py").write_text(BROKEN[request.param], encoding="utf-8")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[carddb.games]\nevil = evil_plugin:PLUGIN\n", encoding="utf-8")
    sys.path.insert(0, str(folder))
    registry._scan.cache_clear()
    try:
        yield request.param
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("evil_plugin", None)
        registry._scan.cache_clear()


def test_a_broken_plugin_is_reported_and_the_build_goes_on(ws_copy: Path, broken_plugin: str,
                                                           ledger: Ledger) -> None:
    site = ws_copy / "output" / "site"
    shutil.rmtree(site)
    ledger.tried("broken plugin")
    run = in_process(ws_copy, "build", "--skip", "sheets")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert (site / "index.html").is_file()  # the site step ran, after the plugins were looked for
    said = [line for line in run.stderr.splitlines() if "evil" in line]
    assert said and all("evil-plugin" in line and "carddb goes on" in line for line in said), run.stderr
    assert "Built 1 game" in run.stdout and "Traceback" not in run.stdout + run.stderr


def test_play_and_its_games_still_answer_beside_a_broken_plugin(ws_copy: Path, broken_plugin: str,
                                                                ledger: Ledger) -> None:
    ledger.tried("broken plugin")
    run = in_process(ws_copy, "play", "--help")
    assert run.exit_code == 0 and "ssbm" in run.stdout, run
    ledger.tried("broken plugin")
    run = in_process(ws_copy, "roll", "2d6", "--seed", "1")
    assert run.exit_code == 0, run.stdout + run.stderr


def test_play_names_the_broken_plugin_of_the_game_asked_for(ws_copy: Path, broken_plugin: str,
                                                           ledger: Ledger) -> None:
    ledger.tried("broken plugin")
    run = in_process(ws_copy, "play", "evil", "anything")
    assert run.exit_code == 2, run
    line = one_error_line(run, naming="no play helpers for 'evil'")
    assert "evil-plugin" in line and "docs/new-game.md#play-helpers-of-your-own" in line
