"""``carddb play ssbm``: Super Smash Bros. Melee CCG at the table (``carddb/rules/ssbm_play.py``)."""

from __future__ import annotations

import typer

from carddb.cli.play_common import JSON_OPTION, game_options, numbered, run_helper
from carddb.errors import InputError

app = typer.Typer(no_args_is_help=True, callback=game_options)
GAME = "ssbm"


@app.command("damage")
def damage(
    ctx: typer.Context,
    character: str = typer.Argument(..., help="The attacking character, e.g. Ganondorf."),
    attacks: list[str] = typer.Argument(..., help="The attack cards played this turn, in order."),
    failed: list[int] = typer.Option(None, "--failed", help="The place of an attack that failed (interrupted, "
                                                            "blocked, dodged), from 1 (repeat)."),
    bonus: list[str] = typer.Option(None, "--bonus", help="Damage an amplifier or card text adds to an attack: "
                                                          "PLACE=D, e.g. 2=2 (repeat)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Damage of a play: STRENGTH + X per attack, +1D, +2D, ... for successive hits; a failed attack ends the chain."""
    extra = numbered(bonus, "--bonus", len(attacks))
    for place in failed or []:
        if not 1 <= place <= len(attacks):
            there = "there is 1 attack" if len(attacks) == 1 else f"there are {len(attacks)} attacks"
            raise InputError(f"--failed {place}: {there}, numbered from 1")
    rows = [{"card": name, "hit": place not in (failed or []), "bonus": extra.get(place, 0)}
            for place, name in enumerate(attacks, 1)]
    run_helper(ctx, GAME, "damage", {"character": character, "attacks": rows}, as_json)


@app.command("taken")
def taken(
    ctx: typer.Context,
    damage_dealt: int = typer.Argument(..., metavar="DAMAGE", help="The damage dealt, e.g. 7."),
    flipped: list[str] = typer.Argument(None, help="The cards flipped from the deck, in order."),
    before: int = typer.Option(None, "--before", help="Damage the character had already taken."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Damage taken: flip half the damage (rounded down); a flipped defensive card halves it and stops the flip."""
    run_helper(ctx, GAME, "taken", {"damage": damage_dealt, "flipped": flipped or [], "before": before}, as_json)


@app.command("ko")
def ko(
    ctx: typer.Context,
    attack: str = typer.Argument(..., help="The attack that hit, e.g. Smash Attack."),
    target: str = typer.Argument(..., help="The character hit, e.g. Mario."),
    recovery: list[str] = typer.Argument(None, help="The recovery cards played, in order."),
    damage_taken: int = typer.Option(..., "--damage", "-d", help="The damage the character has."),
    endurance: int = typer.Option(None, "--endurance", help="ENDURANCE as a card changed it (Super Mushroom)."),
    stages: str = typer.Option(None, "--stages", help="Recovery stages as a card changed them: 20,40 (Gerudo "
                                                      "Dragon) for the rulebook's 30,50."),
    attack_damage: int = typer.Option(0, "--attack-damage", help="This attack's own damage (counted only by a "
                                                                 "format that counts it)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """KO and recovery: a KO-icon attack KOs above ENDURANCE unless the recovery cards played save the character."""
    parsed = None
    if stages:
        parts = [p.strip() for p in stages.split(",")]
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InputError(f"--stages {stages!r}: write the two limits as 30,50")
        parsed = [int(p) for p in parts]
    run_helper(ctx, GAME, "ko", {"attack": attack, "target": target, "damage": damage_taken,
                                 "recovery": recovery or [], "endurance": endurance, "stages": parsed,
                                 "attack_damage": attack_damage}, as_json)


@app.command("order")
def order(
    ctx: typer.Context,
    characters: list[str] = typer.Argument(..., help="The characters of the match."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Turn order: the highest INTELLIGENCE first, ties by SPEED; cards drawn a turn and the starting hand."""
    run_helper(ctx, GAME, "order", {"characters": characters}, as_json)


@app.command("cards")
def cards(
    ctx: typer.Context,
    names: list[str] = typer.Argument(..., metavar="CARDS", help="Play cards, e.g. Charge Block."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Which cards may be played in the play phase, and which cannot be interrupted or blocked."""
    run_helper(ctx, GAME, "cards", {"cards": names}, as_json)


@app.command("discard")
def discard(
    ctx: typer.Context,
    names: list[str] = typer.Argument(..., metavar="CARDS", help="The cards discarded this turn, in order."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Discard to draw: up to three times a turn, one card for one (two for a dodge or block card)."""
    run_helper(ctx, GAME, "discard", {"cards": names}, as_json)


SELF_DESTRUCT = ("sd", "self", "self-destruct")


@app.command("match")
def match(
    ctx: typer.Context,
    events: list[str] = typer.Argument(None, help="In order: WINNER:LOSER for a KO (Link:Mario), PLAYER:sd for "
                                                  "a self-destruct."),
    mode: str = typer.Option("stock", "--mode", help="stock or time."),
    stock: int = typer.Option(None, "--stock", help="The stock each player starts with (default 5)."),
    players: list[str] = typer.Option(None, "--player", help="A player of the match (repeat; players in the events "
                                                             "count anyway)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Score a TIME or STOCK match from its KOs and self-destructs."""
    rows = []
    for event in events or []:
        left, sep, right = (part.strip() for part in event.partition(":"))
        if not sep or not left or not right:
            raise InputError(f"{event!r}: write a KO as Link:Mario (Link KOs Mario), a self-destruct as Mario:sd")
        rows.append({"player": left} if right.lower() in SELF_DESTRUCT else {"player": right, "by": left})
    run_helper(ctx, GAME, "match", {"mode": mode, "stock": stock, "players": players or [], "events": rows},
               as_json)
