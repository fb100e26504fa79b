"""Super Smash Bros. Melee CCG at the table: damage and combos, damage taken, KO and recovery, turn order, the play
phase, discarding to draw, and scoring a match; interrupt chains (``chains.py``) and what follows a KO
(``knockout.py``) are listed here too. Pure standard library; the numbers and readings are ``[play]`` of
``rules/ssbm/game.toml``.

The rulebook's worked examples are exact tests: Ganondorf (STRENGTH 7) with a set-up attack (+3D) deals 7 + 3 =
10D; a 7D attack whose damaged player flips a Dodge: Roll becomes 3D. The second combo example ("7D ... +1D ...
total 15D") adds up under no reading of the rule, so nothing here is tested against it (``docs/ssbm-play.md``).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import (
    Answer,
    choice,
    find_card,
    plural,
    setting,
)
from carddb.core.play.signature import Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.ssbm.chains import Link, interrupt_chain, second_recovery_problem
from carddb.games.ssbm.knockout import after_ko

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _ordinal(n: int) -> str:
    return ORDINALS[n - 1] if 0 < n <= len(ORDINALS) else f"{n}th"


def _stat(card: Card, key: str) -> int:
    value = card.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _has(card: Card, key: str, value: str) -> bool:
    return value in (card.get(key) or [])


# ---------------------------------------------------------------------------------------------- damage, combos
@dataclass(frozen=True, slots=True)
class Attack:
    """One attack of a turn, in the order played: ``hit`` False when it was interrupted, blocked or dodged;
    ``bonus`` the D added by amplifiers or card text (Jump: +2D)."""

    card: Card
    hit: bool = True
    bonus: int = 0


def play_damage(game: GameDefinition, character: Card, attacks: Sequence[Attack]) -> Answer:
    """Each attack deals STRENGTH + X (+ its bonus); successive successful attacks add +1D, +2D, ...; a failed
    attack ends the chain and the next successful one starts a new one.

    Reading: every card with attack power (a damage value X) is an attack for the combo, throws included.
    """
    out = Answer(game.id, "damage")
    strength, step = _stat(character, "strength"), int(setting(game, "combo_step"))
    rule_damage, rule_combo = game.rule_link("playing-cards-and-attacking"), game.rule_link("combo-damage")
    chain, total, rows_out = 0, 0, []
    for attack in attacks:
        card, symbol = attack.card, attack.card.get("symbol")
        if symbol and normalise_name(str(symbol)) != normalise_name(str(character.get("symbol") or character.name)):
            out.problem(f"{card.name} bears {symbol}'s symbol: only {symbol} can play it, not {character.name}.",
                        game.rule_link("character-symbols"))
        x = _stat(card, "damage")
        if not attack.hit:
            if chain:
                out.say(f"{card.name} fails: no damage, and the combo chain of {plural(chain, 'hit')} ends.",
                        rule_combo)
            else:
                out.say(f"{card.name} fails: no damage.", rule_combo)
            chain = 0
            rows_out.append({"card": card.name, "hit": False, "x": x, "bonus": attack.bonus, "combo": 0, "damage": 0})
            continue
        combo = step * chain
        parts = [str(strength), str(x)] + ([str(attack.bonus)] if attack.bonus else []) + \
            ([f"combo {combo}"] if combo else [])
        dealt = strength + x + attack.bonus + combo
        where = f" ({_ordinal(chain + 1)} successful attack in a row)" if chain else ""
        out.say(f"{card.name}: STRENGTH {' + '.join(parts)} = {dealt}D{where}.",
                rule_combo if combo else rule_damage)
        chain += 1
        total += dealt
        rows_out.append({"card": card.name, "hit": True, "x": x, "bonus": attack.bonus, "combo": combo,
                         "damage": dealt})
    hits = [r for r in rows_out if r["hit"]]
    if len(rows_out) == 1:
        only = rows_out[0]
        out.summary = (f"{character.name} deals {only['damage']}D with {only['card']}." if only["hit"]
                       else f"{only['card']} fails: {character.name} deals no damage.")
    else:
        sums = " + ".join(f"{r['damage']}D" for r in hits)
        out.summary = f"{character.name} deals {total}D in all" + (f": {sums}." if len(hits) > 1 else ".")
    out.values = {"character": character.name, "strength": strength, "attacks": rows_out, "total": total}
    return out


def attack_card(game: GameDefinition, index: CardIndex, name: Any) -> Card:
    card = find_card(game, index, name, ("play",), "play card")
    if not isinstance(card.get("damage"), int):
        raise InputError(f"{card.name} has no attack power (no damage value X): it is not an attack")
    return card


# ------------------------------------------------------------------------------------------------ damage taken
def damage_taken(game: GameDefinition, damage: int, flipped: Sequence[Card] = (), before: int | None = None
                 ) -> Answer:
    """The damaged player flips half the damage, rounded down, from deck to discard pile (**Reading**: the
    detailed rule wins over the turn summary's "equal to the damage taken"; ``damage_flip = "full"`` is that
    summary); a defensive card flipped halves the damage, rounded down, and stops the flipping (its own effects
    do not happen). ``flipped``: the cards turned over, in order."""
    out = Answer(game.id, "taken")
    rule = game.rule_link("damage")
    how = choice(game, "damage_flip", ("half", "full"))
    to_flip = damage // 2 if how == "half" else damage
    out.say(f"{damage}D taken: flip {damage} ÷ 2 = {plural(to_flip, 'card')} (rounded down) from the deck to the "
            f"discard pile, face up." if how == "half" else
            f"{damage}D taken: flip {plural(to_flip, 'card')} from the deck to the discard pile, face up.", rule)
    final, stopped_by, turned = damage, None, 0
    for number, card in enumerate(flipped, 1):
        if stopped_by is not None:
            out.problem(f"The flipping stopped at {stopped_by}; {card.name} is not flipped.", rule)
            continue
        if number > to_flip:
            out.problem(f"Only {plural(to_flip, 'card')} are flipped for {damage}D; {card.name} is not flipped.", rule)
            continue
        turned = number
        if "defensive" in (card.get("types") or []):
            final, stopped_by = damage // 2, card.name
            out.say(f"Flip {number}: {card.name}, a defensive card: the damage is halved, {damage} ÷ 2 = {final}D "
                    f"(rounded down), and the flipping stops; {card.name}'s own effects do not happen.", rule)
        else:
            out.say(f"Flip {number}: {card.name}, not a defensive card.", rule)
    if stopped_by is None and flipped and turned == to_flip:
        out.say(f"No defensive card among the {plural(to_flip, 'card')}: the damage stays {damage}D.", rule)
    total = None if before is None else before + final
    if before is not None:
        out.say(f"Damage so far: {before} + {final} = {total}D.", rule)
    if stopped_by is not None:
        out.summary = f"{damage}D becomes {final}D: {stopped_by} was flipped and halved it."
    elif flipped and turned == to_flip:
        out.summary = f"{damage}D taken; {plural(to_flip, 'card')} flipped."
    else:
        out.summary = (f"Take {damage}D: flip {plural(to_flip, 'card')}; a defensive card among them makes it "
                       f"{damage // 2}D and stops the flipping.")
    out.values = {"damage": damage, "cards_to_flip": to_flip, "flipped": turned, "stopped_by": stopped_by,
                  "damage_taken": final, "total": total}
    return out


# ------------------------------------------------------------------------------------------------ KO, recovery
def recovery_stage(game: GameDefinition, above: int, stages: Sequence[int] | None = None) -> int | None:
    """How many recovery cards damage ``above`` ENDURANCE needs: 1 (0D to 30D), 2 (31D to 50D), None (51D+)."""
    one, two = stages or setting(game, "recovery_stages")
    if above <= one:
        return 1
    if above <= two:
        return 2
    return None


def is_recovery_card(card: Card) -> bool:
    return _has(card, "icons", "recovery-1") or _has(card, "icons", "recovery-2")


def knock_out(game: GameDefinition, attack: Card, target: Card, damage: int, recovery: Sequence[Card] = (), *,
              endurance: int | None = None, stages: Sequence[int] | None = None, attack_damage: int = 0) -> Answer:
    """Whether a successful attack KOs ``target``, who has taken ``damage``, and whether the recovery cards played
    (in order) save them.

    Only an attack with the KO icon KOs, and only when the damage is higher than ENDURANCE (``endurance`` when a
    card such as Super Mushroom changed it). Damage above ENDURANCE 0D to 30D needs a 1st Recovery card, 31D to
    50D a 1st then a 2nd, 51D or more cannot be recovered from (``stages`` when a card such as Gerudo Dragon
    changed them). **Readings**: the damage judged is the damage the character has when the KO card hits,
    without its own (``ko_counts_attack_damage``); the first card fills the 1st Recovery slot and the second the
    2nd, so two cards of the same recovery type fail (Jump then Jump) and a card with both icons fills either
    (Mario's Coin Jump); two cards bearing the same recovery icons fail too, two Mario's Coin Jumps among them
    ("you may not play the same recovery-type card"; ``recovery_same_card_twice = true`` lets them pass).
    """
    out = Answer(game.id, "ko")
    ko_rule, rec_rule = game.rule_link("koing"), game.rule_link("recovering")
    not_recovery = [c.name for c in recovery if not is_recovery_card(c)]
    if not_recovery:
        raise InputError(f"{' and '.join(not_recovery)} {'is' if len(not_recovery) == 1 else 'are'} not "
                         f"{'a recovery card' if len(not_recovery) == 1 else 'recovery cards'} (no 1st or 2nd "
                         f"Recovery icon)")
    endurance = _stat(target, "endurance") if endurance is None else endurance
    judged = damage + (attack_damage if setting(game, "ko_counts_attack_damage") else 0)
    out.values = {"attack": attack.name, "target": target.name, "damage": judged, "endurance": endurance,
                  "above": judged - endurance, "cards_needed": None, "outcome": "no-ko", "recovered_with": []}
    if not _has(attack, "icons", "ko"):
        out.say(f"{attack.name} has no KO icon: it cannot KO.", ko_rule)
        out.summary = f"No KO: {attack.name} has no KO icon."
        return out
    if judged <= endurance:
        out.say(f"{target.name} has {judged}D, not higher than ENDURANCE {endurance}: no KO.", ko_rule)
        out.summary = f"No KO: {judged}D is not higher than {target.name}'s ENDURANCE {endurance}."
        return out
    above = judged - endurance
    out.say(f"{attack.name} has the KO icon and {target.name} has {judged}D, higher than ENDURANCE {endurance}: "
            f"KO'd unless {target.name} recovers.", ko_rule)
    need = recovery_stage(game, above, stages)
    one, two = stages or setting(game, "recovery_stages")
    out.values["cards_needed"] = need
    if need is None:
        out.say(f"{judged} - {endurance} = {above}D above ENDURANCE, more than {two}D: recovery is impossible.",
                rec_rule)
        out.values["outcome"] = "ko"
        out.summary = f"{target.name} is KO'd: {above}D above ENDURANCE cannot be recovered from."
        return out
    band = f"0D to {one}D" if need == 1 else f"{one + 1}D to {two}D"
    wanted = "a 1st Recovery card" if need == 1 else "a 1st Recovery card, then a 2nd Recovery card"
    out.say(f"{judged} - {endurance} = {above}D above ENDURANCE ({band}): recovering needs {wanted}.", rec_rule)
    if not recovery:
        out.values["outcome"] = "ko-unless-recovered"
        out.summary = f"{target.name} is KO'd unless they play {wanted}."
        return out
    used, failed = _recovery_slots(game, recovery, need, out, rec_rule)
    out.values["recovered_with"] = used
    if failed:
        out.values["outcome"] = "ko"
        out.summary = f"{target.name} is KO'd: {failed}"
    else:
        out.values["outcome"] = "recovered"
        out.summary = f"{target.name} recovers with {' then '.join(used)}."
    return out


def _recovery_icons(card: Card) -> set[str]:
    return {icon for icon in ("recovery-1", "recovery-2") if _has(card, "icons", icon)}


def _recovery_slots(game: GameDefinition, cards: Sequence[Card], need: int, out: Answer,
                    rule: str) -> tuple[list[str], str]:
    """Fill the 1st (then the 2nd) recovery slot with the cards in order; the reason it fails, or ""."""
    used: list[str] = []
    for slot, icon, label in ((1, "recovery-1", "1st"), (2, "recovery-2", "2nd"))[:need]:
        if len(cards) < slot:
            return used, f"{' then '.join(used)} needs a 2nd Recovery card after it."
        card = cards[slot - 1]
        if slot == 2:
            reason = second_recovery_problem(game, cards[0], card)
        elif not _has(card, "icons", icon):
            reason = f"{card.name} is a 2nd Recovery card; a recovery starts with a 1st Recovery card."
        else:
            reason = ""
        if reason:
            out.say(reason, rule)
            return used, reason
        both = " (it bears both recovery icons)" if _has(card, "icons", "recovery-1") and \
            _has(card, "icons", "recovery-2") else ""
        out.say(f"{card.name} fills the {label} Recovery slot{both}.", rule)
        used.append(card.name)
    for extra in cards[need:]:
        out.say(f"{extra.name} is not needed.", rule)
    return used, ""


# ------------------------------------------------------------------------------------------------------- turn
def turn_order(game: GameDefinition, characters: Sequence[Card]) -> Answer:
    """The highest INTELLIGENCE goes first, ties broken by SPEED; each turn draws SPEED cards, and the starting
    hand is INTELLIGENCE cards (**Reading**: "INTELLIGENCE determines ... the starting hand size" read as equal
    to it, as SPEED "determines how many cards" are drawn)."""
    out = Answer(game.id, "order")
    rule = game.rule_link("turn")
    draw, hand = str(setting(game, "draw_stat")), str(setting(game, "hand_stat"))
    label = {key: game.fields[key].label if key in game.fields else key.upper() for key in (draw, hand)}
    ranked = sorted(enumerate(characters), key=lambda item: (-_stat(item[1], "intelligence"),
                                                            -_stat(item[1], "speed"), item[0]))
    order = []
    for place, (_, card) in enumerate(ranked, 1):
        order.append({"character": card.name, "intelligence": _stat(card, "intelligence"),
                      "speed": _stat(card, "speed"), "draws": _stat(card, draw), "starting_hand": _stat(card, hand)})
        out.say(f"{place}. {card.name}: INTELLIGENCE {_stat(card, 'intelligence')}, SPEED {_stat(card, 'speed')}; "
                f"starts with {plural(_stat(card, hand), 'card')} ({label[hand]}) and draws {_stat(card, draw)} a "
                f"turn ({label[draw]}).", rule)
    ties: list[list[str]] = []
    for first, second in itertools.pairwise(order):
        if first["intelligence"] != second["intelligence"]:
            continue
        if first["speed"] != second["speed"]:
            out.say(f"{first['character']} goes before {second['character']}: same INTELLIGENCE, higher SPEED.",
                    rule)
            continue
        out.say(f"{first['character']} and {second['character']} tie on INTELLIGENCE and SPEED: the "
                f"rulebook does not break this tie; agree on one (a coin flip).", rule)
        if ties and ties[-1][-1] == first["character"]:
            ties[-1].append(second["character"])
        else:
            ties.append([first["character"], second["character"]])
    if len(order) == 1:
        out.summary = f"{order[0]['character']} draws {order[0]['draws']} a turn."
    elif ties and ties[0][0] == order[0]["character"]:
        out.summary = (f"{' and '.join(ties[0])} tie for first on INTELLIGENCE and SPEED: the rulebook leaves it "
                       f"open; agree on one (a coin flip).")
    else:
        out.summary = f"{order[0]['character']} goes first."
    # each group of characters the rulebook leaves unordered, in the order listed above
    out.values = {"order": order, "ties": ties}
    return out


def play_phase(game: GameDefinition, cards: Sequence[Card]) -> Answer:
    """Which cards may be played in the play phase (not Block, Power Block, the Dodges, Recover: they come only as
    interrupts) and which cannot be interrupted (Charge and Item cards, and the uninterruptable and unreversible
    ones) or blocked."""
    out = Answer(game.id, "cards")
    not_now = {normalise_name(n) for n in setting(game, "not_in_play_phase")}
    no_types, no_flags = set(setting(game, "uninterruptible_types")), set(setting(game, "uninterruptible_flags"))
    play_rule, stop_rule = game.rule_link("playing-cards-and-attacking"), game.rule_link("interrupting")
    listed = []
    for card in cards:
        playable = normalise_name(card.name) not in not_now
        types, flags = card.get("types") or [], card.get("flags") or []
        why = [f"{t.capitalize()} cards cannot be interrupted" for t in types if t in no_types] + \
              [f"it is {f}" for f in flags if f in no_flags]
        blockable = not ({"unblockable", "unreversible"} & set(flags))
        if playable:
            text = f"{card.name}: may be played in the play phase"
        else:
            text = f"{card.name}: cannot be played in the play phase (only to interrupt)"
            out.problem(f"{card.name} cannot be played in the play phase.", play_rule)
        text += f"; cannot be interrupted ({'; '.join(why)})" if why else "; can be interrupted"
        text += "" if blockable else "; cannot be blocked"
        if card.get("interrupts"):
            text += f"; it interrupts {', '.join(card.get('interrupts'))}"
        out.say(text + ".", stop_rule if why or not blockable else play_rule)
        listed.append({"card": card.name, "play_phase": playable, "interruptible": not why, "blockable": blockable,
                       "interrupts": list(card.get("interrupts") or [])})
    allowed = sum(1 for c in listed if c["play_phase"])
    out.summary = (f"{allowed} of {plural(len(listed), 'card')} may be played in the play phase." if len(listed) > 1
                   else f"{listed[0]['card']} {'may' if allowed else 'cannot'} be played in the play phase.")
    out.values = {"cards": listed}
    return out


def discard_to_draw(game: GameDefinition, cards: Sequence[Card]) -> Answer:
    """Up to three times a turn, discard one card to draw one; a dodge or block card draws two."""
    out = Answer(game.id, "discard")
    rule = game.rule_link("discarding-cards")
    most = int(setting(game, "discards_per_turn"))
    two = {normalise_name(n) for n in setting(game, "draw_two_discards")}
    drawn = 0
    for number, card in enumerate(cards, 1):
        if number > most:
            out.problem(f"A {_ordinal(number)} discard ({card.name}): you may discard to draw up to {most} times a "
                        f"turn.", rule)
            continue
        gets = 2 if normalise_name(card.name) in two else 1
        drawn += gets
        out.say(f"Discard {card.name}: draw {gets}" + (" (a dodge or block card)." if gets == 2 else "."), rule)
    made = min(len(cards), most)
    out.summary = f"{plural(made, 'discard')} draw {plural(drawn, 'card')}."
    out.values = {"discards": made, "drawn": drawn}
    return out


# ------------------------------------------------------------------------------------------------------ match
@dataclass(frozen=True, slots=True)
class MatchEvent:
    """A KO of ``player`` by ``by``, or (``by`` empty) a self-destruct of ``player``."""

    player: str
    by: str = ""


def score_match(game: GameDefinition, mode: str, events: Sequence[MatchEvent], players: Sequence[str] = (),
                stock: int = 5) -> Answer:
    """TIME: each KO +1 and each self-destruct -1, the highest score wins when the turns run out (**Reading**: a
    player KO'd also loses a point, as "KOing" says; ``time_points``). STOCK: each KO or self-destruct costs 1
    stock, a player without stock is out, the last one left wins."""
    out = Answer(game.id, "match")
    rule, ko_rule = game.rule_link("match-modes"), game.rule_link("koing")
    spelled: dict[str, str] = {}  # one spelling per player: "mario" is the Mario named first
    for name in (*players, *(n for e in events for n in (e.by, e.player) if n)):
        spelled.setdefault(normalise_name(name), name)
    events = [MatchEvent(spelled[normalise_name(e.player)], spelled[normalise_name(e.by)] if e.by else "")
              for e in events]
    names = list(spelled.values())
    if len(names) < 2:
        raise InputError("a match needs at least two players (name them, or give KOs between them)")
    out.values = {"mode": mode, "players": names}
    if mode == "time":
        points = {str(k): int(v) for k, v in setting(game, "time_points").items()}
        score = dict.fromkeys(names, 0)
        for event in events:
            if event.by:
                score[event.by] += points["ko"]
                score[event.player] += points["knocked_out"]
                out.say(f"{event.by} KOs {event.player}: {event.by} {points['ko']:+d}, {event.player} "
                        f"{points['knocked_out']:+d}.", ko_rule)
            else:
                score[event.player] += points["self_destruct"]
                out.say(f"{event.player} self-destructs: {points['self_destruct']:+d}.", rule)
        best = max(score.values())
        leaders = [n for n, s in score.items() if s == best]
        out.say("Score: " + ", ".join(f"{n} {s}" for n, s in score.items()) + ".", rule)
        out.summary = (f"{leaders[0]} wins on time with {best}." if len(leaders) == 1 else
                       f"{' and '.join(leaders)} tie with {best}: the rulebook does not break a tie.")
        out.values.update(score=score, winner=leaders[0] if len(leaders) == 1 else None)
        return out
    left = dict.fromkeys(names, stock)
    out.say(f"Each player starts with {plural(stock, 'stock', 'stock')}.", rule)
    for event in events:
        gone = [n for n in (event.player, event.by) if n and left[n] <= 0]
        how = f"{event.by} KOs {event.player}" if event.by else f"{event.player} self-destructs"
        if gone:
            out.problem(f"{' and '.join(gone)} {'is' if len(gone) == 1 else 'are'} already out of the game: "
                        f"\"{how}\" cannot happen.", rule)
            continue
        left[event.player] -= 1
        out.say(f"{how}: {event.player} has {plural(left[event.player], 'stock', 'stock')} left"
                + (", and is out of the game." if left[event.player] == 0 else "."), rule)
    alive = [n for n in names if left[n] > 0]
    if len(alive) == 1:
        out.summary = f"{alive[0]} wins: the last player with stock."
    elif not alive:
        out.summary = "No player has stock left."
    else:
        out.summary = f"No winner yet: {', '.join(f'{n} {left[n]}' for n in alive)} stock left."
    out.values.update(stock=left, winner=alive[0] if len(alive) == 1 else None)
    return out


# ---------------------------------------------------------------------------------- the helpers, described once
# Each helper's typed signature is its command (carddb play ssbm ...), its form on the Play page and the check of
# its request (carddb.core.play.signature).
CHARACTER = ("character",)
PLAY = ("play",)
MODE = Literal["time", "stock"]


@dataclass(frozen=True)
class AttackRow:
    card: Annotated[Card, Arg("An attack card played this turn.", label="Attack", kinds=PLAY, what="play card",
                              names="attack")]
    hit: Annotated[bool, Arg("Whether the attack hits: it fails when interrupted, blocked or dodged.", label="hits",
                             option="--failed")] = True
    bonus: Annotated[int, Arg("Damage an amplifier or card text adds to the attack.", label="+D", low=-99, high=99,
                              option="--bonus", metavar="D", example="2=2")] = 0


@helper(title="Damage of a play", rule="combo-damage", example='carddb play ssbm damage Ganondorf "Set-Up Attack"')
def damage(game: GameDefinition, index: CardIndex, *,
           character: Annotated[Card, Arg("The attacking character, e.g. Ganondorf.", label="Character",
                                          kinds=CHARACTER)],
           attacks: Annotated[list[AttackRow], Arg("The attack cards played this turn, in order.", what="attack",
                                                   metavar="ATTACKS...", count=5)]) -> Answer:
    """Damage of a play: STRENGTH + X per attack, +1D, +2D, ... for successive hits; a failed attack ends the chain.

    Each attack deals STRENGTH + X; successive successful attacks add +1D, +2D, ...; a failed attack ends the chain.
    """
    if not attacks:
        raise InputError("name at least one attack card")
    return play_damage(game, character, [Attack(attack_card(game, index, row.card.key), row.hit, row.bonus)
                                         for row in attacks])


@helper(title="Damage taken", rule="damage", example='carddb play ssbm taken 7 Attack "Dodge: Roll"')
def taken(game: GameDefinition, index: CardIndex, *,
          damage: Annotated[int, Arg("The damage dealt, e.g. 7.", label="Damage dealt", high=999)],
          flipped: Annotated[list[Card], Arg("The cards flipped from the deck, in order.", label="Flip", kinds=PLAY,
                                             what="play card", count=6)] = (),  # type: ignore[assignment]
          before: Annotated[int | None, Arg("Damage the character had already taken.", label="damage already taken",
                                            high=999)] = None) -> Answer:
    """Damage taken: flip half the damage (rounded down); a flipped defensive card halves it and stops the flip."""
    return damage_taken(game, damage, flipped or [], before)


def _stages(stages: Sequence[int] | None) -> list[int] | None:
    if not stages:
        return None
    if len(stages) != 2 or not 0 <= stages[0] < stages[1] <= 999:
        raise InputError("stages are two numbers, the most damage above ENDURANCE one and two recovery cards save "
                         "(the rulebook's 30 and 50)")
    return list(stages)


@helper(title="KO and recovery", rule="recovering",
        example='carddb play ssbm ko "Smash Attack" Mario --damage 85 Jump "Dodge: Air"')
def ko(game: GameDefinition, index: CardIndex, *,
       attack: Annotated[Card, Arg("The attack that hit, e.g. Smash Attack.", label="Attack", kinds=PLAY,
                                   what="play card", names="attack")],
       target: Annotated[Card, Arg("The character hit, e.g. Mario.", label="Character hit", kinds=CHARACTER)],
       recovery: Annotated[list[Card], Arg("The recovery cards played, in order.", label="Recovery card", kinds=PLAY,
                                           what="play card", names="recovery", count=2)] = (),  # type: ignore
       damage: Annotated[int, Arg("The damage the character has.", label="Its damage", high=999, option="--damage",
                                  short="-d")],
       endurance: Annotated[int | None, Arg("ENDURANCE as a card changed it (Super Mushroom).",
                                            label="ENDURANCE changed to", high=999)] = None,
       stages: Annotated[list[int] | None, Arg("Recovery stages as a card changed them: 20,40 (Gerudo Dragon) for "
                                               "the rulebook's 30,50.", label="Recovery stages", high=999, sep=",",
                                               count=2)] = None,
       attack_damage: Annotated[int, Arg("This attack's own damage (counted only by a format that counts it).",
                                         label="This attack's damage", high=999)] = 0) -> Answer:
    """KO and recovery: a KO-icon attack KOs above ENDURANCE unless the recovery cards played save the character.

    A KO-icon attack KOs a character whose damage is higher than ENDURANCE, unless their recovery cards save them:
    "you may NOT play the card titled 'Jump' then another card titled 'Jump' to recover yourself".
    """
    return knock_out(game, attack_card(game, index, attack.key), target, damage, recovery or [],
                     endurance=endurance, stages=_stages(stages), attack_damage=attack_damage)


@dataclass(frozen=True)
class Play:
    player: Annotated[Card | None, Arg("The character of the player who plays the card.", label="Player (character)",
                                       kinds=CHARACTER)] = None
    card: Annotated[Card | None, Arg("The card played.", label="plays", kinds=PLAY, what="play card")] = None


@helper(title="Interrupt chain", rule="interrupting",
        example='carddb play ssbm chain "Link=Smash Attack" Mario=Jump "Mario=Dodge: Air"')
def chain(game: GameDefinition, index: CardIndex, *,
          plays: Annotated[list[Play], Arg("In order: PLAYER=CARD, the card played (Mario=Taunt), then each card "
                                           "that interrupts the one before (Link=Attack).", what="play",
                                           metavar="PLAYER=CARD", example="Link=Attack", count=6)]) -> Answer:
    """An interrupt chain: whether each interrupt is allowed, what takes effect, in what order, whose turn ends.

    The card played, then each card that interrupts the one before, with who plays it: whether each interrupt is
    allowed, what takes effect from the last card back, and whose turn ends. A player's second recovery card must
    make a recovery with the first: "you may NOT play the card titled 'Jump' then another card titled 'Jump' to
    recover yourself, because they are both 1st Recovery cards" (Recovering).
    """
    links = []
    for number, row in enumerate(plays, 1):
        if row.player is None or row.card is None:
            named = row.card.name if row.card is not None else "no card"
            raise InputError(f"link {number} ({named}) names no player: give the character who plays it"
                             if row.player is None else f"link {number} names no card: give the card played")
        links.append(Link(row.card, row.player))
    if not links:
        raise InputError("give the chain: the card played, then each card that interrupts the one before")
    return interrupt_chain(game, links)


@helper("after-ko", title="After a KO", rule="koing",
        example='carddb play ssbm after-ko Mario --field "Set-Up Attack" --discard 12 --stock 3 --by Link')
def after_ko_helper(game: GameDefinition, index: CardIndex, *,
                    character: Annotated[Card, Arg("The character KO'd, e.g. Mario.", label="Character KO'd",
                                                   kinds=CHARACTER)],
                    field: Annotated[list[Card], Arg("A card of theirs on the playing field; an item here is "
                                                     "unequipped.", label="On the field", kinds=PLAY,
                                                     what="play card", option="--field", count=4)] = (),  # type: ignore
                    equipped: Annotated[list[Card], Arg("An item equipped next to their character card.",
                                                        label="Equipped item", kinds=PLAY, what="play card",
                                                        option="--equipped", count=2)] = (),  # type: ignore
                    deck: Annotated[int | None, Arg("Cards left in their deck.", label="Cards in the deck",
                                                    high=999)] = None,
                    discard: Annotated[int | None, Arg("Cards in their discard pile.", label="in the discard pile",
                                                       high=999)] = None,
                    hand: Annotated[int | None, Arg("Cards in their hand.", label="in the hand", high=999)] = None,
                    mode: Annotated[MODE, Arg("stock or time.", label="Mode")] = "stock",
                    stock: Annotated[int | None, Arg("Their stock before the KO.", label="stock before",
                                                     high=99)] = None,
                    by: Annotated[Card | None, Arg("The character who made the KO.", label="KO'd by",
                                                   kinds=CHARACTER)] = None) -> Answer:
    """After a KO: what goes back into the deck, the SPEED cards drawn, and the stock or points it costs.

    What the KO'd player puts back into the deck, the SPEED cards drawn, and what the KO costs in the match. An
    item among the field cards is an unequipped item.
    """
    if by is not None and normalise_name(by.name) == normalise_name(character.name):
        raise InputError(f"{character.name} cannot KO themself: that is a self-destruct")
    return after_ko(game, character, field or [], equipped or [], deck=deck, discard=discard, hand=hand, mode=mode,
                    stock=stock, by=by.name if by is not None else "")


@helper(title="Turn order", rule="turn", example="carddb play ssbm order Mario Ganondorf")
def order(game: GameDefinition, index: CardIndex, *,
          characters: Annotated[list[Card], Arg("The characters of the match.", label="Character", kinds=CHARACTER,
                                                count=4)]) -> Answer:
    """Turn order: the highest INTELLIGENCE first, ties by SPEED; cards drawn a turn and the starting hand.

    The highest INTELLIGENCE goes first, ties broken by SPEED; each player draws SPEED cards a turn.
    """
    if not characters:
        raise InputError("name the characters of the match")
    return turn_order(game, characters)


@helper(title="The play phase", rule="interrupting", example="carddb play ssbm cards Charge Block")
def cards(game: GameDefinition, index: CardIndex, *,
          cards: Annotated[list[Card], Arg("Play cards, e.g. Charge Block.", label="Card", kinds=PLAY,
                                           what="play card", metavar="CARDS", count=6)]) -> Answer:
    """Which cards may be played in the play phase, and which cannot be interrupted or blocked."""
    if not cards:
        raise InputError("name at least one play card")
    return play_phase(game, cards)


@helper(title="Discarding to draw", rule="discarding-cards", example="carddb play ssbm discard Taunt Block")
def discard(game: GameDefinition, index: CardIndex, *,
            cards: Annotated[list[Card], Arg("The cards discarded this turn, in order.", label="Discard", kinds=PLAY,
                                             what="play card", metavar="CARDS", count=4)]) -> Answer:
    """Discard to draw: up to three times a turn, one card for one (two for a dodge or block card).

    Up to three times a turn, discard a card to draw one (two for a dodge or block card).
    """
    if not cards:
        raise InputError("name the cards discarded")
    return discard_to_draw(game, cards)


SELF_DESTRUCT = ("sd", "self", "self-destruct")


def _event(text: str) -> dict[str, str]:
    """``Link:Mario`` (Link KOs Mario) or ``Mario:sd`` (a self-destruct), as the command line writes an event."""
    left, sep, right = (part.strip() for part in text.partition(":"))
    if not sep or not left or not right:
        raise InputError(f"{text!r}: write a KO as Link:Mario (Link KOs Mario), a self-destruct as Mario:sd")
    return {"player": left} if right.lower() in SELF_DESTRUCT else {"player": right, "by": left}


@dataclass(frozen=True)
class Event:
    player: Annotated[str, Arg("The player KO'd or self-destructed.", label="KO'd or self-destructed",
                               names="character")]
    by: Annotated[str, Arg("Who made the KO; none for a self-destruct.", label="KO'd by", names="character")] = ""


@helper(title="Match score", rule="match-modes", example="carddb play ssbm match Link:Mario Mario:sd --stock 2")
def match(game: GameDefinition, index: CardIndex, *,
          events: Annotated[list[Event], Arg("In order: WINNER:LOSER for a KO (Link:Mario), PLAYER:sd for a "
                                             "self-destruct.", read=_event, count=6)] = (),  # type: ignore
          mode: Annotated[MODE, Arg("stock or time.", label="Mode")] = "stock",
          stock: Annotated[int | None, Arg("The stock each player starts with (default 5).", label="stock", low=1,
                                           high=99)] = None,
          players: Annotated[list[str], Arg("A player of the match (players in the events count anyway).",
                                            label="Player", option="--player", names="character")] = ()  # type: ignore
          ) -> Answer:
    """Score a TIME or STOCK match from its KOs and self-destructs.

    TIME: +1 a KO, -1 a self-destruct. STOCK: each KO or self-destruct costs 1 stock. Leave "KO'd by" empty for a
    self-destruct.
    """
    made = []
    for row in events or []:
        if not row.player:
            raise InputError("each KO or self-destruct names the player it happened to")
        if row.by and normalise_name(row.by) == normalise_name(row.player):
            raise InputError(f"{row.player} cannot KO themself: that is a self-destruct")
        made.append(MatchEvent(row.player, row.by))
    return score_match(game, mode, made, list(players or []),
                       stock if stock is not None else int(setting(game, "stock")))


#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"attack": lambda c: isinstance(c.get("damage"), int),
              "recovery": lambda c: bool({"recovery-1", "recovery-2"} & set(c.get("icons") or []))}

HELPERS = helpers_of(sys.modules[__name__])
