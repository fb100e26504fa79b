"""Website TCG at the table: a site's components and IP/GP/CP totals, the critics it wins over, what a critic still
needs, whether a player has won, setup and a turn's limits. Pure standard library; the numbers are ``[play]`` of
``rules/website/game.toml`` and the type compatibility its ``[compatibility]``, as the deck checker uses it.

A site holds at most one component of each name (either Splash Page, not both); a component fits its base site's
type; a critic looks at one site only (5/5/5 on one site and 10/10/10 on another do not win a 15/15/15 critic).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from carddb.core.cards.card import Card, normalise_name
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import (
    Answer,
    plural,
    setting,
)
from carddb.core.play.signature import Arg, helper, helpers_of
from carddb.errors import InputError
from carddb.games.website.persistence import HELPERS as PERSISTENCE
from carddb.games.website.persistence import removals_of
from carddb.games.website.sites import RATINGS, SITE, SITE_HELP, Site, SiteAsked, fits, shared_names, shown
from carddb.games.website.sites import rating as _int


def _ratings(values: Mapping[str, int]) -> str:
    return ", ".join(f"{r.upper()} {values[r]}" for r in RATINGS)


def _sums(components: Sequence[Card], rating: str) -> str:
    numbers = [str(_int(c, rating)) for c in components]
    total = sum(_int(c, rating) for c in components)
    return f"{rating.upper()} {' + '.join(numbers)} = {total}" if len(numbers) > 1 else f"{rating.upper()} {total}"


def check_site(game: GameDefinition, site: Site, other_sites: Sequence[Site] = (), out: Answer | None = None,
               number: int = 0, shared: frozenset[str] = frozenset()) -> Answer:
    """A site's components: each fits the base's type, one of each name, each one's IP/GP/CP requirements met by
    the site's totals when it was played (**Reading**: the totals of the site it joins, as a critic looks at one
    site) and its required card already on one of your sites; then the site's totals."""
    out = out or Answer(game.id, "site")
    comp_rule, type_rule = game.rule_link("components"), game.rule_link("site-types")
    need_rule = game.rule_link("components-that-need-cards-in-play")
    label = f"Site {number} ({site.base.name})" if number else site.base.name
    seen: dict[str, Card] = {}
    so_far: list[Card] = []
    elsewhere = {normalise_name(c.name) for s in other_sites for c in (s.base, *s.components)}
    for card in site.components:
        key = normalise_name(card.name)
        if key in seen:
            out.problem(f"{label} already holds {shown(seen[key], shared)}: a site holds one component of each "
                        f"name, so {shown(card, shared)} cannot join it.", comp_rule)
            continue
        if not fits(game, card, site.base):
            out.problem(f"{shown(card, shared)} is an {card.get('site_type')} component: it does not fit "
                        f"{site.base.name} ({site.base.get('site_type')}).", type_rule)
            continue
        have = {r: sum(_int(c, r) for c in so_far) for r in RATINGS}
        short = [f"{r.upper()} {_int(card, 'req_' + r)} (the site had {have[r]})" for r in RATINGS
                 if _int(card, "req_" + r) > have[r]]
        if short:
            out.problem(f"{shown(card, shared)} needs {', '.join(short)} when it is played.", need_rule)
        needs = str(card.get("requires_card") or "")
        if needs and normalise_name(needs) not in {normalise_name(c.name) for c in so_far} | elsewhere:
            out.problem(f"{shown(card, shared)} needs {needs} already on one of your sites.", need_rule)
        seen[key] = card
        so_far.append(card)
    attached = Site(site.base, so_far)
    totals = attached.totals()
    if so_far:
        out.say(f"{label}: " + "; ".join(_sums(so_far, r) for r in RATINGS) + ".", comp_rule)
    else:
        out.say(f"{label}: no components, IP 0, GP 0, CP 0.", comp_rule)
    site.components = so_far
    out.values.setdefault("sites", []).append({"base": site.base.name,
                                               "components": [shown(c, shared) for c in so_far],
                                               "totals": totals})
    return out


def site_totals(game: GameDefinition, site: Site, shared: frozenset[str] = frozenset()) -> Answer:
    out = check_site(game, site, shared=shared)
    totals = out.values["sites"][0]["totals"]
    out.summary = f"{site.base.name}: {_ratings(totals)}" + ("." if out.legal else
                                                              f" ({plural(len(out.problems), 'problem')}).")
    out.values.update(totals=totals)
    return out


# ---------------------------------------------------------------------------------------------------- critics
def shortfall(critic: Card, totals: Mapping[str, int]) -> dict[str, int]:
    return {r: max(0, _int(critic, "req_" + r) - totals[r]) for r in RATINGS}


def _needs(critic: Card) -> str:
    return ", ".join(f"{r.upper()} {_int(critic, 'req_' + r)}" for r in RATINGS)


def critics_won(game: GameDefinition, sites: Sequence[Site], critics: Sequence[Card], *, short: int = 0,
                shared: frozenset[str] = frozenset()) -> Answer:
    """Which critics the sites win over: a critic looks at ONE site, whose IP, GP and CP must each meet its own
    (``short``: Kathleen-The Helper's 10, by which each of IP, GP and CP may fall short, the FAQ says)."""
    out = Answer(game.id, "critics")
    for number, site in enumerate(sites, 1):
        check_site(game, site, [s for s in sites if s is not site], out, number if len(sites) > 1 else 0, shared)
    rule = game.rule_link("critics")
    won, lost = [], []
    for critic in critics:
        best = _best_site(critic, sites, short)
        if best is not None:
            won.append(critic)
            out.say(f"{critic.name} ({plural(_int(critic, 'points'), 'point')}) needs {_needs(critic)}: "
                    f"{_site_name(sites, best)} meets it" + (f" (up to {short} short of each)." if short else "."),
                    rule)
        else:
            lost.append(critic)
    one = game.rule_link("controlling-two-or-more-sites")
    for critic in lost:
        if len(sites) > 1 and all(sum(s.totals()[r] for s in sites) >= _int(critic, "req_" + r) - short
                                  for r in RATINGS):
            out.say(f"{critic.name} needs {_needs(critic)}: your sites meet it together but no one of them does, "
                    f"and a critic looks at one site only.", one)
            continue
        gaps = [shortfall(critic, s.totals()) for s in sites]
        best = min(range(len(sites)), key=lambda i: (sum(max(0, g - short) for g in gaps[i].values()), i))
        missing = ", ".join(f"{r.upper()} {gaps[best][r] - short}" for r in RATINGS if gaps[best][r] > short)
        out.say(f"{critic.name} needs {_needs(critic)}: {_site_name(sites, best)} is short {missing}.", rule)
    points = sum(_int(c, "points") for c in won)
    out.summary = (f"Won over: {', '.join(c.name for c in won)} ({plural(points, 'point')})." if won
                   else "No critic is won over.")
    out.values.update(won=[{"critic": c.name, "points": _int(c, "points")} for c in won], points=points,
                      not_won=[c.name for c in lost])
    return out


def _best_site(critic: Card, sites: Sequence[Site], short: int) -> int | None:
    for index, site in enumerate(sites):
        if all(gap <= short for gap in shortfall(critic, site.totals()).values()):
            return index
    return None


def _site_name(sites: Sequence[Site], index: int) -> str:
    return f"site {index + 1} ({sites[index].base.name})" if len(sites) > 1 else sites[index].base.name


def still_missing(game: GameDefinition, sites: Sequence[Site], critic: Card, *, short: int = 0,
                  shared: frozenset[str] = frozenset()) -> Answer:
    """What one critic still needs: per site (a critic looks at one), the IP, GP and CP each falls short."""
    out = Answer(game.id, "missing")
    for number, site in enumerate(sites, 1):
        check_site(game, site, [s for s in sites if s is not site], out, number if len(sites) > 1 else 0, shared)
    rule = game.rule_link("critics")
    gaps = [shortfall(critic, site.totals()) for site in sites]
    best = min(range(len(sites)), key=lambda i: (sum(max(0, g - short) for g in gaps[i].values()), i))
    for index, gap in enumerate(gaps):
        missing = [f"{r.upper()} {gap[r]}" for r in RATINGS if gap[r] > short]
        name = _site_name(sites, index)
        if missing:
            covered = f" beyond the {short} that may fall short" if short else ""
            out.say(f"{name} has {_ratings(sites[index].totals())}: {critic.name} needs {_needs(critic)}, short "
                    f"{', '.join(missing)}{covered}.", rule)
        else:
            out.say(f"{name} has {_ratings(sites[index].totals())}: it meets {critic.name}'s {_needs(critic)}.", rule)
    left = {r: max(0, gaps[best][r] - short) for r in RATINGS}
    if any(left.values()):
        out.summary = (f"{critic.name} still needs " + ", ".join(f"{v} {r.upper()}" for r, v in left.items() if v)
                       + f" on {_site_name(sites, best)}.")
    else:
        out.summary = f"{_site_name(sites, best).capitalize()} wins {critic.name} over now."
    out.values.update(critic=critic.name, site=best + 1, missing=left)
    return out


# ---------------------------------------------------------------------------------------------------- winning
@dataclass(frozen=True, slots=True)
class Player:
    name: str
    points: int = 0
    components: int | None = None  # on all of their base sites
    deck: int | None = None  # cards left in their deck at the start of their turn


def has_won(game: GameDefinition, you: Player, opponent: Player, turn_starts: str = "") -> Answer:
    """A player wins with 100 critic points, when the opponent's sites hold no component, or when the opponent has
    no cards in their deck at the start of their turn (``turn_starts``: whose turn is starting)."""
    out = Answer(game.id, "win")
    rule, target = game.rule_link("winning"), int(setting(game, "win_points"))
    winners: list[str] = []
    for player, other in ((you, opponent), (opponent, you)):
        has, wins = ("have", "win") if player.name == "you" else ("has", "wins")
        other_has = "have" if other.name == "you" else "has"
        reasons = []
        if player.points >= target:
            reasons.append(f"{player.name} {has} {player.points} points, at least {target}")
        if other.components == 0:
            reasons.append(f"{other.name} {other_has} no components on any base site")
        if turn_starts == other.name and other.deck == 0:
            reasons.append(f"{other.name} {other_has} no cards in the deck at the start of the turn")
        for reason in reasons:
            out.say(f"{reason[0].upper()}{reason[1:]}: {player.name} {wins}.", rule)
        if reasons:
            winners.append(player.name)
    if not winners:
        out.say(f"No one has won: you have {plural(you.points, 'point')} and your opponent "
                f"{plural(opponent.points, 'point')}, of {target}.", rule)
        out.summary = "No winner yet."
    elif len(winners) == 2:
        out.summary = "Both players meet a winning condition: whoever met it first during play has won."
    else:
        out.summary = "You win." if winners[0] == "you" else "Your opponent wins."
    out.values = {"winner": winners[0] if len(winners) == 1 else None, "winners": winners, "points": you.points,
                  "opponent_points": opponent.points}
    return out


# ------------------------------------------------------------------------------------------------ setup, turn
def setup(game: GameDefinition, base: Card, top: Sequence[Card], shared: frozenset[str] = frozenset()) -> Answer:
    """Setup: of the top 5 cards, every component that fits the base site is attached (one of each name), the rest
    go back into the deck; with none, shuffle them back and draw 5 again; then draw a hand of 7.

    Reading: "attach all Component Cards from those 5" attaches them without their IP/GP/CP requirements."""
    out = Answer(game.id, "setup")
    rule = game.rule_link("setup")
    count = int(setting(game, "setup_cards"))
    if len(top) != count:
        out.problem(f"Setup takes the top {count} cards of the deck, not {len(top)}.", rule)
    attached: list[Card] = []
    back: list[str] = []
    for card in top:
        name = shown(card, shared)
        if card.kind != "component":
            back.append(name)
        elif not fits(game, card, base):
            out.say(f"{name}, an {card.get('site_type')} component, does not fit {base.name}: back into the deck.",
                    game.rule_link("site-types"))
            back.append(name)
        elif any(normalise_name(c.name) == normalise_name(card.name) for c in attached):
            out.say(f"{name}: the site already holds a {card.name}; back into the deck.",
                    game.rule_link("components"))
            back.append(name)
        else:
            attached.append(card)
    hand = int(setting(game, "hand_size"))
    if attached:
        out.say(f"Attach {', '.join(shown(c, shared) for c in attached)} to {base.name}; "
                f"{', '.join(back) or 'nothing'} back into the deck.", rule)
        out.say(f"Then draw a starting hand of {hand} cards and flip a coin for who plays first.", rule)
        out.summary = f"{plural(len(attached), 'component')} attached: " + _ratings(Site(base, attached).totals()) + "."
    else:
        out.say("No component among them: shuffle them back into the deck and take the top 5 again.", rule)
        out.summary = "No component: shuffle and draw 5 again."
    out.values = {"attached": [shown(c, shared) for c in attached], "back": back, "again": not attached}
    return out


def plan_turn(game: GameDefinition, base_sites: Sequence[Card] = (), searches: int = 0, draws: int = 1) -> Answer:
    """A turn's limits: draw once, play at most one base site, shuffle after every deck or discard pile search."""
    out = Answer(game.id, "turn")
    rule = game.rule_link("turn")
    most_draws, most_sites = int(setting(game, "draws_per_turn")), int(setting(game, "base_sites_per_turn"))
    if draws > most_draws:
        out.problem(f"{plural(draws, 'draw')}: a turn draws {plural(most_draws, 'card')}.", rule)
    else:
        out.say(f"Draw {plural(draws, 'card')}.", rule)
    for number, card in enumerate(base_sites, 1):
        if number > most_sites:
            out.problem(f"{card.name}: only {plural(most_sites, 'base site')} may be played from the hand a turn.",
                        game.rule_link("base-sites"))
        else:
            out.say(f"Play {card.name} from the hand as another base site.", game.rule_link("base-sites"))
    for number in range(1, searches + 1):
        out.say(f"Search {number}: shuffle the deck (or discard pile) searched afterwards, whatever the card says.",
                game.rule_link("deck-searches"))
    out.say("Components, character cards and critics: as many as you like.", rule)
    out.summary = "The turn is legal." if out.legal else f"The turn breaks {plural(len(out.problems), 'rule')}."
    out.values = {"base_sites": len(base_sites), "searches": searches}
    return out


# ---------------------------------------------------------------------------------- helpers described once
# Each helper's typed signature is its command (carddb play website ...), its form on the Play page and the check
# of its request (carddb.core.play.signature); what stays in play is persistence.py's.
BASE_SITE, CRITIC = ("base-site",), ("critic",)
SHORT = Arg("How far short of each of IP, GP and CP may count as met (Kathleen-The Helper: 10).",
            label="short allowed (Kathleen-The Helper: 10)", high=99)


def _sites(sites: Sequence[SiteAsked]) -> list[Site]:
    if not sites:
        raise InputError("describe at least one site: its base site and components")
    return [row.site() for row in sites]


@helper("site", title="A site's totals", rule="components",
        example='carddb play website site "Neutral Base Card + Splash Page (Neutral) + Guestbook"')
def site_helper(game: GameDefinition, index: CardIndex, *,
                site: Annotated[SiteAsked, dataclasses.replace(SITE, label="Base site")]) -> Answer:
    """A site's components (one of each name, types matching, requirements met) and its IP/GP/CP totals.

    One component of each name, types matching, requirements met when played; its IP, GP and CP.
    """
    return site_totals(game, site.site(), shared_names(index))


@helper("critics", title="Critics won over", rule="critics",
        example='carddb play website critics "Alan\'s Site Base Card + Guestbook"')
def critics_helper(game: GameDefinition, index: CardIndex, *,
                   sites: Annotated[list[SiteAsked], dataclasses.replace(
                       SITE, help=SITE_HELP + " Several sites: one each.", metavar="SITE...")],
                   short: Annotated[int, SHORT] = 0) -> Answer:
    """Which critics of the catalogue the sites win over (a critic looks at one site only).

    Every critic of the catalogue against your sites; a critic looks at one site only.
    """
    critics = [c for c in index.cards if c.kind == "critic"]
    return critics_won(game, _sites(sites), critics, short=short, shared=shared_names(index))


@helper("missing", title="What a critic still needs", rule="critics",
        example='carddb play website missing "Graphics Guru" "Alan\'s Site Base Card + Guestbook"')
def missing_helper(game: GameDefinition, index: CardIndex, *,
                   critic: Annotated[Card, Arg("The critic, e.g. Graphics Guru.", label="Critic", kinds=CRITIC,
                                               what="critic")],
                   short: Annotated[int, dataclasses.replace(SHORT, beside=True)] = 0,
                   sites: Annotated[list[SiteAsked], dataclasses.replace(SITE, metavar="SITE...")]) -> Answer:
    """What a critic still needs: the IP, GP and CP each site falls short.

    The IP, GP and CP each site falls short of one critic.
    """
    return still_missing(game, _sites(sites), critic, short=short, shared=shared_names(index))


def _player(name: str, points: int | None, critics: Sequence[Card], components: int | None,
            deck: int | None) -> Player:
    return Player(name, (points or 0) + sum(_int(c, "points") for c in critics), components, deck)


@helper("win", title="Has anyone won?", rule="winning",
        example='carddb play website win --points 95 --critic "Casual Surfer"')
def win(game: GameDefinition, index: CardIndex, *,
        points: Annotated[int | None, Arg("Your critic points.", label="Your points", high=999,
                                          what="your points")] = None,
        components: Annotated[int | None, Arg("Components on all your base sites.", label="components", high=999,
                                              what="your components", beside=True)] = None,
        deck: Annotated[int | None, Arg("Cards in your deck at the start of your turn.", label="deck", high=999,
                                        what="your deck", beside=True)] = None,
        critics: Annotated[list[Card], Arg("A critic you have won over (its points are added).", label="Critic won",
                                           option="--critic", kinds=CRITIC, what="critic",
                                           count=3)] = (),  # type: ignore[assignment]
        opponent_points: Annotated[int | None, Arg("Your opponent's critic points.", label="Their points", high=999,
                                                   what="your opponent's points")] = None,
        opponent_components: Annotated[int | None, Arg("Components on your opponent's base sites.",
                                                       label="components", high=999,
                                                       what="your opponent's components", beside=True)] = None,
        opponent_deck: Annotated[int | None, Arg("Cards in your opponent's deck at the start of their turn.",
                                                 label="deck", high=999, what="your opponent's deck",
                                                 beside=True)] = None,
        opponent_critics: Annotated[list[Card], Arg("A critic your opponent won.", label="Their critic",
                                                    option="--opponent-critic", kinds=CRITIC, what="critic",
                                                    count=3)] = (),  # type: ignore[assignment]
        turn_starts: Annotated[Literal["you", "opponent"] | None, Arg(
            "Whose turn is starting: you or opponent.", label="Turn starting",
            shown=(("you", "yours"), ("opponent", "theirs")))] = None) -> Answer:
    """Whether a player has won: 100 critic points, an opponent without components, or without cards to draw.

    100 critic points, an opponent without components, or an opponent without cards at the start of their turn.
    """
    return has_won(game, _player("you", points, critics or [], components, deck),
                   _player("your opponent", opponent_points, opponent_critics or [], opponent_components,
                           opponent_deck),
                   {"you": "you", "opponent": "your opponent"}.get(turn_starts or "", ""))


@helper("setup", title="Setup", rule="setup",
        example='carddb play website setup "APSN Base Card" Guestbook "Casual Surfer" ...')
def setup_helper(game: GameDefinition, index: CardIndex, *,
                 base: Annotated[Card, Arg("The starting base site.", label="Base site", kinds=BASE_SITE,
                                           what="base site")],
                 top: Annotated[list[Card], Arg("The top 5 cards of the deck.", label="Card", names="card",
                                                count=5)]) -> Answer:
    """Setup: attach the components among the top 5 cards that fit the base site, then draw 7.

    The components among the top 5 cards that fit the base site are attached; then draw 7.
    """
    if not top:
        raise InputError("name the top cards of the deck")
    return setup(game, base, top, shared_names(index))


@helper("turn", title="A turn's limits", rule="turn",
        example='carddb play website turn --base-site "APSN Base Card" --searches 1')
def turn_helper(game: GameDefinition, index: CardIndex, *,
                base_sites: Annotated[list[Card], Arg("A base site played from the hand.",
                                                      label="Base site played", kinds=BASE_SITE, what="base site",
                                                      option="--base-site", count=2)] = (),  # type: ignore
                searches: Annotated[int, Arg("Deck or discard pile searches this turn.", label="deck searches",
                                             high=99)] = 0,
                draws: Annotated[int, Arg("Cards drawn in the draw step.", label="draws", high=99)] = 1) -> Answer:
    """A turn's limits: one draw, one base site from the hand, a shuffle after every search.

    One draw, one base site from the hand, a shuffle after every deck search.
    """
    return plan_turn(game, list(base_sites or []), searches, draws)


#: In the order of the Play page.
HELPERS: dict[str, Any] = {**helpers_of(sys.modules[__name__]), **PERSISTENCE}

#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"card": lambda c: True, "removal": lambda c: bool(removals_of(c))}
