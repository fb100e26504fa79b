"""Super Smash Bros. Melee CCG: an interrupt chain, link by link. Pure standard library (it runs in the browser).

A chain starts with the card the turn's player plays; each next link is a card another player plays to interrupt
the link before it. The rulebook (Interrupting): an interrupted card is void and the interrupting card takes
effect; an interrupting card can itself be interrupted; Charge and Item cards cannot be interrupted, nor can an
uninterruptable or unreversible card; an unblockable or unreversible card cannot be blocked; interrupting ends
the interrupted player's turn unless the interrupting card is itself interrupted or is a defensive card; both
cards go to the discard pile. Recovery cards always interrupt a KO card, whatever their interrupt list says.

**Readings** (``docs/ssbm-play.md``): only the last card of a chain takes effect, an interrupted card staying
void when its interrupter is interrupted in turn; a second recovery card its player plays straight after their
first is the second half of the same recovery, not an interrupt of their own card, and only when the two make a
recovery (``second_recovery_problem``: not Jump then Jump); a recovery card cannot
interrupt an unreversible KO card (``recovery_beats_unreversible``), the card's text winning under the golden rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, setting
from carddb.errors import InputError

RECOVERY_ICONS = ("recovery-1", "recovery-2")


@dataclass(frozen=True, slots=True)
class Link:
    """One card of a chain and the character of the player who played it."""

    card: Card
    player: Card


def _listed(card: Card, key: str) -> list[str]:
    return [str(v) for v in card.get(key) or []]


def _is_recovery(card: Card) -> bool:
    return any(icon in _listed(card, "icons") for icon in RECOVERY_ICONS)


def second_recovery_problem(game: GameDefinition, first: Card, second: Card) -> str:
    """Why ``second`` cannot follow ``first`` as the 2nd card of one recovery, or "". The rulebook (Recovering):
    "you may NOT play the card titled 'Jump' then another card titled 'Jump' to recover yourself, because they
    are both 1st Recovery cards"; the 2nd card must bear the 2nd Recovery icon, and two cards bearing the same
    recovery icons (two Mario's Coin Jumps) are the same recovery type (``recovery_same_card_twice`` lets them)."""
    icons = {icon for icon in RECOVERY_ICONS if icon in _listed(second, "icons")}
    if "recovery-2" not in icons:
        if normalise_name(second.name) == normalise_name(first.name):
            return (f"{first.name} then {second.name}: both are 1st Recovery cards; the same recovery type cannot "
                    f"be used twice.")
        return f"{second.name} is a 1st Recovery card, not a 2nd: the same recovery type cannot be used twice."
    if icons == {icon for icon in RECOVERY_ICONS if icon in _listed(first, "icons")} and \
            not setting(game, "recovery_same_card_twice"):
        return (f"{first.name} then {second.name}: both bear the same recovery icons; you may not recover with the "
                f"same recovery-type card twice.")
    return ""


def interrupt_entry(interrupter: Card, card: Card) -> str:
    """The entry of ``interrupter``'s "Interrupts:" list that names ``card`` (its title, one of its types, an
    ``Attack - <subtype>``, one of its icons), or ""."""
    types, subtypes, icons = _listed(card, "types"), _listed(card, "subtypes"), _listed(card, "icons")
    for entry in _listed(interrupter, "interrupts"):
        wanted = normalise_name(entry)
        kind, _, sub = wanted.partition(" - ")
        if wanted == normalise_name(card.name) or wanted in types or wanted in icons or (
                sub and kind in types and sub in subtypes):
            return entry
    return ""


def _why_not_interruptible(game: GameDefinition, card: Card) -> str:
    """Why no card may interrupt ``card`` (a Charge or Item card, uninterruptable, unreversible), or ""."""
    for kind in _listed(card, "types"):
        if kind in setting(game, "uninterruptible_types"):
            return f"{kind.capitalize()} cards cannot be interrupted"
    for mark in _listed(card, "flags"):
        if mark in setting(game, "uninterruptible_flags"):
            return f"it is {mark}" + (": it can be neither interrupted nor blocked" if mark == "unreversible" else "")
    return ""


def whose(player: str, card: str) -> str:
    """``Mario's Taunt``; a card already named after its character stays ``Link's Spin Attack``."""
    return card if normalise_name(card).startswith(normalise_name(player) + "'") else f"{player}'s {card}"


class _Chain:
    """Works a chain out into ``out``: which links stand, what takes effect, whose turn ends."""

    def __init__(self, game: GameDefinition, links: Sequence[Link], out: Answer) -> None:
        self.game, self.links, self.out = game, links, out
        self.rule = game.rule_link("interrupting")
        self.recovering = game.rule_link("recovering")
        self.played: list[dict[str, Any]] = []

    def who(self, link: Link) -> str:
        return whose(link.player.name, link.card.name)

    def run(self) -> None:
        first = self.links[0]
        self.check_symbol(first)
        if normalise_name(first.card.name) in {normalise_name(n) for n in setting(self.game, "not_in_play_phase")}:
            self.out.problem(f"{first.card.name} cannot be played in the play phase: it only interrupts.",
                             self.game.rule_link("playing-cards-and-attacking"))
        self.out.say(f"1. {first.player.name} plays {first.card.name}.",
                     self.game.rule_link("playing-cards-and-attacking"))
        self.played.append(self.row(first, 1, "", "play"))
        for number, link in enumerate(self.links[1:], 2):
            if self.out.problems:
                self.out.say(f"{number}. {self.who(link)} is not played: the chain stopped at a link that breaks a "
                             f"rule.", self.rule)
                continue
            self.check_symbol(link)
            role = self.judge(number, link, self.links[number - 2])
            if role:
                self.played.append(self.row(link, number, self.links[number - 2].card.name, role))

    def row(self, link: Link, number: int, target: str, role: str) -> dict[str, Any]:
        return {"link": number, "card": link.card.name, "player": link.player.name, "interrupts": target,
                "role": role}

    def check_symbol(self, link: Link) -> None:
        symbol = link.card.get("symbol")
        own = link.player.get("symbol") or link.player.name
        if symbol and normalise_name(str(symbol)) != normalise_name(str(own)):
            self.out.problem(f"{link.card.name} bears {symbol}'s symbol: only {symbol} can play it, not "
                             f"{link.player.name}.", self.game.rule_link("character-symbols"))

    def judge(self, number: int, link: Link, before: Link) -> str:
        """Say whether ``link`` may interrupt ``before``; its role ("interrupt", "recovery-2") or "" if not."""
        card, target = link.card, before.card
        if link.player.name == before.player.name:
            after_ko = len(self.played) >= 2 and self.played[-1]["role"] == "recovery" and _is_recovery(card)
            problem = second_recovery_problem(self.game, target, card) if after_ko else ""
            if problem:
                self.out.problem(f"{self.who(link)} cannot be {link.player.name}'s second recovery card: {problem}",
                                 self.recovering)
                return ""
            if after_ko:
                self.out.say(f"{number}. {self.who(link)}: {link.player.name}'s second recovery card, after "
                             f"{target.name}; the two make one recovery (carddb play ssbm ko says whether the damage "
                             f"needs both).", self.recovering)
                return "recovery-2"
            self.out.problem(f"{self.who(link)} cannot interrupt {link.player.name}'s own {target.name}: a chain "
                             f"cannot interrupt itself; only another player interrupts a card.", self.rule)
            return ""
        entry = interrupt_entry(card, target)
        recovery_from_ko = _is_recovery(card) and "ko" in _listed(target, "icons")
        unreversible = "unreversible" in _listed(target, "flags")
        if recovery_from_ko and not (unreversible and not setting(self.game, "recovery_beats_unreversible")):
            how = f"{card.name}'s recovery icon lets it interrupt any KO card" + (
                "" if entry else ", whatever its interrupt list says")
            self.out.say(f"{number}. {self.who(link)} interrupts {self.who(before)}: {how}.", self.recovering)
            return "recovery"
        stopped = _why_not_interruptible(self.game, target)
        if stopped and recovery_from_ko:
            stopped += "; a recovery icon beats an interrupt list, not an unreversible card"
        if stopped:
            self.out.problem(f"{self.who(link)} cannot interrupt {target.name}: {stopped}.", self.rule)
            return ""
        blocks = {normalise_name(n) for n in setting(self.game, "block_cards")}
        if normalise_name(card.name) in blocks and "unblockable" in _listed(target, "flags"):
            self.out.problem(f"{self.who(link)} cannot block {target.name}: it is unblockable.", self.rule)
            return ""
        if not entry:
            listed = ", ".join(_listed(card, "interrupts"))
            self.out.problem(f"{self.who(link)} cannot interrupt {target.name}: "
                             + (f"it interrupts only {listed}." if listed else "it interrupts nothing."), self.rule)
            return ""
        self.out.say(f"{number}. {self.who(link)} interrupts {self.who(before)} ({card.name} interrupts {entry}).",
                     self.rule)
        return "interrupt"

    def units(self) -> list[list[dict[str, Any]]]:
        """The links that stand, a recovery's second card kept with its first (the two are one recovery)."""
        grouped: list[list[dict[str, Any]]] = []
        for row in self.played:
            if row["role"] == "recovery-2":
                grouped[-1].append(row)
            else:
                grouped.append([row])
        return grouped

    def card_of(self, row: dict[str, Any]) -> Link:
        return self.links[row["link"] - 1]

    def resolve(self) -> None:
        """From the last card back: the last takes effect and voids the one it interrupted; a card whose
        interrupter is void was not interrupted after all and takes effect, and so on down the chain."""
        out, units = self.out, self.units()
        effects, void = [], []
        for place in range(len(units) - 1, -1, -1):
            unit = units[place]
            names = " then ".join(whose(row["player"], row["card"]) if i == 0 else row["card"]
                                  for i, row in enumerate(unit))
            if (len(units) - 1 - place) % 2:
                void.extend(row["card"] for row in unit)
                out.say(f"{names} is void: {whose(units[place + 1][0]['player'], units[place + 1][0]['card'])} "
                        f"interrupted it" + (" (no damage, no KO)." if "ko" in _listed(self.card_of(unit[0]).card,
                                                                                       "icons") else "."), self.rule)
                continue
            effects.append(self.say_effect(unit, units[place - 1] if place else None, names))
        if len(units) > 1:
            out.say("Effects a card has when it is interrupted, or when it interrupts, happen before anything else "
                    "(follow the card).", self.rule)
            gone = [row["card"] for row in self.played]
            out.say(f"{', '.join(gone[:-1])} and {gone[-1]} go to the discard pile: the interrupted and the "
                    f"interrupting cards.", self.rule)
        else:
            out.say(f"Nothing interrupted {units[0][0]['card']}: it works and stays on the playing field.",
                    self.game.rule_link("playing-cards-and-attacking"))
        self.say_turn(units)
        out.values.update(links=self.played, effects=effects, void=void)

    def say_effect(self, unit: list[dict[str, Any]], interrupted: list[dict[str, Any]] | None,
                   names: str) -> dict[str, Any]:
        """Say what one standing card (or recovery) does; its row of ``effects``."""
        out, link = self.out, self.card_of(unit[0])
        card, player = link.card, link.player
        done = {"card": " then ".join(row["card"] for row in unit), "player": player.name, "damage": None,
                "to": None}
        if unit[0]["role"] == "recovery":
            out.say(f"{names} takes effect: {player.name} recovers from the KO card if the damage above ENDURANCE "
                    f"needs no more recovery cards than these (carddb play ssbm ko).", self.recovering)
            return done
        x = card.get("damage")
        if isinstance(x, int) and not isinstance(x, bool):
            strength = player.get("strength") if isinstance(player.get("strength"), int) else 0
            to = interrupted[0]["player"] if interrupted else None
            out.say(f"{names} takes effect: STRENGTH {strength} + {x} = {strength + x}D to "
                    f"{to or 'the opponent ' + player.name + ' chooses'}.",
                    self.game.rule_link("playing-cards-and-attacking"))
            done.update(damage=strength + x, to=to)
            if "unreversible" in _listed(card, "flags"):
                out.say(f"{card.name} is unreversible: a defensive card flipped from the deck does not halve its "
                        f"damage either.", self.rule)
            return done
        text = str(card.get("text") or "").strip().rstrip(".")
        out.say(f"{names} takes effect" + (f": {text}." if text else "."), self.rule)
        return done

    def say_turn(self, units: list[list[dict[str, Any]]]) -> None:
        """Interrupting ends the interrupted player's turn, unless the interrupting card is itself interrupted or
        is a defensive card. Only the turn's player, who played the first card, has a turn to end; a recovery is
        judged by its first card."""
        out, turn = self.out, units[0][0]["player"]
        ends, reasons = False, []
        for place in range(1, len(units)):
            row, before = units[place][0], units[place - 1][0]
            if before["player"] != turn:
                continue
            who = whose(row["player"], row["card"])
            if (len(units) - 1 - place) % 2:
                reasons.append(f"{who} was itself interrupted")
            elif "defensive" in _listed(self.card_of(row).card, "types"):
                reasons.append(f"{who} is a defensive card")
            else:
                ends = True
                reasons = [f"{who} interrupted {whose(turn, before['card'])}, is not a defensive card and was not "
                           f"interrupted"]
                break
        if len(units) == 1:
            reasons = [f"nothing interrupted {whose(turn, units[0][0]['card'])}"]
        elif not reasons:
            reasons = [f"no card of {turn}'s was interrupted"]
        out.say(f"{turn}'s turn {'ends' if ends else 'goes on'}: {'; '.join(reasons)}.", self.rule)
        out.values.update(turn_player=turn, turn_ends=ends)


def interrupt_chain(game: GameDefinition, links: Sequence[Link]) -> Answer:
    """Link by link, whether each interrupt may be played, then what the chain does, from the last card back."""
    out = Answer(game.id, "chain")
    if not links:
        raise InputError("give the chain: the card played, then each card that interrupts the one before")
    chain = _Chain(game, links, out)
    chain.run()
    chain.resolve()
    turn = f"{out.values['turn_player']}'s turn {'ends' if out.values['turn_ends'] else 'goes on'}"
    done = ", then ".join(whose(e["player"], e["card"]) for e in out.values["effects"])
    void = out.values["void"]
    if out.problems:
        out.summary = f"This chain cannot be played: {out.problems[0].text}"
    elif not void:
        out.summary = f"{done} takes effect; {turn}."
    else:
        out.summary = (f"{done} {'takes' if len(out.values['effects']) == 1 else 'take'} effect and "
                       f"{' and '.join(void)} {'is' if len(void) == 1 else 'are'} void; {turn}.")
    return out
