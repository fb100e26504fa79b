"""Apprentice's ``Sets/cardinfo.dat``: the binary card database (``research/apprentice.md`` §1.2).

Layout, all integers little-endian, every string a ``u16`` byte length then Windows-1252 bytes::

    u32 index_offset | body* (type, cost, pt, text, flavor) | u32 N | head* (name, u32 body_offset, u8 color,
    sets, u16 0)

Line breaks inside strings are CRLF. Strings are kept under 1000 bytes, where MSE's reader clamps them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from carddb.errors import OutputError

MAX_STRING_BYTES = 1000
NAME_LENGTH = 27  # MSE: name.substr(0, 27); // max length

WHITE, BLUE, BLACK, RED, GREEN, GOLD, ARTIFACT, LAND = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80
COLOR_BITS = {"W": WHITE, "U": BLUE, "B": BLACK, "R": RED, "G": GREEN}


@dataclass(frozen=True)
class Record:
    name: str
    type: str
    cost: str
    pt: str
    text: str
    flavor: str
    color: int
    sets: str


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")


def pstr(text: str, what: str) -> bytes:
    try:
        data = crlf(text).encode("cp1252")
    except UnicodeEncodeError as exc:  # the mapping converts first; reaching here is a bug, not bad input
        raise OutputError(f"{what}: {exc.object[exc.start:exc.end]!r} has no Windows-1252 byte") from None
    if len(data) > MAX_STRING_BYTES:
        raise OutputError(f"{what} is {len(data)} bytes; Apprentice readers hold at most {MAX_STRING_BYTES}")
    return struct.pack("<H", len(data)) + data


def write_cardinfo(records: list[Record]) -> bytes:
    """The file's bytes; records are written in the order given (bodies and heads alike)."""
    out = bytearray(struct.pack("<I", 0))
    offsets = []
    for record in records:
        offsets.append(len(out))
        for part, value in (("type", record.type), ("cost", record.cost), ("pt", record.pt),
                            ("text", record.text), ("flavor", record.flavor)):
            out += pstr(value, f"{record.name}: {part}")
    index_offset = len(out)
    out[0:4] = struct.pack("<I", index_offset)
    out += struct.pack("<I", len(records))
    for record, offset in zip(records, offsets, strict=True):
        if not 0 <= record.color <= 0xFF:
            raise OutputError(f"{record.name}: colour {record.color} does not fit a byte")
        out += pstr(record.name, f"{record.name}: name") + struct.pack("<IB", offset, record.color)
        out += pstr(record.sets, f"{record.name}: sets") + struct.pack("<H", 0)
    return bytes(out)
