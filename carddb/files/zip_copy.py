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
import struct
import zipfile
import zlib
from collections.abc import Callable, Container, Iterable
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
    written: the same file of an export swapped in whole with it); anything else is read and written."""
    writer = _Writer(handle)
    found = _stored_entries(earlier) if earlier is not None else {}
    with open(earlier, "rb") if found and earlier is not None else contextlib.nullcontext() as old:
        for name, data in members:
            entry = found.get(name) if name in same else None
            copied = _copied(old, entry, name) if entry is not None and old is not None else None
            if copied is not None:
                writer.add(name, zipfile.ZIP_STORED, entry.CRC, entry.file_size, copied)  # type: ignore[union-attr]
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

    def add(self, name: str, method: int, crc: int, size: int, data: bytes) -> None:
        encoded = name.encode("utf-8")
        flags = 0 if encoded.isascii() else _UTF8_NAME
        if self.at + _LOCAL.size + len(encoded) + len(data) > _LARGEST or size > _LARGEST:
            raise LimitError(f"a zip of more than 4 GB ({name} would pass it); carddb writes no ZIP64 zips")
        self.handle.write(_LOCAL.pack(b"PK\x03\x04", _VERSION, 0, flags, method, 0, _DOS_DATE_1980, crc, len(data),
                                      size, len(encoded), 0) + encoded)
        self.handle.write(data)
        self.central.append(_CENTRAL.pack(b"PK\x01\x02", _VERSION, _UNIX, _VERSION, 0, flags, method, 0,
                                          _DOS_DATE_1980, crc, len(data), size, len(encoded), 0, 0, 0, 0, _FILE_MODE,
                                          self.at) + encoded)
        self.at += _LOCAL.size + len(encoded) + len(data)

    def close(self) -> None:
        directory = b"".join(self.central)
        self.handle.write(directory)
        self.handle.write(_END.pack(b"PK\x05\x06", 0, 0, len(self.central), len(self.central), len(directory),
                                    self.at, 0))


def _stored_entries(path: Path) -> dict[str, zipfile.ZipInfo]:
    """The stored, unencrypted entries of the zip at ``path`` by name (none when it is missing or no zip)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return {info.filename: info for info in archive.infolist()
                    if info.compress_type == zipfile.ZIP_STORED and not info.flag_bits & 0x1}
    except (OSError, zipfile.BadZipFile, ValueError):
        return {}


def _copied(old: BinaryIO, entry: zipfile.ZipInfo, name: str) -> bytes | None:
    """The stored bytes of ``entry``, read at once with the local header before them; None unless that header is
    the one this module writes for the same entry (another writer's zip is read, not trusted)."""
    encoded = name.encode("utf-8")
    try:
        old.seek(entry.header_offset)
        raw = old.read(_LOCAL.size + len(encoded) + entry.compress_size)
    except OSError:
        return None
    expected = _LOCAL.pack(b"PK\x03\x04", _VERSION, 0, 0 if encoded.isascii() else _UTF8_NAME, zipfile.ZIP_STORED, 0,
                           _DOS_DATE_1980, entry.CRC, entry.compress_size, entry.file_size, len(encoded), 0) + encoded
    if len(raw) != len(expected) + entry.compress_size or not raw.startswith(expected) \
            or entry.compress_size != entry.file_size:
        return None
    return raw[len(expected):]

