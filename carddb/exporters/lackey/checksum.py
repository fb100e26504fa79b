"""LackeyCCG's file checksum, as its ``/mkupdate`` command writes it into ``updatelist.txt``.

``research/lackey.md`` §1.11: a running sum of the bytes read as signed 8-bit values, skipping CR and LF,
kept within +-10^8 by C's truncating remainder after every byte, then minus one. Verified there against 169
values of 7 real plugins. It is not a CRC; an empty file gives -1.
"""

from __future__ import annotations

import zlib
from pathlib import Path

_MODULUS = 100_000_000
_CHUNK = 65_520  # bytes summed at once (``_byte_sum``)
_ADLER_MOD = 65_521
_INVERSE = pow(_ADLER_MOD, -1, 255)
_TOP_BIT_FLIPPED = bytes(value ^ 0x80 for value in range(256))


def _trunc_mod(value: int) -> int:
    """C's ``%``: the remainder takes the sign of the dividend."""
    remainder = abs(value) % _MODULUS
    return remainder if value >= 0 else -remainder


def lackey_checksum(data: bytes) -> int:
    data = data.translate(None, b"\r\n")
    value = 0
    for start in range(0, len(data), _CHUNK):
        chunk = data[start:start + _CHUNK]
        if abs(value) + 128 * len(chunk) < _MODULUS:
            # No partial sum can reach the modulus, so the remainders are all identities: sum at once.
            # a signed byte is its unsigned value with the top bit flipped, less 128 (a table, not a deletion)
            value += _byte_sum(chunk.translate(_TOP_BIT_FLIPPED)) - 128 * len(chunk)
            continue
        for byte in chunk:
            value = _trunc_mod(value + (byte - 256 if byte > 127 else byte))
    return _trunc_mod(value - 1)


def _byte_sum(chunk: bytes) -> int:
    """The sum of ``chunk``'s bytes (unsigned, at most ``_CHUNK`` of them) at C speed, from two remainders: modulo
    65,521 (zlib's Adler-32, whose low half is 1 plus that sum) and modulo 255 (the bytes are the digits of a number
    in base 256, and 256 is 1 modulo 255). A sum of up to 65,520 bytes is under 255 * 65,521, so the Chinese
    remainder theorem gives it exactly. ``sum(chunk)`` made an integer of every byte: the checksums of a plugin of
    1,000 cards' images took 0.3 s, in every site build."""
    by_adler = (zlib.adler32(chunk) & 0xFFFF) - 1
    by_255 = int.from_bytes(chunk, "little") % 255
    return by_adler + _ADLER_MOD * ((by_255 - by_adler) * _INVERSE % 255)


def file_checksum(path: str | Path) -> int:
    return lackey_checksum(Path(path).read_bytes())
