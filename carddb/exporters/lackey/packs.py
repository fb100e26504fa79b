"""``packs/packdefinitions1.xml``: the game's booster as a LackeyCCG pack (``research/lackey.md`` §1.7).

Each booster slot is a ``<kind>`` picking cards by the ``Rarity`` column. A slot that is sometimes upgraded
(Mini-Battle's rare, super rare one time in eight) becomes one ``<chance>`` per outcome with its ``<prob>``
in percent. Real plugins write whole percentages, so odds are rounded to integers that sum to 100 and any
rounding is reported.
"""

from __future__ import annotations

import itertools
from xml.sax.saxutils import escape

from carddb.core.game.definition import BoosterSpec


def _is(field: str, data: str) -> str:
    return f"<field>{field}</field><eval>IS</eval><data>{escape(data)}</data>"


def _percentages(odds: list[float]) -> list[int]:
    """Whole percentages summing to 100, by largest remainder."""
    raw = [p * 100 for p in odds]
    whole = [int(r) for r in raw]
    for i in sorted(range(len(raw)), key=lambda i: raw[i] - whole[i], reverse=True)[: 100 - sum(whole)]:
        whole[i] += 1
    return whole


def build_packs(title: str, booster: BoosterSpec, set_name: str | None, rarities: set[str],
                warnings: list[str]) -> str:
    """The pack definition file; ``set_name`` is the LackeyCCG Set of the booster's set (None: all sets)."""
    outcomes: list[tuple[float, list[tuple[int, str]]]] = []
    choices = [[(1.0, slot.rarity)] if not slot.upgrade else
               [(1.0 - slot.upgrade_chance, slot.rarity), (slot.upgrade_chance, slot.upgrade)]
               for slot in booster.slots]
    for combo in itertools.product(*choices):
        odds = 1.0
        for p, _ in combo:
            odds *= p
        if odds > 0:
            outcomes.append((odds, [(slot.count, rarity) for slot, (_, rarity) in zip(booster.slots, combo,
                                                                                     strict=True)]))
    percents = _percentages([odds for odds, _ in outcomes])
    for (odds, _), pct in zip(outcomes, percents, strict=True):
        if abs(odds * 100 - pct) > 1e-9:
            warnings.append(f"pack odds {odds * 100:g}% written as {pct}% (LackeyCCG pack files use whole "
                            f"percentages)")
    for rarity in sorted({r for _, slots in outcomes for _, r in slots} - rarities):
        warnings.append(f"the booster draws {rarity!r} cards but no card of the booster's set has that rarity")
    lines = ['<packdefinitions version="1.0">', "", "<pack>", f"\t<packtitle>{escape(title)}</packtitle>",
             "\t<packformat>normal</packformat>", "\t<packkind>Booster</packkind>"]
    if set_name:
        lines.append(f"\t<packcommoncrit>{_is('Set', set_name)}</packcommoncrit>")
    for (_, slots), pct in zip(outcomes, percents, strict=True):
        lines.append("\t<chance>")
        if len(outcomes) > 1:
            lines.append(f"\t\t<prob>{pct}</prob>")
        lines += [f"\t\t<kind><qty>{count}</qty><crit>{_is('Rarity', rarity)}</crit></kind>" for count, rarity in slots]
        lines.append("\t</chance>")
    lines += ["</pack>", "", "</packdefinitions>"]
    return "\n".join(lines) + "\n"
