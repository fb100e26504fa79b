"""``carddb play ssq``: the Super Smash Quest turn checker and initiative (ssq has no decks)."""

from __future__ import annotations

import json
import random
from typing import Annotated

import typer

from carddb.cli.common import state
from carddb.cli.parsing import INTEGER, group
from carddb.errors import InputError

app = group(help="Super Smash Quest: a turn, initiative, clashes, charging, Smash Points, recovery, hit odds, "
                 "items, movement, percentile moves, lives.")


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
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter taking the turn, e.g. Bowser.")],
    actions: Annotated[list[str], typer.Argument(
        help="The turn's actions in order: move names, or move, jump, grab-item.")],
    tick: Annotated[int, typer.Option("--tick", "-t", click_type=INTEGER, help="The tick the turn is on.")] = 0,
    target: Annotated[str | None, typer.Option(
        "--target", help="The fighter attacked (for defence pools and damage).")] = None,
    guard: Annotated[bool, typer.Option("--guard", help="The target guards (AGI + Guard) instead of dodging.")] = False,
    same_tick: Annotated[bool, typer.Option(
        "--same-tick", help="The target acts on the same tick: it rolls AGI alone.")] = False,
    sp: Annotated[int | None, typer.Option(
        "--sp", click_type=INTEGER, help="Smash Points the fighter has now (default: the maximum).")] = None,
    result: Annotated[list[str] | None, typer.Option(
        "--result", "-r", help="Attack:defence successes of each attack in order, e.g. 3:1 (repeat).")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", click_type=INTEGER, help="Roll the dice of attacks with no --result, from this seed.")] = None,
    format_id: Annotated[str | None, typer.Option(
        "--format", "-f", help="rule-text: damage as the rule's own sentence.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
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
def initiative(
    ctx: typer.Context,
    *,
    fighters: Annotated[list[str], typer.Argument(
        help="Name=successes (Pikachu=5), or a name alone to roll its AGI + Movement.")],
    seed: Annotated[int | None, typer.Option("--seed", click_type=INTEGER, help="Seed for the rolls.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ticks as JSON.")] = False,
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
    *,
    first: Annotated[str, typer.Argument(help="The first fighter, e.g. Mario.")],
    first_move: Annotated[str, typer.Argument(help="The first fighter's attack.")],
    second: Annotated[str, typer.Argument(help="The second fighter.")],
    second_move: Annotated[str, typer.Argument(help="The second fighter's attack.")],
    result: Annotated[str, typer.Option("--result", "-r", help="Successes of the two attack rolls, e.g. 3:2.")],
    extra_power: Annotated[str, typer.Option(
        "--extra-power", help="Power each bought with Smash Points, e.g. 2:0.")] = "0:0",
    format_id: Annotated[str | None, typer.Option(
        "--format", "-f", help="rule-text: damage as the rule's own sentence.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
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
def charge(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter charging, e.g. Pikachu.")],
    move: Annotated[str, typer.Argument(help="The charged move, e.g. Super Smash.")],
    tick: Annotated[int, typer.Option("--tick", "-t", click_type=INTEGER, help="The tick the charge starts on.")],
    ticks: Annotated[int, typer.Option("--ticks", click_type=INTEGER, help="How many ticks the move is charged for.")],
    used: Annotated[list[str] | None, typer.Option("--used", help="An attack already made this turn (repeat).")] = None,
    event: Annotated[str, typer.Option("--event", help="resume, hit, release, store or drop.")] = "resume",
    at: Annotated[int | None, typer.Option(
        "--at", click_type=INTEGER, help="The tick of the interrupting turn (hit, release, store, drop).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
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
def smash_points(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter, e.g. Mario (the maximum is the fighter's SP).")],
    sp: Annotated[int, typer.Option(
        "--sp", click_type=INTEGER, help="Smash Points the fighter has on the --from-tick tick.")],
    from_tick: Annotated[int | None, typer.Option("--from-tick", click_type=INTEGER, help="The tick of --sp.")] = None,
    to_tick: Annotated[int | None, typer.Option("--to-tick", click_type=INTEGER, help="The tick asked about.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    old_from: Annotated[int | None, typer.Option(
        "--from", click_type=INTEGER, hidden=True, help="Deprecated: --from-tick.")] = None,
    old_to: Annotated[int | None, typer.Option(
        "--to", click_type=INTEGER, hidden=True, help="Deprecated: --to-tick.")] = None,
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
def recovery(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter hit by a Smash attack, e.g. Mario.")],
    taken: Annotated[int, typer.Option(
        "--damage", "-d", click_type=INTEGER, help="Damage the fighter had taken before the hit.")],
    hit_damage: Annotated[int, typer.Option("--hit", click_type=INTEGER, help="The damage of this Smash hit.")] = 0,
    result: Annotated[str | None, typer.Option(
        "--result", "-r", help="Attack:defence successes, for the star finish.")] = None,
    ledge: Annotated[int, typer.Option(
        "--ledge", click_type=INTEGER, help="Units between the fighter and the ledge.")] = 0,
    roll: Annotated[int | None, typer.Option(
        "--roll", click_type=INTEGER, help="Successes of the AGI + Jump recovery roll.")] = None,
    up_b: Annotated[str | None, typer.Option(
        "--up-b", help="An Up+B move with the Recovery keyword (triple jump).")] = None,
    up_b_roll: Annotated[int | None, typer.Option(
        "--up-b-roll", click_type=INTEGER, help="Successes of the Up+B move's accuracy roll.")] = None,
    walls: Annotated[int, typer.Option(
        "--walls", click_type=INTEGER, help="Walls, ceilings or floors the flight hits.")] = 0,
    sheltered: Annotated[bool, typer.Option(
        "--sheltered", help="The fighter cannot be knocked out of the arena.")] = False,
    no_pit: Annotated[bool, typer.Option(
        "--no-pit", help="Below the ledge is ground, not a pit or the arena's edge.")] = False,
    seed: Annotated[int | None, typer.Option(
        "--seed", click_type=INTEGER, help="Roll the recovery dice not given, from this seed.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
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
def odds(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The attacking fighter, e.g. Mario.")],
    move: Annotated[str, typer.Argument(help="The attack, e.g. Red Fireball.")],
    target: Annotated[str, typer.Argument(help="The fighter attacked.")],
    guard: Annotated[bool, typer.Option("--guard", help="The target guards (AGI + Guard) instead of dodging.")] = False,
    same_tick: Annotated[bool, typer.Option(
        "--same-tick", help="The target acts on the same tick: it rolls AGI alone.")] = False,
    attacks: Annotated[int, typer.Option(
        "--attacks", click_type=INTEGER, help="Attacks this turn (each beyond the first costs 2 dice).")] = 1,
    extra_dice: Annotated[int, typer.Option(
        "--extra-dice", click_type=INTEGER, help="Dice added to the attack (+1: a charge released early).")] = 0,
    format_id: Annotated[str | None, typer.Option(
        "--format", "-f", help="rule-text: damage as the rule's own sentence.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "odds", {"fighter": fighter, "move": move, "target": target,
                                    "defence": "guard" if guard else "dodge", "same_tick": same_tick,
                                    "attacks": attacks, "extra_dice": extra_dice}, as_json, format_id)


@app.command("clash-odds")
def clash_odds(
    ctx: typer.Context,
    *,
    first: Annotated[str, typer.Argument(help="The first fighter, e.g. Mario.")],
    first_move: Annotated[str, typer.Argument(help="The first fighter's attack.")],
    second: Annotated[str, typer.Argument(help="The second fighter.")],
    second_move: Annotated[str, typer.Argument(help="The second fighter's attack.")],
    extra_power: Annotated[str, typer.Option(
        "--extra-power", help="Power each bought with Smash Points, e.g. 2:0.")] = "0:0",
    format_id: Annotated[str | None, typer.Option(
        "--format", "-f", help="rule-text: damage as the rule's own sentence.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
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
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter.")],
    held: Annotated[list[str], typer.Argument(metavar='ITEMS', help="The items the fighter holds.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """One held item at a time (the Smash Dex and badges do not count)."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "items", {"fighter": fighter, "items": held}, as_json)


# ------------------------------------------------- movement and percentile rolls (movement.py, percentile.py)
@app.command("reach")
def reach(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter moving, e.g. Mario.")],
    actions: Annotated[list[str] | None, typer.Argument(
        help="The turn's actions in order: walk, dash, jump, double jump, or a move (an Up+B is the triple jump). "
             "None: what each move action covers.")] = None,
    tick: Annotated[int, typer.Option("--tick", "-t", click_type=INTEGER, help="The tick the turn is on.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """How far a fighter gets in a turn: walk half its Movement, dash its Movement, jump its Jump, double and
    triple jumps, within the lowest Rate; and the next tick."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "reach", {"fighter": fighter, "actions": actions or [], "tick": tick}, as_json)


@app.command("percentile")
def percentile(
    ctx: typer.Context,
    *,
    move: Annotated[str, typer.Argument(
        help="A move whose Power a percentile roll decides: Item Pull, Judgment Hammer.")],
    fighter: Annotated[str | None, typer.Option(
        "--fighter", help="The fighter rolling (default: the move's own).")] = None,
    luck: Annotated[int | None, typer.Option(
        "--luck", click_type=INTEGER, help="The Luck added (default: the fighter's).")] = None,
    no_luck: Annotated[bool, typer.Option("--no-luck", help="Do not add Luck (it may be added, not must).")] = False,
    roll: Annotated[int | None, typer.Option(
        "--roll", click_type=INTEGER, help="The percentile rolled, 1 to 100: what it gives.")] = None,
    faces: Annotated[str | None, typer.Option(
        "--faces", help="The two d10 rolled, tens and units, e.g. 10:10 (100).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
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
def lose_life(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter losing a life, e.g. Mario.")],
    lives: Annotated[int | None, typer.Option(
        "--lives", click_type=INTEGER, help="Lives the fighter has before the loss (default: the "
                                            "fighter's sheet).")] = None,
    coins: Annotated[int | None, typer.Option(
        "--coins", click_type=INTEGER, help="Coins the fighter holds (a Game Over loses half).")] = None,
    session: Annotated[int | None, typer.Option(
        "--session", click_type=INTEGER, help="The number of the current session (to name the "
                                              "sessions sat out).")] = None,
    cause: Annotated[str, typer.Option(
        "--cause", help="fall (off a ledge), hp (0 HP in HP mode), smash (killed outright) or star-finish.")] = "fall",
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """A life lost, and at none left the Game Over: half the coins, a session sat out, three lives on return."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "lose-life", {"fighter": fighter, "lives": lives, "coins": coins, "session": session,
                                         "cause": cause}, as_json)


@app.command("smash-powers")
def smash_powers(
    ctx: typer.Context,
    *,
    fighter: Annotated[str, typer.Argument(help="The fighter whose turn it is, e.g. Mario.")],
    moves: Annotated[list[str] | None, typer.Argument(help="The moves used on the turn, in order.")] = None,
    between: Annotated[list[str] | None, typer.Option(
        "--between", help="A move used between the fighter's turns, e.g. Bubble Shield (repeat).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """One Smash Power a turn: the turn's Smash Powers counted, defensive ones between turns not."""
    from carddb.cli.play_common import run_helper

    run_helper(ctx, "ssq", "smash-powers", {"fighter": fighter, "turn": moves or [], "between_turns": between or []},
               as_json)
