"""Property: any catalogue exported (CSV or YAML) and imported again is the same catalogue."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carddb.catalogue.api import open_catalogue
from carddb.core.cards.card import Card, Printing, normalise_name
from carddb.core.game.definition import load_game_text

GAME_TOML = """
[game]
id = "prop"
name = "Property game"
deck_game = false
[[sets]]
code = "core"
name = "Core"
[[sets]]
code = "Ünïcode set"
name = "Ünïcode"
[[sets]]
code = "promo"
name = "Promo"
[fields.power]
type = "int"
min = -5
also = ["X"]
[fields.title]
type = "str"
[fields.lore]
type = "text"
[fields.shiny]
type = "bool"
[fields.colour]
type = "choice"
choices = ["Red", "Blue", "Grün"]
[fields.tags]
type = "list"
[fields.bonus]
type = "map"
[kinds.unit]
fields = ["power", "title", "lore", "shiny", "colour", "tags", "bonus"]
[kinds.spell]
fields = ["lore", "tags"]
"""
GAME = load_game_text(GAME_TOML, "prop.toml")

# Text as people write it: any letters, marks, symbols and spaces inside, trimmed at the ends.
_chars = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\r")
words = st.text(_chars, min_size=1, max_size=12).map(str.strip).filter(bool)
item = words.filter(lambda w: ";" not in w and "=" not in w).map(lambda w: " ".join(w.split()))
long_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"),
                    max_size=80).map(str.strip)


@st.composite
def cards(draw: st.DrawFn) -> list[Card]:
    names = draw(st.lists(words, min_size=1, max_size=6, unique_by=normalise_name))
    result = []
    for number, name in enumerate(names):
        kind = draw(st.sampled_from(["unit", "spell"]))
        fields: dict = {}
        if draw(st.booleans()):
            fields["lore"] = draw(long_text) or None
        if draw(st.booleans()):
            fields["tags"] = draw(st.lists(item, min_size=1, max_size=3))
        if kind == "unit":
            fields["power"] = draw(st.one_of(st.integers(-5, 99), st.just("X")))
            if draw(st.booleans()):
                fields["title"] = draw(item)
            if draw(st.booleans()):
                fields["shiny"] = True
            fields["colour"] = draw(st.sampled_from(["Red", "Blue", "Grün"]))
            if draw(st.booleans()):
                fields["bonus"] = draw(st.dictionaries(item, st.integers(-3, 9), min_size=1, max_size=2))
        fields = {k: v for k, v in fields.items() if v is not None}
        printings = [Printing(set=draw(st.sampled_from(["core", "Ünïcode set"])), number=str(number),
                              rarity=draw(st.sampled_from(["", "common", "rare"])))]
        if draw(st.booleans()):
            printings.append(Printing(set="promo", number=f"P{number}"))
        result.append(Card(game="prop", name=name, kind=kind, text=draw(long_text), flavor=draw(long_text),
                           fields=fields, printings=printings, sample=draw(st.sampled_from([[], ["*"], ["power"]]))))
    return result


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(original=cards(), fmt=st.sampled_from(["csv", "yaml"]))
def test_export_import_is_identity(tmp_path: Path, original: list[Card], fmt: str) -> None:
    first = open_catalogue("sqlite:///:memory:")
    first.save_game(GAME, GAME_TOML)
    first.write(GAME, original, "generated")
    exported = first.export_cards("prop", fmt)
    path = tmp_path / f"cards.{fmt}"
    path.write_text(exported, encoding="utf-8")
    second = open_catalogue("sqlite:///:memory:")
    second.save_game(GAME, GAME_TOML)
    second.import_cards(path, "prop")
    assert second.cards("prop") == first.cards("prop") == original
