"""File names from names: readable, safe, bounded, and for cards unique within a game and stable. Pure stdlib.

Every file named after a card (its rendered face, its LackeyCCG ``ImageFile``, its face on the site and the
site's anchor for it) takes its name from ``card_stems``, so all of them agree::

    Bowser's Fire Breath  ->  bowsers-fire-breath       readable: ASCII, lower case, apostrophes dropped
    a 300-character name  ->  its first words + -1a2b3c  bounded: at most 64 characters, a hash keeps it apart
    火の鳥, ..            ->  card-9f3e0a, card-5d41c2   no Latin letters: a hash of the name
    Fire! and Fire?       ->  fire-e1c0b4, fire-77a9d3   two cards whose names read alike: each its hash

A stem is only ever ``[a-z0-9-]``: never a path separator, a dot, an empty name or a name Windows reserves
(``con``, ``nul``, ...). The hash is of the card's key alone, so a card keeps its file name from run to run
for as long as its name (and the names it reads alike with) stay the same.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

#: The longest stem (the readable part and its hash), well within every file system's 255 bytes.
MAX_STEM = 64
HASH_CHARS = 6

_APOSTROPHES = re.compile(r"['\u2019\u2018\u02bc`\u00b4]")
_UNSAFE = re.compile(r"[^a-z0-9]+")
WINDOWS_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                              *(f"lpt{i}" for i in range(10))})
#: Names a card's file must not take: the card back (``back.png``) and a folder's index page.
CARD_RESERVED = frozenset({"back", "index"})


def _readable(text: str) -> str:
    """``Bowser's Fire Breath`` -> ``bowsers-fire-breath``; may be empty or too long."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _UNSAFE.sub("-", _APOSTROPHES.sub("", folded).lower()).strip("-")


def _digest(text: str, length: int = HASH_CHARS) -> str:
    return hashlib.sha256(unicodedata.normalize("NFC", text).encode("utf-8")).hexdigest()[:length]


def _cut(readable: str, room: int) -> str:
    """At most ``room`` characters, cut at a word (``-``) where one is near."""
    if len(readable) <= room:
        return readable
    cut = readable[:room]
    boundary = cut.rfind("-")
    return (cut[:boundary] if boundary >= room // 2 else cut).strip("-")


def _hashed(readable: str, text: str, length: int = HASH_CHARS, fallback: str = "card") -> str:
    head = _cut(readable, MAX_STEM - length - 1) or fallback
    return f"{head}-{_digest(text, length)}"


def slugify(text: str, *, fallback: str = "card") -> str:
    """A safe, readable file name stem for a set, a deck, a game or a plugin (cards: ``card_stems``).

    Readable when it can be (``Alan's Site`` -> ``alans-site``); a short hash of the text is added where
    the readable form lost too much to tell texts apart: nothing left (``火の鳥`` -> ``card-9f3e0a``), cut
    to ``MAX_STEM``, or a name Windows reserves.
    """
    readable = _readable(text)
    if readable and len(readable) <= MAX_STEM and readable not in WINDOWS_RESERVED:
        return readable
    return _hashed(readable, text, fallback=fallback)


def card_stems(keys: Iterable[str], reserved: Iterable[str] = CARD_RESERVED) -> dict[str, str]:
    """Each card key of one game -> its file name stem: ``slugify``'s, unique within the game.

    Cards whose stems would clash (``Fire!`` and ``Fire?``) or that would take a reserved name (a card
    called ``Back``) each get the hash of their own key; if hashes still clash (never seen, but possible)
    they grow until they do not. Pass every card of the game, even when writing files for some of them,
    so that the names do not depend on which cards were asked for.
    """
    taken = frozenset(reserved)
    unique_keys = list(dict.fromkeys(keys))
    stems = {key: slugify(key) for key in unique_keys}
    clashes = Counter(stems.values())
    for key, stem in stems.items():
        if clashes[stem] > 1 or stem in taken:
            stems[key] = _hashed(_readable(key), key)
    length = HASH_CHARS
    while True:
        clashes = Counter(stems.values())
        clashing = [key for key, stem in stems.items() if clashes[stem] > 1 or stem in taken]
        if not clashing or length >= 64:  # a whole SHA-256 that still clashes: not in this universe
            return stems
        length += 2
        for key in sorted(clashing):
            stems[key] = _hashed(_readable(key), key, length)
