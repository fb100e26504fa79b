"""Website TCG's sites as the play helpers see them: a base site and its components, their IP, GP and CP, how a
card is named when two cards share a name, and which components fit which base. Pure standard library; shared by
``play.py`` (totals, critics, winning) and ``persistence.py`` (what stays in play)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.signature import Arg
from carddb.errors import InputError

RATINGS = ("ip", "gp", "cp")


def rating(card: Card, key: str) -> int:
    """A card's whole-number field (``ip``, ``req_cp``, ``points``); absent or not a number is 0."""
    value = card.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(slots=True)
class Site:
    """A base site and the components attached to it, in the order they were played."""

    base: Card
    components: list[Card] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        return {r: sum(rating(c, r) for c in self.components) for r in RATINGS}


def _site_text(text: str) -> dict[str, Any]:
    """``Neutral Base Card + Splash Page (Neutral) + Guestbook``: the base site, then its components in play order."""
    parts = [part.strip() for part in text.split("+")]
    if not parts[0]:
        raise InputError(f"{text!r}: write a site as its base site and components joined by +")
    return {"base": parts[0], "components": [part for part in parts[1:] if part]}


@dataclass(frozen=True)
class SiteAsked:
    """A site as a helper is asked about it (``Site`` once read)."""

    base: Annotated[Card, Arg("The base site.", label="Base site", kinds=("base-site",), what="base site")]
    components: Annotated[list[Card], Arg("Its components, in play order.", label="component", kinds=("component",),
                                          what="component", count=6)] = ()  # type: ignore[assignment]

    def site(self) -> Site:
        return Site(self.base, list(self.components or []))


SITE_HELP = 'A site: its base site and components in play order, joined by +: "Neutral Base Card + Guestbook".'
#: A site on the command line: one text, base and components joined by +.
SITE = Arg(SITE_HELP, label="Site", metavar="SITE", read=_site_text, what="site", count=2)


def shown(card: Card, shared: frozenset[str] = frozenset()) -> str:
    """A card's name, with its version when other cards share the name (``Splash Page (Neutral)``)."""
    return card.key if normalise_name(card.name) in shared else card.name


def shared_names(index: CardIndex) -> frozenset[str]:
    """The normalised names several cards share (the two Splash Pages)."""
    return frozenset(name for name, cards in index.names.by_norm.items() if len(cards) > 1)


def fits(game: GameDefinition, component: Card, base: Card) -> bool:
    """Alan's Site components go on Alan's Site or Neutral bases, APSN on APSN or Neutral, Neutral on any."""
    key = game.compatibility_field or "site_type"
    allowed = game.compatibility.get(str(component.get(key) or ""))
    return allowed is None or str(base.get(key) or "") in allowed


def ratings_text(values: dict[str, int]) -> str:
    """``IP 3, GP 4, CP 3``."""
    return ", ".join(f"{r.upper()} {values[r]}" for r in RATINGS)


def needs_text(card: Card) -> str:
    """What a critic or component requires: ``IP 3, GP 3, CP 3``."""
    return ", ".join(f"{r.upper()} {rating(card, 'req_' + r)}" for r in RATINGS)
