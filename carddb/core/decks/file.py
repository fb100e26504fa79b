"""Turning the bytes of a deck file into text: BOMs, UTF-16, Latin-1, and refusing binaries. Pure stdlib."""

from __future__ import annotations

import codecs

from carddb.errors import InputError

#: Deck files above this size are refused before reading (a 60-card deck is a few kilobytes).
MAX_DECK_BYTES = 10 * 1024 * 1024

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_TEXT_CONTROLS = {"\t", "\n", "\r", "\f", "\v"}


def decode_deck_bytes(data: bytes, where: str = "deck file") -> str:
    """The text of a deck file; ``InputError`` when it is too big or not text at all.

    A BOM decides the encoding (UTF-8, UTF-16, UTF-32); without one, UTF-8 is tried, then Windows-1252
    (what LackeyCCG and Apprentice write on Windows), then Latin-1, which decodes any byte.
    """
    if len(data) > MAX_DECK_BYTES:
        raise InputError(f"{where} is {len(data) / 1048576:.1f} MB; a deck file may be at most "
                         f"{MAX_DECK_BYTES // 1048576} MB")
    text = _decode(data, where)
    if text and _looks_binary(text):
        raise InputError(f"{where} is not a text file (it holds binary data)",
                         hint="Deck files are text: the deck list format, LackeyCCG .dek or .txt, Apprentice .dec.")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decode(data: bytes, where: str) -> str:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(encoding)
            except UnicodeDecodeError:
                raise InputError(f"{where} starts with a {encoding} byte order mark but is not "
                                 f"{encoding} text") from None
    if b"\x00" in data:
        guessed = _guess_utf16(data)
        if guessed:
            return guessed
        raise InputError(f"{where} is not a text file (it holds NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _guess_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM: ASCII text then has a NUL in every other byte."""
    if len(data) < 2 or len(data) % 2:
        return None
    even_nuls = data[0::2].count(0)
    odd_nuls = data[1::2].count(0)
    half = len(data) // 2
    encoding = "utf-16-le" if odd_nuls > 0.9 * half else "utf-16-be" if even_nuls > 0.9 * half else ""
    if not encoding:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _looks_binary(text: str) -> bool:
    sample = text[:8192]
    controls = sum(1 for ch in sample if ch < " " and ch not in _TEXT_CONTROLS)
    return controls > max(2, len(sample) // 100)
