"""minibattle construction rules (games.md): 10 cards, level cap 200, 3 copies, legendaries, basics, lines."""

from __future__ import annotations

from tests.core.decks import check, codes, filler, only


def test_a_legal_deck_has_no_problem() -> None:
    assert check("minibattle", filler("minibattle", 10)) == []


def test_exactly_ten_cards() -> None:
    problem = only(check("minibattle", filler("minibattle", 11)), "zone-size")
    assert (problem.count, problem.min, problem.max) == (11, 10, 10)
    assert problem.message == "Deck has 11 cards; it must have exactly 10."
    assert codes(check("minibattle", filler("minibattle", 9))) == ["zone-size"]


def test_level_cap_two_hundred() -> None:
    at_cap = "1 Mewtwo\n1 Lugia\n1 Pikachu\n3 Pichu\n2 Magnemite\n2 Elekid"  # 70+70+15+15+20+10 = 200
    assert check("minibattle", at_cap) == []
    over = "1 Mewtwo\n1 Lugia\n1 Moltres\n1 Pikachu\n3 Pichu\n3 Magnemite"  # 70+70+50+15+15+30 = 250
    problem = only(check("minibattle", over), "level-cap")
    assert (problem.count, problem.limit, problem.zone, problem.card) == (250, 200, "main", None)
    assert problem.message == "The deck's total Level is 250; it may be at most 200."


def test_three_copies_of_a_card() -> None:
    problem = only(check("minibattle", "4 Charmander\n" + filler("minibattle", 6)), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Charmander", 4, 3, "default")


def test_one_of_each_legendary() -> None:
    assert check("minibattle", "1 Moltres\n1 Zapdos\n" + filler("minibattle", 8)) == []
    problem = only(check("minibattle", "2 Moltres\n" + filler("minibattle", 8)), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Moltres", 2, 1, "legendary")
    assert problem.message == "2 copies of Moltres; it is legendary: 1 per deck."


def test_one_legendary_format_counts_legendaries_together() -> None:
    problem = only(check("minibattle", "1 Moltres\n1 Zapdos\n" + filler("minibattle", 8),
                         format_id="one-legendary"), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == (None, 2, 1, "legendary")
    assert problem.message == "2 legendary cards in the deck (Moltres, Zapdos); this format allows 1 in all."


def test_no_basic_or_baby_pokemon() -> None:
    problem = only(check("minibattle", "3 Charmeleon\n3 Wartortle\n3 Ivysaur\n1 Metapod"), "no-basic")
    assert (problem.severity, problem.card, problem.zone) == ("error", None, "main")
    assert problem.message == "The deck has no Basic or Baby Pokemon, so no opening hand is ever legal."
    assert check("minibattle", "3 Pichu\n3 Elekid\n3 Magby\n1 Cleffa") == []


def test_an_evolution_without_its_line_is_a_warning() -> None:
    problem = only(check("minibattle", "1 Charizard\n1 Charmander\n" + filler("minibattle", 8)), "evolution-line")
    assert (problem.severity, problem.card, problem.line) == ("warning", "Charizard", 1)
    assert problem.message == "Charizard evolves from Charmeleon, which is not in the deck: it can never be played."
    assert check("minibattle", "1 Charizard\n1 Charmeleon\n1 Charmander\n" + filler("minibattle", 7)) == []


def test_the_chain_is_followed_to_the_basic() -> None:
    problems = check("minibattle", "1 Charizard\n1 Charmeleon\n" + filler("minibattle", 8))
    assert [p.message for p in problems] == [
        "Charizard evolves from Charmeleon, which evolves from Charmander, which is not in the deck: it can never "
        "be played.",
        "Charmeleon evolves from Charmander, which is not in the deck: it can never be played."]


def test_a_basic_that_evolves_from_a_baby_is_playable_alone() -> None:
    assert check("minibattle", "1 Pikachu\n1 Raichu\n" + filler("minibattle", 8)) == []
