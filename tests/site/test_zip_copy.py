"""``copy_entries``: the site's standard library is Pyodide's, entries copied as they are compressed there."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

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
