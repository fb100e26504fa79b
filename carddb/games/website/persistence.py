"""Website TCG: what stays in play. A critic once won never loses favour, even when its site's totals fall; a
removal card removes only what its words name ("discard a component card", "discard a critic card", remove a card
"kept in play"); a card that "cannot be removed from play by any means" stays to the end of the game; Natasha-The
Defender protects the card it is played on, and Natashas stack, each one to be removed before the one beneath it.
Pure standard library (the site answers these helpers in the browser).

The words are matched in a card's text, as the rulebook asks ("the removal card must specifically state"); a text's
choices are split at a capital OR, of which one is used, never both.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from carddb.core.cards.card import Card
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, find_card, plural
from carddb.core.play.signature import Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.website.sites import (
    RATINGS,
    SITE,
    SITE_HELP,
    Site,
    SiteAsked,
    needs_text,
    rating,
    ratings_text,
    shared_names,
    shown,
)

NATASHA = "Natasha-The Defender"
#: What a removal card's words take away (the rulebook's "Keeping cards in play"), by what they remove.
REMOVALS = {"component": "discard a component card", "critic": "discard a critic card",
            "kept": "remove a card 'kept in play'"}
WHAT = {"component": "a component", "critic": "a critic", "kept": "a character kept in play"}
#: A kept-in-play card whose text says this protects its player's components (Alan-The Programmer).
PROTECTS_COMPONENTS = "component cards cannot be removed"


def _plain(text: str) -> str:
    return re.sub(r"[‘’“”\"]", "'", text).lower()


def removals_of(card: Card) -> list[str]:
    """What each choice of a card's text removes (``component``, ``critic``, ``kept``), in the card's order."""
    found = []
    for choice in re.split(r"\bOR\b", str(card.get("text") or "")):
        words = _plain(choice)
        if REMOVALS["component"] in words:
            found.append("component")
        elif REMOVALS["critic"] in words:
            found.append("critic")
        elif "remove" in words and "kept in play" in words:
            found.append("kept")
    return found


def kind_in_play(card: Card) -> str:
    """What a card in play is, as the removal words see it: ``component``, ``critic``, ``kept`` (a character kept in
    play), ``base`` (a base site, which no removal the rulebook describes names) or ``gone`` (a character that is
    discarded after use, so never in play)."""
    if card.kind in ("component", "critic"):
        return card.kind
    if card.kind == "character":
        return "kept" if card.get("keep_in_play") is True else "gone"
    return "base"


def _rules(game: GameDefinition) -> dict[str, str]:
    return {"kept": game.rule_link("characters-kept-in-play"), "other": game.rule_link("critics-and-components"),
            "fixed": game.rule_link("cannot-be-removed-from-play"), "faq": game.rule_link("faq"),
            "critics": game.rule_link("critics"), "or": game.rule_link("characters"),
            "deck": game.rule_link("building-a-deck"), "limit": game.rule_link("limit-one-per-deck"),
            "win": game.rule_link("winning"), "components": game.rule_link("components"),
            "needs": game.rule_link("components-that-need-cards-in-play")}


def _copies(game: GameDefinition, card: Card) -> int:
    """How many of a card one deck may hold: 1 for a limit-one card, else the game's copies (4)."""
    if card.get("limit_one") is True:
        return 1
    return game.copies.default if game.copies is not None and game.copies.default is not None else 4


def _not_in_play(game: GameDefinition, card: Card, out: Answer) -> bool:
    """A character without "keep this card in play" is discarded after use: no card can act on it in play."""
    if kind_in_play(card) != "gone":
        return False
    out.problem(f"{card.name} does not say to keep it in play: it is discarded after use, so it is not in play.",
                _rules(game)["kept"])
    return True


def _examples(cards: Sequence[Card], what: str) -> str:
    names = sorted({c.name for c in cards if what in removals_of(c)})
    return f" ({', '.join(names)})" if names else ""


# ------------------------------------------------------------------------------------------------------ favour
def favour(game: GameDefinition, sites: Sequence[Site], critics: Sequence[Card],
           shared: frozenset[str] = frozenset()) -> Answer:
    """The critics a player has won, against their sites as they are now: each stays won, met or not."""
    out, rule = Answer(game.id, "favour"), _rules(game)
    counts = Counter(c.key for c in critics)
    for card in {c.key: c for c in critics}.values():
        count = counts[card.key]
        if count > _copies(game, card):
            limit = "it is limit one per deck" if _copies(game, card) == 1 else f"a deck holds {_copies(game, card)}"
            out.problem(f"{card.name} won {count} times: {limit}.",
                        rule["limit"] if _copies(game, card) == 1 else rule["deck"])
    for number, site in enumerate(sites, 1):
        label = f"Site {number} ({site.base.name})" if len(sites) > 1 else site.base.name
        names = ", ".join(shown(c, shared) for c in site.components) or "no components"
        out.say(f"{label} now: {names}; {ratings_text(site.totals())}.", rule["components"])
        for card in site.components:
            short = [f"{r.upper()} {rating(card, 'req_' + r)}" for r in RATINGS
                     if rating(card, "req_" + r) > site.totals()[r]]
            if short:
                out.say(f"{shown(card, shared)} needed {', '.join(short)} when it was played; it stays in play, "
                        "as every component does until a card discards it.", rule["other"])
    unmet = []
    for critic in critics:
        met = [i for i, s in enumerate(sites) if all(rating(critic, "req_" + r) <= s.totals()[r] for r in RATINGS)]
        head = f"{critic.name} ({plural(rating(critic, 'points'), 'point')}) needs {needs_text(critic)}"
        if met:
            where = f"site {met[0] + 1}" if len(sites) > 1 else sites[0].base.name
            out.say(f"{head}: {where} still meets it.", rule["critics"])
        else:
            unmet.append(critic.name)
            out.say(f"{head}: no site meets it now, but a critic won over never loses favour unless a card says "
                    "so: it stays won.", rule["critics"])
    points = sum(rating(c, "points") for c in critics)
    if not any(site.components for site in sites):
        out.say("No component is left on any of your sites: your opponent wins, whatever your points.",
                rule["win"])
    out.summary = (f"{plural(len(critics), 'critic')} won, {plural(points, 'point')}: "
                   + ("it stays won" if len(critics) == 1 else "all stay won")
                   + (f", though no site meets {_and(unmet, 'or')} now." if unmet else "."))
    out.values = {"kept": [{"critic": c.name, "points": rating(c, "points"), "met_now": c.name not in unmet}
                           for c in critics], "points": points, "lost": []}
    return out


def _and(names: Sequence[str], last: str = "and") -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


# ----------------------------------------------------------------------------------------------------- removal
@dataclass(frozen=True, slots=True)
class Protection:
    """What protects a card in play: Natashas played on it (and on each other), Alan-The Programmer's kind."""

    natashas: int = 0
    programmer: bool = False  # a card of its player's saying "your component cards cannot be removed" is in play


def _natasha_limit(game: GameDefinition, index: CardIndex, natashas: int, out: Answer) -> int:
    """The most Natashas that can be in play (both players' decks); more is a problem."""
    natasha = find_card(game, index, NATASHA)
    most = 2 * _copies(game, natasha)
    if natashas > most:
        out.problem(f"{plural(natashas, NATASHA)}: each deck holds at most {_copies(game, natasha)}, so no more "
                    f"than {most} can be in play.", _rules(game)["deck"])
    return most


def _guarded(game: GameDefinition, target: Card, guard: Protection, out: Answer) -> bool:
    """Whether the target cannot be removed now, with the rule that keeps it; the first protection found."""
    rule = _rules(game)
    if target.get("cannot_be_removed") is True:
        out.problem(f"{target.name} cannot be removed from play by any means: it stays in play until the end of "
                    "the game.", rule["fixed"])
        return True
    if guard.natashas:
        they = "it stays" if guard.natashas == 1 else "they stay"
        out.problem(f"{plural(guard.natashas, NATASHA)} on {target.name}: it cannot be removed while {they} in "
                    "play; remove the top Natasha first.", rule["faq"])
        return True
    if guard.programmer and target.kind == "component":
        out.problem(f"Alan-The Programmer is in play: its player's components cannot be removed; remove it first "
                    f"(a card that says to {REMOVALS['kept']}).", rule["faq"])
        return True
    return False


def remove(game: GameDefinition, index: CardIndex, removal: Card, targets: Sequence[Card],
           guard: Protection = Protection()) -> Answer:
    """What a removal card may remove, and whether it removes the target(s) named."""
    out, rule = Answer(game.id, "remove"), _rules(game)
    _natasha_limit(game, index, guard.natashas, out)
    choices = removals_of(removal)
    if not choices:
        out.problem(f"{removal.name} removes nothing: a removal card must say \"{REMOVALS['component']}\", "
                    f"\"{REMOVALS['critic']}\" or \"{REMOVALS['kept']}\".", rule["other"])
    elif len(choices) > 1:
        out.say(f"{removal.name} says OR: " + " OR ".join(f"\"{REMOVALS[c]}\"" for c in choices)
                + "; use one of them, never both.", rule["or"])
    for what in choices:
        reach = f"{WHAT[what]} only, never a component or a critic" if what == "kept" else WHAT[what]
        out.say(f"\"{REMOVALS[what]}\" removes {reach}.", rule["kept"] if what == "kept" else rule["other"])
    if not targets:
        may = [WHAT[c] for c in choices]
        cards = sorted({c.name for c in index.cards if kind_in_play(c) in choices
                        and c.get("cannot_be_removed") is not True})
        out.summary = f"{removal.name} may remove {' or '.join(may)}." if may else f"{removal.name} removes nothing."
        out.values = {"removal": removal.name, "removes": choices, "target": None, "removed": False, "may": cards}
        return out
    if len(targets) > 1:
        out.problem(f"{removal.name} removes one card, not {len(targets)}"
                    + (": one of its choices, never both." if len(choices) > 1 else "."), rule["or"])
        out.summary = f"{removal.name} cannot remove {len(targets)} cards."
    else:
        removed = bool(choices) and _removes(game, removal, targets[0], guard, out)
        out.summary = f"{removal.name} {'removes' if removed else 'cannot remove'} {targets[0].name}."
    out.values = {"removal": removal.name, "removes": choices, "target": targets[0].name, "removed": out.legal}
    return out


def _removes(game: GameDefinition, removal: Card, target: Card, guard: Protection, out: Answer) -> bool:
    """Whether the removal's words name the target and nothing keeps it in play; what changes when it goes."""
    rule = _rules(game)
    if _not_in_play(game, target, out):
        return False
    what = kind_in_play(target)
    here = rule["kept"] if what == "kept" else rule["other"]
    if what not in removals_of(removal):
        words = ("no removal the rulebook describes names a base site" if what == "base"
                 else f"only a card saying \"{REMOVALS[what]}\" removes it")
        out.problem(f"{removal.name} cannot remove {target.name}: it is {WHAT.get(what, 'a base site')}, and "
                    f"{words}.", here)
        return False
    if _guarded(game, target, guard, out) or not out.legal:
        return False
    out.say(f"{removal.name} removes {target.name} (\"{REMOVALS[what]}\").", here)
    _after(game, target, out)
    return True


def _after(game: GameDefinition, target: Card, out: Answer) -> None:
    """What changes when the target leaves play."""
    rule = _rules(game)
    what = kind_in_play(target)
    if what == "component":
        out.say(f"Its site loses {target.name}'s " + ratings_text({r: rating(target, r) for r in RATINGS})
                + "; the critics already won stay won.", rule["critics"])
    elif what == "critic":
        out.say(f"Reading: {target.name}'s {plural(rating(target, 'points'), 'point')} leave its player's total, "
                "the points being those of the critics won.", rule["other"])
    elif target.name == NATASHA:
        out.say("Its effects end: the card it was played on loses this Natasha's protection.", rule["kept"])
    else:
        out.say("Its effects end as it leaves the playing field.", rule["kept"])


# ----------------------------------------------------------------------------------------------------- Natasha
def natasha_stack(game: GameDefinition, index: CardIndex, target: Card, guard: Protection,
                  theirs: bool = False) -> Answer:
    """Natashas on a card, one on another: the removals it takes to remove the card, top Natasha first
    (``theirs``: you played them on your opponent's card)."""
    out, rule = Answer(game.id, "natasha"), _rules(game)
    most = _natasha_limit(game, index, guard.natashas, out)
    if not out.legal or _not_in_play(game, target, out):
        out.summary = (f"{NATASHA} is played on a card in play, and {target.name} is not." if out.legal is False
                       and kind_in_play(target) == "gone" else f"No more than {most} Natashas can be in play.")
        out.values = {"target": target.name, "natashas": guard.natashas, "removals": None, "order": []}
        return out
    kept_by = _examples(index.cards, "kept")
    order: list[str] = []
    for number in range(1, guard.natashas + 1):
        under = target.name if number == 1 else f"{NATASHA} {number - 1}"
        extra = "" if number == 1 else " (a Natasha may be played on a Natasha: the card is doubly protected)"
        out.say(f"{NATASHA} {number} is played on {under}: {under} cannot be removed while it stays in play{extra}.",
                rule["faq"])
    if guard.natashas and theirs:
        out.say(f"Played on your opponent's {target.name}, the Natashas stay your cards, not theirs (the FAQ).",
                rule["faq"])
    if guard.natashas and target.get("limit_one") is True and target.get("cannot_be_removed") is not True:
        out.say(f"{target.name} is limit one per deck: the Natashas keep its one copy in play (the FAQ).",
                rule["faq"])
    for number in range(guard.natashas, 0, -1):
        top = " (the top one, nothing protects it)" if number == guard.natashas else ""
        order.append(f"{NATASHA} {number}")
        out.say(f"Removal {len(order)}: {NATASHA} {number}{top}, by a card that says to {REMOVALS['kept']}"
                f"{kept_by}.", rule["kept"])
    what = kind_in_play(target)
    if guard.programmer and what == "component":
        order.append("Alan-The Programmer")
        out.say(f"Removal {len(order)}: Alan-The Programmer, which keeps its player's components in play, by a "
                f"card that says to {REMOVALS['kept']}{kept_by}.", rule["faq"])
    removals: int | None = len(order) + 1
    if target.get("cannot_be_removed") is True:
        removals = None
        out.say(f"{target.name} cannot be removed from play by any means: it stays until the end of the game, "
                "whatever is removed above it.", rule["fixed"])
        out.summary = f"{target.name} cannot be removed" + (": the Natashas add nothing." if guard.natashas else ".")
    elif what == "base":
        removals = None
        out.say(f"{target.name} is a base site: no removal the rulebook describes names one.", rule["other"])
        out.summary = f"No removal the rulebook describes removes {target.name}."
    else:
        order.append(target.name)
        out.say(f"Removal {len(order)}: {target.name}, by a card that says to {REMOVALS[what]}"
                f"{_examples(index.cards, what)}.", rule["kept"] if what == "kept" else rule["other"])
        first = ([f"the {guard.natashas} Natashas from the top down" if guard.natashas > 1 else "the Natasha"]
                 if guard.natashas else []) + order[guard.natashas:-1]
        before = f": {', then '.join(first)}, then {target.name}" if first else ": nothing protects it"
        out.summary = f"Removing {target.name} takes {plural(len(order), 'removal')}{before}."
    out.values = {"target": target.name, "natashas": guard.natashas, "removals": removals, "order": order}
    return out


# ---------------------------------------------------------------------------------- helpers described once
# Each helper's typed signature is its command (carddb play website ...), its form on the Play page and the check
# of its request (carddb.core.play.signature).
CRITIC = ("critic",)
NATASHAS = Arg("Natasha-The Defender cards on the card, each on the one before (the FAQ's stack).",
               label="Natashas on it", high=99)
PROGRAMMER = Arg("Alan-The Programmer is in play for the card's player (their components cannot be removed).",
                 label="Alan-The Programmer in play", beside=True)


@helper("favour", title="Do my critics stay won?", rule="critics",
        example='carddb play website favour "Webring Judge" --site "Neutral Base Card + Guestbook"')
def favour_helper(game: GameDefinition, index: CardIndex, *,
                  critics: Annotated[list[Card], Arg("The critics you have won over.", label="Critic won",
                                                     kinds=CRITIC, what="critic", metavar="CRITIC...", count=4)],
                  sites: Annotated[list[SiteAsked], dataclasses.replace(
                      SITE, help=SITE_HELP + " Your site as it is now.", option="--site")]) -> Answer:
    """Whether critics won over stay won when your sites' totals fall (they never lose favour).

    A critic won over never loses favour, even when your sites' totals fall below what it needs.
    """
    if not critics:
        raise InputError("name the critics you have won over")
    if not sites:
        raise InputError("describe at least one site: its base site and components")
    return favour(game, [row.site() for row in sites], critics, shared_names(index))


@helper("remove", title="What may a removal card remove?", rule="keeping-cards-in-play",
        example='carddb play website remove "Spam Flood" "Natasha-The Defender"')
def remove_helper(game: GameDefinition, index: CardIndex, *,
                  removal: Annotated[Card, Arg("The removal card, e.g. Site Hacker or Spam Flood.",
                                               label="Removal card", names="removal", what="removal card")],
                  targets: Annotated[list[Card], Arg("The card in play to remove; none: what the removal may remove.",
                                                     label="Card to remove", names="card", metavar="CARD",
                                                     count=1)] = (),  # type: ignore[assignment]
                  natashas: Annotated[int, NATASHAS] = 0,
                  programmer: Annotated[bool, PROGRAMMER] = False) -> Answer:
    """What a removal card may remove, and whether it removes a card in play.

    Only what its words name: a component, a critic or a card kept in play; never a card that cannot be removed,
    nor one Natasha-The Defender protects.
    """
    return remove(game, index, removal, list(targets or []), Protection(natashas, programmer))


@helper("natasha", title="Natashas stacked on a card", rule="faq",
        example="carddb play website natasha Guestbook --natashas 4")
def natasha_helper(game: GameDefinition, index: CardIndex, *,
                   target: Annotated[Card, Arg("The card in play the Natashas protect.", label="Card in play",
                                               names="card", what="card in play")],
                   natashas: Annotated[int, NATASHAS] = 1,
                   programmer: Annotated[bool, PROGRAMMER] = False,
                   theirs: Annotated[bool, Arg("You played the Natashas on your opponent's card.",
                                               label="on your opponent's card", beside=True)] = False) -> Answer:
    """Natashas stacked on a card: the removals it takes to remove it, top Natasha first.

    Each Natasha protects the card beneath it: the top one goes first, then each below, then the card.
    """
    return natasha_stack(game, index, target, Protection(natashas, programmer), theirs)


HELPERS = helpers_of(sys.modules[__name__])
