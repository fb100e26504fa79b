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
    _print(turn_from_request(game, cards, request, random.Random(seed) if seed is not None else None), as_json)


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


def _print(outcome, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    if as_json:
        typer.echo(json.dumps(outcome.to_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(outcome.text(), nl=False)
    raise typer.Exit(0 if outcome.legal else 1)


@app.command("clash")
def clash(
    ctx: typer.Context,
    first: str = typer.Argument(..., help="The first fighter, e.g. Mario."),
    first_move: str = typer.Argument(..., help="The first fighter's attack."),
    second: str = typer.Argument(..., help="The second fighter."),
    second_move: str = typer.Argument(..., help="The second fighter's attack."),
    result: str = typer.Option(..., "--result", "-r", help="Successes of the two attack rolls, e.g. 3:2."),
    extra_power: str = typer.Option("0:0", "--extra-power", help="Power each bought with Smash Points, e.g. 2:0."),
    format_id: str = typer.Option(None, "--format", "-f", help="rule-text: damage as the rule's own sentence."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Two fighters attacking each other on the same tick: attack Power (not POW) adds automatic successes."""
    from carddb.rules.ssq import find_fighter, find_move
    from carddb.rules.ssq_fight import ClashSide, same_tick_clash

    game, cards = _ssq(ctx, format_id)
    (hits_a, hits_b), (extra_a, extra_b) = _pair(result), _pair(extra_power)
    one, two = find_fighter(cards, first), find_fighter(cards, second)
    _print(same_tick_clash(game, ClashSide(one, find_move(cards, first_move, one), hits_a, extra_a),
                           ClashSide(two, find_move(cards, second_move, two), hits_b, extra_b)), as_json)


@app.command("charge")
def charge(
    ctx: typer.Context,
    fighter: str = typer.Argument(..., help="The fighter charging, e.g. Pikachu."),
    move: str = typer.Argument(..., help="The charged move, e.g. Super Smash."),
    tick: int = typer.Option(..., "--tick", "-t", help="The tick the charge starts on."),
    ticks: int = typer.Option(..., "--ticks", help="How many ticks the move is charged for."),
    used: list[str] = typer.Option(None, "--used", help="An attack already made this turn (repeat)."),
    event: str = typer.Option("resume", "--event", help="resume, hit, release, store or drop."),
    at: int = typer.Option(None, "--at", help="The tick of the interrupting turn (hit, release, store, drop)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """A charged attack: the tick the turn resumes on, or what a hit, an early release, storing or dropping does."""
    from carddb.rules.ssq import find_fighter, find_move
    from carddb.rules.ssq_fight import charge as charge_move

    game, cards = _ssq(ctx)
    who = find_fighter(cards, fighter)
    made = [find_move(cards, name, who) for name in used or []]
    _print(charge_move(game, who, find_move(cards, move, who), tick=tick, ticks=ticks, used=made, event=event, at=at),
           as_json)


@app.command("sp")
def smash_points(
    ctx: typer.Context,
    fighter: str = typer.Argument(..., help="The fighter, e.g. Mario (the maximum is the fighter's SP)."),
    sp: int = typer.Option(..., "--sp", help="Smash Points the fighter has on the --from-tick tick."),
    from_tick: int = typer.Option(None, "--from-tick", help="The tick of --sp."),
    to_tick: int = typer.Option(None, "--to-tick", help="The tick asked about."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    old_from: int = typer.Option(None, "--from", hidden=True, help="Deprecated: --from-tick."),
    old_to: int = typer.Option(None, "--to", hidden=True, help="Deprecated: --to-tick."),
) -> None:
    """Smash Points regained over ticks: 1 every 5 ticks up to the maximum (they refill between fights)."""
    from carddb.cli.common import deprecated
    from carddb.errors import InputError
    from carddb.rules.ssq import find_fighter
    from carddb.rules.ssq_fight import regain_sp, sp_for_new_fight

    from_tick = deprecated(old_from, "--from", "--from-tick") if from_tick is None else from_tick
    to_tick = deprecated(old_to, "--to", "--to-tick") if to_tick is None else to_tick
    if from_tick is None or to_tick is None:
        raise InputError("say the ticks with --from-tick and --to-tick")

    game, cards = _ssq(ctx)
    who = find_fighter(cards, fighter)
    _print(regain_sp(game, sp, sp_for_new_fight(who), from_tick, to_tick), as_json)


@app.command("recovery")
def recovery(
    ctx: typer.Context,
    fighter: str = typer.Argument(..., help="The fighter hit by a Smash attack, e.g. Mario."),
    taken: int = typer.Option(..., "--damage", "-d", help="Damage the fighter had taken before the hit."),
    hit_damage: int = typer.Option(0, "--hit", help="The damage of this Smash hit."),
    result: str = typer.Option(None, "--result", "-r", help="Attack:defence successes, for the star finish."),
    ledge: int = typer.Option(0, "--ledge", help="Units between the fighter and the ledge."),
    roll: int = typer.Option(None, "--roll", help="Successes of the AGI + Jump recovery roll."),
    up_b: str = typer.Option(None, "--up-b", help="An Up+B move with the Recovery keyword (triple jump)."),
    up_b_roll: int = typer.Option(None, "--up-b-roll", help="Successes of the Up+B move's accuracy roll."),
    walls: int = typer.Option(0, "--walls", help="Walls, ceilings or floors the flight hits."),
    sheltered: bool = typer.Option(False, "--sheltered", help="The fighter cannot be knocked out of the arena."),
    no_pit: bool = typer.Option(False, "--no-pit", help="Below the ledge is ground, not a pit or the arena's edge."),
    seed: int = typer.Option(None, "--seed", help="Roll the recovery dice not given, from this seed."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """A Smash hit past the damage threshold: instant kill, star finish, units flown, recovery roll, wall hits."""
    from carddb.rules.ssq import find_fighter, find_move
    from carddb.rules.ssq_fight import SmashHit, smash_hit

    game, cards = _ssq(ctx)
    who = find_fighter(cards, fighter)
    attack, defence = _pair(result) if result else (None, None)
    hit = SmashHit(taken=taken, hit_damage=hit_damage, ledge=ledge, attack_successes=attack,
                   defence_successes=defence, recovery_roll=roll,
                   up_b=find_move(cards, up_b, who) if up_b else None, up_b_roll=up_b_roll, walls=walls,
                   sheltered=sheltered, pit=not no_pit)
    _print(smash_hit(game, who, hit, random.Random(seed) if seed is not None else None), as_json)


# ------------------------------------------------------------------ before the dice: odds and items (ssq_odds.py)
@app.command("odds")
def odds(
    ctx: typer.Context,
    fighter: str = typer.Argument(..., help="The attacking fighter, e.g. Mario."),
    move: str = typer.Argument(..., help="The attack, e.g. Red Fireball."),
    target: str = typer.Argument(..., help="The fighter attacked."),
    guard: bool = typer.Option(False, "--guard", help="The target guards (AGI + Guard) instead of dodging."),
    same_tick: bool = typer.Option(False, "--same-tick", help="The target acts on the same tick: it rolls AGI alone."),
    attacks: int = typer.Option(1, "--attacks", help="Attacks this turn (each beyond the first costs 2 dice)."),
    extra_dice: int = typer.Option(0, "--extra-dice", help="Dice added to the attack (+1: a charge released early)."),
    format_id: str = typer.Option(None, "--format", "-f", help="rule-text: damage as the rule's own sentence."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
) -> None:
    """The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "odds", {"fighter": fighter, "move": move, "target": target,
                                    "defence": "guard" if guard else "dodge", "same_tick": same_tick,
                                    "attacks": attacks, "extra_dice": extra_dice}, as_json, format_id)


@app.command("clash-odds")
def clash_odds(
    ctx: typer.Context,
    first: str = typer.Argument(..., help="The first fighter, e.g. Mario."),
    first_move: str = typer.Argument(..., help="The first fighter's attack."),
    second: str = typer.Argument(..., help="The second fighter."),
    second_move: str = typer.Argument(..., help="The second fighter's attack."),
    extra_power: str = typer.Option("0:0", "--extra-power", help="Power each bought with Smash Points, e.g. 2:0."),
    format_id: str = typer.Option(None, "--format", "-f", help="rule-text: damage as the rule's own sentence."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
) -> None:
    """The odds of a same-tick clash before the roll: who hits, how often they clash, the expected damage."""
    from carddb.cli.play_common import run_helper

    power_a, power_b = _pair(extra_power)
    run_helper(ctx, "ssq", "clash-odds", {"first": {"fighter": first, "move": first_move, "extra_power": power_a},
                                          "second": {"fighter": second, "move": second_move,
                                                     "extra_power": power_b}}, as_json, format_id)


@app.command("items")
def items(
    ctx: typer.Context,
    fighter: str = typer.Argument(..., help="The fighter."),
    held: list[str] = typer.Argument(..., metavar="ITEMS", help="The items the fighter holds."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
) -> None:
    """One held item at a time (the Smash Dex and badges do not count)."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "items", {"fighter": fighter, "items": held}, as_json)
