"""Text printed twice on one face: the same sentence, phrase or list in two places.

A face states each fact once: a field the template prints in its own place (a deck limit, an interrupt list,
the materials of a Fusion monster) is not repeated by the card's text, and a flag printed as a banner is not
said again in italics. This module finds the repeats in the text blocks of one face, whether they come from
the layout engine (one block per text box) or are read back from a PDF (one block per run of lines).

A block is cut into *units*: sentences and clauses (at ``. ! ? : ;`` and line breaks) and the items of a list
(``a, b``, ``a / b``, ``a + b``). Units are compared as lowercase words, so case, punctuation and markup do not
hide a repeat. Reported are:

* the same unit twice;
* a unit found word for word inside another one ("Granite Sentinel" inside "Granite Sentinel. Immunity...");
* a list of two or more items whose every item is in one other unit ("attack, throw" and "Interrupt an attack
  or throw card").

Units too short to be a fact on their own (fewer than two words or eight letters: "CP 5", "ATK 7") are not
compared, nor is the card's name (a block that is the name, or a unit equal to it): a name is an identity that
a text may well mention.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[0-9a-z]+")
_CLAUSE = re.compile(r"(?<=[.!?:;])\s+|\n")
_LIST = re.compile(r",\s+|\s+/\s+|\s+\+\s+")
MIN_WORDS = 2
MIN_LETTERS = 8


@dataclass(frozen=True)
class Repeat:
    """A unit printed twice: the words, and the boxes it was found in (the same box twice is possible)."""

    text: str
    boxes: tuple[str, str]

    def describe(self) -> str:
        where = self.boxes[0] if self.boxes[0] == self.boxes[1] else f"{self.boxes[0]} and {self.boxes[1]}"
        return f"{self.text!r} is printed twice ({where})"


@dataclass(frozen=True)
class _Unit:
    box: str
    words: tuple[str, ...]
    items: tuple[tuple[str, ...], ...]  # a list's items (more than one), else empty
    index: int


def words(text: str) -> tuple[str, ...]:
    """The lowercase words of ``text`` (letters and digits; an apostrophe or hyphen splits a word)."""
    return tuple(_WORD.findall(text.casefold()))


def _counts(seq: tuple[str, ...]) -> bool:
    return len(seq) >= MIN_WORDS and sum(len(w) for w in seq if not w.isdigit()) >= MIN_LETTERS


def _contains(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    n = len(inner)
    return any(outer[i:i + n] == inner for i in range(len(outer) - n + 1))


def units(blocks: Sequence[tuple[str, str]]) -> list[_Unit]:
    """The clauses and list items of ``(box name, text)`` blocks."""
    found: list[_Unit] = []
    for box, text in blocks:
        for clause in _CLAUSE.split(text):
            clause = clause.strip().rstrip(".!?:;").strip()
            if not clause:
                continue
            parts = [words(p) for p in _LIST.split(clause)]
            items = tuple(p for p in parts if p)
            found.append(_Unit(box, words(clause), items if len(items) > 1 else (), len(found)))
    return found


def find_repeats(blocks: Sequence[tuple[str, str]], name: str = "") -> list[Repeat]:
    """Every unit of ``blocks`` printed twice (once per pair of places), in the order they were found."""
    own_name = words(name)
    every = [u for u in units([b for b in blocks if words(b[1]) != own_name]) if u.words and u.words != own_name]
    repeats: list[Repeat] = []
    seen: set[tuple[str, ...]] = set()

    def report(unit_words: tuple[str, ...], a: _Unit, b: _Unit) -> None:
        if unit_words not in seen:
            seen.add(unit_words)
            repeats.append(Repeat(" ".join(unit_words), (a.box, b.box)))

    for a in every:
        candidates = [a.words] if _counts(a.words) else []
        candidates += [item for item in a.items if _counts(item) and item != own_name]
        for b in every:
            if b.index == a.index:
                continue
            for phrase in candidates:
                if phrase == b.words and b.index < a.index:
                    continue  # an equal pair is reported once, from its first unit
                if _contains(b.words, phrase):
                    report(phrase, a, b)
            if a.items and all(_contains(b.words, item) for item in a.items) and not _is_same_list(a, b):
                report(a.words, a, b)
    return repeats


def _is_same_list(a: _Unit, b: _Unit) -> bool:
    """Two units that are both the list (caught as equal units already)."""
    return a.words == b.words
