"""The search language evaluated in memory (what the site's gallery runs in the browser) finds exactly the cards
the catalogue's SQL finds, for every example of docs/search.md and for a query per field, value and operator of
every bundled game; a query the catalogue refuses is refused with the same message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from carddb.catalogue.api import Catalogue
from carddb.core.search.query import CardSearch, SearchError, search_cards

REPO = Path(__file__).resolve().parents[2]


def docs_queries() -> list[tuple[str, str | None]]:
    """Each query of docs/search.md: the console examples (with their --game) and the table's examples."""
    text = (REPO / "docs" / "search.md").read_text(encoding="utf-8")
    found: list[tuple[str, str | None]] = []
    for query, game in re.findall(r"carddb cards search '([^']+)'(?: --game (\w+))?", text):
        found.append((query, game or None))
    for row in re.findall(r"^\|[^|]+\|[^|]+\| (`.+`) \|$", text, re.M):
        found.extend((q, None) for q in re.findall(r"`([^`]+)`", row))
    return found


def generated_queries(catalogue: Catalogue, game_id: str) -> list[str]:
    """For every declared field: equality, inequality, a contains and comparisons on values the cards hold."""
    game = catalogue.game(game_id)
    cards = catalogue.cards(game_id)
    first_set = game.sets[0].code if game.sets else "x"
    queries = ["a", '"the"', "kind:" + cards[0].kind, f"-kind:{cards[0].kind}", f"name:{cards[0].name.split()[0]}",
               f'name="{cards[0].name}"', "text:your", "rarity:common", f"set:{first_set}", "(a or e) -the"]
    for key, definition in game.fields.items():
        values = [c.fields[key] for c in cards if key in c.fields][:3]
        if definition.type == "bool":
            queries += [key, f"-{key}", f"{key}:yes", f"{key}=false"]
        for value in values:
            items = value if isinstance(value, list) else list(value) if isinstance(value, dict) else [value]
            for item in items[:2]:
                word = str(item).lower()
                quoted = f'"{word}"' if " " in word else word
                queries += [f"{key}:{quoted}", f"{key}!={quoted}"]
                if definition.type == "int" and isinstance(item, int):
                    queries += [f"{key}<={item}", f"{key}>{item}", f"{key}={item}"]
        if definition.type == "map":
            queries += [f"{key}>=1"]
    return queries


def test_docs_examples_find_the_same_cards_in_memory(catalogue: Catalogue) -> None:
    examples = docs_queries()
    assert len(examples) >= 10  # the page's examples were found
    for query, game_id in examples:
        for gid in [game_id] if game_id else catalogue.games():
            game = catalogue.game(gid)
            try:
                expected = [c.key for c in catalogue.search(query, gid)]
            except SearchError as error:  # a field of another game: refused alike
                with pytest.raises(SearchError) as refused:
                    CardSearch(query, game.fields)
                assert str(refused.value) == str(error)
                continue
            names = {s.code: s.name for s in game.sets}
            got = [c.key for c in search_cards(query, catalogue.cards(gid), game.fields, names)]
            assert sorted(got) == sorted(expected), (gid, query)


@pytest.mark.parametrize("game_id", ["ssbm", "shmod", "ssq", "minibattle", "website"])
def test_a_query_per_field_finds_the_same_cards_in_memory(catalogue: Catalogue, game_id: str) -> None:
    if game_id not in catalogue.games():
        pytest.skip(f"{game_id} is not in the test catalogue")
    game = catalogue.game(game_id)
    cards = catalogue.cards(game_id)
    names = {s.code: s.name for s in game.sets}
    found_some = 0
    for query in generated_queries(catalogue, game_id):
        expected = sorted(c.key for c in catalogue.search(query, game_id))
        got = sorted(c.key for c in search_cards(query, cards, game.fields, names))
        assert got == expected, query
        found_some += bool(expected)
    assert found_some >= 10


@pytest.mark.parametrize("query", ["atk<fire", "type<3", "nosuch:1", "(type:fire", "limited:maybe", "name>3", ")"])
def test_a_refused_query_has_the_catalogues_message(catalogue: Catalogue, query: str) -> None:
    with pytest.raises(SearchError) as sql:
        catalogue.search(query, "shmod")
    with pytest.raises(SearchError) as memory:
        CardSearch(query, catalogue.game("shmod").fields)
    assert str(memory.value) == str(sql.value)
