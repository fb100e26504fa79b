"""Name resolution: from what a player typed to the card they meant. Pure standard library.

Layers, in order: the exact name; the normalised name (``games.md``: case, outer and repeated inner space,
straight and curly apostrophes); the aliases the game declares as data; and, when nothing matches, up to
three close names offered as suggestions. A name several cards share needs a qualifier, ``(X)`` or
``[X]``, that matches the card's version (the game's qualifier field) or the code or name of a set it was
printed in; without one the line is ``ambiguous-card`` and the choices are listed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from carddb.core.cards.card import Card, normalise_name


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of looking up one name: a card, or the reason there is none."""

    card: Card | None = None
    status: str = "ok"  # ok | unknown | ambiguous | no-version
    choices: tuple[str, ...] = ()
    via: str = ""  # exact | normalised | alias | name+qualifier


class NameIndex:
    """Every card of a game by exact name and normalised name, plus the game's aliases; built once."""

    def __init__(self, cards: Iterable[Card], aliases: dict[str, str] | None = None,
                 set_names: dict[str, str] | None = None) -> None:
        self.cards = list(cards)
        #: set name -> set code, both normalised, so ``(Base Set)`` works as well as ``(base)``
        self.set_names = {normalise_name(k): normalise_name(v) for k, v in (set_names or {}).items()}
        self.by_exact: dict[str, list[Card]] = {}
        self.by_norm: dict[str, list[Card]] = {}
        for card in self.cards:
            self.by_exact.setdefault(card.name, []).append(card)
            self.by_norm.setdefault(normalise_name(card.name), []).append(card)
        self.aliases = {normalise_name(k): normalise_name(v) for k, v in (aliases or {}).items()}
        self._norm_names = sorted(self.by_norm)
        self._cache: dict[tuple[str, str, str], Resolution] = {}

    def resolve(self, name: str, qualifier: str = "", set_hint: str = "") -> Resolution:
        key = (name, qualifier, set_hint)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._resolve(name, qualifier, set_hint)
            if len(self._cache) < 50_000:
                self._cache[key] = cached
        return cached

    def _resolve(self, name: str, qualifier: str, set_hint: str) -> Resolution:
        candidates, via = self._candidates(name)
        if qualifier:
            # A card whose name really ends in brackets ("B.F.M. (Big Furry Monster)") wins over a qualifier.
            whole, whole_via = self._candidates(f"{name} ({qualifier})")
            if len(whole) == 1:
                return Resolution(card=whole[0], via=whole_via)
        if not candidates:
            return Resolution(status="unknown", choices=tuple(self.suggest(name)))
        if qualifier:
            picked = [c for c in candidates if self._version_matches(c, qualifier)]
            if len(picked) == 1:
                return Resolution(card=picked[0], via=via)
            if not picked:
                return Resolution(status="no-version", choices=tuple(c.key for c in candidates))
            candidates = picked
        if len(candidates) == 1:
            return Resolution(card=candidates[0], via=via)
        if set_hint:
            picked = [c for c in candidates if self._version_matches(c, set_hint)]
            if len(picked) == 1:
                return Resolution(card=picked[0], via=via)
        return Resolution(status="ambiguous", choices=tuple(c.key for c in candidates))

    def _candidates(self, name: str) -> tuple[list[Card], str]:
        exact = self.by_exact.get(name)
        if exact:
            return exact, "exact"
        norm = normalise_name(name)
        found = self.by_norm.get(norm)
        if found:
            return found, "normalised"
        target = self.aliases.get(norm)
        if target is not None and target in self.by_norm:
            return self.by_norm[target], "alias"
        return [], ""

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` card names close to ``name`` (difflib ratio 0.6 or more), best first."""
        norm = normalise_name(name)
        close = difflib.get_close_matches(norm, self._norm_names, n=limit, cutoff=0.6)
        if len(close) < limit:
            # A name typed as a prefix ("Power Bl") or with words dropped: names that contain it.
            close += [n for n in self._norm_names if norm and norm in n and n not in close][: limit - len(close)]
        return [self.by_norm[n][0].name for n in close]

    def _version_matches(self, card: Card, wanted: str) -> bool:
        norm = normalise_name(wanted)
        if card.qualifier and normalise_name(card.qualifier) == norm:
            return True
        norm = self.set_names.get(norm, norm)
        return any(normalise_name(p.set) == norm for p in card.printings)


def no_card_named(name: str, game_id: str, cards: Iterable[Card]) -> str:
    """The sentence for a name no card of the game has, with the close names ``deck check``, ``deck odds`` and
    ``play`` offer too: ``no card named 'Powr Block' in ssbm; did you mean 'Power Block'?``."""
    close = [repr(n) for n in NameIndex(cards).suggest(name)]
    if not close:
        return f"no card named {name!r} in {game_id}"
    listed = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f"no card named {name!r} in {game_id}; did you mean {listed}?"
