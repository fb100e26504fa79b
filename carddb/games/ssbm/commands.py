"""``carddb play ssbm``: Super Smash Bros. Melee CCG at the table (``carddb/games/ssbm/play.py``)."""

from __future__ import annotations

import click

from carddb.cli.parsing import INTEGER, argument, option
from carddb.cli.play_common import game_group, json_option, numbered, run_helper
from carddb.errors import InputError

app = game_group()
GAME = "ssbm"


@app.command("damage")
@argument("character", help="The attacking character, e.g. Ganondorf.")
@argument("attacks", nargs=-1, required=True, help="The attack cards played this turn, in order.")
@option("--failed", type=INTEGER, multiple=True,
              help="The place of an attack that failed (interrupted, blocked, dodged), from 1 (repeat).")
@option("--bonus", multiple=True,
              help="Damage an amplifier or card text adds to an attack: PLACE=D, e.g. 2=2 (repeat).")
@json_option
@click.pass_context
def damage(
    ctx: click.Context,
    character: str,
    attacks: tuple[str, ...],
    failed: tuple[int, ...],
    bonus: tuple[str, ...],
    as_json: bool,
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
@argument("damage_dealt", type=INTEGER, metavar='DAMAGE', help="The damage dealt, e.g. 7.")
@argument("flipped", nargs=-1, help="The cards flipped from the deck, in order.")
@option("--before", type=INTEGER, help="Damage the character had already taken.")
@json_option
@click.pass_context
def taken(
    ctx: click.Context,
    damage_dealt: int,
    flipped: tuple[str, ...],
    before: int,
    as_json: bool,
) -> None:
    """Damage taken: flip half the damage (rounded down); a flipped defensive card halves it and stops the flip."""
    run_helper(ctx, GAME, "taken", {"damage": damage_dealt, "flipped": flipped or [], "before": before}, as_json)


@app.command("ko")
@argument("attack", help="The attack that hit, e.g. Smash Attack.")
@argument("target", help="The character hit, e.g. Mario.")
@argument("recovery", nargs=-1, help="The recovery cards played, in order.")
@option("--damage", "-d", "damage_taken", type=INTEGER, required=True, help="The damage the character has.")
@option("--endurance", type=INTEGER, help="ENDURANCE as a card changed it (Super Mushroom).")
@option("--stages",
              help="Recovery stages as a card changed them: 20,40 (Gerudo Dragon) for the rulebook's 30,50.")
@option("--attack-damage", type=INTEGER, default=0,
              help="This attack's own damage (counted only by a format that counts it).")
@json_option
@click.pass_context
def ko(
    ctx: click.Context,
    attack: str,
    target: str,
    recovery: tuple[str, ...],
    damage_taken: int,
    endurance: int,
    stages: str,
    attack_damage: int,
    as_json: bool,
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
@argument("characters", nargs=-1, required=True, help="The characters of the match.")
@json_option
@click.pass_context
def order(ctx: click.Context, characters: tuple[str, ...], as_json: bool) -> None:
    """Turn order: the highest INTELLIGENCE first, ties by SPEED; cards drawn a turn and the starting hand."""
    run_helper(ctx, GAME, "order", {"characters": characters}, as_json)


@app.command("cards")
@argument("names", nargs=-1, required=True, metavar='CARDS', help="Play cards, e.g. Charge Block.")
@json_option
@click.pass_context
def cards(ctx: click.Context, names: tuple[str, ...], as_json: bool) -> None:
    """Which cards may be played in the play phase, and which cannot be interrupted or blocked."""
    run_helper(ctx, GAME, "cards", {"cards": names}, as_json)


@app.command("discard")
@argument("names", nargs=-1, required=True, metavar='CARDS', help="The cards discarded this turn, in order.")
@json_option
@click.pass_context
def discard(ctx: click.Context, names: tuple[str, ...], as_json: bool) -> None:
    """Discard to draw: up to three times a turn, one card for one (two for a dodge or block card)."""
    run_helper(ctx, GAME, "discard", {"cards": names}, as_json)


SELF_DESTRUCT = ("sd", "self", "self-destruct")


@app.command("match")
@argument("events", nargs=-1, help="In order: WINNER:LOSER for a KO (Link:Mario), PLAYER:sd for a self-destruct.")
@option("--mode", default="stock", help="stock or time.")
@option("--stock", type=INTEGER, help="The stock each player starts with (default 5).")
@option("--player", "players", multiple=True,
              help="A player of the match (repeat; players in the events count anyway).")
@json_option
@click.pass_context
def match(
    ctx: click.Context,
    events: tuple[str, ...],
    mode: str,
    stock: int,
    players: tuple[str, ...],
    as_json: bool,
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
@argument("plays", nargs=-1, required=True,
          help="In order: PLAYER=CARD, the card played (Mario=Taunt), then each card that interrupts the one before "
               "(Link=Attack).")
@json_option
@click.pass_context
def chain(ctx: click.Context, plays: tuple[str, ...], as_json: bool) -> None:
    """An interrupt chain: whether each interrupt is allowed, what takes effect, in what order, whose turn ends."""
    rows = []
    for play in plays:
        player, sep, card = (part.strip() for part in play.partition("="))
        if not sep or not player or not card:
            raise InputError(f"{play!r}: write each play as PLAYER=CARD, e.g. Link=Attack")
        rows.append({"player": player, "card": card})
    run_helper(ctx, GAME, "chain", {"plays": rows}, as_json)


@app.command("after-ko")
@argument("character", help="The character KO'd, e.g. Mario.")
@option("--field", multiple=True, help="A card of theirs on the playing field; an item here is unequipped (repeat).")
@option("--equipped", multiple=True, help="An item equipped next to their character card (repeat).")
@option("--deck", type=INTEGER, help="Cards left in their deck.")
@option("--discard", type=INTEGER, help="Cards in their discard pile.")
@option("--hand", type=INTEGER, help="Cards in their hand.")
@option("--mode", default="stock", help="stock or time.")
@option("--stock", type=INTEGER, help="Their stock before the KO.")
@option("--by", default="", help="The character who made the KO.")
@json_option
@click.pass_context
def after_ko(
    ctx: click.Context,
    character: str,
    field: tuple[str, ...],
    equipped: tuple[str, ...],
    deck: int,
    discard: int,
    hand: int,
    mode: str,
    stock: int,
    by: str,
    as_json: bool,
) -> None:
    """After a KO: what goes back into the deck, the SPEED cards drawn, and the stock or points it costs."""
    run_helper(ctx, GAME, "after-ko", {"character": character, "field": field or [], "equipped": equipped or [],
                                       "deck": deck, "discard": discard, "hand": hand, "mode": mode, "stock": stock,
                                       "by": by}, as_json)
