"""The site's precompressed copies (``carddb.site.precompress``): each decompresses to its file, at the default
settings and at the quickest ones (``CARDDB_QUICK_COMPRESSION``, which the test suite sets), and the settings are
part of what a kept file's copies are kept by, so a build after a change of setting makes them again."""

from __future__ import annotations

import gzip
import os
import random
from pathlib import Path

import pytest

from carddb.site import precompress


def engine_folder(root: Path) -> Path:
    """A site holding one engine file worth compressing and one page (text that compresses, as code does)."""
    words = [f"word{n}" for n in range(400)]
    text = " ".join(random.Random(7).choice(words) for _ in range(60_000))
    engine = root / "assets" / "carddb" / "engine.js"
    engine.parent.mkdir(parents=True)
    engine.write_text(text, encoding="utf-8")
    (root / "index.html").write_text(f"<html><body>{text[:20_000]}</body></html>", encoding="utf-8")
    return engine


@pytest.mark.parametrize("quick", ["", "1"])
def test_every_copy_decompresses_to_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quick: str) -> None:
    monkeypatch.setenv(precompress.QUICK_ENV, quick)
    engine = engine_folder(tmp_path)
    assert precompress.precompress(tmp_path) >= 2
    for original in (engine, tmp_path / "index.html"):
        copy = original.with_name(original.name + ".gz")
        assert gzip.decompress(copy.read_bytes()) == original.read_bytes()
        assert len(copy.read_bytes()) < len(original.read_bytes()) * 0.5
        brotli = original.with_name(original.name + ".br")
        if precompress._brotli() is not None:
            assert precompress._brotli().decompress(brotli.read_bytes()) == original.read_bytes()


def test_the_quick_settings_make_other_copies_and_are_in_their_key(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    copies = {}
    keys = {}
    for quick in ("0", "1"):
        monkeypatch.setenv(precompress.QUICK_ENV, quick)
        folder = tmp_path / f"quick-{quick}"
        engine = engine_folder(folder)
        precompress.precompress(folder)
        copies[quick] = engine.with_name("engine.js.gz").read_bytes()
        keys[quick] = precompress.settings_digest()
    assert copies["0"] != copies["1"] and len(copies["0"]) < len(copies["1"])
    assert keys["0"] != keys["1"]  # a site kept from a build of the other setting has its copies made again
    monkeypatch.delenv(precompress.QUICK_ENV)
    assert precompress.settings_digest() == keys["0"]  # unset is the default
    assert os.environ.get(precompress.QUICK_ENV) is None
