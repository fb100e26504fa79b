"""``carddb play shmod``: Shmod at the table (``carddb/rules/shmod_play.py``)."""

from __future__ import annotations

import click

from carddb.cli.parsing import INTEGER, argument, option
from carddb.cli.play_common import game_group, json_option, run_helper, split_pair
from carddb.errors import InputError

app = game_group()
GAME = "shmod"


@app.command("battle")
@argument("attacker", help="The attacking monster (in Attack Position).")
@argument("defender", required=False, help="The monster attacked; leave out for a direct attack.")
@option("--defense", is_flag=True, help="The defender is in Defense Position.")
@option("--atk", type=INTEGER, help="The attacker's ATK as it is now (equips, fields).")
@option("--defender-atk", type=INTEGER, help="The defender's ATK as it is now.")
@option("--defender-def", type=INTEGER, help="The defender's DEF as it is now.")
@option("--has-monsters", is_flag=True, help="For a direct attack: the defending player has monsters in play.")
@json_option
@click.pass_context
def battle(
    ctx: click.Context,
    attacker: str,
    defender: str,
    defense: bool,
    atk: int,
    defender_atk: int,
    defender_def: int,
    has_monsters: bool,
    as_json: bool,
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
@option("--mine", multiple=True, help="Your monster on the field, NAME or NAME=defense (repeat).")
@option("--theirs", multiple=True, help="The defending player's monster, NAME or NAME=defense (repeat).")
@option("--attack", "attacks", multiple=True,
              help="An attack in order: ATTACKER=TARGET, or ATTACKER alone to attack directly (repeat).")
@option("--life", type=INTEGER, help="Your Life before the Battle Phase (default 10).")
@option("--their-life", type=INTEGER, help="The defending player's Life (default 10).")
@option("--first-turn", is_flag=True, help="This is the first player's first turn.")
@json_option
@click.pass_context
def phase(
    ctx: click.Context,
    mine: tuple[str, ...],
    theirs: tuple[str, ...],
    attacks: tuple[str, ...],
    life: int,
    their_life: int,
    first_turn: bool,
    as_json: bool,
) -> None:
    """A Battle Phase: each attack in order, the monsters destroyed, and both players' Life afterwards."""
    declared = [dict(zip(("attacker", "target"), split_pair(a, "--attack", "Night Reaver=Coral Warden"), strict=True))
                for a in attacks or []]
    run_helper(ctx, GAME, "phase", {"mine": _monsters(mine, "--mine"), "theirs": _monsters(theirs, "--theirs"),
                                    "attacks": declared, "life": life, "their_life": their_life,
                                    "first_turn": first_turn}, as_json)


@app.command("mana")
@argument("card", help="The monster, spell or trap paid for.")
@argument("tapped", nargs=-1, help="The mana tapped, TYPE=N: FIRE=2 EARTH=3.")
@option("--x", type=INTEGER, help="For a Level X card: the X wanted (it must equal the mana tapped).")
@option("--by-effect", is_flag=True, help="The monster is played by an effect (no mana).")
@json_option
@click.pass_context
def mana(
    ctx: click.Context,
    card: str,
    tapped: tuple[str, ...],
    x: int,
    by_effect: bool,
    as_json: bool,
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
@option("--first-turn", is_flag=True, help="This is the first player's first turn.")
@option("--charge", "charges", multiple=True, help="A card charged as mana this turn (repeat).")
@option("--set", "set_traps", multiple=True, help="A trap set face down this turn (repeat).")
@option("--activate", multiple=True, help="A trap activated this turn (repeat).")
@option("--attack", "attackers", multiple=True, help="A monster attacking this turn (repeat per attack).")
@json_option
@click.pass_context
def turn(
    ctx: click.Context,
    first_turn: bool,
    charges: tuple[str, ...],
    set_traps: tuple[str, ...],
    activate: tuple[str, ...],
    attackers: tuple[str, ...],
    as_json: bool,
) -> None:
    """A turn's six phases: one mana charge, no trap the turn it is set, no Battle Phase on the first turn."""
    run_helper(ctx, GAME, "turn", {"first_turn": first_turn, "charges": charges or [], "set": set_traps or [],
                                   "activate": activate or [], "attacks": attackers or []}, as_json)
