"""shmod construction rules (games.md): sizes, 4 copies over all zones, LIMITED, the stack, mana, materials."""

from __future__ import annotations

from tests.core.decks import check, codes, filler, only


def deck(main: str = "", main_filler: int = 50, side: str = "", stack: str = "") -> str:
    return f"Main:\n{main}\n{filler('shmod', main_filler)}\nSide:\n{side}\nStack:\n{stack}\n"


def test_a_legal_deck_has_no_problem() -> None:
    assert check("shmod", deck()) == []


def test_main_deck_needs_fifty() -> None:
    problem = only(check("shmod", deck(main_filler=49)), "zone-size")
    assert (problem.zone, problem.count, problem.min, problem.max) == ("main", 49, 50, None)
    assert problem.message == "Main deck has 49 cards; it must have at least 50."


def test_side_deck_empty_or_exactly_fifteen() -> None:
    assert check("shmod", deck(side=filler("shmod", 15, reverse=True))) == []
    problem = only(check("shmod", deck(side=filler("shmod", 14, reverse=True))), "zone-size")
    assert (problem.zone, problem.count, problem.min, problem.max) == ("side", 14, 15, 15)
    assert problem.message == "Side deck has 14 cards; it must be empty or exactly 15."
    assert problem.rule == "rules/shmod/rulebook.md#side-deck"


def test_four_copies_at_most_counted_over_main_and_side() -> None:
    side = "2 Ember Whelp\n" + filler("shmod", 13, reverse=True)
    assert check("shmod", deck("2 Ember Whelp\n2 Cinder Hound", 46, side=side)) == []
    problems = check("shmod", deck("3 Ember Whelp\n1 Cinder Hound", 46, side=side))
    problem = only(problems, "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Ember Whelp", 5, 4, "default")
    assert problem.message == "5 copies of Ember Whelp; at most 4 copies of any card."


def test_limited_cards_one_copy() -> None:
    assert check("shmod", deck("1 Replenish", 49)) == []
    problem = only(check("shmod", deck("2 Replenish", 48)), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Replenish", 2, 1, "LIMITED")
    assert problem.message == "2 copies of Replenish; it is LIMITED: 1 per deck."
    assert problem.rule == "rules/shmod/rulebook.md#limited-cards"


def test_a_deity_monster_is_limited() -> None:
    problems = check("shmod", deck("2 Pyrelord Ignatius\n2 Ember Whelp", 46))
    problem = only(problems, "copy-limit")
    assert (problem.card, problem.limit, problem.source) == ("Pyrelord Ignatius", 1, "LIMITED")


def test_fusion_deity_is_exempt_from_limited_not_from_four() -> None:
    materials = "1 Pyrelord Ignatius\n1 Abyssal Leviathan\n3 Tidepool Sprite\n3 Ember Whelp"
    assert check("shmod", deck(materials, 42, stack="2 Primordial Wyrm")) == []
    problem = only(check("shmod", deck(materials, 42, stack="5 Primordial Wyrm")), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Primordial Wyrm", 5, 4, "default")


def test_fusion_monster_in_main_is_wrong_zone_and_anything_else_in_stack() -> None:
    problems = check("shmod", deck("1 Steam Titan\n2 Cinder Hound\n2 Reef Lancer", 46, stack="1 Halo Knight"))
    assert codes(problems) == ["wrong-zone", "wrong-zone"]
    titan, knight = problems
    assert (titan.card, titan.zone) == ("Steam Titan", "main")
    assert titan.message == ("Steam Titan is a monster card and cannot be in the Main deck; it belongs in the "
                             "Fusion/Transformation Stack.")
    assert (knight.card, knight.zone) == ("Halo Knight", "stack")


def test_open_stack_house_format_takes_fusions_in_main() -> None:
    text = deck("1 Steam Titan\n2 Cinder Hound\n2 Reef Lancer", 45)
    assert check("shmod", text, format_id="open-stack") == []


def test_a_lone_monster_of_a_type_gets_a_mana_warning() -> None:
    problem = only(check("shmod", deck("1 Gale Sparrow", 49)), "mana-type")
    assert (problem.severity, problem.card, problem.count, problem.min) == ("warning", "Gale Sparrow", 1, 2)
    assert problem.message == ("Gale Sparrow is STORM, but the deck holds only 1 STORM card: it needs 2 (itself "
                               "and one more to charge as STORM mana).")
    assert check("shmod", deck("1 Gale Sparrow\n1 Thunderhead Roc", 48)) == []


def test_colourless_multi_type_and_stack_monsters_need_no_mana_type() -> None:
    assert check("shmod", deck("1 Prism Chimera", 49)) == []
    both = "1 Thunderhead Roc\n1 Gale Sparrow"
    assert check("shmod", deck(both, 48, stack="1 Vortex Wyvern")) == []


def test_fusion_material_missing_is_a_warning() -> None:
    problem = only(check("shmod", deck(stack="1 Vortex Wyvern")), "fusion-material")
    assert (problem.severity, problem.card, problem.zone) == ("warning", "Vortex Wyvern", "stack")
    assert problem.message == ("Vortex Wyvern needs Thunderhead Roc and Gale Sparrow in the Main deck; missing: "
                               "Thunderhead Roc and Gale Sparrow.")
