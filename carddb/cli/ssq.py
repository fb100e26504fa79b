"""``carddb ssq``: the Super Smash Quest turn checker and initiative (ssq has no decks)."""

from __future__ import annotations

import json
import random

import typer

from carddb.cli.common import state
from carddb.errors import InputError

app = typer.Typer(no_args_is_help=True)


def _ssq(ctx: typer.Context, format_id: str | None = None):  # type: ignore[no-untyped-def]
    from carddb.catalogue.game_cards import game_and_cards

    st = state(ctx)
    return game_and_cards("ssq", format_id, st.db, st.root)


def _pair(text: str) -> tuple[int, int]:
    attack, sep, defence = text.partition(":")
    if not sep or not attack.strip().isdigit() or not defence.strip().isdigit():
        raise InputError(f"--result {text!r}: write attack and defence successes as 3:1")
    return int(attack), int(defence)


@app.command("turn")
def turn(
    ctx: typer.Context,
    fighter: str = typer.Argument(..., help="The fighter taking the turn, e.g. Bowser."),
    actions: list[str] = typer.Argument(..., help="The turn's actions in order: move names, or move, jump, "
                                                  "grab-item."),
    tick: int = typer.Option(0, "--tick", "-t", help="The tick the turn is on."),
    target: str = typer.Option(None, "--target", help="The fighter attacked (for defence pools and damage)."),
    guard: bool = typer.Option(False, "--guard", help="The target guards (AGI + Guard) instead of dodging."),
    same_tick: bool = typer.Option(False, "--same-tick", help="The target acts on the same tick: it rolls AGI alone."),
    sp: int = typer.Option(None, "--sp", help="Smash Points the fighter has now (default: the maximum)."),
    result: list[str] = typer.Option(None, "--result", "-r",
                                     help="Attack:defence successes of each attack in order, e.g. 3:1 (repeat)."),
    seed: int = typer.Option(None, "--seed", help="Roll the dice of attacks with no --result, from this seed."),
    format_id: str = typer.Option(None, "--format", "-f", help="rule-text: damage as the rule's own sentence."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Check a planned turn: actions against the lowest Rate, one Smash Power, SP, the combo penalty, the next
    tick; each attack's dice pool, and its damage for the given (or rolled) successes."""
    from carddb.rules.ssq import plain_action, turn_from_request

    game, cards = _ssq(ctx, format_id)
    results = [_pair(r) for r in result or []]
    planned = []
    for name in actions:
        if plain_action(name):
            planned.append({"action": name})
            continue
        item: dict[str, object] = {"move": name}
        if results:
            item["successes"], item["defence_successes"] = results.pop(0)
        planned.append(item)
    if results:
        raise InputError(f"{len(result)} --result values for fewer attacks")
    request = {"fighter": fighter, "tick": tick, "target": target, "defence": "guard" if guard else "dodge",
               "same_tick": same_tick, "sp": sp, "actions": planned}
    report = turn_from_request(game, cards, request, random.Random(seed) if seed is not None else None)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(report.text(), nl=False)
    raise typer.Exit(0 if report.legal else 1)


@app.command("initiative")
def initiative(
    ctx: typer.Context,
    fighters: list[str] = typer.Argument(..., help="Name=successes (Pikachu=5), or a name alone to roll its "
                                                   "AGI + Movement."),
    seed: int = typer.Option(None, "--seed", help="Seed for the rolls."),
    as_json: bool = typer.Option(False, "--json", help="Print the ticks as JSON."),
) -> None:
    """Order fighters into ticks: the most successes on tick 0, the others (best - theirs) ticks later."""
    from carddb.rules.ssq import find_fighter, initiative_pool, initiative_ticks, roll_pool

    rng = random.Random(seed)
    successes: dict[str, int] = {}
    rolled: dict[str, str] = {}
    game = cards = None
    for item in fighters:
        name, sep, value = item.partition("=")
        if sep:
            if not value.strip().isdigit():
                raise InputError(f"{item!r}: write successes as Name=3")
            successes[name.strip()] = int(value)
            continue
        if cards is None:
            game, cards = _ssq(ctx)
        fighter = find_fighter(cards, name)
        roll = roll_pool(initiative_pool(fighter), game, rng)
        successes[fighter.name] = roll.successes
        rolled[fighter.name] = f"{len(roll.faces)} dice {' '.join(map(str, roll.faces))}"
    ticks = initiative_ticks(successes)
    if as_json:
        typer.echo(json.dumps({"successes": successes, "ticks": ticks}, ensure_ascii=False, indent=2))
        return
    for name, tick in ticks.items():
        how = f" ({rolled[name]})" if name in rolled else ""
        noun = "success" if successes[name] == 1 else "successes"
        typer.echo(f"tick {tick:>2}  {name}: {successes[name]} {noun}{how}")
