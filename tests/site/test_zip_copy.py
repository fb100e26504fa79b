"""``copy_entries``: the site's standard library is Pyodide's, entries copied as they are compressed there."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from carddb.files.zip_copy import copy_entries


def _source(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("kept/__init__.py", "VALUE = 'kept'\n" * 200, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("kept/data.txt", b"\x00stored bytes" * 50, compress_type=zipfile.ZIP_STORED)
        archive.writestr("left_out.py", "raise SystemExit('never imported')\n", compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("kept/caf\u00e9.py", "NAME = 'accented'\n", compress_type=zipfile.ZIP_DEFLATED)
    return path


def test_the_kept_entries_read_back_as_in_the_source_and_nothing_else(tmp_path: Path) -> None:
    source = _source(tmp_path / "source.zip")
    copied = tmp_path / "copied.zip"
    copied.write_bytes(copy_entries(source, lambda info: info.filename.startswith("kept/")))
    with zipfile.ZipFile(source) as before, zipfile.ZipFile(copied) as after:
        assert after.testzip() is None  # every CRC checks
        assert after.namelist() == ["kept/__init__.py", "kept/data.txt", "kept/caf\u00e9.py"]
        for info in after.infolist():
            assert after.read(info) == before.read(info.filename)
            assert info.compress_type == before.getinfo(info.filename).compress_type  # not compressed again
            assert info.compress_size == before.getinfo(info.filename).compress_size
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
    # Python imports from it, as Pyodide imports its standard library from the site's copy
    done = subprocess.run([sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {str(copied)!r}); "
                           "import kept; print(kept.VALUE)"], capture_output=True, text=True, check=True)
    assert done.stdout == "kept\n"


def test_the_same_source_gives_the_same_bytes(tmp_path: Path) -> None:
    source = _source(tmp_path / "source.zip")
    first = copy_entries(source, lambda info: True)
    again = _source(tmp_path / "again.zip")  # written later: its entries' own dates do not matter
    assert copy_entries(again, lambda info: True) == first


# ``write_zip``: the LackeyCCG plugin's zips, whose images unchanged since the previous zip are copied from it

def _members(folder: Path, images: dict[str, bytes]) -> list[tuple[str, bytes | Path]]:
    folder.mkdir(exist_ok=True)
    members: list[tuple[str, bytes | Path]] = [("plugin/plugininfo.txt", b"<plugininfo>\n" * 40)]
    for name, data in images.items():
        (folder / name).write_bytes(data)
        members.append((f"plugin/sets/setimages/core/{name}", folder / name))
    return members


def _written(path: Path, members: list[tuple[str, bytes | Path]], **earlier: object) -> bytes:
    from carddb.files.zip_copy import write_zip

    with open(path, "wb") as handle:
        write_zip(handle, members, **earlier)  # type: ignore[arg-type]
    return path.read_bytes()


def test_a_zip_written_again_from_an_earlier_one_is_the_zip_written_from_scratch(tmp_path: Path) -> None:
    images = {f"card{n}.jpg": bytes([n]) * (1000 + n) for n in range(5)}
    earlier = tmp_path / "earlier.zip"
    _written(earlier, _members(tmp_path / "a", images))
    # one image changed; each unchanged one is named as the same, and is copied from the earlier zip
    images["card2.jpg"] = b"changed" * 300
    members = _members(tmp_path / "b", images)
    same = {name for name, _ in members if not name.endswith("card2.jpg")}
    for _, data in members:  # the unchanged images' files are gone: what is in the zip came from the earlier zip
        if isinstance(data, Path) and data.name != "card2.jpg":
            data.unlink()
    again = _written(tmp_path / "again.zip", members, earlier=earlier, same=same)
    fresh_members = _members(tmp_path / "c", images)
    assert again == _written(tmp_path / "fresh.zip", fresh_members)
    with zipfile.ZipFile(tmp_path / "again.zip") as archive:
        assert archive.testzip() is None
        assert archive.read("plugin/sets/setimages/core/card2.jpg") == b"changed" * 300
        assert archive.read("plugin/sets/setimages/core/card4.jpg") == bytes([4]) * 1004
        assert archive.getinfo("plugin/plugininfo.txt").compress_type == zipfile.ZIP_DEFLATED
        assert archive.getinfo("plugin/sets/setimages/core/card1.jpg").compress_type == zipfile.ZIP_STORED
    if shutil.which("unzip"):  # Info-ZIP's own test of every entry, where it is installed
        assert subprocess.run(["unzip", "-tq", str(tmp_path / "again.zip")], capture_output=True).returncode == 0


def test_the_earlier_zips_runs_are_copied_by_the_kernel_or_else_read_and_written_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unchanged entries one after the other are one run of the earlier zip's bytes: copied by
    ``copy_file_range`` where there is one (one call a run, not one an entry), else read and written; their headers
    checked in the earlier zip mapped into memory, else read; the same bytes every way."""
    import os

    images = {f"card{n}.jpg": bytes([n]) * (5000 + n) for n in range(8)}
    earlier = tmp_path / "earlier.zip"
    _written(earlier, _members(tmp_path / "a", images))
    images["card5.jpg"] = b"changed" * 700
    members = _members(tmp_path / "b", images)
    same = {name for name, _ in members if name.endswith(".jpg") and not name.endswith("card5.jpg")}
    fresh = _written(tmp_path / "fresh.zip", _members(tmp_path / "c", images))
    calls: list[int] = []
    real = getattr(os, "copy_file_range", None)
    if real is not None:
        monkeypatch.setattr(os, "copy_file_range", lambda *args: calls.append(args[2]) or real(*args))
        assert _written(tmp_path / "kernel.zip", members, earlier=earlier, same=same) == fresh
        assert len(calls) == 2  # cards 0 to 4, then 6 and 7

    def refused(*args: object, **named: object) -> int:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refused, raising=False)
    assert _written(tmp_path / "plain.zip", members, earlier=earlier, same=same) == fresh
    import mmap

    monkeypatch.setattr(mmap, "mmap", refused)  # no mapping: the earlier zip's headers read from its bytes
    assert _written(tmp_path / "unmapped.zip", members, earlier=earlier, same=same) == fresh


def test_an_earlier_zip_of_another_writer_or_missing_is_not_copied_from(tmp_path: Path) -> None:
    images = {"card.jpg": b"\xff\xd8 the image" * 100}
    members = _members(tmp_path / "a", images)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:  # the same name, another date and other bytes
        archive.writestr(zipfile.ZipInfo("plugin/sets/setimages/core/card.jpg", (2000, 1, 1, 0, 0, 0)), b"stale")
    names = {name for name, _ in members}
    fresh = _written(tmp_path / "fresh.zip", members)
    assert _written(tmp_path / "from-other.zip", members, earlier=other, same=names) == fresh
    assert _written(tmp_path / "from-none.zip", members, earlier=tmp_path / "missing.zip", same=names) == fresh
