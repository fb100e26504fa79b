"""Knock-outs and victory in Pokemon Mini-Battle: what a knock-out discards (the whole evolution stack), who sends
up which Waiting Pokemon, whether the game is won, and what evolving does to a Pokemon's damage (Evolution Healer).
Pure standard library (the site runs it in the browser).

A position is each side's Pokemon in play: the card on top, the pre-evolved forms under it, the damage on it and
whether it is Waiting. A position no game can reach (a Stage 1 alone in play, three Battling Pokemon, an attack on
a Pokemon that is not in play) is answered with the rule it breaks, never a guess. Readings (``docs/minibattle-
play.md``, ``[[readings]]`` of ``rules/minibattle/game.toml``): damage stays on a Pokemon that evolves unless the
evolving card has Evolution Healer; the knocked-out Pokemon's owner picks which Waiting Pokemon comes up, at once;
"in play" is Battling and Waiting (hand and deck do not count); two sides emptied by one attack is a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, plural, setting
from carddb.games.minibattle.pokemon import form, is_basic, stat


@dataclass(frozen=True, slots=True)
class Pokemon:
    """A Pokemon in play: the card on top, the pre-evolved forms under it, the damage on it, Battling or Waiting."""

    card: Card
    under: tuple[Card, ...] = ()
    damage: int = 0
    waiting: bool = False

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def hp(self) -> int:
        return stat(self.card, "hp")

    @property
    def left(self) -> int:
        return self.hp - self.damage


#: How the answer speaks of each side: the attacking player is "you".
SIDES = {"you": {"who": "You", "has": "have", "send": "send", "own": "your", "of": "your"},
         "opponent": {"who": "Your opponent", "has": "has", "send": "sends", "own": "their", "of": "your opponent's"}}


def _same(a: str, b: str) -> bool:
    return normalise_name(a) == normalise_name(b)


def _stack_text(pokemon: Pokemon) -> str:
    return pokemon.name + (f" (on {', '.join(c.name for c in pokemon.under)})" if pokemon.under else "")


# --------------------------------------------------------------------------------------------- the position
def stacked(pokemon: Pokemon, out: Answer, game: GameDefinition) -> Pokemon:
    """The Pokemon with its pre-evolved forms in order, nearest first; a stack that is no evolution line, or that
    does not start from a basic (or baby) Pokemon, is a problem (an evolved Pokemon is played on its match)."""
    rule = game.rule_link("evolution")
    left, ordered, top = list(pokemon.under), [], pokemon.card
    while left:
        source = str(top.get("evolves_from") or "")
        found = next((c for c in left if source and _same(c.name, source)), None)
        if found is None:
            out.problem(f"{', '.join(c.name for c in left)} cannot be under {top.name}: {top.name} evolves from "
                        f"{source or 'no Pokemon'}, and an evolved Pokemon is played on top of its match.", rule)
            return Pokemon(pokemon.card, tuple(ordered), pokemon.damage, pokemon.waiting)
        ordered.append(found)
        left.remove(found)
        top = found
    if not is_basic(top):
        out.problem(f"{top.name} is {top.get('stage') or 'an evolved Pokemon'}: it is in play only on top of "
                    f"{top.get('evolves_from') or 'its pre-evolved Pokemon'}, which must be under it.", rule)
    return Pokemon(pokemon.card, tuple(ordered), pokemon.damage, pokemon.waiting)


def check_side(game: GameDefinition, out: Answer, side: Sequence[Pokemon], whose: str) -> list[Pokemon]:
    """A side's Pokemon with their stacks in order; too many Battling, or a Pokemon whose damage already reached
    its HP, is a problem."""
    words = SIDES[whose]
    checked = [stacked(p, out, game) for p in side]
    for pokemon in checked:
        if pokemon.left <= 0:
            out.problem(f"{words['of'].capitalize()} {pokemon.name} has {pokemon.damage} damage and {pokemon.hp} HP: "
                        "it was knocked out already and is no longer in play.", game.rule_link("battle"))
    most = int(setting(game, "battling_max"))
    battling = [p.name for p in checked if not p.waiting]
    if len(battling) > most:
        out.problem(f"{words['who']} {words['has']} {len(battling)} Battling Pokemon ({', '.join(battling)}): at most "
                    f"{most}; the others are Waiting.", game.rule_link("battling-and-waiting-pokemon"))
    return checked


def find_battling(game: GameDefinition, out: Answer, side: Sequence[Pokemon], name: str, whose: str,
                  role: str) -> Pokemon | None:
    """The Battling Pokemon ``name`` of a side (the first listed when two share the name), or a problem saying why
    it cannot ``role`` ("attack", "be attacked"): Waiting, under another card, or not in play."""
    words, rule = SIDES[whose], game.rule_link("battling-and-waiting-pokemon")
    named = [p for p in side if _same(p.name, name)]
    battling = [p for p in named if not p.waiting]
    if battling:
        return battling[0]
    if named:
        out.problem(f"{words['of'].capitalize()} {named[0].name} is Waiting: only Battling Pokemon may {role}.", rule)
        return None
    holder = next((p for p in side if any(_same(c.name, name) for c in p.under)), None)
    if holder is not None:
        out.problem(f"{name} is under {words['of']} {holder.name}: only the card on top is a Pokemon in play, and "
                    f"only a Battling Pokemon in play may {role}.", game.rule_link("evolution"))
        return None
    listed = ", ".join(p.name for p in side) or "no Pokemon"
    out.problem(f"{name} is not in play on {words['of']} side ({listed}): only a Battling Pokemon in play may "
                f"{role}, so it cannot be knocked out.", rule)
    return None


# ----------------------------------------------------------------------------------------------- knock-outs
@dataclass(frozen=True, slots=True)
class Loss:
    """What one knock-out did to its side: the cards discarded, the Pokemon left, and who may come up."""

    discarded: tuple[str, ...]
    left: tuple[Pokemon, ...]
    choices: tuple[str, ...]
    sent_up: str


def knock_out(game: GameDefinition, out: Answer, pokemon: Pokemon, side: Sequence[Pokemon], whose: str,
              send_up: str = "") -> Loss:
    """Discard the knocked-out Pokemon with every card under it, then its owner sends up a Waiting Pokemon."""
    words, battle_rule = SIDES[whose], game.rule_link("battle")
    cards = (pokemon.card, *pokemon.under)
    names = [c.name for c in pokemon.under]
    under = "" if not names else f" and the pre-evolved form under it, {names[0]}" if len(names) == 1 else \
        f" and the {len(names)} pre-evolved forms under it, {', '.join(names[:-1])} and {names[-1]}"
    out.say(f"{pokemon.name}'s HP is 0 or less: it is knocked out. Discard {pokemon.name}{under} "
            f"({plural(len(cards), 'card')}).", battle_rule)
    for card in cards:
        if form(card, "healer"):
            out.say(f"{card.name}'s Evolution Healer removes damage only when it evolves: it cannot save "
                    f"{pokemon.name}, and {card.name} is discarded with the rest.", game.rule_link("special-abilities"))
    left = tuple(p for p in side if p is not pokemon)
    waiting = tuple(p.name for p in left if p.waiting)
    chosen = next((n for n in waiting if _same(n, send_up)), "") if send_up else ""
    if send_up and not chosen:
        out.problem(f"{send_up} is not one of {words['of']} Waiting Pokemon ({', '.join(waiting) or 'none'}), so it "
                    "cannot be sent up.", battle_rule)
    if chosen:
        out.say(f"{words['who']} {words['send']} up {chosen} to take {pokemon.name}'s place, at once (the owner "
                f"picks from {words['own']} Waiting Pokemon: {', '.join(waiting)}).", battle_rule)
        coming = next(p for p in left if p.waiting and p.name == chosen)
        left = tuple(Pokemon(p.card, p.under, p.damage, False) if p is coming else p for p in left)
    elif waiting:
        out.say(f"{words['who']} {words['send']} up one of {words['own']} Waiting Pokemon to take {pokemon.name}'s "
                f"place, at once; {words['own']} choice: {' or '.join(waiting)}.", battle_rule)
    elif left:
        out.say(f"{words['who']} {words['has']} no Waiting Pokemon: {pokemon.name}'s place stays empty, and "
                f"{', '.join(p.name for p in left)} battles on.", battle_rule)
    else:
        out.say(f"{words['who']} {words['has']} no Pokemon left in play.", game.rule_link("victory"))
    return Loss(tuple(c.name for c in cards), left, waiting, chosen)


def knockout(game: GameDefinition, yours: Sequence[Pokemon], theirs: Sequence[Pokemon], attacker_name: str,
             target_name: str, damage: int, send_up: str = "") -> Answer:
    """One attack's damage on the position: whether the attacked Pokemon (and, through Dmg Reflect, the attacker)
    is knocked out, what is discarded, who comes up, and whether the game is won."""
    out = Answer(game.id, "knockout")
    yours = check_side(game, out, yours, "you")
    theirs = check_side(game, out, theirs, "opponent")
    attacker = find_battling(game, out, yours, attacker_name, "you", "attack")
    target = find_battling(game, out, theirs, target_name, "opponent", "be attacked")
    if attacker is None or target is None or not out.legal:
        out.summary = f"The position breaks {plural(len(out.problems), 'rule')}."
        out.values = {"knocked_out": [], "discarded": [], "winner": None}
        return out
    battle_rule = game.rule_link("battle")
    after = target.left - damage
    so_far = f" - {target.damage} damage on it" if target.damage else ""
    out.say(f"{attacker.name} deals {damage} to {target.name}: {target.hp} HP{so_far} - {damage} = {after} HP.",
            battle_rule)
    losses: dict[str, Loss] = {}
    if after <= 0:
        losses["opponent"] = knock_out(game, out, target, theirs, "opponent", send_up)
    else:
        out.say(f"{target.name} has {after} HP left: not knocked out" + (", so no Pokemon is sent up." if send_up
                                                                         else "."), battle_rule)
    reflect = form(target.card, "reflect")
    if reflect and damage > 0:
        back = attacker.left - reflect.number
        out.say(f"{target.name}'s {reflect.text}: {attacker.name} takes {reflect.number}, {attacker.left} - "
                f"{reflect.number} = {back} HP.", game.rule_link("special-abilities"))
        if back <= 0:
            losses["you"] = knock_out(game, out, attacker, yours, "you")
    hp_after = attacker.left - (reflect.number if reflect and damage > 0 else 0)
    out.summary = " ".join([*_loss_sentences(losses, target, after), _victory(game, out, losses)])
    out.values.update({
        "knocked_out": [loss.discarded[0] for loss in losses.values()],
        "discarded": [name for loss in losses.values() for name in loss.discarded],
        "hp_left": {"target": max(after, 0), "attacker": max(hp_after, 0)},
        "send_up": {side: {"choices": list(loss.choices), "chosen": loss.sent_up or None}
                    for side, loss in losses.items() if loss.choices}})
    return out


def _loss_sentences(losses: dict[str, Loss], target: Pokemon, after: int) -> list[str]:
    said = [] if "opponent" in losses else [f"{target.name} is not knocked out ({after} HP left)."]
    for side, loss in losses.items():
        words = SIDES[side]
        coming = loss.sent_up or " or ".join(loss.choices)
        then = f"; {words['who'].lower()} {words['send']} up {coming}" if coming else ""
        said.append(f"{loss.discarded[0]} is knocked out ({plural(len(loss.discarded), 'card')} discarded){then}.")
    return said


def _victory(game: GameDefinition, out: Answer, losses: dict[str, Loss]) -> str:
    """You win when your opponent has no Pokemon in play; both emptied at once is read as a draw."""
    rule = game.rule_link("victory")
    emptied = {side for side, loss in losses.items() if not loss.left}
    if emptied == {"you", "opponent"}:
        out.say("Neither side has a Pokemon in play: the rulebook names no winner when one attack empties both, "
                "so it is a draw (reading).", rule)
        winner, text = "draw", "A draw: neither side has a Pokemon in play."
    elif "opponent" in emptied:
        out.say("Your opponent has no Pokemon in play (Battling or Waiting; the hand and deck do not count): you "
                "win.", rule)
        winner, text = "you", "You win: your opponent has no Pokemon in play."
    elif "you" in emptied:
        out.say("You have no Pokemon in play: your opponent wins.", rule)
        winner, text = "opponent", "Your opponent wins: you have no Pokemon in play."
    else:
        winner, text = None, "The game goes on."
    out.values["winner"] = winner
    return text


# ---------------------------------------------------------------------------------------------------- evolving
def evolve(game: GameDefinition, pokemon: Pokemon, into: Card, new: bool = False) -> Answer:
    """``pokemon`` (with ``damage`` on it) evolves into ``into``: the damage stays, unless the evolving card has
    Evolution Healer, which removes it all (reading: the card on top before evolving is the one that evolves)."""
    out = Answer(game.id, "evolve")
    evo_rule = game.rule_link("evolution")
    pokemon = check_side(game, out, [pokemon], "you")[0]
    source = str(into.get("evolves_from") or "")
    if not source or not _same(source, pokemon.name):
        out.problem(f"{into.name} evolves from {source or 'no Pokemon'}, not from {pokemon.name}: an evolved Pokemon "
                    "is played on top of its matching pre-evolved Pokemon.", evo_rule)
    if new:
        out.problem(f"{pokemon.name} was played this turn: a Pokemon cannot evolve the turn it is played.", evo_rule)
    if not out.legal:
        out.summary = f"{pokemon.name} cannot evolve into {into.name}: {plural(len(out.problems), 'rule')} broken."
        out.values = {"evolves_into": None, "damage": pokemon.damage, "hp_left": pokemon.left, "healed": 0}
        return out
    out.say(f"Play {into.name} on top of {_stack_text(pokemon)}.", evo_rule)
    healer = form(pokemon.card, "healer")
    hp = stat(into, "hp")
    healed = pokemon.damage if healer else 0
    damage = pokemon.damage - healed
    if healer:
        out.say(f"{pokemon.name}'s Evolution Healer: when it evolves, all its damage is removed ({pokemon.damage} "
                f"to 0).", game.rule_link("special-abilities"))
    elif pokemon.damage:
        out.say(f"{pokemon.name} has no Evolution Healer: its {pokemon.damage} damage stays on {into.name} "
                "(reading).", evo_rule)
    out.say(f"{into.name}: {hp} HP" + (f" - {damage} damage = {hp - damage} HP left." if damage else "."),
            game.rule_link("battle"))
    if hp - damage <= 0:
        out.say(f"{into.name}'s HP is 0 or less: it is knocked out, with every card under it.",
                game.rule_link("battle"))
    kept = f" (its {damage} damage stays)" if damage else \
        f" (Evolution Healer removed {healed} damage)" if healed else ""
    out.summary = f"{pokemon.name} evolves into {into.name} with {max(hp - damage, 0)} HP{kept}."
    out.values = {"evolves_into": into.name, "damage": damage, "hp_left": max(hp - damage, 0), "healed": healed,
                  "stack": [into.name, pokemon.name, *(c.name for c in pokemon.under)]}
    return out
