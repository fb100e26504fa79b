"""LackeyCCG's file checksum, as its ``/mkupdate`` command writes it into ``updatelist.txt``.

``research/lackey.md`` §1.11: a running sum of the bytes read as signed 8-bit values, skipping CR and LF,
kept within +-10^8 by C's truncating remainder after every byte, then minus one. Verified there against 169
values of 7 real plugins. It is not a CRC; an empty file gives -1.
"""

from __future__ import annotations

from pathlib import Path

_MODULUS = 100_000_000
_CHUNK = 1 << 16
_HIGH_BYTES = bytes(range(128, 256))


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
            high = len(chunk) - len(chunk.translate(None, _HIGH_BYTES))
            value += sum(chunk) - 256 * high
            continue
        for byte in chunk:
            value = _trunc_mod(value + (byte - 256 if byte > 127 else byte))
    return _trunc_mod(value - 1)


def file_checksum(path: str | Path) -> int:
    return lackey_checksum(Path(path).read_bytes())
