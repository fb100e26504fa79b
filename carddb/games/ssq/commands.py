"""``carddb ssq``: the Super Smash Quest turn checker and initiative (ssq has no decks)."""

from __future__ import annotations

import json
import random

import click

from carddb.cli.common import state
from carddb.cli.parsing import INTEGER, argument, group, option
from carddb.errors import InputError

app = group(help="Super Smash Quest: a turn, initiative, clashes, charging, Smash Points, recovery, hit odds, "
                 "items, movement, percentile moves, lives.")


def _ssq(ctx: click.Context, format_id: str | None = None):  # type: ignore[no-untyped-def]
    from carddb.catalogue.game_cards import game_and_cards

    st = state(ctx)
    return game_and_cards("ssq", format_id, st.db, st.root)


def _pair(text: str) -> tuple[int, int]:
    attack, sep, defence = text.partition(":")
    if not sep or not attack.strip().isdigit() or not defence.strip().isdigit():
        raise InputError(f"--result {text!r}: write attack and defence successes as 3:1")
    return int(attack), int(defence)


@app.command("turn")
@argument("fighter", help="The fighter taking the turn, e.g. Bowser.")
@argument("actions", nargs=-1, required=True,
          help="The turn's actions in order: move names, or move, jump, grab-item.")
@option("--tick", "-t", type=INTEGER, default=0, help="The tick the turn is on.")
@option("--target", help="The fighter attacked (for defence pools and damage).")
@option("--guard", is_flag=True, help="The target guards (AGI + Guard) instead of dodging.")
@option("--same-tick", is_flag=True, help="The target acts on the same tick: it rolls AGI alone.")
@option("--sp", type=INTEGER, help="Smash Points the fighter has now (default: the maximum).")
@option("--result", "-r", multiple=True,
              help="Attack:defence successes of each attack in order, e.g. 3:1 (repeat).")
@option("--seed", type=INTEGER, help="Roll the dice of attacks with no --result, from this seed.")
@option("--format", "-f", "format_id", help="rule-text: damage as the rule's own sentence.")
@option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def turn(
    ctx: click.Context,
    fighter: str,
    actions: tuple[str, ...],
    tick: int,
    target: str,
    guard: bool,
    same_tick: bool,
    sp: int,
    result: tuple[str, ...],
    seed: int,
    format_id: str,
    as_json: bool,
) -> None:
    """Check a planned turn: actions against the lowest Rate, one Smash Power, SP, the combo penalty, the next
    tick; each attack's dice pool, and its damage for the given (or rolled) successes."""
    from carddb.games.ssq.turn import plain_action, turn_from_request

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
@argument("fighters", nargs=-1, required=True,
          help="Name=successes (Pikachu=5), or a name alone to roll its AGI + Movement.")
@option("--seed", type=INTEGER, help="Seed for the rolls.")
@option("--json", "as_json", is_flag=True, help="Print the ticks as JSON.")
@click.pass_context
def initiative(
    ctx: click.Context,
    fighters: tuple[str, ...],
    seed: int,
    as_json: bool,
) -> None:
    """Order fighters into ticks: the most successes on tick 0, the others (best - theirs) ticks later."""
    from carddb.core.play.dice import roll_pool
    from carddb.games.ssq.turn import find_fighter, initiative_pool, initiative_ticks

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
        click.echo(json.dumps({"successes": successes, "ticks": ticks}, ensure_ascii=False, indent=2))
        return
    for name, tick in ticks.items():
        how = f" ({rolled[name]})" if name in rolled else ""
        noun = "success" if successes[name] == 1 else "successes"
        click.echo(f"tick {tick:>2}  {name}: {successes[name]} {noun}{how}")


def _print(outcome, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    if as_json:
        click.echo(json.dumps(outcome.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(outcome.text(), nl=False)
    raise click.exceptions.Exit(0 if outcome.legal else 1)


@app.command("clash")
@argument("first", help="The first fighter, e.g. Mario.")
@argument("first_move", help="The first fighter's attack.")
@argument("second", help="The second fighter.")
@argument("second_move", help="The second fighter's attack.")
@option("--result", "-r", required=True, help="Successes of the two attack rolls, e.g. 3:2.")
@option("--extra-power", default="0:0", help="Power each bought with Smash Points, e.g. 2:0.")
@option("--format", "-f", "format_id", help="rule-text: damage as the rule's own sentence.")
@option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def clash(
    ctx: click.Context,
    first: str,
    first_move: str,
    second: str,
    second_move: str,
    result: str,
    extra_power: str,
    format_id: str,
    as_json: bool,
) -> None:
    """Two fighters attacking each other on the same tick: attack Power (not POW) adds automatic successes."""
    from carddb.games.ssq.fight import ClashSide, same_tick_clash
    from carddb.games.ssq.turn import find_fighter, find_move

    game, cards = _ssq(ctx, format_id)
    (hits_a, hits_b), (extra_a, extra_b) = _pair(result), _pair(extra_power)
    one, two = find_fighter(cards, first), find_fighter(cards, second)
    _print(same_tick_clash(game, ClashSide(one, find_move(cards, first_move, one), hits_a, extra_a),
                           ClashSide(two, find_move(cards, second_move, two), hits_b, extra_b)), as_json)


@app.command("charge")
@argument("fighter", help="The fighter charging, e.g. Pikachu.")
@argument("move", help="The charged move, e.g. Super Smash.")
@option("--tick", "-t", type=INTEGER, required=True, help="The tick the charge starts on.")
@option("--ticks", type=INTEGER, required=True, help="How many ticks the move is charged for.")
@option("--used", multiple=True, help="An attack already made this turn (repeat).")
@option("--event", default="resume", help="resume, hit, release, store or drop.")
@option("--at", type=INTEGER, help="The tick of the interrupting turn (hit, release, store, drop).")
@option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def charge(
    ctx: click.Context,
    fighter: str,
    move: str,
    tick: int,
    ticks: int,
    used: tuple[str, ...],
    event: str,
    at: int,
    as_json: bool,
) -> None:
    """A charged attack: the tick the turn resumes on, or what a hit, an early release, storing or dropping does."""
    from carddb.games.ssq.fight import charge as charge_move
    from carddb.games.ssq.turn import find_fighter, find_move

    game, cards = _ssq(ctx)
    who = find_fighter(cards, fighter)
    made = [find_move(cards, name, who) for name in used or []]
    _print(charge_move(game, who, find_move(cards, move, who), tick=tick, ticks=ticks, used=made, event=event, at=at),
           as_json)


@app.command("sp")
@argument("fighter", help="The fighter, e.g. Mario (the maximum is the fighter's SP).")
@option("--sp", type=INTEGER, required=True, help="Smash Points the fighter has on the --from-tick tick.")
@option("--from-tick", type=INTEGER, help="The tick of --sp.")
@option("--to-tick", type=INTEGER, help="The tick asked about.")
@option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@option("--from", "old_from", type=INTEGER, hidden=True, help="Deprecated: --from-tick.")
@option("--to", "old_to", type=INTEGER, hidden=True, help="Deprecated: --to-tick.")
@click.pass_context
def smash_points(
    ctx: click.Context,
    fighter: str,
    sp: int,
    from_tick: int,
    to_tick: int,
    as_json: bool,
    old_from: int,
    old_to: int,
) -> None:
    """Smash Points regained over ticks: 1 every 5 ticks up to the maximum (they refill between fights)."""
    from carddb.cli.common import deprecated
    from carddb.errors import InputError
    from carddb.games.ssq.fight import regain_sp, sp_for_new_fight
    from carddb.games.ssq.turn import find_fighter

    from_tick = deprecated(old_from, "--from", "--from-tick") if from_tick is None else from_tick
    to_tick = deprecated(old_to, "--to", "--to-tick") if to_tick is None else to_tick
    if from_tick is None or to_tick is None:
        raise InputError("say the ticks with --from-tick and --to-tick")

    game, cards = _ssq(ctx)
    who = find_fighter(cards, fighter)
    _print(regain_sp(game, sp, sp_for_new_fight(who), from_tick, to_tick), as_json)


@app.command("recovery")
@argument("fighter", help="The fighter hit by a Smash attack, e.g. Mario.")
@option("--damage", "-d", "taken", type=INTEGER, required=True,
              help="Damage the fighter had taken before the hit.")
@option("--hit", "hit_damage", type=INTEGER, default=0, help="The damage of this Smash hit.")
@option("--result", "-r", help="Attack:defence successes, for the star finish.")
@option("--ledge", type=INTEGER, default=0, help="Units between the fighter and the ledge.")
@option("--roll", type=INTEGER, help="Successes of the AGI + Jump recovery roll.")
@option("--up-b", help="An Up+B move with the Recovery keyword (triple jump).")
@option("--up-b-roll", type=INTEGER, help="Successes of the Up+B move's accuracy roll.")
@option("--walls", type=INTEGER, default=0, help="Walls, ceilings or floors the flight hits.")
@option("--sheltered", is_flag=True, help="The fighter cannot be knocked out of the arena.")
@option("--no-pit", is_flag=True, help="Below the ledge is ground, not a pit or the arena's edge.")
@option("--seed", type=INTEGER, help="Roll the recovery dice not given, from this seed.")
@option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def recovery(
    ctx: click.Context,
    fighter: str,
    taken: int,
    hit_damage: int,
    result: str,
    ledge: int,
    roll: int,
    up_b: str,
    up_b_roll: int,
    walls: int,
    sheltered: bool,
    no_pit: bool,
    seed: int,
    as_json: bool,
) -> None:
    """A Smash hit past the damage threshold: instant kill, star finish, units flown, recovery roll, wall hits."""
    from carddb.games.ssq.fight import SmashHit, smash_hit
    from carddb.games.ssq.turn import find_fighter, find_move

    game, cards = _ssq(ctx)
    who = find_fighter(cards, fighter)
    attack, defence = _pair(result) if result else (None, None)
    hit = SmashHit(taken=taken, hit_damage=hit_damage, ledge=ledge, attack_successes=attack,
                   defence_successes=defence, recovery_roll=roll,
                   up_b=find_move(cards, up_b, who) if up_b else None, up_b_roll=up_b_roll, walls=walls,
                   sheltered=sheltered, pit=not no_pit)
    _print(smash_hit(game, who, hit, random.Random(seed) if seed is not None else None), as_json)


# ------------------------------------------------------------------ before the dice: odds and items (play.py)
@app.command("odds")
@argument("fighter", help="The attacking fighter, e.g. Mario.")
@argument("move", help="The attack, e.g. Red Fireball.")
@argument("target", help="The fighter attacked.")
@option("--guard", is_flag=True, help="The target guards (AGI + Guard) instead of dodging.")
@option("--same-tick", is_flag=True, help="The target acts on the same tick: it rolls AGI alone.")
@option("--attacks", type=INTEGER, default=1, help="Attacks this turn (each beyond the first costs 2 dice).")
@option("--extra-dice", type=INTEGER, default=0, help="Dice added to the attack (+1: a charge released early).")
@option("--format", "-f", "format_id", help="rule-text: damage as the rule's own sentence.")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def odds(
    ctx: click.Context,
    fighter: str,
    move: str,
    target: str,
    guard: bool,
    same_tick: bool,
    attacks: int,
    extra_dice: int,
    format_id: str,
    as_json: bool,
) -> None:
    """The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "odds", {"fighter": fighter, "move": move, "target": target,
                                    "defence": "guard" if guard else "dodge", "same_tick": same_tick,
                                    "attacks": attacks, "extra_dice": extra_dice}, as_json, format_id)


@app.command("clash-odds")
@argument("first", help="The first fighter, e.g. Mario.")
@argument("first_move", help="The first fighter's attack.")
@argument("second", help="The second fighter.")
@argument("second_move", help="The second fighter's attack.")
@option("--extra-power", default="0:0", help="Power each bought with Smash Points, e.g. 2:0.")
@option("--format", "-f", "format_id", help="rule-text: damage as the rule's own sentence.")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def clash_odds(
    ctx: click.Context,
    first: str,
    first_move: str,
    second: str,
    second_move: str,
    extra_power: str,
    format_id: str,
    as_json: bool,
) -> None:
    """The odds of a same-tick clash before the roll: who hits, how often they clash, the expected damage."""
    from carddb.cli.play_common import run_helper

    power_a, power_b = _pair(extra_power)
    run_helper(ctx, "ssq", "clash-odds", {"first": {"fighter": first, "move": first_move, "extra_power": power_a},
                                          "second": {"fighter": second, "move": second_move,
                                                     "extra_power": power_b}}, as_json, format_id)


@app.command("items")
@argument("fighter", help="The fighter.")
@argument("held", nargs=-1, required=True, metavar='ITEMS', help="The items the fighter holds.")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def items(
    ctx: click.Context,
    fighter: str,
    held: tuple[str, ...],
    as_json: bool,
) -> None:
    """One held item at a time (the Smash Dex and badges do not count)."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "items", {"fighter": fighter, "items": held}, as_json)


# ------------------------------------------------- movement and percentile rolls (movement.py, percentile.py)
@app.command("reach")
@argument("fighter", help="The fighter moving, e.g. Mario.")
@argument("actions", nargs=-1, help="The turn's actions in order: walk, dash, jump, double jump, or a move "
                                    "(an Up+B is the triple jump). None: what each move action covers.")
@option("--tick", "-t", type=INTEGER, default=0, help="The tick the turn is on.")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def reach(
    ctx: click.Context,
    fighter: str,
    actions: tuple[str, ...],
    tick: int,
    as_json: bool,
) -> None:
    """How far a fighter gets in a turn: walk half its Movement, dash its Movement, jump its Jump, double and
    triple jumps, within the lowest Rate; and the next tick."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "reach", {"fighter": fighter, "actions": list(actions), "tick": tick}, as_json)


@app.command("percentile")
@argument("move", help="A move whose Power a percentile roll decides: Item Pull, Judgment Hammer.")
@option("--fighter", help="The fighter rolling (default: the move's own).")
@option("--luck", type=INTEGER, help="The Luck added (default: the fighter's).")
@option("--no-luck", is_flag=True, help="Do not add Luck (it may be added, not must).")
@option("--roll", type=INTEGER, help="The percentile rolled, 1 to 100: what it gives.")
@option("--faces", help="The two d10 rolled, tens and units, e.g. 10:10 (100).")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def percentile(
    ctx: click.Context,
    move: str,
    fighter: str,
    luck: int,
    no_luck: bool,
    roll: int,
    faces: str,
    as_json: bool,
) -> None:
    """The exact chance of each outcome of a percentile move for a fighter's Luck, or what a roll gives."""
    from carddb.cli.play_common import run_helper

    tens, sep, units = (faces or "").partition(":")
    if faces and not sep:
        raise InputError(f"--faces {faces!r}: write the tens and units dice as 10:10")
    run_helper(ctx, "ssq", "percentile", {"move": move, "fighter": fighter, "luck": luck, "no_luck": no_luck,
                                          "roll": roll, "faces": [tens, units] if faces else []}, as_json)


# ------------------------------------------------------------ lives, Game Over, one Smash Power a turn (lives.py)
@app.command("lose-life")
@argument("fighter", help="The fighter losing a life, e.g. Mario.")
@option("--lives", type=INTEGER, help="Lives the fighter has before the loss (default: the fighter's sheet).")
@option("--coins", type=INTEGER, help="Coins the fighter holds (a Game Over loses half).")
@option("--session", type=INTEGER, help="The number of the current session (to name the sessions sat out).")
@option("--cause", default="fall", help="fall (off a ledge), hp (0 HP in HP mode), smash (killed outright) or "
                                        "star-finish.")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def lose_life(
    ctx: click.Context,
    fighter: str,
    lives: int,
    coins: int,
    session: int,
    cause: str,
    as_json: bool,
) -> None:
    """A life lost, and at none left the Game Over: half the coins, a session sat out, three lives on return."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "lose-life", {"fighter": fighter, "lives": lives, "coins": coins, "session": session,
                                         "cause": cause}, as_json)


@app.command("smash-powers")
@argument("fighter", help="The fighter whose turn it is, e.g. Mario.")
@argument("moves", nargs=-1, help="The moves used on the turn, in order.")
@option("--between", multiple=True, help="A move used between the fighter's turns, e.g. Bubble Shield (repeat).")
@option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def smash_powers(
    ctx: click.Context,
    fighter: str,
    moves: tuple[str, ...],
    between: tuple[str, ...],
    as_json: bool,
) -> None:
    """One Smash Power a turn: the turn's Smash Powers counted, defensive ones between turns not."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "smash-powers", {"fighter": fighter, "turn": list(moves), "between_turns": list(between)},
               as_json)
