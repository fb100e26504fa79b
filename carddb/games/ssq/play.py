"""Super Smash Quest Skirmish before the dice are rolled: the exact chance that an attack hits, its expected damage,
the odds of a same-tick clash, and the one item a fighter may hold. Pure standard library.

A pool of d10 counts 7, 8 and 9 as one success and 10 as two (the game's ``[dice]``); the attack hits when it rolls
more successes than the defence (a tie misses). The distributions are exact (``fractions.Fraction``), built by
convolving one die's distribution, and ``tests/games/test_ssq_odds.py`` checks them against every face of every die.
Pools and damage are those of the turn checker (``ssq.dice_pool``, ``ssq.damage``) and the clash that of
``fight.same_tick_clash``, so the odds always agree with ``carddb play ssq turn`` and ``carddb play ssq clash``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.dice import dice_sides, success_table
from carddb.core.play.helpers import (
    Answer,
    Helper,
    chance,
    find_card,
    flag,
    names_of,
    percent_text,
    plural,
    setting,
    whole,
    word,
)
from carddb.errors import InputError
from carddb.games.ssq.fight import ClashSide, attack_power_bonus, same_tick_clash, turn_number
from carddb.games.ssq.turn import damage, dice_pool, find_fighter, find_move, move_power

MAX_DICE = 40


# -------------------------------------------------------------------------------------------------- dice pools
def die_distribution(game: GameDefinition | None) -> dict[int, Fraction]:
    """One die: successes -> chance (a d10: 0 at 6/10, 1 at 3/10, 2 at 1/10)."""
    sides, table = dice_sides(game), success_table(game)
    out: dict[int, Fraction] = {}
    for face in range(1, sides + 1):
        hits = table.get(face, 0)
        out[hits] = out.get(hits, Fraction(0)) + Fraction(1, sides)
    return out


@lru_cache(maxsize=256)
def _pool(dice: int, die: tuple[tuple[int, Fraction], ...]) -> tuple[tuple[int, Fraction], ...]:
    dist = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for hits, q in die:
                nxt[total + hits] = nxt.get(total + hits, Fraction(0)) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


def pool_distribution(dice: int, game: GameDefinition | None = None) -> dict[int, Fraction]:
    """Successes of ``dice`` dice -> their exact chance (0 dice: 0 successes for certain)."""
    return dict(_pool(max(0, dice), tuple(sorted(die_distribution(game).items()))))


def beats(attack: Mapping[int, Fraction], defence: Mapping[int, Fraction]) -> Fraction:
    """The chance that the attack rolls more successes than the defence (a tie misses)."""
    return sum((p * q for a, p in attack.items() for d, q in defence.items() if a > d), Fraction(0))


def pool_words(game: GameDefinition, fighter: Card, terms: str) -> str:
    """``AGI 3 + Ranged 2 = 5`` for ``AGI + Ranged`` (a single term: ``AGI 1``)."""
    parts = []
    for term in (t.strip() for t in terms.split("+")):
        if term:
            parts.append(f"{term} {dice_pool(game, fighter, term)[0]}" if not term.lstrip("-").isdigit() else term)
    total = dice_pool(game, fighter, terms)[0]
    return f"{' + '.join(parts)} = {total}" if len(parts) > 1 else f"{parts[0] if parts else 0}"


# ---------------------------------------------------------------------------------------------- attack odds
def attack_odds(game: GameDefinition, fighter: Card, move: Card, target: Card, *, defence: str = "dodge",
                same_tick: bool = False, attacks: int = 1, extra_dice: int = 0) -> Answer:
    """The exact chance that ``move`` hits ``target``, and its damage: each damage with its chance, and the mean.

    ``attacks``: the attacks of this turn (each beyond the first costs every attack 2 dice); ``same_tick``: the
    target acts on the same tick and rolls AGI alone; ``defence``: dodge (AGI + Dodge) or guard (AGI + Guard);
    ``extra_dice``: dice added to the attack (+1 for a charge released early).
    """
    out = Answer(game.id, "odds")
    hit_rule, dice_rule = game.rule_link("attacking-and-defending"), game.rule_link("dice")
    accuracy = str(move.get("accuracy") or "")
    base, unknown = dice_pool(game, fighter, accuracy)
    if unknown:
        out.problem(f"{move.name}: cannot read {', '.join(unknown)} in its Accuracy {accuracy!r}.",
                    game.rule_link("move-anatomy"))
    penalty = turn_number(game, "combo_penalty") * max(0, attacks - 1)
    pool = max(0, base - penalty + extra_dice)
    terms = [pool_words(game, fighter, accuracy)]
    if penalty:
        terms.append(f"- {penalty} combo penalty ({plural(attacks, 'attack')} this turn)")
    if extra_dice:
        terms.append(f"+ {extra_dice}")
    out.say(f"{fighter.name}, {move.name}: {' '.join(terms)}{f' = {pool}' if len(terms) > 1 else ''} dice.",
            game.rule_link("actions-and-rate") if penalty else hit_rule)
    if same_tick:
        defence_terms = "AGI"
        out.say(f"{target.name} acts on the same tick: no Dodge or Guard, AGI alone.", game.rule_link("same-tick"))
    else:
        defence_terms = f"AGI + {'Guard' if defence == 'guard' else 'Dodge'}"
    against = dice_pool(game, target, defence_terms)[0]
    verb = "defends" if same_tick else "guards" if defence == "guard" else "dodges"
    out.say(f"{target.name} {verb}: "
            f"{pool_words(game, target, defence_terms)} dice.", hit_rule)
    die = die_distribution(game)
    out.say("Each die: " + ", ".join(f"{hits} success{'es' if hits != 1 else ''} {percent_text(p)}"
                                     for hits, p in sorted(die.items())) + ".", dice_rule)
    attack_dist, defence_dist = pool_distribution(pool, game), pool_distribution(against, game)
    hit = beats(attack_dist, defence_dist)
    out.say(f"{pool} dice must roll more successes than {against} (a tie misses): hit {percent_text(hit)}.", hit_rule)
    power = move_power(move, fighter)
    multiplier = move.get("damage") if isinstance(move.get("damage"), int) else 1
    end = int(target.get("end") or 0)
    by_damage: dict[int, Fraction] = {}
    by_margin: dict[int, Fraction] = {}
    for a, p in attack_dist.items():
        for d, q in defence_dist.items():
            if a > d:
                by_margin[a - d] = by_margin.get(a - d, Fraction(0)) + p * q
    damage_rule = game.rule_link("damage")
    for margin, p in sorted(by_margin.items()):
        dealt, working = damage(game, power, margin, end, multiplier)
        by_damage[dealt] = by_damage.get(dealt, Fraction(0)) + p
        out.say(f"Beats the defence by {margin}, at {percent_text(p)}: {working}.", damage_rule)
    expected = sum((dealt * p for dealt, p in by_damage.items()), Fraction(0))
    table = [{"damage": dealt, "probability": chance(p)} for dealt, p in sorted(by_damage.items())]
    out.summary = (f"{move.name} hits {target.name} {percent_text(hit)}; expected damage {_number(expected)}"
                   + (f" ({_number(expected / hit)} when it hits)." if hit else "."))
    out.values = {"fighter": fighter.name, "move": move.name, "target": target.name, "pool": pool,
                  "defence_pool": against, "hit": chance(hit), "miss": chance(1 - hit),
                  "expected_damage": _exact(expected), "damage": table}
    return out


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": round(float(value), 4)}


# ----------------------------------------------------------------------------------------------- clash odds
def clash_odds(game: GameDefinition, first: tuple[Card, Card, int], second: tuple[Card, Card, int]) -> Answer:
    """Two fighters attacking each other on the same tick, before they roll: each rolls its attack's Accuracy and
    adds its attack's Power (not POW, plus Power bought with Smash Points) as automatic successes; the higher total
    hits, a tie clashes harmlessly. Each outcome is worked out by ``same_tick_clash``, as ``carddb play ssq clash``."""
    out = Answer(game.id, "clash-odds")
    rule = game.rule_link("same-tick")
    sides = []
    for fighter, move, extra in (first, second):
        dice = dice_pool(game, fighter, str(move.get("accuracy") or ""))[0]
        bonus = attack_power_bonus(move, fighter) + extra
        out.say(f"{fighter.name}, {move.name}: {pool_words(game, fighter, str(move.get('accuracy') or ''))} dice, "
                f"{bonus:+d} Power as automatic successes.", rule)
        sides.append((fighter, move, extra, pool_distribution(dice, game)))
    wins = {first[0].name: Fraction(0), second[0].name: Fraction(0)}
    expected = {first[0].name: Fraction(0), second[0].name: Fraction(0)}
    tie = Fraction(0)
    (f1, m1, e1, d1), (f2, m2, e2, d2) = sides
    for a, p in d1.items():
        for b, q in d2.items():
            result = same_tick_clash(game, ClashSide(f1, m1, a, e1), ClashSide(f2, m2, b, e2)).values
            if result["winner"] is None:
                tie += p * q
            else:
                wins[result["winner"]] += p * q
                expected[result["winner"]] += p * q * result["damage"]
    for name, other in ((f1.name, f2.name), (f2.name, f1.name)):
        out.say(f"{name} hits {other} {percent_text(wins[name])}; expected damage to {other} "
                f"{_number(expected[name])}.", rule)
    out.say(f"The attacks clash harmlessly {percent_text(tie)}.", rule)
    out.summary = (f"{f1.name} hits {percent_text(wins[f1.name])}, {f2.name} hits {percent_text(wins[f2.name])}, "
                   f"a clash {percent_text(tie)}.")
    out.values = {"first": {"fighter": f1.name, "move": m1.name, "hits": chance(wins[f1.name]),
                            "expected_damage": _exact(expected[f1.name])},
                  "second": {"fighter": f2.name, "move": m2.name, "hits": chance(wins[f2.name]),
                             "expected_damage": _exact(expected[f2.name])},
                  "clash": chance(tie)}
    return out


# ---------------------------------------------------------------------------------------------------- items
def held_items(game: GameDefinition, fighter: Card, items: Sequence[str], weapons: Sequence[Card] = ()) -> Answer:
    """A fighter holds one item at a time (a shell, a weapon in use); the Smash Dex and badges do not count."""
    out = Answer(game.id, "items")
    rule = game.rule_link("items")
    most = int(setting(game, "items_held"))
    free = [normalise_name(n) for n in setting(game, "items_not_counted")]
    known = {normalise_name(w.name): w.name for w in weapons}
    held, free_held = [], []
    for item in items:
        key = normalise_name(item)
        if any(key == f or key.endswith(f" {f}") or key.startswith(f"{f} ") for f in free):
            free_held.append(item)
        else:
            held.append(known.get(key, item))
    if free_held:
        out.say(f"{', '.join(free_held)}: always at hand, not "
                f"{'a held item' if len(free_held) == 1 else 'held items'}.", rule)
    if held:
        out.say(f"{fighter.name} holds {', '.join(held)}.", rule)
    if len(held) > most:
        out.problem(f"{fighter.name} holds {plural(len(held), 'item')}; a fighter holds {most} at a time.", rule)
    out.summary = (f"{fighter.name} may hold {held[0] if held else 'an item'}." if out.legal
                   else f"{fighter.name} holds too many items: one at a time.")
    out.values = {"fighter": fighter.name, "held": held, "not_counted": free_held}
    return out


# --------------------------------------------------------------------------------------------- JSON requests
def _fighter(game: GameDefinition, index: CardIndex, name: Any) -> Card:
    find_card(game, index, name, ("fighter",), "fighter")  # the deck checker's names, with suggestions
    return find_fighter(index.cards, str(name))


def _move(game: GameDefinition, index: CardIndex, name: Any, fighter: Card) -> Card:
    if not _several(index, name):  # a name several fighters' moves share is the fighter's own (find_move)
        find_card(game, index, name, ("move",), "move")
    return find_move(index.cards, str(name), fighter)  # the fighter's own move first (several have a Punch)


def _several(index: CardIndex, name: Any) -> bool:
    return len(index.names.by_norm.get(normalise_name(str(name or "")), [])) > 1


def _odds(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"fighter": "Mario", "move": "Red Fireball", "target": "Bowser", "defence": "dodge", "same_tick": false,
    "attacks": 1, "extra_dice": 0}``"""
    fighter = _fighter(game, index, request.get("fighter"))
    return attack_odds(game, fighter, _move(game, index, request.get("move"), fighter),
                       _fighter(game, index, request.get("target")),
                       defence=word(request, "defence", ("dodge", "guard"), "dodge"),
                       same_tick=flag(request, "same_tick"), attacks=whole(request, "attacks", 1, low=1, high=10) or 1,
                       extra_dice=whole(request, "extra_dice", 0, high=MAX_DICE) or 0)


def _clash_odds(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"first": {"fighter": "Mario", "move": "Red Fireball", "extra_power": 0}, "second": {...}}``"""
    sides = []
    for key in ("first", "second"):
        side = request.get(key) or {}
        if not isinstance(side, Mapping):
            raise InputError(f"{key} is an object with a fighter, a move and the Power bought")
        fighter = _fighter(game, index, side.get("fighter"))
        sides.append((fighter, _move(game, index, side.get("move"), fighter),
                      whole(side, "extra_power", 0, high=99, what="Power bought") or 0))
    return clash_odds(game, sides[0], sides[1])


def _items(game: GameDefinition, index: CardIndex, request: Mapping[str, Any]) -> Answer:
    """``{"fighter": "Link", "items": ["Beam Sword", "Green Shell"]}``"""
    weapons = [c for c in index.cards if c.kind == "move" and c.get("move_type") == "weapon"]
    return held_items(game, _fighter(game, index, request.get("fighter")), names_of(request.get("items")), weapons)


HELPERS: dict[str, Helper] = {"odds": _odds, "clash-odds": _clash_odds, "items": _items}


# ---------------------------------------------------- movement and percentile rolls (movement.py, percentile.py)
from carddb.games.ssq.movement import reach_request  # noqa: E402  (kept in one appended block for the merge)
from carddb.games.ssq.percentile import percentile_request  # noqa: E402

HELPERS.update({"reach": reach_request, "percentile": percentile_request})

# ------------------------------------------------------------- lives, Game Over, one Smash Power a turn (lives.py)
from carddb.games.ssq.lives import LIVES_HELPERS  # noqa: E402  (an appended group; lives.py does not import play)

HELPERS.update(LIVES_HELPERS)
