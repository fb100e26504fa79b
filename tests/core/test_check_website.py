"""website construction rules (games.md): base site, 60 cards, 4 of a name, limit one, site types."""

from __future__ import annotations

from tests.core.decks import check, codes, filler, only

ALAN = "Base:\n1 Alan's Site Base Card\nDeck:\n"


def test_a_legal_deck_has_no_problem() -> None:
    assert check("website", ALAN + filler("website", 60)) == []


def test_two_neutral_and_two_alans_splash_pages_are_four() -> None:
    assert check("website", ALAN + "2 Splash Page (Neutral)\n2 Splash Page [Alan's Site]\n" +
                 filler("website", 56)) == []


def test_two_neutral_and_three_alans_splash_pages_are_five_copies() -> None:
    problems = check("website", ALAN + "2 Splash Page (Neutral)\n3 Splash Page (Alan's Site)\n" +
                     filler("website", 55))
    problem = only(problems, "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Splash Page", 5, 4, "default")
    assert problem.message == "5 copies of Splash Page; at most 4 copies of any card."


def test_the_starting_base_site_counts_towards_neither_the_four_nor_the_sixty() -> None:
    text = "Base:\n1 Neutral Base Card\nDeck:\n4 Neutral Base Card\n" + filler("website", 56)
    assert check("website", text) == []


def test_limit_one_per_deck() -> None:
    problem = only(check("website", ALAN + "2 Dedicated Server\n" + filler("website", 58)), "copy-limit")
    assert (problem.card, problem.count, problem.limit, problem.source) == ("Dedicated Server", 2, 1, "limit-one")
    assert problem.message == "2 copies of Dedicated Server; it is limit one per deck."
    assert check("website", ALAN + "1 Dedicated Server\n" + filler("website", 59)) == []


def test_a_shared_name_needs_a_qualifier() -> None:
    problem = only(check("website", ALAN + "2 Splash Page\n" + filler("website", 58)), "ambiguous-card")
    assert problem.suggestions == ("Splash Page (Neutral)", "Splash Page (Alan's Site)")
    assert (problem.card, problem.line, problem.count) == ("Splash Page", 4, 2)
    assert problem.message == ("Several cards are called Splash Page: Splash Page (Neutral), Splash Page "
                               "(Alan's Site). Say which, e.g. '2 Splash Page (Neutral)'.")


def test_a_qualifier_that_matches_no_version() -> None:
    problem = only(check("website", ALAN + "1 Splash Page (APSN)\n" + filler("website", 59)), "unknown-card")
    assert problem.suggestions == ("Splash Page (Neutral)", "Splash Page (Alan's Site)")


def test_sizes_of_the_base_and_the_deck() -> None:
    problem = only(check("website", ALAN + filler("website", 59)), "zone-size")
    assert (problem.zone, problem.count, problem.min, problem.max) == ("main", 59, 60, 60)
    none = check("website", "Deck:\n" + filler("website", 60))
    assert codes(none) == ["zone-size"] and none[0].zone == "base"


def test_a_component_fitting_no_base_site() -> None:
    problem = only(check("website", ALAN + "2 APSN Forum\n" + filler("website", 58)), "site-type")
    assert (problem.severity, problem.card, problem.count) == ("warning", "APSN Forum (APSN)", 2)
    assert problem.message == ("APSN Forum (APSN) is an APSN component and fits none of the deck's base sites "
                               "(Alan's Site); it attaches to APSN or Neutral bases.")
    # A base site in the main deck counts for fitting.
    assert check("website", ALAN + "2 APSN Forum\n1 APSN Base Card\n" + filler("website", 57)) == []


def test_no_component_fits_the_starting_base() -> None:
    apsn = "Base:\n1 APSN Base Card\nDeck:\n"
    alan_only = "\n".join(f"4 {name}" for name in (
        "Message Board", "Animated Banner", "Custom Graphics", "Splash Page (Alan's Site)", "Alan-Site Master",
        "Alan-Nonprocrastonator", "Natasha-The Defender", "Alan-The Programmer", "Kathleen-The Helper",
        "Jack-The Assistant", "Shannon-Truth or Dare Master", "Casual Surfer", "Web Designer Weekly",
        "Graphics Guru", "Code Reviewer"))
    problems = check("website", apsn + alan_only)
    problem = only(problems, "no-component")
    assert (problem.severity, problem.card, problem.zone) == ("error", None, "main")
    assert problem.message == ("No component in the deck can attach to the starting base site APSN Base Card "
                               "(APSN), and setup needs one.")
    assert codes(problems).count("site-type") == 4


def test_a_component_needing_a_card_in_play() -> None:
    problem = only(check("website", ALAN + "1 Chat Room\n" + filler("website", 59)), "requires-card")
    assert (problem.severity, problem.card) == ("warning", "Chat Room (Alan's Site)")
    assert problem.message == ("Chat Room (Alan's Site) needs Message Board in play, and the deck holds no "
                               "Message Board.")
    assert check("website", ALAN + "1 Chat Room\n1 Message Board\n" + filler("website", 58)) == []


def test_not_owned_against_a_collection() -> None:
    owned = {"Guestbook (Neutral)": 2}
    problems = check("website", ALAN + filler("website", 60), collection=owned, collection_name="alan")
    guestbook = next(p for p in problems if p.card == "Guestbook (Neutral)")
    assert (guestbook.code, guestbook.count, guestbook.limit, guestbook.source) == ("not-owned", 4, 2,
                                                                                   "collection alan")
    assert guestbook.message == "4 copies of Guestbook (Neutral) in the deck; the collection 'alan' holds 2."
    assert {p.code for p in problems} == {"not-owned"}
