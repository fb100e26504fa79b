"""A card's deck-building limits in words, for the clients that cannot enforce them.

LackeyCCG has no ban list or copy limit (``research/lackey.md`` §1.6), so the exports carry each card's
limit in a searchable column: the lowest limit that applies, with where it comes from (default, deck limit,
LIMITED, legendary, limit-one), for every format of the game.
"""

from __future__ import annotations

from carddb.core.cards.card import Card
from carddb.core.game.definition import CopyRules, GameDefinition


def card_limit(copies: CopyRules | None, card: Card) -> tuple[int | None, str]:
    """The per-card copy limit and its source; ``(None, "")`` when nothing limits the card."""
    if copies is None:
        return None, ""
    best: tuple[int | None, str] = (copies.default, copies.default_source) if copies.default is not None \
        else (None, "")
    if copies.per_card_field:
        value = card.fields.get(copies.per_card_field)
        if isinstance(value, int) and (best[0] is None or value < best[0]):
            best = (value, copies.per_card_source)
    for limit in copies.limits:
        if limit.scope == "card" and limit.applies.matches(card) and (best[0] is None or limit.limit < best[0]):
            best = (limit.limit, limit.source)
    return best


def group_limits(copies: CopyRules | None, card: Card) -> list[str]:
    """Limits shared by a group of cards this card belongs to (``1 legendary in all``)."""
    if copies is None:
        return []
    return [f"{limit.limit} {limit.source} in all" for limit in copies.limits
            if limit.scope == "group" and limit.applies.matches(card)]


def legality_text(game: GameDefinition, card: Card) -> str:
    """``Standard: max 1 (LIMITED)``; formats that agree are written once, joined with ``/``.

    A game without copy rules (ssq is not a deck game) gives ``no deck limits``.
    """
    by_text: dict[str, list[str]] = {}
    for format_id, info in (game.formats or {"": None}).items():
        variant = game.with_format(format_id) if format_id else game
        limit, source = card_limit(variant.copies, card)
        parts = [f"max {limit} ({source})"] if limit is not None else []
        parts += group_limits(variant.copies, card)
        text = ", ".join(parts) if parts else "no deck limits"
        by_text.setdefault(text, []).append(info.label if info else "All")
    if len(by_text) == 1:
        text, labels = next(iter(by_text.items()))
        return f"{'/'.join(labels)}: {text}" if game.formats else text
    return "; ".join(f"{'/'.join(labels)}: {text}" for text, labels in by_text.items())
