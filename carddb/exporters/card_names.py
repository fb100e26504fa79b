"""Card names for clients that find cards by name: the card's own name, told apart only where needed.

A card's name is used as it is; only cards whose names collide (Website's two Splash Pages) get their
version added, ``Splash Page (Neutral)``. Where the client limits the length (Apprentice: 27 characters),
the name is shortened first, at a word where it can be, and the suffix is kept whole: a name never ends in
a cut bracket. A name still taken after all this gets ``~2``, ``~3``. Every change is reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from carddb.core.cards.card import Card

_TRAILING = " -:;,/&(["


def shorten(text: str, limit: int | None) -> str:
    """``text`` cut to ``limit`` characters at the last word that fits (or mid-word when that would keep
    less than 60%), without trailing punctuation or an unclosed bracket."""
    if limit is None or len(text) <= limit:
        return text
    cut = text[:limit]
    space = text.rfind(" ", 0, limit + 1)
    if space >= limit * 0.6:
        cut = text[:space]
    cut = cut.rstrip(_TRAILING)
    for opening, closing in ("()", "[]"):
        if cut.count(opening) > cut.count(closing):
            cut = cut[:cut.rfind(opening)].rstrip(_TRAILING)
    return cut or text[:limit]


def with_version(base: str, version: str, limit: int | None) -> str:
    """``base (version)`` within ``limit``: the base is shortened first, the version only when the base would
    keep less than half the limit."""
    if limit is not None and len(base) + len(version) + 3 > limit and len(version) + 3 > limit // 2:
        version = shorten(version, limit // 2 - 3)
    suffix = f" ({version})"
    return f"{shorten(base, None if limit is None else limit - len(suffix))}{suffix}"


def client_names(cards: Sequence[Card], client: str, warnings: list[str], *, limit: int | None = None,
                 convert: Callable[[str, Card], str] = lambda text, card: text) -> dict[int, str]:
    """``{id(card): name}``, unique ignoring case. ``convert`` maps text into the client's characters."""
    bases = {id(card): convert(" ".join(card.name.split()), card) for card in cards}
    clashing = Counter(base.casefold() for base in bases.values())
    names: dict[int, str] = {}
    taken: set[str] = set()
    for card in cards:
        base = bases[id(card)]
        if clashing[base.casefold()] > 1 and card.qualifier:
            name = with_version(base, convert(card.qualifier, card), limit)
        else:
            name = shorten(base, limit)
            if name != base:
                warnings.append(f"{card.key}: name longer than {client}'s {limit} characters; shortened to "
                                f"{name!r}")
        unique, n = name, 1
        while unique.casefold() in taken:
            n += 1
            suffix = f"~{n}"
            unique = shorten(name, None if limit is None else limit - len(suffix)) + suffix
        if n > 1:
            warnings.append(f"{card.key}: its {client} name {name!r} is taken by another card; written as "
                            f"{unique!r}")
        taken.add(unique.casefold())
        names[id(card)] = unique
    return names
