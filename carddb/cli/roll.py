"""``carddb roll``: roll a dice pool (successes counted as ssq counts them) or a percentile."""

from __future__ import annotations

import json
import random
from typing import Annotated

import typer

from carddb.cli.parsing import INTEGER, single
from carddb.core.wording import plural
from carddb.errors import InputError

app = single()


@app.command("roll")
def roll(
    *,
    pool: Annotated[str, typer.Argument(help="7d10 (a pool: 7, 8, 9 one success each, 10 two), d% (percentile), 2d6.")],
    luck: Annotated[int, typer.Option("--luck", click_type=INTEGER, help="Added to a percentile roll.")] = 0,
    seed: Annotated[int | None, typer.Option("--seed", click_type=INTEGER, help="Seed, for a repeatable roll.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the roll as JSON.")] = False,
) -> None:
    """Roll dice: a d10 pool counts successes; d% rolls a percentile (10-10 is 100)."""
    from carddb.core.play.dice import parse_pool, percentile, roll_pool

    rng = random.Random(seed)
    count, sides = parse_pool(pool)
    if sides is None:
        value, faces = percentile(rng, luck=luck)
        data = {"pool": "d%", "faces": list(faces), "luck": luck, "value": value}
        text = f"d%: {faces[0]} and {faces[1]} -> {value - luck}" + (f" + Luck {luck} = {value}" if luck else "")
    elif sides == 10:
        result = roll_pool(count, None, rng)
        data = {"pool": f"{count}d10", **result.to_dict()}
        text = f"{count}d10: {' '.join(map(str, result.faces))} -> {plural(result.successes, 'success', 'successes')}"
    else:
        if luck:
            raise InputError("--luck adds to a percentile roll (d%) only")
        faces = [rng.randint(1, sides) for _ in range(count)]
        data = {"pool": f"{count}d{sides}", "faces": faces, "total": sum(faces)}
        text = f"{count}d{sides}: {' '.join(map(str, faces))} -> total {sum(faces)}"
    typer.echo(json.dumps(data) if as_json else text)
