"""A build deletes the old copies of the folders it replaces in the background (``removing_in_background``): the new
folder is in place at once, nothing of the old copy is touched by a cleanup meanwhile, and all of it is gone
when the block ends. Outside such a block the old copy is gone when the replacement returns."""

from __future__ import annotations

import os
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


def test_a_block_waits_for_its_own_removals_whatever_another_threads_block_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two builds in one process (a server's), their blocks interleaved: this thread's block opens, another
    thread's opens after it and stays open, and this one, closing first, still waits for its own old copy (it once
    took the other block's list, and returned with its old copy half deleted)."""
    import carddb.files.replacing as replacing

    site = tmp_path / "site"
    replace(site, "one")
    hold, joining = threading.Event(), threading.Event()
    real_rmtree = shutil.rmtree

    def held_rmtree(path: Any, *args: Any, **kwargs: Any) -> None:
        assert hold.wait(60)
        real_rmtree(path, *args, **kwargs)

    class Removal(threading.Thread):
        def join(self, timeout: float | None = None) -> None:
            joining.set()  # the block is waiting for this removal
            super().join(timeout)

    monkeypatch.setattr(shutil, "rmtree", held_rmtree)
    monkeypatch.setattr(replacing.threading, "Thread", Removal)
    other_open, other_may_close = threading.Event(), threading.Event()

    def other_build() -> None:
        with removing_in_background():
            other_open.set()
            assert other_may_close.wait(60)

    other = threading.Thread(target=other_build)
    releaser = threading.Thread(target=lambda: joining.wait(60) and hold.set())
    try:
        with removing_in_background():
            replace(site, "two")  # its old copy: deleted in this block's background, held until the block waits
            other.start()
            assert other_open.wait(60)
            releaser.start()
        assert names(tmp_path) == ["site"]  # the block ended with its own old copy gone
    finally:
        hold.set()
        other_may_close.set()
        other.join(60)
        if releaser.is_alive():
            joining.set()
            releaser.join(60)
    assert (site / "version.txt").read_text(encoding="utf-8") == "two"


def test_within_a_build_a_refilled_folder_starts_from_its_old_copy_and_a_gone_folders_copy_is_pruned(
        tmp_path: Path) -> None:
    """``keeping_old_copies``: the copy a replacement takes out is kept (not deleted) and is what the next
    replacement of that folder starts from; at the end of a build of everything, the copy of a folder that is gone
    (a removed game's export) goes, another folder's stays; outside a build, a refilled folder starts empty."""
    from carddb.files.replacing import keeping_old_copies

    copies, out = tmp_path / "copies", tmp_path / "out"
    kept_copies = lambda: sorted(path for path in copies.iterdir() if path.is_dir())  # noqa: E731
    for folder in (out / "a", out / "b"):
        replace(folder, "one")
    with keeping_old_copies(copies, prune=True):
        for folder in (out / "a", out / "b"):
            with replacing_folder(folder, refill=True) as stage:
                assert names(stage) == []  # nothing kept yet
                (stage / "version.txt").write_text("two", encoding="utf-8")
    assert [(copy / "version.txt").read_text(encoding="utf-8") for copy in kept_copies()] == ["one", "one"]
    shutil.rmtree(out / "b")  # a removed game's output
    with keeping_old_copies(copies, prune=True), replacing_folder(out / "a", refill=True) as stage:
        assert (stage / "version.txt").read_text(encoding="utf-8") == "one"  # the copy taken out last time
        assert (stage / "deep" / "er" / "file.txt").is_file()
        shutil.rmtree(stage / "deep")
        (stage / "version.txt").unlink()
        (stage / "version.txt").write_text("three", encoding="utf-8")
    assert names(out / "a") == ["version.txt"] and (out / "a" / "version.txt").read_text(encoding="utf-8") == "three"
    assert [(copy / "version.txt").read_text(encoding="utf-8") for copy in kept_copies()] == ["two"]
    assert not [name for name in names(out) if name.startswith(".")]  # no leftover beside the outputs
    with replacing_folder(out / "a", refill=True) as stage:  # outside a build: as a plain replacement
        assert names(stage) == []
        (stage / "version.txt").write_text("four", encoding="utf-8")
    assert [(copy / "version.txt").read_text(encoding="utf-8") for copy in kept_copies()] == ["two"]
    (copies / "0123456789abcdef01234567.target").write_bytes(os.fsencode(out / "a"))  # its copy never came (killed)
    with keeping_old_copies(copies, prune=True):
        pass
    assert not (copies / "0123456789abcdef01234567.target").exists()
    assert [(copy / "version.txt").read_text(encoding="utf-8") for copy in kept_copies()] == ["two"]


def test_old_copies_are_never_kept_through_a_link_and_nothing_carddb_did_not_name_is_pruned(tmp_path: Path) -> None:
    """The old copies' folder is carddb's own: when it is a link (it may lead to a user's folder), the build deletes
    its old copies as before and prunes nothing there; in the real folder, only what carddb named is pruned."""
    from carddb.files.replacing import keeping_old_copies

    out, elsewhere = tmp_path / "out", tmp_path / "users-folder"
    (elsewhere / "photos").mkdir(parents=True)
    (elsewhere / "photos" / "cat.jpg").write_bytes(b"a user's file")
    state = tmp_path / "state"
    state.mkdir()
    (state / "copies").symlink_to(elsewhere, target_is_directory=True)
    replace(out / "a", "one")
    with keeping_old_copies(state / "copies", prune=True), replacing_folder(out / "a", refill=True) as stage:
        assert names(stage) == []
        (stage / "version.txt").write_text("two", encoding="utf-8")
    assert names(elsewhere) == ["photos"] and (elsewhere / "photos" / "cat.jpg").read_bytes() == b"a user's file"
    assert not [name for name in names(out) if name.startswith(".")]  # the old copy deleted, as outside a build

    copies = tmp_path / "copies"
    (copies / "notes").mkdir(parents=True)  # not a name carddb gives an old copy
    with keeping_old_copies(copies, prune=True), replacing_folder(out / "a", refill=True) as stage:
        (stage / "version.txt").write_text("three", encoding="utf-8")
    assert "notes" in names(copies) and len(names(copies)) == 3  # the notes, the copy kept and its .target
