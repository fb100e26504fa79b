"""Booster packs: what a pack holds and how often a player may open one. Pure standard library.

A game declares its pack under ``[booster]``: slots of a rarity (a slot may be upgraded to a rarer one with
a chance, Mini-Battle's "1 rare slot that is sometimes super rare"), the set the cards come from, and limits
per player (2 a calendar day, 10 in any seven days). The random source and the clock are passed in, so
tests are exact.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import BoosterSpec, GameDefinition
from carddb.errors import InputError, LimitError


@dataclass(frozen=True, slots=True)
class PackCard:
    card: Card
    rarity: str
    upgraded: bool = False


def _rarity(card: Card, set_code: str) -> str:
    for printing in card.printings:
        if not set_code or printing.set == set_code:
            return normalise_name(printing.rarity)
    return ""


def pack_pool(cards: Sequence[Card], spec: BoosterSpec) -> dict[str, list[Card]]:
    """The cards each rarity slot draws from: the pack's set, by the rarity of that printing."""
    pool: dict[str, list[Card]] = {}
    for card in cards:
        rarity = _rarity(card, spec.set)
        if rarity:
            pool.setdefault(rarity, []).append(card)
    return pool


def open_pack(game: GameDefinition, cards: Sequence[Card], rng: random.Random) -> list[PackCard]:
    """One pack: each slot's cards drawn without repeats within the pack where the rarity allows."""
    spec = game.booster
    if spec is None:
        raise InputError(f"{game.name} declares no booster pack")
    pool = pack_pool(cards, spec)
    taken: set[str] = set()
    pack: list[PackCard] = []
    for slot in spec.slots:
        for _ in range(slot.count):
            rarity, upgraded = normalise_name(slot.rarity), False
            if slot.upgrade and rng.random() < slot.upgrade_chance and pool.get(normalise_name(slot.upgrade)):
                rarity, upgraded = normalise_name(slot.upgrade), True
            choices = pool.get(rarity)
            if not choices:
                raise InputError(f"{game.name}'s {spec.set or 'cards'} hold no {slot.rarity} card for a booster slot")
            fresh = [c for c in choices if c.key not in taken] or choices
            card = rng.choice(fresh)
            taken.add(card.key)
            pack.append(PackCard(card, rarity, upgraded))
    return pack


def check_limits(spec: BoosterSpec, opened: Sequence[datetime], now: datetime, player: str) -> None:
    """Refuse a pack beyond ``per_day`` in one calendar day or ``per_week`` in the last seven days."""
    if spec.per_day is not None:
        today = sum(1 for when in opened if when.date() == now.date())
        if today >= spec.per_day:
            raise LimitError(f"{player} has opened {today} booster{'s' if today != 1 else ''} today; the rule is "
                             f"at most {spec.per_day} a day. Try again tomorrow.")
    if spec.per_week is not None:
        since = now - timedelta(days=7)
        week = sorted(when for when in opened if since < when <= now)
        if len(week) >= spec.per_week:
            next_free = week[len(week) - spec.per_week] + timedelta(days=7)
            raise LimitError(f"{player} has opened {len(week)} boosters in the last seven days; the rule is at most "
                             f"{spec.per_week} a week. The next one is allowed from {next_free:%Y-%m-%d %H:%M}.")
