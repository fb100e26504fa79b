"""Each gallery's example query (the search box's placeholder), made from the game's own fields and checked to
find cards: a choice of the type field (or the first field cards hold words in) and a bound on the first number
field, each kept only if the query still finds cards. Shmod's ``type:fire level<=3`` is the pattern; ssbm gets
one of its own fields instead of Shmod's."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.core.search.query import SearchError, search_cards
from carddb.site.card_data import type_field, values_of

_PLAIN = re.compile(r"^[A-Za-z0-9_-]+$")  # a value written without quotes


def _word_term(game: GameDefinition, cards: Sequence[Card]) -> str:
    keys = [type_field(game)] + [k for k, f in game.fields.items() if f.type in ("choice", "list", "str")]
    for key in filter(None, keys):
        values = Counter(v for card in cards for v in values_of(card, key) if _PLAIN.match(v))
        if values:
            return f"{key}:{values.most_common(1)[0][0].lower()}"
    return ""


def _number_term(game: GameDefinition, cards: Sequence[Card]) -> str:
    for key, fdef in game.fields.items():
        if fdef.type != "int":
            continue
        numbers = sorted(v for c in cards if isinstance(v := c.fields.get(key), int) and not isinstance(v, bool))
        if len(set(numbers)) > 1:
            return f"{key}<={numbers[len(numbers) // 2]}"  # the median: about half the cards that have it
    return ""


def finds_cards(game: GameDefinition, cards: Sequence[Card], query: str) -> int:
    try:
        return len(search_cards(query, cards, game.fields, {s.code: s.name for s in game.sets}))
    except SearchError:
        return 0


def example_query(game: GameDefinition, cards: Sequence[Card]) -> str:
    """A query in the search language that finds some of ``cards`` (the kind of the most common card at worst)."""
    query = ""
    for term in (_word_term(game, cards), _number_term(game, cards)):
        wider = f"{query} {term}".strip()
        if term and finds_cards(game, cards, wider):
            query = wider
    if query:
        return query
    kinds = Counter(card.kind for card in cards)
    return f"kind:{kinds.most_common(1)[0][0]}" if kinds else "name:a"
