"""An independent reader of Apprentice's ``cardinfo.dat``, written from ``research/apprentice.md`` §1.2.

It shares no code with the writer (``carddb.exporters.apprentice``): read the u32 index offset, seek there,
read the u32 count and that many heads; for each head seek to its body offset and read the five body
strings. Strings are a u16 little-endian length then Windows-1252 bytes. It returns the same JSON shape as
the samples' ``*.expected.json`` files.
"""

from __future__ import annotations

import struct
from typing import Any


class Truncated(ValueError):
    pass


def _u(data: bytes, at: int, fmt: str) -> tuple[int, int]:
    size = struct.calcsize(fmt)
    if at + size > len(data):
        raise Truncated(f"need {size} bytes at offset {at}, file has {len(data)}")
    return struct.unpack_from(fmt, data, at)[0], at + size


def _string(data: bytes, at: int) -> tuple[str, int]:
    length, at = _u(data, at, "<H")
    if at + length > len(data):
        raise Truncated(f"string of {length} bytes at offset {at - 2} runs past the end")
    return data[at:at + length].decode("cp1252"), at + length


def decode(data: bytes) -> dict[str, Any]:
    index_offset, _ = _u(data, 0, "<I")
    count, at = _u(data, index_offset, "<I")
    cards = []
    for _ in range(count):
        name, at = _string(data, at)
        body_offset, at = _u(data, at, "<I")
        color, at = _u(data, at, "<B")
        sets, at = _string(data, at)
        spacer = data[at:at + 2]
        at += 2
        body = body_offset
        values = {}
        for key in ("type", "cost", "pt", "text", "flavor"):
            values[key], body = _string(data, body)
        cards.append({"name": name, "body_offset": body_offset, "color": color, "sets": sets,
                      "spacer_hex": spacer.hex(), **values})
    if at != len(data):
        raise ValueError(f"{len(data) - at} bytes after the last head")
    return {"file_size": len(data), "index_offset": index_offset, "card_count": count, "cards": cards}
