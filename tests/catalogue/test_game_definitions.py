"""The game definitions: the loader is fail-closed, and each game's file says what games.md says."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from carddb.core.cards.card import Card
from carddb.core.game.definition import load_game, load_game_text
from carddb.errors import DefinitionError

REPO = Path(__file__).resolve().parents[2]

MINIMAL = """
[game]
id = "tiny"
name = "Tiny"
[fields.power]
type = "int"
[kinds.unit]
fields = ["power"]
[zones.main]
min = 10
takes = { kind = ["unit"] }
[copies]
default = 3
zones = ["main"]
"""


def game(game_id: str, format_id: str | None = None):
    return load_game(REPO / "rules" / game_id, format_id)


def test_minimal_definition_loads() -> None:
    tiny = load_game_text(MINIMAL, "tiny.toml")
    assert tiny.zones["main"].size_text() == "at least 10"
    assert tiny.copies is not None and tiny.copies.default == 3


@pytest.mark.parametrize(("edit", "message"), [
    (("[game]", "[game]\ncolour = \"red\""), "tiny.toml: game.colour: unknown key"),
    (("min = 10", "min = \"ten\""), "tiny.toml: zones.main.min: must be an integer, not 'ten'"),
    (("fields = [\"power\"]", "fields = [\"power\", \"speed\"]"),
     "tiny.toml: kinds.unit.fields: names no declared field ('speed')"),
    (("zones = [\"main\"]", "zones = [\"side\"]"), "tiny.toml: copies.zones: names no declared zone ('side')"),
    (("type = \"int\"", "type = \"integer\""), "tiny.toml: fields.power.type: unknown field type 'integer'"),
    (("takes = { kind = [\"unit\"] }", "takes = { kind = [\"spell\"] }"),
     "tiny.toml: zones.main.takes: names no declared kind ('spell')"),
    (("takes = { kind = [\"unit\"] }", "takes = { has = { speed = [1] } }"),
     "tiny.toml: zones.main.takes: names no declared field ('speed')"),
    (("[copies]", "[[checks]]\ncheck = \"teleport\"\n[copies]"),
     "tiny.toml: checks[0].check: unknown check 'teleport'"),
    (("[game]", "[game\n"), "tiny.toml: not valid TOML"),
])
def test_loader_is_fail_closed(edit: tuple[str, str], message: str) -> None:
    text = MINIMAL.replace(*edit, 1)
    with pytest.raises(DefinitionError) as caught:
        load_game_text(text, "tiny.toml")
    assert str(caught.value).startswith(message)


def test_check_naming_a_missing_field_is_refused() -> None:
    text = MINIMAL + '\n[[sum_caps]]\nfield = "level"\ncap = 200\nzones = ["main"]\n'
    with pytest.raises(DefinitionError, match=r"sum_caps\[0\]\.field: names no declared field \('level'\)"):
        load_game_text(text, "tiny.toml")


def test_unknown_format_is_named() -> None:
    with pytest.raises(DefinitionError, match="has no format 'nope' \\(formats: standard, open-stack\\)"):
        game("shmod", "nope")


@pytest.mark.parametrize("game_id", ["ssbm", "shmod", "ssq", "minibattle", "website"])
def test_every_bundled_definition_and_format_loads(game_id: str) -> None:
    definition = game(game_id)
    assert definition.id == game_id
    for format_id in definition.formats:
        assert definition.with_format(format_id).format == format_id
    raw = tomllib.loads((REPO / "rules" / game_id / "game.toml").read_text())
    anchors = {definition.rule_link(z.rule) for z in definition.zones.values()}
    assert all(link.startswith(f"rules/{game_id}/rulebook.md") for link in anchors)
    assert raw["game"]["id"] == game_id


def test_rule_anchors_exist_in_the_rulebooks() -> None:
    from markdown.extensions.toc import slugify

    for game_id in ["ssbm", "shmod", "ssq", "minibattle", "website"]:
        definition = game(game_id)
        text = (REPO / "rules" / game_id / "rulebook.md").read_text()
        headings = {slugify(line.lstrip("#").strip(), "-") for line in text.splitlines() if line.startswith("#")}
        rules = [z.rule for z in definition.zones.values()] + [c.rule for c in definition.checks]
        rules += [r.rule for r in definition.readings] + [c.rule for c in definition.sum_caps]
        if definition.copies:
            rules += [definition.copies.rule, *(lim.rule for lim in definition.copies.limits)]
        missing = {r for r in rules if r and r not in headings}
        assert not missing, f"{game_id}: rule anchors not in rulebook.md: {missing}"


# --- each reading of games.md, as the definitions encode it ---------------------------------------------

def test_ssbm_deck_is_60_to_80_with_one_character_not_counted() -> None:
    ssbm = game("ssbm")
    assert (ssbm.zones["main"].minimum, ssbm.zones["main"].maximum) == (60, 80)
    assert (ssbm.zones["character"].minimum, ssbm.zones["character"].maximum) == (1, 1)
    assert ssbm.copies is not None and ssbm.copies.zones == ("main",)
    assert ssbm.copies.per_card_field == "deck_limit"


def test_ssbm_symbol_decides_and_mario_extra_is_structured() -> None:
    ssbm = game("ssbm")
    [check] = [c for c in ssbm.checks if c.code == "character-only"]
    assert check.params["field"] == "symbol" and check.params["from_zones"] == ("character",)
    assert [(m.type, m.field) for m in ssbm.modifiers] == [("limit-bonus", "deck_limit_bonus")]
    assert {r.id for r in ssbm.readings} >= {"deck-size", "symbol-decides", "damage-taken"}


def test_shmod_copies_count_across_all_three_zones() -> None:
    shmod = game("shmod")
    assert shmod.copies is not None
    assert shmod.copies.zones == ("main", "side", "stack") and shmod.copies.default == 4
    side = shmod.zones["side"]
    assert (side.minimum, side.maximum, side.or_empty) == (15, 15, True)
    assert shmod.zones["main"].minimum == 50 and shmod.zones["main"].maximum is None


def test_shmod_limited_list_exempts_fusion_and_transformation() -> None:
    shmod = game("shmod")
    [limited] = shmod.copies.limits  # type: ignore[union-attr]
    assert (limited.source, limited.limit) == ("LIMITED", 1)

    def monster(name: str, *categories: str) -> Card:
        return Card("shmod", name, "monster", fields={"categories": list(categories), "type": "FIRE"})

    assert limited.applies.matches(Card("shmod", "Yoink!", "spell"))
    assert limited.applies.matches(monster("Sun God", "Deity"))
    assert not limited.applies.matches(monster("Fused God", "Deity", "Fusion"))
    assert not limited.applies.matches(Card("shmod", "Fireball", "spell"))


def test_shmod_stack_takes_only_fusion_and_transformation_monsters() -> None:
    shmod = game("shmod")
    fusion = Card("shmod", "Twin Dragon", "monster", fields={"categories": ["Fusion"]})
    plain = Card("shmod", "Imp", "monster", fields={"categories": ["Fiend"]})
    assert shmod.zones["stack"].takes.matches(fusion) and not shmod.zones["stack"].takes.matches(plain)
    assert not shmod.zones["main"].takes.matches(fusion) and shmod.zones["main"].takes.matches(plain)
    relaxed = shmod.with_format("open-stack")
    assert relaxed.zones["main"].takes.matches(fusion)


def test_shmod_mana_type_skips_colourless_and_multi_type() -> None:
    [mana] = [c for c in game("shmod").checks if c.code == "mana-type"]
    assert mana.severity == "warning" and mana.params["exempt"] == ("COLOURLESS", "MULTI-TYPE")
    assert mana.params["zones"] == ("main",) and mana.params["min_count"] == 2


def test_minibattle_ten_cards_level_cap_and_legendary_per_card() -> None:
    mini = game("minibattle")
    assert (mini.zones["main"].minimum, mini.zones["main"].maximum) == (10, 10)
    assert [(c.field, c.cap) for c in mini.sum_caps] == [("level", 200)]
    assert mini.copies is not None and mini.copies.default == 3
    [legendary] = mini.copies.limits
    assert (legendary.source, legendary.limit, legendary.scope) == ("legendary", 1, "card")
    [house] = mini.with_format("one-legendary").copies.limits  # type: ignore[union-attr]
    assert house.scope == "group"


def test_minibattle_boosters() -> None:
    booster = game("minibattle").booster
    assert booster is not None
    assert [(s.count, s.rarity, s.upgrade) for s in booster.slots] == [
        (3, "common", ""), (2, "uncommon", ""), (1, "rare", "super rare")]
    assert (booster.per_day, booster.per_week) == (2, 10)


def test_website_counts_by_name_over_the_main_deck_only() -> None:
    website = game("website")
    assert website.copies is not None
    assert website.copies.identity == "name" and website.copies.zones == ("main",)
    assert website.qualifier_field == "site_type"
    assert website.compatibility["Neutral"] == ("Alan's Site", "APSN", "Neutral")
    assert website.compatibility["APSN"] == ("APSN", "Neutral")


def test_ssq_damage_reading_is_the_worked_example_with_rule_text_as_a_format() -> None:
    ssq = game("ssq")
    assert ssq.deck_game is False
    assert ssq.turn["damage_formula"] == "worked-example"
    assert ssq.with_format("rule-text").turn["damage_formula"] == "rule-text"
    assert ssq.dice["successes"] == {7: 1, 8: 1, 9: 1, 10: 2}
