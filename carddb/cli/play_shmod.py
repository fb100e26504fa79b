"""``carddb play shmod``: Shmod at the table (``carddb/rules/shmod_play.py``)."""

from __future__ import annotations

import typer

from carddb.cli.play_common import JSON_OPTION, game_options, run_helper, split_pair
from carddb.errors import InputError

app = typer.Typer(no_args_is_help=True, callback=game_options)
GAME = "shmod"


@app.command("battle")
def battle(
    ctx: typer.Context,
    attacker: str = typer.Argument(..., help="The attacking monster (in Attack Position)."),
    defender: str = typer.Argument(None, help="The monster attacked; leave out for a direct attack."),
    defense: bool = typer.Option(False, "--defense", help="The defender is in Defense Position."),
    atk: int = typer.Option(None, "--atk", help="The attacker's ATK as it is now (equips, fields)."),
    defender_atk: int = typer.Option(None, "--defender-atk", help="The defender's ATK as it is now."),
    defender_def: int = typer.Option(None, "--defender-def", help="The defender's DEF as it is now."),
    has_monsters: bool = typer.Option(False, "--has-monsters", help="For a direct attack: the defending player has "
                                                                    "monsters in play."),
    as_json: bool = JSON_OPTION,
) -> None:
    """One battle: attack against attack, attack against defense, or a direct attack."""
    run_helper(ctx, GAME, "battle", {"attacker": attacker, "atk": atk, "defender": defender,
                                     "position": "defense" if defense else "attack", "defender_atk": defender_atk,
                                     "defender_def": defender_def, "defender_has_monsters": has_monsters}, as_json)


def _monsters(values: list[str] | None, what: str) -> list[dict[str, str]]:
    rows = []
    for value in values or []:
        name, position = split_pair(value, what, "Coral Warden=defense")
        rows.append({"card": name, "position": position.lower() or "attack"})
    return rows


@app.command("phase")
def phase(
    ctx: typer.Context,
    mine: list[str] = typer.Option(None, "--mine", help="Your monster on the field, NAME or NAME=defense (repeat)."),
    theirs: list[str] = typer.Option(None, "--theirs", help="The defending player's monster, NAME or NAME=defense "
                                                            "(repeat)."),
    attacks: list[str] = typer.Option(None, "--attack", help="An attack in order: ATTACKER=TARGET, or ATTACKER "
                                                             "alone to attack directly (repeat)."),
    life: int = typer.Option(None, "--life", help="Your Life before the Battle Phase (default 10)."),
    their_life: int = typer.Option(None, "--their-life", help="The defending player's Life (default 10)."),
    first_turn: bool = typer.Option(False, "--first-turn", help="This is the first player's first turn."),
    as_json: bool = JSON_OPTION,
) -> None:
    """A Battle Phase: each attack in order, the monsters destroyed, and both players' Life afterwards."""
    declared = [dict(zip(("attacker", "target"), split_pair(a, "--attack", "Night Reaver=Coral Warden"), strict=True))
                for a in attacks or []]
    run_helper(ctx, GAME, "phase", {"mine": _monsters(mine, "--mine"), "theirs": _monsters(theirs, "--theirs"),
                                    "attacks": declared, "life": life, "their_life": their_life,
                                    "first_turn": first_turn}, as_json)


@app.command("mana")
def mana(
    ctx: typer.Context,
    card: str = typer.Argument(..., help="The monster, spell or trap paid for."),
    tapped: list[str] = typer.Argument(None, help="The mana tapped, TYPE=N: FIRE=2 EARTH=3."),
    x: int = typer.Option(None, "--x", help="For a Level X card: the X wanted (it must equal the mana tapped)."),
    by_effect: bool = typer.Option(False, "--by-effect", help="The monster is played by an effect (no mana)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Mana payment: LEVEL mana, with at least 1 of the monster's TYPE (not for COLOURLESS); Level X cards."""
    table: dict[str, int] = {}
    for item in tapped or []:
        kind, count = split_pair(item, "mana", "FIRE=2")
        if not count.isdigit():
            raise InputError(f"mana {item!r}: write the TYPE and how many, as FIRE=2")
        table[kind.upper()] = table.get(kind.upper(), 0) + int(count)
    run_helper(ctx, GAME, "mana", {"card": card, "mana": table, "x": x, "by_effect": by_effect}, as_json)


@app.command("turn")
def turn(
    ctx: typer.Context,
    first_turn: bool = typer.Option(False, "--first-turn", help="This is the first player's first turn."),
    charges: list[str] = typer.Option(None, "--charge", help="A card charged as mana this turn (repeat)."),
    set_traps: list[str] = typer.Option(None, "--set", help="A trap set face down this turn (repeat)."),
    activate: list[str] = typer.Option(None, "--activate", help="A trap activated this turn (repeat)."),
    attackers: list[str] = typer.Option(None, "--attack", help="A monster attacking this turn (repeat per attack)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """A turn's six phases: one mana charge, no trap the turn it is set, no Battle Phase on the first turn."""
    run_helper(ctx, GAME, "turn", {"first_turn": first_turn, "charges": charges or [], "set": set_traps or [],
                                   "activate": activate or [], "attacks": attackers or []}, as_json)
