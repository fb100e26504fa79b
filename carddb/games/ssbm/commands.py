"""``carddb play ssbm``: Super Smash Bros. Melee CCG at the table (``carddb/games/ssbm/play.py``)."""

from __future__ import annotations

from typing import Annotated

import typer

from carddb.cli.parsing import INTEGER
from carddb.cli.play_common import JsonFlag, game_group, numbered, run_helper
from carddb.errors import InputError

app = game_group()
GAME = "ssbm"


@app.command("damage")
def damage(
    ctx: typer.Context,
    *,
    character: Annotated[str, typer.Argument(help="The attacking character, e.g. Ganondorf.")],
    attacks: Annotated[list[str], typer.Argument(help="The attack cards played this turn, in order.")],
    failed: Annotated[list[int] | None, typer.Option(
        "--failed", click_type=INTEGER, help="The place of an attack that failed (interrupted, blocked, dodged), "
             "from 1 (repeat).")] = None,
    bonus: Annotated[list[str] | None, typer.Option(
        "--bonus", help="Damage an amplifier or card text adds to an attack: PLACE=D, e.g. 2=2 (repeat).")] = None,
    as_json: JsonFlag = False,
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
    *,
    damage_dealt: Annotated[int, typer.Argument(
        click_type=INTEGER, metavar='DAMAGE', help="The damage dealt, e.g. 7.")],
    flipped: Annotated[list[str] | None, typer.Argument(help="The cards flipped from the deck, in order.")] = None,
    before: Annotated[int | None, typer.Option(
        "--before", click_type=INTEGER, help="Damage the character had already taken.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Damage taken: flip half the damage (rounded down); a flipped defensive card halves it and stops the flip."""
    run_helper(ctx, GAME, "taken", {"damage": damage_dealt, "flipped": flipped or [], "before": before}, as_json)


@app.command("ko")
def ko(
    ctx: typer.Context,
    *,
    attack: Annotated[str, typer.Argument(help="The attack that hit, e.g. Smash Attack.")],
    target: Annotated[str, typer.Argument(help="The character hit, e.g. Mario.")],
    recovery: Annotated[list[str] | None, typer.Argument(help="The recovery cards played, in order.")] = None,
    damage_taken: Annotated[int, typer.Option(
        "--damage", "-d", click_type=INTEGER, help="The damage the character has.")],
    endurance: Annotated[int | None, typer.Option(
        "--endurance", click_type=INTEGER, help="ENDURANCE as a card changed it (Super Mushroom).")] = None,
    stages: Annotated[str | None, typer.Option(
        "--stages", help="Recovery stages as a card changed them: 20,40 (Gerudo Dragon) for the "
                         "rulebook's 30,50.")] = None,
    attack_damage: Annotated[int, typer.Option(
        "--attack-damage", click_type=INTEGER, help="This attack's own damage (counted only by a format that counts "
             "it).")] = 0,
    as_json: JsonFlag = False,
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
    *,
    characters: Annotated[list[str], typer.Argument(help="The characters of the match.")],
    as_json: JsonFlag = False,
) -> None:
    """Turn order: the highest INTELLIGENCE first, ties by SPEED; cards drawn a turn and the starting hand."""
    run_helper(ctx, GAME, "order", {"characters": characters}, as_json)


@app.command("cards")
def cards(
    ctx: typer.Context,
    *,
    names: Annotated[list[str], typer.Argument(metavar='CARDS', help="Play cards, e.g. Charge Block.")],
    as_json: JsonFlag = False,
) -> None:
    """Which cards may be played in the play phase, and which cannot be interrupted or blocked."""
    run_helper(ctx, GAME, "cards", {"cards": names}, as_json)


@app.command("discard")
def discard(
    ctx: typer.Context,
    *,
    names: Annotated[list[str], typer.Argument(metavar='CARDS', help="The cards discarded this turn, in order.")],
    as_json: JsonFlag = False,
) -> None:
    """Discard to draw: up to three times a turn, one card for one (two for a dodge or block card)."""
    run_helper(ctx, GAME, "discard", {"cards": names}, as_json)


SELF_DESTRUCT = ("sd", "self", "self-destruct")


@app.command("match")
def match(
    ctx: typer.Context,
    *,
    events: Annotated[list[str] | None, typer.Argument(
        help="In order: WINNER:LOSER for a KO (Link:Mario), PLAYER:sd for a self-destruct.")] = None,
    mode: Annotated[str, typer.Option("--mode", help="stock or time.")] = "stock",
    stock: Annotated[int | None, typer.Option(
        "--stock", click_type=INTEGER, help="The stock each player starts with (default 5).")] = None,
    players: Annotated[list[str] | None, typer.Option(
        "--player", help="A player of the match (repeat; players in the events count anyway).")] = None,
    as_json: JsonFlag = False,
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


@app.command("chain")
def chain(
    ctx: typer.Context,
    *,
    plays: Annotated[list[str], typer.Argument(
        help="In order: PLAYER=CARD, the card played (Mario=Taunt), then each card that interrupts the one before "
             "(Link=Attack).")],
    as_json: JsonFlag = False,
) -> None:
    """An interrupt chain: whether each interrupt is allowed, what takes effect, in what order, whose turn ends."""
    rows = []
    for play in plays:
        player, sep, card = (part.strip() for part in play.partition("="))
        if not sep or not player or not card:
            raise InputError(f"{play!r}: write each play as PLAYER=CARD, e.g. Link=Attack")
        rows.append({"player": player, "card": card})
    run_helper(ctx, GAME, "chain", {"plays": rows}, as_json)


@app.command("after-ko")
def after_ko(
    ctx: typer.Context,
    *,
    character: Annotated[str, typer.Argument(help="The character KO'd, e.g. Mario.")],
    field: Annotated[list[str] | None, typer.Option(
        "--field", help="A card of theirs on the playing field; an item here is unequipped (repeat).")] = None,
    equipped: Annotated[list[str] | None, typer.Option(
        "--equipped", help="An item equipped next to their character card (repeat).")] = None,
    deck: Annotated[int | None, typer.Option("--deck", click_type=INTEGER, help="Cards left in their deck.")] = None,
    discard: Annotated[int | None, typer.Option(
        "--discard", click_type=INTEGER, help="Cards in their discard pile.")] = None,
    hand: Annotated[int | None, typer.Option("--hand", click_type=INTEGER, help="Cards in their hand.")] = None,
    mode: Annotated[str, typer.Option("--mode", help="stock or time.")] = "stock",
    stock: Annotated[int | None, typer.Option("--stock", click_type=INTEGER, help="Their stock before the KO.")] = None,
    by: Annotated[str, typer.Option("--by", help="The character who made the KO.")] = "",
    as_json: JsonFlag = False,
) -> None:
    """After a KO: what goes back into the deck, the SPEED cards drawn, and the stock or points it costs."""
    run_helper(ctx, GAME, "after-ko", {"character": character, "field": field or [], "equipped": equipped or [],
                                       "deck": deck, "discard": discard, "hand": hand, "mode": mode, "stock": stock,
                                       "by": by}, as_json)
