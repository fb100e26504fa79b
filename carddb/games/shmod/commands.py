"""``carddb play shmod``: Shmod at the table (``carddb/games/shmod/play.py``)."""

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


def _changes(values: tuple[str, ...], whose: str, what: str) -> list[dict[str, object]]:
    """``1:Gale Sparrow=+2`` -> after 1 attack, Gale Sparrow's ATK +2 (``0:`` before the first attack)."""
    found = []
    for value in values or []:
        after, sep, rest = value.partition(":")
        name, delta = split_pair(rest, what, "1:Gale Sparrow=+2")
        if not (sep and after.strip().isdigit() and name and delta.lstrip("+-").isdigit()):
            raise InputError(f"{what} {value!r}: write the attacks before it, the monster and the change, as "
                             f"1:Gale Sparrow=+2")
        found.append({"after": int(after), "card": name, "by": int(delta), "whose": whose})
    return found


@app.command("atk-change")
@option("--mine", multiple=True, help="Your monster on the field, NAME or NAME=defense (repeat).")
@option("--theirs", multiple=True, help="The defending player's monster, NAME or NAME=defense (repeat).")
@option("--attack", "attacks", multiple=True,
        help="An attack in order: ATTACKER=TARGET, or ATTACKER alone to attack directly (repeat).")
@option("--change", "changes", multiple=True,
        help="An ATK change to your monster: AFTER:NAME=+N, after AFTER attacks (0: before the first) (repeat).")
@option("--their-change", "their_changes", multiple=True,
        help="An ATK change to the defending player's monster, as --change (repeat).")
@option("--life", type=INTEGER, help="Your Life before the Battle Phase (default 10).")
@option("--their-life", type=INTEGER, help="The defending player's Life (default 10).")
@json_option
@click.pass_context
def atk_change(
    ctx: click.Context,
    mine: tuple[str, ...],
    theirs: tuple[str, ...],
    attacks: tuple[str, ...],
    changes: tuple[str, ...],
    their_changes: tuple[str, ...],
    life: int,
    their_life: int,
    as_json: bool,
) -> None:
    """An ATK changed inside a Battle Phase: the battles fought before it stand, the attacks after it use it."""
    declared = [dict(zip(("attacker", "target"), split_pair(a, "--attack", "Night Reaver=Coral Warden"), strict=True))
                for a in attacks or []]
    run_helper(ctx, GAME, "atk-change", {
        "mine": _monsters(mine, "--mine"), "theirs": _monsters(theirs, "--theirs"), "attacks": declared,
        "changes": _changes(changes, "mine", "--change") + _changes(their_changes, "theirs", "--their-change"),
        "life": life, "their_life": their_life}, as_json)


@app.command("immunity")
@argument("monster", help="The monster that may be immune.")
@argument("card", help="The card whose effect would touch it.")
@option("--immunity", "blank", help="An Immunity another card gives it: what fills the blank, e.g. Spells.")
@option("--given-by", help="The card giving that Immunity (the card itself is never stopped by it).")
@json_option
@click.pass_context
def immunity(ctx: click.Context, monster: str, card: str, blank: str, given_by: str, as_json: bool) -> None:
    """Immunity to ___: whether a card's effect touches a monster (never stopped: the card giving the immunity)."""
    run_helper(ctx, GAME, "immunity", {"monster": monster, "card": card, "immunity": blank, "given_by": given_by},
               as_json)


@app.command("lasts")
@argument("card", help="The spell or trap played.")
@argument("event", required=False,
          help="What happens: resolves, turn-ends, monster-leaves, removed or field-played; leave out to list what "
               "ends it.")
@option("--other", help="The Field card played (field-played) or the monster equipped (monster-leaves).")
@option("--by-opponent", is_flag=True, help="For field-played: the other player plays the new Field card.")
@json_option
@click.pass_context
def lasts(ctx: click.Context, card: str, event: str, other: str, by_opponent: bool, as_json: bool) -> None:
    """How long a spell or trap stays: Equip, Continuous and Field cards, and when one leaves the field."""
    run_helper(ctx, GAME, "lasts", {"card": card, "event": event, "other": other, "by_opponent": by_opponent},
               as_json)


@app.command("fusion")
@argument("card", help="The Fusion or Transformation monster played from the stack.")
@argument("materials", nargs=-1, help="The monsters sent as its materials, NAME or NAME=hand (default: field).")
@json_option
@click.pass_context
def fusion(ctx: click.Context, card: str, materials: tuple[str, ...], as_json: bool) -> None:
    """Fusion and Transformation: the materials named, where they come from, the Graveyard, no mana."""
    rows = []
    for value in materials or []:
        name, zone = split_pair(value, "material", "Cinder Hound=hand")
        rows.append({"card": name, "from": zone.lower() or "field"})
    run_helper(ctx, GAME, "fusion", {"card": card, "materials": rows}, as_json)
