"""Super Smash Bros. Melee CCG: what happens after a KO. Pure standard library (it runs in the browser).

The rulebook (KOing): the KO'd player takes all their cards off the playing field but their character card and any
unequipped items, puts them back into the deck with the discard pile, shuffles, and draws SPEED cards; play goes on
unless the match rules end the game; the player who made the KO gains a point and the one KO'd loses one (TIME),
and a KO costs 1 stock (STOCK). **Readings** (``docs/ssbm-play.md``): the hand is kept, as the rule takes back
only the field and the discard pile; the rulebook does not say whether the KO'd character's damage is cleared, so
the helper says so rather than decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.core.play.helpers import Answer, plural, setting


def _is_item(card: Card) -> bool:
    return "item" in (card.get("types") or [])


def _count(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "none"


def after_ko(game: GameDefinition, character: Card, field: Sequence[Card] = (), equipped: Sequence[Card] = (), *,
             deck: int | None = None, discard: int | None = None, hand: int | None = None, mode: str = "stock",
             stock: int | None = None, by: str = "") -> Answer:
    """The KO'd player's cards after the KO: ``field`` their cards on the playing field (an item there is an
    unequipped item, in the arena), ``equipped`` the items next to their character card; ``deck``, ``discard``,
    ``hand`` the cards in each before the KO; ``stock`` left before it (STOCK) and ``by`` who made the KO."""
    out = Answer(game.id, "after-ko")
    rule, field_rule = game.rule_link("koing"), game.rule_link("playing-cards-and-attacking")
    modes = game.rule_link("match-modes")
    draw_stat = str(setting(game, "draw_stat"))
    label = game.fields[draw_stat].label if draw_stat in game.fields else draw_stat.upper()
    draws = character.get(draw_stat) if isinstance(character.get(draw_stat), int) else 0
    who = character.name
    for card in equipped:
        if not _is_item(card):
            out.problem(f"{card.name} is not an item: only an item is equipped next to the character card.",
                        field_rule)
    back = [c.name for c in field if not _is_item(c)] + [c.name for c in equipped if _is_item(c)]
    stay = [c.name for c in field if _is_item(c)]
    out.say(f"Off the playing field and back into the deck: {_count(back)}"
            + (f" (equipped: {', '.join(c.name for c in equipped if _is_item(c))})." if any(
                _is_item(c) for c in equipped) else "."), rule)
    out.say(f"They stay: {who}'s character card" + (f" and the unequipped items in the arena, {', '.join(stay)}."
                                                     if stay else "."), rule)
    out.say("The discard pile goes back into the deck too" + (f": {plural(discard, 'card')}." if discard is not None
                                                             else "."), rule)
    size = None
    if deck is not None:
        size = deck + len(back) + (discard or 0)
        out.say(f"Deck: {deck} + {len(back)} from the field + {discard or 0} from the discard pile = "
                f"{plural(size, 'card')}; shuffle it.", rule)
    else:
        out.say("Shuffle the deck.", rule)
    drawn = draws if size is None else min(draws, size)
    short = "" if drawn == draws else f" (the deck holds only {plural(size or 0, 'card')})"
    out.say(f"Draw {label} {draws}: {plural(drawn, 'card')}{short}"
            + (f", leaving {plural((size or 0) - drawn, 'card')} in the deck." if size is not None else "."), rule)
    kept = None if hand is None else hand + drawn
    if hand is not None:
        out.say(f"Hand: {hand} kept + {drawn} drawn = {plural(kept or 0, 'card')} (the rule takes back only the field "
                f"and the discard pile).", rule)
    out.say(f"The rulebook does not say whether {who}'s damage is cleared: agree on it before the match.", rule)
    left = _match(out, who, mode, stock, by, rule, modes)
    out.values = {"character": who, "back_to_deck": back, "stay": stay, "deck": size, "draws": drawn,
                  "deck_after_draw": None if size is None else size - drawn, "hand": kept, "mode": mode,
                  "stock": left, "out_of_game": left == 0, **out.values}
    went = " and ".join([f"{plural(len(back), 'card')} from the field"] * bool(back)
                        + ["the discard pile"] * (discard != 0)) or "nothing"
    then = ("; out of stock, " + who + " is out of the game." if left == 0 else
            f"; {plural(left, 'stock', 'stock')} left, play goes on." if left is not None else "; play goes on.")
    out.summary = (f"This KO cannot happen: {out.problems[0].text}" if out.problems else
                   f"{who} shuffles {went} back into the deck and draws {plural(drawn, 'card')} ({label}){then}")
    return out


def _match(out: Answer, who: str, mode: str, stock: int | None, by: str, rule: str, modes: str) -> int | None:
    """The KO in the match: a point each way (TIME), 1 stock (STOCK); the stock left, or None."""
    if mode == "time":
        maker = by or "the player who made the KO"
        out.say(f"TIME: {maker} +1, {who} -1.", rule)
        out.values["points"] = {by: 1, who: -1} if by else {who: -1}
        return None
    if stock is None:
        out.say(f"STOCK: {who} loses 1 stock" + (f" to {by}." if by else "."), modes)
        return None
    if stock <= 0:
        out.problem(f"{who} has no stock left: a player out of the game cannot be KO'd.", modes)
        return None
    left = stock - 1
    out.say(f"STOCK: {who} has {stock} - 1 = {plural(left, 'stock', 'stock')} left"
            + (", and is out of the game; play goes on for the others." if left == 0 else "; play goes on."), modes)
    return left
