"""Website TCG at the table: one component of each name (either Splash Page, not both), types matching, totals,
critics looking at one site (the rulebook's 5/5/5 and 10/10/10 against 15/15/15), Kathleen's 10 short of each,
winning, setup and a turn."""

from __future__ import annotations

import pytest

from carddb.core.play.helpers import answer
from carddb.errors import InputError
from tests.core.decks import starter

GAME, CARDS = starter("website")


def ask(helper: str, **request):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, helper, request)


def site(base: str, *components: str) -> dict:
    return {"base": base, "components": list(components)}


def test_totals_and_one_component_of_each_name() -> None:
    result = ask("site", site=site("Neutral Base Card", "Splash Page (Neutral)", "Guestbook",
                                   "Splash Page (Alan's Site)"))
    assert result.values["totals"] == {"ip": 2, "gp": 2, "cp": 1}
    assert result.working[0].text == "Neutral Base Card: IP 1 + 1 = 2; GP 2 + 0 = 2; CP 0 + 1 = 1."
    assert result.problems[0].text == ("Neutral Base Card already holds Splash Page (Neutral): a site holds one "
                                       "component of each name, so Splash Page (Alan's Site) cannot join it.")


def test_types_must_fit_the_base() -> None:
    result = ask("site", site=site("Alan's Site Base Card", "APSN Forum", "Guestbook", "Message Board"))
    assert [p.text for p in result.problems][:1] == [
        "APSN Forum is an APSN component: it does not fit Alan's Site Base Card (Alan's Site)."]
    assert ask("site", site=site("Neutral Base Card", "APSN Forum", "Message Board")).values["totals"] == {
        "ip": 4, "gp": 2, "cp": 6}  # a Neutral base takes every type


def test_requirements_when_played_and_required_cards() -> None:
    # Chat Room first: Message Board is not on the site yet (Site Search's CP 4 is met by Chat Room's 4).
    result = ask("site", site=site("Alan's Site Base Card", "Chat Room", "Site Search", "Message Board"))
    assert [p.text for p in result.problems] == ["Chat Room needs Message Board already on one of your sites."]
    in_order = ask("site", site=site("Alan's Site Base Card", "Guestbook", "Hit Counter", "Message Board", "Chat Room"))
    assert [p.text for p in in_order.problems] == ["Message Board needs CP 3 (the site had 2) when it is played."]
    ready = ask("site", site=site("Alan's Site Base Card", "Site Card: Comics Page", "Guestbook", "Hit Counter",
                               "Message Board", "Chat Room"))
    assert ready.legal and ready.values["totals"] == {"ip": 7, "gp": 4, "cp": 10}


def test_critics_won_over() -> None:
    result = ask("critics", sites=[site("Alan's Site Base Card", "Splash Page (Alan's Site)", "Guestbook",
                                        "Hit Counter", "Links Page", "First Edition Site Card: Comics Page")])
    assert result.values["won"] == [{"critic": "APSN Reviewer", "points": 10}, {"critic": "Casual Surfer", "points": 5},
                                    {"critic": "Web Designer Weekly", "points": 10}]
    assert result.values["points"] == 25
    assert "Graphics Guru needs IP 5, GP 20, CP 5: Alan's Site Base Card is short GP 6." in [s.text for s in
                                                                                               result.working]


def test_a_critic_looks_at_one_site_only() -> None:
    # The rulebook's example (5/5/5 and 10/10/10 against 15/15/15), with the sample cards: one site at 7/6/5, the
    # other at 10/10/10; Webring Judge needs 15/15/15, which the sites meet together and neither meets alone.
    small = site("Neutral Base Card", "Site Card: Comics Page", "Site Card: Downloads Page", "Site Card: Games Page",
                 "Links Page", "Hit Counter", "Guestbook", "Splash Page (Neutral)")
    big = site("Neutral Base Card", "First Edition Site Card: Comics Page")
    result = ask("critics", sites=[small, big])
    assert [s["totals"] for s in result.values["sites"]] == [{"ip": 7, "gp": 6, "cp": 5},
                                                              {"ip": 10, "gp": 10, "cp": 10}]
    assert "Webring Judge" in result.values["not_won"]
    assert ("Webring Judge needs IP 15, GP 15, CP 15: your sites meet it together but no one of them does, and a "
            "critic looks at one site only.") in [s.text for s in result.working]


def test_kathleen_covers_10_short_of_each() -> None:
    sites = [site("Alan's Site Base Card", "Splash Page (Alan's Site)", "Guestbook", "Hit Counter")]  # 3/4/3
    assert ask("critics", sites=sites).values["points"] == 5  # Casual Surfer alone
    helped = ask("critics", sites=sites, short=10)
    assert {"critic": "Web Designer Weekly", "points": 10} in helped.values["won"]  # 10/5/5: 7, 1 and 2 short
    missing = ask("missing", critic="Graphics Guru", sites=sites, short=10)
    assert missing.values["missing"] == {"ip": 0, "gp": 6, "cp": 0}
    assert missing.summary == "Graphics Guru still needs 6 GP on Alan's Site Base Card."


def test_missing_for_a_named_critic_picks_the_closest_site() -> None:
    result = ask("missing", critic="Casual Surfer", sites=[site("Neutral Base Card", "Guestbook"),
                                                           site("Neutral Base Card", "Splash Page (Neutral)",
                                                                "Hit Counter", "Links Page", "Guestbook")])
    assert result.values["site"] == 2 and result.values["missing"] == {"ip": 0, "gp": 0, "cp": 1}


def test_winning() -> None:
    assert ask("win", points=95, critics=["Casual Surfer"]).values["winner"] == "you"
    assert ask("win", points=99).values["winner"] is None
    assert ask("win", opponent_components=0).values["winner"] == "you"
    deck = ask("win", opponent_deck=0, turn_starts="opponent")
    assert deck.working[0].text == "Your opponent has no cards in the deck at the start of the turn: you win."
    assert ask("win", opponent_deck=0, turn_starts="you").values["winner"] is None
    assert ask("win", components=0).values["winner"] == "your opponent"


def test_setup() -> None:
    result = ask("setup", base="APSN Base Card", top=["Guestbook", "Casual Surfer", "Message Board", "Guestbook",
                                                      "APSN Forum"])
    assert result.values["attached"] == ["Guestbook", "APSN Forum"]
    assert result.values["back"] == ["Casual Surfer", "Message Board", "Guestbook"]
    none = ask("setup", base="APSN Base Card", top=["Casual Surfer", "Spam Flood", "Message Board", "Site Hacker",
                                                    "Jack-The Assistant"])
    assert none.values["again"] and none.summary == "No component: shuffle and draw 5 again."


def test_a_turn() -> None:
    result = ask("turn", base_sites=["APSN Base Card", "Neutral Base Card"], searches=1)
    assert result.problems[0].text == "Neutral Base Card: only 1 base site may be played from the hand a turn."
    assert any("shuffle the deck" in s.text for s in result.working)


def test_bad_input() -> None:
    with pytest.raises(InputError, match="2 cards are called 'Splash Page'; write one of: Splash Page \\(Neutral\\), "
                                         "Splash Page \\(Alan's Site\\)"):
        ask("site", site=site("Neutral Base Card", "Splash Page"))
    with pytest.raises(InputError, match="Casual Surfer is a critic, not a component"):
        ask("site", site=site("Neutral Base Card", "Casual Surfer"))
    with pytest.raises(InputError, match="describe at least one site"):
        ask("critics", sites=[])
