"""``carddb play minibattle``: Pokemon Mini-Battle at the table (``carddb/games/minibattle/play.py``)."""

from __future__ import annotations

import click

from carddb.cli.parsing import INTEGER, argument, option
from carddb.cli.play_common import game_group, json_option, run_helper, split_pair
from carddb.errors import InputError

app = game_group()
GAME = "minibattle"
CONDITION_HELP = "Prlz, Slp, Cnfs or Psn (repeat)"
STACK_HELP = "BASIC/EVOLVED[=DAMAGE]: the cards of the stack from the bottom up, and the damage on it"


@app.command("battle")
@argument("attacker", help="The attacking Battling Pokemon.")
@argument("defender", help="The Battling Pokemon attacked.")
@option("--hp", type=INTEGER, help="The attacker's HP left (default: its HP).")
@option("--defender-hp", type=INTEGER, help="The defender's HP left (default: its HP).")
@option("--condition", "conditions", multiple=True, help=f"The attacker's condition: {CONDITION_HELP}.")
@option("--defender-condition", "defender_conditions", multiple=True,
        help=f"The defender's condition: {CONDITION_HELP}.")
@option("--partner", help="The attacker's other Battling Pokemon.")
@option("--defender-partner", help="The defender's other Battling Pokemon.")
@json_option
@click.pass_context
def battle(
    ctx: click.Context,
    attacker: str,
    defender: str,
    hp: int,
    defender_hp: int,
    conditions: tuple[str, ...],
    defender_conditions: tuple[str, ...],
    partner: str,
    defender_partner: str,
    as_json: bool,
) -> None:
    """An attack's exact odds: every outcome (damage, knocked out, condition) with its chance, and the mean."""
    run_helper(ctx, GAME, "battle", {
        "attacker": {"card": attacker, "hp": hp, "conditions": conditions or []},
        "defender": {"card": defender, "hp": defender_hp, "conditions": defender_conditions or []},
        "attacker_partner": partner, "defender_partner": defender_partner}, as_json)


@app.command("between")
@argument("pokemon", help="The Pokemon.")
@option("--hp", type=INTEGER, help="Its HP left (default: its HP).")
@option("--condition", "conditions", multiple=True, help=f'Its condition: {CONDITION_HELP}.')
@json_option
@click.pass_context
def between(
    ctx: click.Context,
    pokemon: str,
    hp: int,
    conditions: tuple[str, ...],
    as_json: bool,
) -> None:
    """Between turns: poison's 2 damage, waking up at 50%, Effect Off; every outcome with its chance."""
    run_helper(ctx, GAME, "between", {"card": pokemon, "hp": hp, "conditions": conditions or []}, as_json)


@app.command("plays")
@option("--in-play", multiple=True,
              help="A Pokemon in play, NAME or NAME=new when it was played this turn (repeat).")
@option("--play", multiple=True,
              help="A Pokemon played this turn, in order; NAME=BABY evolves a Basic onto its Baby (repeat).")
@option("--battling", multiple=True, help="A Battling Pokemon after the plays (repeat).")
@json_option
@click.pass_context
def plays(
    ctx: click.Context,
    in_play: tuple[str, ...],
    play: tuple[str, ...],
    battling: tuple[str, ...],
    as_json: bool,
) -> None:
    """What may be played this turn: one basic, one evolution (not on a Pokemon played this turn), 2 Battling."""
    field = []
    for item in in_play or []:
        name, new = split_pair(item, "--in-play", "Charmander=new")
        field.append({"card": name, "new": new.lower() == "new"})
    wanted = [dict(zip(("card", "on"), split_pair(item, "--play", "Pikachu=Pichu"), strict=True))
              for item in play or []]
    run_helper(ctx, GAME, "plays", {"in_play": field, "play": wanted, "battling": battling or []}, as_json)


@app.command("hand")
@argument("cards", nargs=-1, required=True, help="The 3 cards of the opening hand.")
@json_option
@click.pass_context
def hand(ctx: click.Context, cards: tuple[str, ...], as_json: bool) -> None:
    """The opening hand: kept with a basic (or baby) Pokemon, else reshuffled."""
    run_helper(ctx, GAME, "hand", {"hand": cards}, as_json)


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
@argument("attacker", help="Your Battling Pokemon that attacks (the card on top).")
@argument("target", help="Your opponent's Battling Pokemon attacked.")
@option("--damage", type=INTEGER, required=True, help="The damage the attack deals (after its rolls).")
@option("--yours", multiple=True, metavar="STACK", help=f"Your Battling Pokemon, {STACK_HELP} (repeat).")
@option("--yours-waiting", multiple=True, metavar="STACK", help="Your Waiting Pokemon, the same way (repeat).")
@option("--theirs", multiple=True, metavar="STACK", help=f"Your opponent's Battling Pokemon, {STACK_HELP} (repeat).")
@option("--theirs-waiting", multiple=True, metavar="STACK",
        help="Your opponent's Waiting Pokemon, the same way (repeat).")
@option("--send-up", metavar="NAME",
        help="The Waiting Pokemon your opponent sends up (their choice; default: the choices listed).")
@json_option
@click.pass_context
def knockout(
    ctx: click.Context,
    attacker: str,
    target: str,
    damage: int,
    yours: tuple[str, ...],
    yours_waiting: tuple[str, ...],
    theirs: tuple[str, ...],
    theirs_waiting: tuple[str, ...],
    send_up: str,
    as_json: bool,
) -> None:
    """A knock-out: the whole stack discarded, the Waiting Pokemon sent up, and whether the game is won."""
    run_helper(ctx, GAME, "knockout", {
        "attacker": attacker, "target": target, "damage": damage, "send_up": send_up or "",
        "yours": _side(yours, yours_waiting, "yours"), "theirs": _side(theirs, theirs_waiting, "theirs")}, as_json)


@app.command("evolve")
@argument("pokemon", help=f"The Pokemon that evolves, {STACK_HELP}.")
@argument("into", help="The evolved Pokemon played on top of it.")
@option("--new", is_flag=True, help="The Pokemon was played this turn.")
@json_option
@click.pass_context
def evolve(ctx: click.Context, pokemon: str, into: str, new: bool, as_json: bool) -> None:
    """Evolving: the damage stays on the Pokemon, unless its Evolution Healer removes it all."""
    run_helper(ctx, GAME, "evolve", {**_stack(pokemon, "the Pokemon"), "into": into, "new": new}, as_json)
