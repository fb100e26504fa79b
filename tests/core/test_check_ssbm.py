"""ssbm construction rules (games.md): zones, deck limits, Mario's extra, character symbols."""

from __future__ import annotations

from tests.core.decks import check, codes, filler, only


def mario(main: str, total_filler: int) -> str:
    return f"Character:\n1 Mario\nDeck:\n{main}\n{filler('ssbm', total_filler)}"


def test_a_legal_deck_has_no_problem() -> None:
    assert check("ssbm", mario("", 60)) == []


def test_power_block_five_copies_is_its_deck_limit() -> None:
    assert check("ssbm", mario("5 Power Block", 55)) == []


def test_power_block_six_copies_is_over_its_deck_limit() -> None:
    problem = only(check("ssbm", mario("6 Power Block", 55)), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Power Block", 6, 5, "deck limit")
    assert problem.message == "6 copies of Power Block; its deck limit is 5."
    assert (problem.severity, problem.zone, problem.line) == ("error", "main", 4)
    assert problem.rule == "rules/ssbm/rulebook.md#deck-limit"


def test_marios_extra_allows_a_fourth_mushroom() -> None:
    assert check("ssbm", mario("4 Mushroom\n3 Fire Flower\n3 Metal Box", 50)) == []


def test_marios_extra_is_named_when_a_fifth_mushroom_breaks_it() -> None:
    problem = only(check("ssbm", mario("5 Mushroom", 55)), "copy-limit")
    assert (problem.card, problem.count, problem.limit) == ("Mushroom", 5, 4)
    assert problem.source == "deck limit + Mario's extra"
    assert problem.message == ("5 copies of Mushroom; its deck limit is 3, and Mario's extra allows one more "
                               "Mushroom: limit 4.")


def test_without_mario_a_fourth_mushroom_is_over_the_limit() -> None:
    problem = only(check("ssbm", f"Character:\n1 Link\nDeck:\n4 Mushroom\n{filler('ssbm', 56)}"), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Mushroom", 4, 3, "deck limit")


def test_copies_on_several_lines_add_up() -> None:
    problem = only(check("ssbm", mario("3 Power Block\n3 power block", 54)), "copy-limit")
    assert (problem.count, problem.line) == (6, 4)


def test_super_cape_in_marios_deck_is_legal() -> None:
    assert check("ssbm", mario("2 Super Cape", 58)) == []


def test_super_cape_only_for_mario() -> None:
    problem = only(check("ssbm", f"Character:\n1 Pikachu\nDeck:\n2 Super Cape\n{filler('ssbm', 58)}"),
                   "character-only")
    assert (problem.card, problem.count, problem.severity) == ("Super Cape", 2, "error")
    assert problem.message == "Super Cape bears Mario's symbol: it may only be in Mario's deck, and this is " \
                              "Pikachu's deck."


def test_links_boomerang_not_in_a_pikachu_deck() -> None:
    problems = check("ssbm", f"Character:\n1 Pikachu\nDeck:\n1 Link's Boomerang\n{filler('ssbm', 59)}")
    assert only(problems, "character-only").card == "Link's Boomerang"


def test_the_generic_taunt_may_be_in_any_deck() -> None:
    assert check("ssbm", f"Character:\n1 Pikachu\nDeck:\n4 Taunt\n{filler('ssbm', 56, skip=('Taunt',))}") == []


def test_main_deck_of_59_is_too_small_and_81_too_big() -> None:
    small = only(check("ssbm", mario("", 59)), "zone-size")
    assert (small.zone, small.count, small.min, small.max) == ("main", 59, 60, 80)
    assert small.message == "Deck has 59 cards; it must have 60 to 80."
    big = check("ssbm", mario("5 Power Block\n3 Mushroom\n2 Fire Flower\n2 Metal Box\n2 Super Mushroom", 67))
    assert only(big, "zone-size").count == 81


def test_eighty_cards_is_legal() -> None:
    assert check("ssbm", mario("5 Power Block\n3 Mushroom\n2 Fire Flower\n2 Metal Box\n2 Super Mushroom", 66)) == []


def test_exactly_one_character() -> None:
    none = only(check("ssbm", f"Deck:\n{filler('ssbm', 60)}"), "zone-size")
    assert (none.zone, none.count, none.min, none.max) == ("character", 0, 1, 1)
    two = check("ssbm", f"Character:\n1 Mario\n1 Link\nDeck:\n{filler('ssbm', 60)}")
    assert codes(two) == ["zone-size"]


def test_a_character_in_the_main_deck_is_in_the_wrong_zone() -> None:
    problem = only(check("ssbm", mario("1 Link", 60)), "wrong-zone")
    assert (problem.card, problem.zone, problem.line) == ("Link", "main", 4)
    assert problem.message == "Link is a character card and cannot be in the Deck; it belongs in the Character."


def test_names_match_ignoring_case_space_and_curly_apostrophes() -> None:
    deck = f"Character:\n1 ness\nDeck:\n3   ness’  psi magnet\n{filler('ssbm', 57)}"
    assert check("ssbm", deck) == []


def test_an_unknown_card_gets_close_suggestions() -> None:
    problem = only(check("ssbm", mario("1 Powr Block", 60)), "unknown-card")
    assert problem.suggestions == ("Power Block", "Block")
    assert (problem.card, problem.line, problem.count) == ("Powr Block", 4, 1)
    assert problem.message == ("No card called 'Powr Block' in Super Smash Bros. Melee CCG. Did you mean Power Block "
                               "or Block?")
