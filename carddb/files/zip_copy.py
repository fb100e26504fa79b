"""Zips that depend on their entries alone, with entries copied from another zip as they are stored there.

* ``copy_entries``: the site ships Pyodide's standard library less the modules nothing on it imports. Deflating
  its 422 kept files again took every clean build 0.24 s of CPU, for bytes the source already holds compressed;
  copying them takes 0.01 s.
* ``write_zip``: a zip of files and bytes (a LackeyCCG plugin: every card image), where the images unchanged since
  an earlier zip of the same writer are copied from it: one read of that zip, not one file opened a card. A zip
  of 5,000 images that one card changed was read from 5,000 files and written in every build, twice (the export's
  and the site's).

Every entry is written alike (version 2.0, Unix mode 0644, dated 1980-01-01, no extra field, a UTF-8 flag on a
name that is not ASCII), so the same entries give the same bytes, copied or not.
"""

from __future__ import annotations

import contextlib
import io
import mmap
import os
import struct
import zipfile
import zlib
from collections.abc import Callable, Container, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from carddb.errors import LimitError

# zipfile's own layouts (its structFileHeader, structCentralDir and structEndArchive): APPNOTE.TXT 4.3.7, 4.3.12, 4.3.16
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")
_END = struct.Struct("<4s4H2LH")
_DOS_DATE_1980 = (0 << 9) | (1 << 5) | 1  # 1980-01-01; the time is 00:00:00
_UTF8_NAME = 0x800
_VERSION = 20  # 2.0: deflate
_UNIX = 3
_FILE_MODE = 0o644 << 16
#: Entries stored as they are: compressed already, deflating them again saves nothing and cost most of a zip's time.
STORED = (".jpg", ".jpeg", ".png")
_LARGEST = 0xFFFFFFFF  # beyond this a zip needs ZIP64's fields, which these zips never hold


def copy_entries(source: Path, keep: Callable[[zipfile.ZipInfo], bool]) -> bytes:
    """A zip of the entries of ``source`` that ``keep`` accepts, in its order, each stored as it is there."""
    out = io.BytesIO()
    writer = _Writer(out)
    with zipfile.ZipFile(source) as archive, open(source, "rb") as raw:
        for info in archive.infolist():
            if not keep(info):
                continue
            if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise ValueError(f"{source}: {info.filename} is encrypted or compressed in an unusual way")
            raw.seek(info.header_offset)
            header = raw.read(_LOCAL.size)
            name_length, extra_length = struct.unpack("<2H", header[26:30])
            raw.seek(info.header_offset + _LOCAL.size + name_length + extra_length)
            writer.add(info.filename, info.compress_type, info.CRC, info.file_size, raw.read(info.compress_size))
    writer.close()
    return out.getvalue()


def write_zip(handle: BinaryIO, members: Iterable[tuple[str, bytes | Path]], *, earlier: Path | None = None,
              same: Container[str] = frozenset()) -> None:
    """A zip of ``members`` (entry name, its bytes or the file holding them), in their order, into ``handle``:
    images stored (``STORED``), the rest deflated. An image named in ``same`` is copied from the zip ``earlier``
    when that zip stores it under the same name (the caller knows its bytes are unchanged since that zip was
    written: the same file of an export swapped in whole with it); anything else is read and written. Entries
    copied one after the other are one run of the earlier zip's bytes, copied by the kernel where it can."""
    writer = _Writer(handle)
    found = _stored_entries(earlier) if earlier is not None else {}
    with open(earlier, "rb") if found and earlier is not None else contextlib.nullcontext() as old, \
            _mapped(old) as view:
        writer.source = old
        for name, data in members:
            entry = found.get(name) if name in same else None
            span = _stored_span(view, entry, name) if entry is not None and view is not None else None
            if span is not None:
                writer.copy(name, entry.CRC, entry.file_size, *span)  # type: ignore[union-attr]
                continue
            payload = data.read_bytes() if isinstance(data, Path) else data
            if name.lower().endswith(STORED):
                writer.add(name, zipfile.ZIP_STORED, zlib.crc32(payload), len(payload), payload)
            else:
                packer = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)  # as zipfile deflates
                writer.add(name, zipfile.ZIP_DEFLATED, zlib.crc32(payload), len(payload),
                           packer.compress(payload) + packer.flush())
        writer.close()


class _Writer:
    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.central: list[bytes] = []
        self.at = 0
        self.source: BinaryIO | None = None  # the earlier zip ``copy`` takes entries from
        self._run: list[int] = []  # [start, end) of the earlier zip's bytes copied next, as one piece

    def add(self, name: str, method: int, crc: int, size: int, data: bytes) -> None:
        self._copy_run()
        encoded = name.encode("utf-8")
        self._check(name, self.at + _LOCAL.size + len(encoded) + len(data), size)
        self.handle.write(_local_header(encoded, method, crc, len(data), size))
        self.handle.write(data)
        self._central(encoded, method, crc, len(data), size, _LOCAL.size + len(encoded) + len(data))

    def copy(self, name: str, crc: int, size: int, start: int, end: int) -> None:
        """An entry of the earlier zip (its local header, the one ``add`` would write, and its stored bytes, at
        ``start`` to ``end`` there), written as it is there."""
        encoded = name.encode("utf-8")
        self._check(name, self.at + end - start, size)
        if self._run and self._run[1] == start:
            self._run[1] = end
        else:
            self._copy_run()
            self._run = [start, end]
        self._central(encoded, zipfile.ZIP_STORED, crc, size, size, end - start)

    def close(self) -> None:
        self._copy_run()
        directory = b"".join(self.central)
        self.handle.write(directory)
        self.handle.write(_END.pack(b"PK\x05\x06", 0, 0, len(self.central), len(self.central), len(directory),
                                    self.at, 0))

    def _check(self, name: str, end: int, size: int) -> None:
        if end > _LARGEST or size > _LARGEST:
            raise LimitError(f"a zip of more than 4 GB ({name} would pass it); carddb writes no ZIP64 zips")

    def _central(self, encoded: bytes, method: int, crc: int, stored: int, size: int, length: int) -> None:
        flags = 0 if encoded.isascii() else _UTF8_NAME
        self.central.append(_CENTRAL.pack(b"PK\x01\x02", _VERSION, _UNIX, _VERSION, 0, flags, method, 0,
                                          _DOS_DATE_1980, crc, stored, size, len(encoded), 0, 0, 0, 0, _FILE_MODE,
                                          self.at) + encoded)
        self.at += length

    def _copy_run(self) -> None:
        if not self._run:
            return
        (start, end), self._run = self._run, []
        assert self.source is not None
        self.handle.flush()
        _copy_bytes(self.source, self.handle, start, end - start)


def _local_header(encoded: bytes, method: int, crc: int, stored: int, size: int) -> bytes:
    flags = 0 if encoded.isascii() else _UTF8_NAME
    return _LOCAL.pack(b"PK\x03\x04", _VERSION, 0, flags, method, 0, _DOS_DATE_1980, crc, stored, size,
                       len(encoded), 0) + encoded


def _copy_bytes(source: BinaryIO, target: BinaryIO, start: int, length: int) -> None:
    """``length`` bytes of ``source`` from ``start`` appended to ``target`` (flushed): copied by the kernel
    (``copy_file_range``: no trip through Python), else read and written."""
    copy_range = getattr(os, "copy_file_range", None)
    while length > 0 and copy_range is not None:
        try:
            done = copy_range(source.fileno(), target.fileno(), length, start)
        except OSError:  # another kind of file system or file: the plain way
            break
        if done == 0:
            raise OSError(f"the earlier zip ended {length} bytes early")
        start, length = start + done, length - done
    while length > 0:
        chunk = os.pread(source.fileno(), min(length, 1 << 20), start)
        if not chunk:
            raise OSError(f"the earlier zip ended {length} bytes early")
        target.write(chunk)
        start, length = start + len(chunk), length - len(chunk)


def _stored_entries(path: Path) -> dict[str, zipfile.ZipInfo]:
    """The stored, unencrypted entries of the zip at ``path`` by name (none when it is missing or no zip)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return {info.filename: info for info in archive.infolist()
                    if info.compress_type == zipfile.ZIP_STORED and not info.flag_bits & 0x1}
    except (OSError, zipfile.BadZipFile, ValueError):
        return {}


@contextlib.contextmanager
def _mapped(old: BinaryIO | None) -> Iterator[bytes | mmap.mmap | None]:
    """The earlier zip's bytes to read its local headers from: mapped into memory (5,000 headers read in 0.01 s,
    where a system call each took 0.28 s), else read whole. carddb never shortens a zip in place (it replaces
    whole); a zip shortened by another program while mapped would end the process, as a killed build does."""
    if old is None:
        yield None
        return
    try:
        view = mmap.mmap(old.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # no mapping here (or an empty file): its bytes then
        yield old.read()
        return
    try:
        yield view
    finally:
        view.close()


def _stored_span(view: bytes | mmap.mmap, entry: zipfile.ZipInfo, name: str) -> tuple[int, int] | None:
    """Where ``entry`` is in the earlier zip (``view``: its bytes), its local header and stored bytes (start, end);
    None unless that header is the one this module writes for the same entry (another writer's zip is read, not
    trusted) and the bytes are all there."""
    encoded = name.encode("utf-8")
    expected = _local_header(encoded, zipfile.ZIP_STORED, entry.CRC, entry.compress_size, entry.file_size)
    start = entry.header_offset
    end = start + len(expected) + entry.compress_size
    if view[start:start + len(expected)] != expected or entry.compress_size != entry.file_size or end > len(view):
        return None
    return start, end

