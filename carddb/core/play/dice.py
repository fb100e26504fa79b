"""Dice: a success pool (count the faces that succeed, as a game's ``[dice]`` says), a percentile roll, and a
pool written as ``7d10`` or ``d%``. Rolls are injectable (a seeded ``random.Random`` or the faces themselves), so a
rulebook's worked examples are exact tests. ``carddb roll`` and Super Smash Quest's helpers roll with these.
Pure standard library."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError

#: The rulebook's successes of a d10 (Super Smash Quest): 7, 8 and 9 one each, 10 two.
DEFAULT_SUCCESSES = {7: 1, 8: 1, 9: 1, 10: 2}

@dataclass(frozen=True, slots=True)
class PoolRoll:
    faces: tuple[int, ...]
    successes: int

    def to_dict(self) -> dict[str, Any]:
        return {"faces": list(self.faces), "successes": self.successes}


def dice_count(dice: int) -> str:
    """``1 die``, ``3 dice``."""
    return f"{dice} {'die' if dice == 1 else 'dice'}"


def most_successes(dice: int, game: GameDefinition | None = None) -> int:
    """The most successes a pool can roll: each die at its best face (2 a die with the rulebook's table)."""
    return max(0, dice) * max(success_table(game).values(), default=0)


def success_table(game: GameDefinition | None) -> Mapping[int, int]:
    table = game.dice.get("successes") if game is not None else None
    return table or DEFAULT_SUCCESSES


def dice_sides(game: GameDefinition | None) -> int:
    return int(game.dice.get("sides", 10)) if game is not None else 10


def count_successes(faces: Sequence[int], game: GameDefinition | None = None) -> int:
    """7, 8 and 9 are one success each and 10 is two (as the game's ``[dice]`` says)."""
    table = success_table(game)
    return sum(table.get(face, 0) for face in faces)


def roll_pool(dice: int, game: GameDefinition | None = None, rng: random.Random | None = None,
              faces: Sequence[int] | None = None) -> PoolRoll:
    """Roll ``dice`` d10 (or take the given faces) and count successes."""
    sides = dice_sides(game)
    if faces is None:
        rng = rng or random.Random()
        faces = [rng.randint(1, sides) for _ in range(max(0, dice))]
    for face in faces:
        if not 1 <= face <= sides:
            raise InputError(f"a d{sides} shows 1 to {sides}, not {face}")
    return PoolRoll(tuple(faces), count_successes(faces, game))


def percentile(rng: random.Random | None = None, faces: tuple[int, int] | None = None, luck: int = 0) -> tuple[
        int, tuple[int, int]]:
    """Two d10, tens and ones (a 10 reads as 0), 10-10 is 100; Luck may be added. Returns (value, faces)."""
    if faces is None:
        rng = rng or random.Random()
        faces = (rng.randint(1, 10), rng.randint(1, 10))
    tens, ones = faces
    if not (1 <= tens <= 10 and 1 <= ones <= 10):
        raise InputError(f"percentile dice show 1 to 10, not {faces}")
    value = 100 if (tens, ones) == (10, 10) else (tens % 10) * 10 + ones % 10
    return value + luck, faces


_POOL = re.compile(r"^\s*(\d*)\s*d\s*(\d+|%)\s*$", re.IGNORECASE)


def parse_pool(text: str) -> tuple[int, int | None]:
    """``7d10`` -> (7, 10); ``d10`` -> (1, 10); ``d%`` -> (2, None) (a percentile roll)."""
    match = _POOL.match(text)
    if not match:
        raise InputError(f"{text!r} is not a dice pool; write it like 7d10 or d%")
    count = int(match[1]) if match[1] else 1
    if match[2] == "%":
        return 2, None
    sides = int(match[2])
    if not (1 <= count <= 100 and 2 <= sides <= 1000):
        raise InputError(f"{text!r}: roll 1 to 100 dice of 2 to 1000 sides")
    return count, sides
