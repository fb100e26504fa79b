"""``carddb play shmod``: the commands of Shmod's helpers that read their requests by hand; the others' commands come
from their typed signatures in ``play.py`` (``carddb/cli/play_command.py``)."""

from __future__ import annotations

from typing import Annotated

import typer

from carddb.cli.parsing import INTEGER
from carddb.cli.play_common import JsonFlag, game_group, run_helper, split_pair
from carddb.errors import InputError

app = game_group()
GAME = "shmod"


@app.command("battle")
def battle(
    ctx: typer.Context,
    *,
    attacker: Annotated[str, typer.Argument(help="The attacking monster (in Attack Position).")],
    defender: Annotated[str | None, typer.Argument(help="The monster attacked; leave out for a direct attack.")] = None,
    defense: Annotated[bool, typer.Option("--defense", help="The defender is in Defense Position.")] = False,
    atk: Annotated[int | None, typer.Option(
        "--atk", click_type=INTEGER, help="The attacker's ATK as it is now (equips, fields).")] = None,
    defender_atk: Annotated[int | None, typer.Option(
        "--defender-atk", click_type=INTEGER, help="The defender's ATK as it is now.")] = None,
    defender_def: Annotated[int | None, typer.Option(
        "--defender-def", click_type=INTEGER, help="The defender's DEF as it is now.")] = None,
    has_monsters: Annotated[bool, typer.Option(
        "--has-monsters", help="For a direct attack: the defending player has monsters in play.")] = False,
    as_json: JsonFlag = False,
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
    *,
    mine: Annotated[list[str] | None, typer.Option(
        "--mine", help="Your monster on the field, NAME or NAME=defense (repeat).")] = None,
    theirs: Annotated[list[str] | None, typer.Option(
        "--theirs", help="The defending player's monster, NAME or NAME=defense (repeat).")] = None,
    attacks: Annotated[list[str] | None, typer.Option(
        "--attack", help="An attack in order: ATTACKER=TARGET, or ATTACKER alone to attack directly (repeat).")] = None,
    life: Annotated[int | None, typer.Option(
        "--life", click_type=INTEGER, help="Your Life before the Battle Phase (default 10).")] = None,
    their_life: Annotated[int | None, typer.Option(
        "--their-life", click_type=INTEGER, help="The defending player's Life (default 10).")] = None,
    first_turn: Annotated[bool, typer.Option("--first-turn", help="This is the first player's first turn.")] = False,
    as_json: JsonFlag = False,
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
    *,
    card: Annotated[str, typer.Argument(help="The monster, spell or trap paid for.")],
    tapped: Annotated[list[str] | None, typer.Argument(help="The mana tapped, TYPE=N: FIRE=2 EARTH=3.")] = None,
    x: Annotated[int | None, typer.Option(
        "--x", click_type=INTEGER, help="For a Level X card: the X wanted (it must equal the mana tapped).")] = None,
    by_effect: Annotated[bool, typer.Option(
        "--by-effect", help="The monster is played by an effect (no mana).")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Mana payment: LEVEL mana, with at least 1 of the monster's TYPE (not for COLOURLESS); Level X cards."""
    table: dict[str, int] = {}
    for item in tapped or []:
        kind, count = split_pair(item, "mana", "FIRE=2")
        if not count.isdigit():
            raise InputError(f"mana {item!r}: write the TYPE and how many, as FIRE=2")
        table[kind.upper()] = table.get(kind.upper(), 0) + int(count)
    run_helper(ctx, GAME, "mana", {"card": card, "mana": table, "x": x, "by_effect": by_effect}, as_json)


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
def atk_change(
    ctx: typer.Context,
    *,
    mine: Annotated[list[str] | None, typer.Option(
        "--mine", help="Your monster on the field, NAME or NAME=defense (repeat).")] = None,
    theirs: Annotated[list[str] | None, typer.Option(
        "--theirs", help="The defending player's monster, NAME or NAME=defense (repeat).")] = None,
    attacks: Annotated[list[str] | None, typer.Option(
        "--attack", help="An attack in order: ATTACKER=TARGET, or ATTACKER alone to attack directly (repeat).")] = None,
    changes: Annotated[list[str] | None, typer.Option(
        "--change", help="An ATK change to your monster: AFTER:NAME=+N, after AFTER attacks (0: before the first) "
             "(repeat).")] = None,
    their_changes: Annotated[list[str] | None, typer.Option(
        "--their-change", help="An ATK change to the defending player's monster, as --change (repeat).")] = None,
    life: Annotated[int | None, typer.Option(
        "--life", click_type=INTEGER, help="Your Life before the Battle Phase (default 10).")] = None,
    their_life: Annotated[int | None, typer.Option(
        "--their-life", click_type=INTEGER, help="The defending player's Life (default 10).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """An ATK changed inside a Battle Phase: the battles fought before it stand, the attacks after it use it."""
    declared = [dict(zip(("attacker", "target"), split_pair(a, "--attack", "Night Reaver=Coral Warden"), strict=True))
                for a in attacks or []]
    run_helper(ctx, GAME, "atk-change", {
        "mine": _monsters(mine, "--mine"), "theirs": _monsters(theirs, "--theirs"), "attacks": declared,
        "changes": _changes(changes, "mine", "--change") + _changes(their_changes, "theirs", "--their-change"),
        "life": life, "their_life": their_life}, as_json)


@app.command("fusion")
def fusion(
    ctx: typer.Context,
    *,
    card: Annotated[str, typer.Argument(help="The Fusion or Transformation monster played from the stack.")],
    materials: Annotated[list[str] | None, typer.Argument(
        help="The monsters sent as its materials, NAME or NAME=hand (default: field).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Fusion and Transformation: the materials named, where they come from, the Graveyard, no mana."""
    rows = []
    for value in materials or []:
        name, zone = split_pair(value, "material", "Cinder Hound=hand")
        rows.append({"card": name, "from": zone.lower() or "field"})
    run_helper(ctx, GAME, "fusion", {"card": card, "materials": rows}, as_json)
