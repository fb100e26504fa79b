"""``carddb play minibattle``: Pokemon Mini-Battle at the table (``carddb/rules/minibattle_play.py``)."""

from __future__ import annotations

import typer

from carddb.cli.play_common import JSON_OPTION, game_options, run_helper, split_pair

app = typer.Typer(no_args_is_help=True, callback=game_options)
GAME = "minibattle"
CONDITION_HELP = "Prlz, Slp, Cnfs or Psn (repeat)"


@app.command("battle")
def battle(
    ctx: typer.Context,
    attacker: str = typer.Argument(..., help="The attacking Battling Pokemon."),
    defender: str = typer.Argument(..., help="The Battling Pokemon attacked."),
    hp: int = typer.Option(None, "--hp", help="The attacker's HP left (default: its HP)."),
    defender_hp: int = typer.Option(None, "--defender-hp", help="The defender's HP left (default: its HP)."),
    conditions: list[str] = typer.Option(None, "--condition", help=f"The attacker's condition: {CONDITION_HELP}."),
    defender_conditions: list[str] = typer.Option(None, "--defender-condition",
                                                  help=f"The defender's condition: {CONDITION_HELP}."),
    partner: str = typer.Option(None, "--partner", help="The attacker's other Battling Pokemon."),
    defender_partner: str = typer.Option(None, "--defender-partner", help="The defender's other Battling Pokemon."),
    as_json: bool = JSON_OPTION,
) -> None:
    """An attack's exact odds: every outcome (damage, knocked out, condition) with its chance, and the mean."""
    run_helper(ctx, GAME, "battle", {
        "attacker": {"card": attacker, "hp": hp, "conditions": conditions or []},
        "defender": {"card": defender, "hp": defender_hp, "conditions": defender_conditions or []},
        "attacker_partner": partner, "defender_partner": defender_partner}, as_json)


@app.command("between")
def between(
    ctx: typer.Context,
    pokemon: str = typer.Argument(..., help="The Pokemon."),
    hp: int = typer.Option(None, "--hp", help="Its HP left (default: its HP)."),
    conditions: list[str] = typer.Option(None, "--condition", help=f"Its condition: {CONDITION_HELP}."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Between turns: poison's 2 damage, waking up at 50%, Effect Off; every outcome with its chance."""
    run_helper(ctx, GAME, "between", {"card": pokemon, "hp": hp, "conditions": conditions or []}, as_json)


@app.command("plays")
def plays(
    ctx: typer.Context,
    in_play: list[str] = typer.Option(None, "--in-play", help="A Pokemon in play, NAME or NAME=new when it was "
                                                              "played this turn (repeat)."),
    play: list[str] = typer.Option(None, "--play", help="A Pokemon played this turn, in order; NAME=BABY evolves a "
                                                        "Basic onto its Baby (repeat)."),
    battling: list[str] = typer.Option(None, "--battling", help="A Battling Pokemon after the plays (repeat)."),
    as_json: bool = JSON_OPTION,
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
def hand(
    ctx: typer.Context,
    cards: list[str] = typer.Argument(..., help="The 3 cards of the opening hand."),
    as_json: bool = JSON_OPTION,
) -> None:
    """The opening hand: kept with a basic (or baby) Pokemon, else reshuffled."""
    run_helper(ctx, GAME, "hand", {"hand": cards}, as_json)
