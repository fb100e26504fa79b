"""``carddb play minibattle``: Pokemon Mini-Battle at the table (``carddb/games/minibattle/play.py``)."""

from __future__ import annotations

from typing import Annotated

import typer

from carddb.cli.parsing import INTEGER
from carddb.cli.play_common import JsonFlag, game_group, run_helper, split_pair
from carddb.errors import InputError

app = game_group()
GAME = "minibattle"
CONDITION_HELP = "Prlz, Slp, Cnfs or Psn (repeat)"
STACK_HELP = "BASIC/EVOLVED[=DAMAGE]: the cards of the stack from the bottom up, and the damage on it"


@app.command("battle")
def battle(
    ctx: typer.Context,
    *,
    attacker: Annotated[str, typer.Argument(help="The attacking Battling Pokemon.")],
    defender: Annotated[str, typer.Argument(help="The Battling Pokemon attacked.")],
    hp: Annotated[int | None, typer.Option(
        "--hp", click_type=INTEGER, help="The attacker's HP left (default: its HP).")] = None,
    defender_hp: Annotated[int | None, typer.Option(
        "--defender-hp", click_type=INTEGER, help="The defender's HP left (default: its HP).")] = None,
    conditions: Annotated[list[str] | None, typer.Option(
        "--condition", help=f"The attacker's condition: {CONDITION_HELP}.")] = None,
    defender_conditions: Annotated[list[str] | None, typer.Option(
        "--defender-condition", help=f"The defender's condition: {CONDITION_HELP}.")] = None,
    partner: Annotated[str | None, typer.Option("--partner", help="The attacker's other Battling Pokemon.")] = None,
    defender_partner: Annotated[str | None, typer.Option(
        "--defender-partner", help="The defender's other Battling Pokemon.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """An attack's exact odds: every outcome (damage, knocked out, condition) with its chance, and the mean."""
    run_helper(ctx, GAME, "battle", {
        "attacker": {"card": attacker, "hp": hp, "conditions": conditions or []},
        "defender": {"card": defender, "hp": defender_hp, "conditions": defender_conditions or []},
        "attacker_partner": partner, "defender_partner": defender_partner}, as_json)


@app.command("between")
def between(
    ctx: typer.Context,
    *,
    pokemon: Annotated[str, typer.Argument(help="The Pokemon.")],
    hp: Annotated[int | None, typer.Option("--hp", click_type=INTEGER, help="Its HP left (default: its HP).")] = None,
    conditions: Annotated[list[str] | None, typer.Option(
        "--condition", help=f'Its condition: {CONDITION_HELP}.')] = None,
    as_json: JsonFlag = False,
) -> None:
    """Between turns: poison's 2 damage, waking up at 50%, Effect Off; every outcome with its chance."""
    run_helper(ctx, GAME, "between", {"card": pokemon, "hp": hp, "conditions": conditions or []}, as_json)


@app.command("plays")
def plays(
    ctx: typer.Context,
    *,
    in_play: Annotated[list[str] | None, typer.Option(
        "--in-play", help="A Pokemon in play, NAME or NAME=new when it was played this turn (repeat).")] = None,
    play: Annotated[list[str] | None, typer.Option(
        "--play", help="A Pokemon played this turn, in order; NAME=BABY evolves a Basic onto its "
                       "Baby (repeat).")] = None,
    battling: Annotated[list[str] | None, typer.Option(
        "--battling", help="A Battling Pokemon after the plays (repeat).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """What may be played this turn: one basic, one evolution (not on a Pokemon played this turn), 2 Battling."""
    field = []
    for item in in_play or []:
        name, new = split_pair(item, "--in-play", "Charmander=new")
        field.append({"card": name, "new": new.lower() == "new"})
    wanted = [dict(zip(("card", "on"), split_pair(item, "--play", "Pikachu=Pichu"), strict=True))
              for item in play or []]
    run_helper(ctx, GAME, "plays", {"in_play": field, "play": wanted, "battling": battling or []}, as_json)


def _stack(text: str, what: str, waiting: bool = False) -> dict[str, object]:
    """``Bulbasaur/Ivysaur=52`` -> Ivysaur on Bulbasaur with 52 damage (the request's row)."""
    cards, damage = split_pair(text, what, "Bulbasaur/Ivysaur=52")
    names = [name.strip() for name in cards.split("/") if name.strip()]
    if not names or (damage and not damage.isdigit()):
        raise InputError(f"{what} {text!r}: write the stack from the bottom up and the damage on it, as "
                         "Bulbasaur/Ivysaur=52")
    return {"card": names[-1], "under": names[-2::-1], "damage": int(damage) if damage else 0, "waiting": waiting}


def _side(battling: tuple[str, ...], waiting: tuple[str, ...], what: str) -> list[dict[str, object]]:
    return [_stack(t, f"--{what}") for t in battling or []] + \
        [_stack(t, f"--{what}-waiting", True) for t in waiting or []]


@app.command("knockout")
def knockout(
    ctx: typer.Context,
    *,
    attacker: Annotated[str, typer.Argument(help="Your Battling Pokemon that attacks (the card on top).")],
    target: Annotated[str, typer.Argument(help="Your opponent's Battling Pokemon attacked.")],
    damage: Annotated[int, typer.Option(
        "--damage", click_type=INTEGER, help="The damage the attack deals (after its rolls).")],
    yours: Annotated[list[str] | None, typer.Option(
        "--yours", metavar="STACK", help=f"Your Battling Pokemon, {STACK_HELP} (repeat).")] = None,
    yours_waiting: Annotated[list[str] | None, typer.Option(
        "--yours-waiting", metavar="STACK", help="Your Waiting Pokemon, the same way (repeat).")] = None,
    theirs: Annotated[list[str] | None, typer.Option(
        "--theirs", metavar="STACK", help=f"Your opponent's Battling Pokemon, {STACK_HELP} (repeat).")] = None,
    theirs_waiting: Annotated[list[str] | None, typer.Option(
        "--theirs-waiting", metavar="STACK", help="Your opponent's Waiting Pokemon, the same way (repeat).")] = None,
    send_up: Annotated[str | None, typer.Option(
        "--send-up", metavar="NAME", help="The Waiting Pokemon your opponent sends up (their choice; default: the "
             "choices listed).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """A knock-out: the whole stack discarded, the Waiting Pokemon sent up, and whether the game is won."""
    run_helper(ctx, GAME, "knockout", {
        "attacker": attacker, "target": target, "damage": damage, "send_up": send_up or "",
        "yours": _side(yours, yours_waiting, "yours"), "theirs": _side(theirs, theirs_waiting, "theirs")}, as_json)


@app.command("evolve")
def evolve(
    ctx: typer.Context,
    *,
    pokemon: Annotated[str, typer.Argument(help=f"The Pokemon that evolves, {STACK_HELP}.")],
    into: Annotated[str, typer.Argument(help="The evolved Pokemon played on top of it.")],
    new: Annotated[bool, typer.Option("--new", help="The Pokemon was played this turn.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Evolving: the damage stays on the Pokemon, unless its Evolution Healer removes it all."""
    run_helper(ctx, GAME, "evolve", {**_stack(pokemon, "the Pokemon"), "into": into, "new": new}, as_json)
