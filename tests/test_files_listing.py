"""``carddb.files.listing.files_below``: what a build takes as the files of an earlier output."""

from __future__ import annotations

from pathlib import Path

from carddb.files.listing import files_below


def test_files_below_lists_every_file_never_enters_a_linked_folder_and_counts_linked_files_when_asked(
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

    assert sorted(files_below(root, linked_files=False)) == ["cards/a/index.html", "index.html"]
    assert sorted(files_below(root, linked_files=True)) == ["cards/a/index.html", "index.html", "linked.txt"]
    assert files_below(tmp_path / "missing", linked_files=True) == []
