"""Booster packs (pure): the Mini-Battle slots, the super rare upgrade, and the per-day/per-week limits."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from carddb.core.decks.booster import check_limits, open_pack
from carddb.errors import LimitError
from tests.core.decks import starter

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_a_pack_is_three_common_two_uncommon_one_rare_slot() -> None:
    game, cards = starter("minibattle")
    pack = open_pack(game, cards, random.Random(1))
    assert [p.rarity for p in pack][:5] == ["common"] * 3 + ["uncommon"] * 2
    assert pack[5].rarity in ("rare", "super rare")
    assert len({p.card.key for p in pack}) == 6
    assert all(any(pr.set == "base" for pr in p.card.printings) for p in pack)


def test_the_rare_slot_is_sometimes_super_rare() -> None:
    game, cards = starter("minibattle")
    rng = random.Random(7)
    last = Counter(open_pack(game, cards, rng)[5].rarity for _ in range(800))
    assert set(last) == {"rare", "super rare"}
    assert 60 <= last["super rare"] <= 150  # 12.5% of 800 is 100


def test_the_same_seed_gives_the_same_pack() -> None:
    game, cards = starter("minibattle")
    first = [p.card.key for p in open_pack(game, cards, random.Random(99))]
    assert first == [p.card.key for p in open_pack(game, cards, random.Random(99))]


def test_two_a_day() -> None:
    spec = starter("minibattle")[0].booster
    check_limits(spec, [NOON - timedelta(hours=1)], NOON, "ash")
    with pytest.raises(LimitError, match="ash has opened 2 boosters today; the rule is at most 2 a day"):
        check_limits(spec, [NOON - timedelta(hours=2), NOON - timedelta(hours=1)], NOON, "ash")
    # yesterday's packs do not count for today
    check_limits(spec, [NOON - timedelta(days=1), NOON - timedelta(days=1, hours=1)], NOON, "ash")


def test_ten_in_seven_days() -> None:
    spec = starter("minibattle")[0].booster
    opened = [NOON - timedelta(days=d, hours=h) for d in range(1, 6) for h in (1, 2)]  # 10 packs, 2 a day
    message = ("ash has opened 10 boosters in the last seven days; the rule is at most 10 a week. The next one is "
               "allowed from 2026-03-04 10:00.")
    with pytest.raises(LimitError, match=re.escape(message)):
        check_limits(spec, opened, NOON, "ash")
    with pytest.raises(LimitError):
        check_limits(spec, opened, datetime(2026, 3, 4, 9, 59, tzinfo=UTC), "ash")
    check_limits(spec, opened, datetime(2026, 3, 4, 10, 0, tzinfo=UTC), "ash")
