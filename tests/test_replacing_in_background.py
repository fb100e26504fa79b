"""A build deletes the old copies of the folders it replaces in the background (``removing_in_background``): the new
folder is in place at once, nothing of the old copy is touched by a cleanup meanwhile, and all of it is gone
when the block ends. Outside such a block the old copy is gone when the replacement returns."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from carddb.files.replacing import clean_leftovers, removing_in_background, replacing_folder


def replace(target: Path, version: str) -> None:
    with replacing_folder(target) as stage:
        (stage / "version.txt").write_text(version, encoding="utf-8")
        (stage / "deep" / "er").mkdir(parents=True)
        (stage / "deep" / "er" / "file.txt").write_text(version, encoding="utf-8")


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_outside_a_build_the_old_copy_is_gone_when_the_replacement_returns(tmp_path: Path) -> None:
    for version in ("one", "two", "three"):
        replace(tmp_path / "site", version)
        assert names(tmp_path) == ["site"]
        assert (tmp_path / "site" / "version.txt").read_text(encoding="utf-8") == version


def test_inside_a_build_the_old_copy_goes_in_the_background_and_is_gone_at_its_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replace(tmp_path / "site", "one")
    deleting, release = threading.Event(), threading.Event()
    real_rmtree = shutil.rmtree

    def held_rmtree(path: Any, *args: Any, **kwargs: Any) -> None:
        deleting.set()
        assert release.wait(60)
        real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(shutil, "rmtree", held_rmtree)
    with removing_in_background():
        replace(tmp_path / "site", "two")  # returns while the old copy is still being deleted
        assert deleting.wait(60)
        assert (tmp_path / "site" / "version.txt").read_text(encoding="utf-8") == "two"
        old = [name for name in names(tmp_path) if name != "site"]
        assert len(old) == 1 and ".carddb-" in old[0]
        assert clean_leftovers(tmp_path) == []  # this process's own old copy: left to the thread deleting it
        release.set()
    assert names(tmp_path) == ["site"]
    assert (tmp_path / "site" / "deep" / "er" / "file.txt").read_text(encoding="utf-8") == "two"
