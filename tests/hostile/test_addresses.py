"""Addresses handed to every player's client (``--base-url``, ``--site-url``) as an attacker or a stray paste
would give them: one final newline (``$`` in a pattern matches before it), a right-to-left override, a host of
100,000 characters, a NUL. Each is one ``Error:`` line and exit 2 before anything runs, and nothing is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hostile.conftest import Ledger, in_process, one_error_line, tree

ADDRESSES = {
    "final newline": "https://x.example/y\n",
    "newline inside": "https://x.example/y\nz",
    "carriage return": "https://x.example/y\r",
    "right-to-left override": "https://x.example/\u202egnp.exe",
    "zero-width space": "https://x\u200b.example/",
    "huge host": "https://" + "a" * 100_000 + ".example/",
    "NUL": "https://x.example/\x00",
}


@pytest.fixture(scope="module")
def ws_copy(hostile_ws: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the workspace for the module: every command here is refused before it writes (which each test
    checks), so none changes what the next one reads."""
    root = tmp_path_factory.mktemp("addresses") / "ws"
    shutil.copytree(hostile_ws, root, symlinks=True)
    return root


@pytest.mark.parametrize("name", list(ADDRESSES))
def test_a_bad_base_url_is_refused_before_anything_is_written(ws_copy: Path, tmp_path: Path, name: str,
                                                              ledger: Ledger) -> None:
    address = ADDRESSES[name]
    out = tmp_path / "out"
    deck = next((ws_copy / "rules" / "mini" / "decks").glob("*.txt"))
    for args in (["export", "lackey", "--game", "mini", "--base-url", address, "--out", str(out / "lackey")],
                 ["export", "tts", "--game", "mini", "--base-url", address, "--out", str(out / "tts")],
                 ["deck", "convert", str(deck), "--game", "mini", "--to", "tts", "--base-url", address,
                  "--out", str(out / "deck.json")]):
        ledger.tried("base url")
        run = in_process(ws_copy, *args)
        assert run.exit_code == 2, run
        one_error_line(run, naming="--base-url")
        assert not out.exists(), args


@pytest.mark.parametrize("name", list(ADDRESSES))
def test_a_bad_site_url_stops_the_build_before_any_step(ws_copy: Path, name: str, ledger: Ledger) -> None:
    before = tree(ws_copy / "output")
    ledger.tried("site url")
    run = in_process(ws_copy, "build", "--site-url", ADDRESSES[name])
    assert run.exit_code == 2, run
    one_error_line(run, naming="site_url")
    assert run.stdout == ""  # no step said anything: none ran
    assert tree(ws_copy / "output") == before
