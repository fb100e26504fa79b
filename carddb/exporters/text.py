"""Text as the old clients can show it: ASCII for LackeyCCG, Windows-1252 for Apprentice.

LackeyCCG draws curly quotes as nothing and mangles accents (``../shared/research/lackey.md`` §6.1), so its
card data is transliterated to ASCII; Apprentice stores single-byte Windows-1252. Each function returns the
converted text and the characters it could not keep as they were, so the exporter can report them.
"""

from __future__ import annotations

import re
import unicodedata

# Punctuation with a faithful ASCII spelling: no warning needed, nothing of meaning is lost.
_PUNCTUATION = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'", "\u00b4": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u2026": "...", "\u00a0": " ", "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u2022": "*", "\u00b7": "*",
    "\u00d7": "x", "\u2192": "->", "\u2190": "<-", "\u2122": "(TM)", "\u00a9": "(C)", "\u00ae": "(R)",
}
# Letters that do not decompose but have a customary ASCII spelling (Apprentice-era "AEther").
_LETTERS = {"\u00c6": "AE", "\u00e6": "ae", "\u0152": "OE", "\u0153": "oe", "\u00df": "ss", "\u00d8": "O",
            "\u00f8": "o", "\u0141": "L", "\u0142": "l", "\u00d0": "D", "\u00f0": "d", "\u00de": "Th",
            "\u00fe": "th", "\u2605": "*", "\u2606": "*"}

_BREAKS = re.compile(r"\r\n|\r|\n")
LINE_SEPARATOR = " | "


def to_ascii(text: str) -> tuple[str, list[str]]:
    """``text`` in ASCII; the second value lists the characters that lost something (``é``) or were
    replaced by ``?`` because they have no spelling in ASCII. Curly quotes and dashes are not listed."""
    normal = unicodedata.normalize("NFC", text)
    if normal.isascii():  # most text: nothing to replace, and no loop over its characters (every card, every export)
        return normal, []
    out: list[str] = []
    lossy: list[str] = []
    for char in normal:
        if ord(char) < 128:
            out.append(char)
        elif char in _PUNCTUATION:
            out.append(_PUNCTUATION[char])
        elif char in _LETTERS:
            out.append(_LETTERS[char])
            lossy.append(char)
        else:
            stripped = "".join(c for c in unicodedata.normalize("NFKD", char) if ord(c) < 128)
            out.append(stripped or "?")
            lossy.append(char)
    return "".join(out), _unique(lossy)


def to_cp1252(text: str) -> tuple[str, list[str]]:
    """``text`` restricted to what Windows-1252 encodes; other characters are transliterated as for ASCII
    and listed. Characters cp1252 has (``é``, ``—``, ``’``) are kept."""
    normal = unicodedata.normalize("NFC", text)
    try:
        normal.encode("cp1252")  # most text: every character kept, found at once rather than one at a time
        return normal, []
    except UnicodeEncodeError:
        pass
    out: list[str] = []
    lossy: list[str] = []
    for char in normal:
        try:
            char.encode("cp1252")
            out.append(char)
        except UnicodeEncodeError:
            out.append(to_ascii(char)[0])
            lossy.append(char)
    return "".join(out), _unique(lossy)


def one_line(text: str) -> str:
    """A field on one line: line breaks become `` | `` (read back as line breaks), tabs a space."""
    lines = (line.strip() for line in _BREAKS.split(text.replace("\t", " ")))
    return LINE_SEPARATOR.join(line for line in lines if line)


def from_one_line(text: str) -> str:
    return text.replace(LINE_SEPARATOR, "\n")


def describe(chars: list[str]) -> str:
    """``'é' (U+00E9), '★' (U+2605)`` for a warning."""
    return ", ".join(f"{c!r} (U+{ord(c):04X})" for c in chars)


def _unique(chars: list[str]) -> list[str]:
    return list(dict.fromkeys(chars))
