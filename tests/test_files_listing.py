"""``carddb.files.listing``: what a build takes as the files of an earlier output (``plain_files``), and how it
brings an old copy of an output up to date without writing through a link to the live one (``prune_to``)."""

from __future__ import annotations

import os
from pathlib import Path

from carddb.files.listing import plain_files, prune_to


def test_plain_files_lists_every_file_with_its_inode_never_enters_a_linked_folder_and_counts_linked_files_when_asked(
        tmp_path: Path) -> None:
    root = tmp_path / "out"
    (root / "cards" / "a").mkdir(parents=True)
    (root / "cards" / "a" / "index.html").write_text("a", encoding="utf-8")
    (root / "index.html").write_text("home", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.txt").write_text("not an output", encoding="utf-8")
    (root / "outside").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)  # a walk that followed it would never end
    (root / "linked.txt").symlink_to(tmp_path / "elsewhere" / "secret.txt")

    plain = plain_files(root)
    assert sorted(plain) == ["cards/a/index.html", "index.html"]
    assert plain["index.html"] == (root / "index.html").stat().st_ino
    linked = plain_files(root, linked_files=True)
    assert sorted(linked) == ["cards/a/index.html", "index.html", "linked.txt"]
    assert linked["linked.txt"] == -1  # the link's number is no file's: never taken as the same file
    assert plain_files(tmp_path / "missing", linked_files=True) == {}


def test_prune_to_leaves_only_the_very_files_asked_for_and_no_emptied_folder(tmp_path: Path) -> None:
    live, old = tmp_path / "live", tmp_path / "old"
    for folder in (live / "cards" / "kept", live / "cards" / "changed", old / "cards" / "gone", old / "cards" / "kept",
                   old / "cards" / "changed", old / "empty"):
        folder.mkdir(parents=True, exist_ok=True)
    (live / "cards" / "kept" / "index.html").write_text("kept", encoding="utf-8")
    os.link(live / "cards" / "kept" / "index.html", old / "cards" / "kept" / "index.html")  # the same file
    (live / "cards" / "changed" / "index.html").write_text("new", encoding="utf-8")
    (old / "cards" / "changed" / "index.html").write_text("old", encoding="utf-8")  # same path, another file
    (old / "cards" / "gone" / "index.html").write_text("a removed card", encoding="utf-8")
    (old / "note.txt").symlink_to(live / "cards" / "kept" / "index.html")  # a link, even to a kept file, goes

    left = prune_to(old, plain_files(live))
    assert left == {"cards/kept/index.html"}
    assert sorted(path.relative_to(old).as_posix() for path in old.rglob("*")) == [
        "cards", "cards/kept", "cards/kept/index.html"]
    assert (live / "cards" / "changed" / "index.html").read_text(encoding="utf-8") == "new"
    assert (live / "cards" / "kept" / "index.html").read_text(encoding="utf-8") == "kept"
    assert prune_to(old, {}) == set() and list(old.iterdir()) == []
