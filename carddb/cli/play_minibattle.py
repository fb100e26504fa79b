"""``carddb play minibattle``: Pokemon Mini-Battle at the table (``carddb/rules/minibattle_play.py``)."""

from __future__ import annotations

import click

from carddb.cli.parsing import INTEGER, argument, option
from carddb.cli.play_common import game_group, json_option, run_helper, split_pair

app = game_group()
GAME = "minibattle"
CONDITION_HELP = "Prlz, Slp, Cnfs or Psn (repeat)"


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
