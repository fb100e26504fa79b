"""Website TCG: what stays in play. A critic won never loses favour; a removal card removes only what its words name
(a card that removes a card "kept in play" never a component or a critic); a card that cannot be removed stays;
Alan-The Programmer protects components, not characters; Natashas stack (the FAQ's 4 on each other). Every card of
the catalogue against every removal card, checked against the rulebook's table of who removes what."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from carddb.core.play.helpers import answer
from carddb.errors import InputError
from tests.core.decks import starter
from tests.test_rulebooks import heading_slugs

GAME, CARDS = starter("website")
REPO = Path(__file__).resolve().parents[2]
ANCHORS = set(heading_slugs((REPO / "rules" / "website" / "rulebook.md").read_text(encoding="utf-8")))


def ask(helper: str, **request):  # type: ignore[no-untyped-def]
    result = answer(GAME, CARDS, helper, request)
    for step in (*result.working, *result.problems):  # every step links a rulebook heading
        assert step.rule.partition("#")[2] in ANCHORS, step
    return result


def site(base: str, *components: str) -> dict:
    return {"base": base, "components": list(components)}


def texts(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.text for s in result.working]


# ------------------------------------------------------------------------------------------------------ favour
def test_a_critic_won_stays_won_when_the_sites_totals_fall() -> None:
    # Webring Judge (15/15/15) was won; a discard left the site with a Guestbook (1/0/1).
    result = ask("favour", critics=["Webring Judge", "Casual Surfer"], sites=[site("Neutral Base Card", "Guestbook")])
    assert result.legal and result.values["points"] == 25 and result.values["lost"] == []
    assert result.summary == ("2 critics won, 25 points: all stay won, though no site meets Webring Judge or Casual "
                              "Surfer now.")
    assert ("Webring Judge (20 points) needs IP 15, GP 15, CP 15: no site meets it now, but a critic won over never "
            "loses favour unless a card says so: it stays won.") in texts(result)
    assert result.working[1].rule == "rules/website/rulebook.md#critics"


def test_a_critic_still_met_and_a_component_whose_requirement_is_no_longer_met() -> None:
    result = ask("favour", critics=["Casual Surfer"], sites=[site("Neutral Base Card", "Site Search"),
                                                             site("Neutral Base Card", "First Edition Site Card: "
                                                                                       "Comics Page")])
    assert result.summary == "1 critic won, 5 points: it stays won."
    assert "Casual Surfer (5 points) needs IP 3, GP 3, CP 3: site 2 still meets it." in texts(result)
    assert ("Site Search needed CP 4 when it was played; it stays in play, as every component does until a card "
            "discards it.") in texts(result)
    assert result.values["kept"] == [{"critic": "Casual Surfer", "points": 5, "met_now": True}]


def test_points_stay_but_a_site_without_components_loses() -> None:
    result = ask("favour", critics=["Web Designer Weekly"], sites=[site("Alan's Site Base Card")])
    assert texts(result)[-1] == "No component is left on any of your sites: your opponent wins, whatever your points."
    assert result.values["points"] == 10


def test_a_limit_one_critic_cannot_be_won_twice() -> None:
    result = ask("favour", critics=["Net Award Committee", "Net Award Committee"],
                 sites=[site("Neutral Base Card", "Guestbook")])
    assert [p.text for p in result.problems] == ["Net Award Committee won 2 times: it is limit one per deck."]
    assert result.problems[0].rule == "rules/website/rulebook.md#limit-one-per-deck"


# ----------------------------------------------------------------------------------------------------- removal
def test_a_kept_in_play_removal_never_removes_a_component_or_a_critic() -> None:
    # The rulebook: "cards that just remove a card 'kept in play' may not be used to remove critic or component cards"
    for target, kind in (("Guestbook", "component"), ("Casual Surfer", "critic")):
        result = ask("remove", removal="Spam Flood", targets=[target])
        assert not result.legal and result.summary == f"Spam Flood cannot remove {target}."
        assert result.problems[0].text == (f"Spam Flood cannot remove {target}: it is a {kind}, and only a card saying "
                                           f"\"discard a {kind} card\" removes it.")
    kept = ask("remove", removal="Spam Flood", targets=["Alan-The Programmer"])
    assert kept.legal and kept.summary == "Spam Flood removes Alan-The Programmer."
    assert texts(kept)[-1] == "Its effects end as it leaves the playing field."


def test_what_a_removal_may_remove() -> None:
    kept = ask("remove", removal="Spam Flood")
    assert kept.summary == "Spam Flood may remove a character kept in play."
    assert kept.values["may"] == ["APSN Moderator", "Alan-The Programmer", "Natasha-The Defender"]
    hacker = ask("remove", removal="Site Hacker")
    assert hacker.summary == "Site Hacker may remove a component or a critic."
    assert "Dedicated Server" not in hacker.values["may"] and "Guestbook" in hacker.values["may"]
    assert texts(hacker)[0] == ('Site Hacker says OR: "discard a component card" OR "discard a critic card"; use one '
                                "of them, never both.")


def test_a_discard_and_what_it_changes() -> None:
    component = ask("remove", removal="Site Hacker", targets=["Guestbook"])
    assert component.legal and texts(component)[-1] == ("Its site loses Guestbook's IP 1, GP 0, CP 1; the critics "
                                                        "already won stay won.")
    critic = ask("remove", removal="Site Hacker", targets=["Webring Judge"])
    assert critic.values["removed"] and texts(critic)[-1].startswith("Reading: Webring Judge's 20 points leave")


def test_impossible_removals_are_problems_with_their_rule() -> None:
    fixed = ask("remove", removal="Site Hacker", targets=["Dedicated Server"])
    assert fixed.problems[0].text == ("Dedicated Server cannot be removed from play by any means: it stays in play "
                                      "until the end of the game.")
    assert fixed.problems[0].rule == "rules/website/rulebook.md#cannot-be-removed-from-play"
    both = ask("remove", removal="Site Hacker", targets=["Guestbook", "Casual Surfer"])
    assert both.problems[0].text == "Site Hacker removes one card, not 2: one of its choices, never both."
    nothing = ask("remove", removal="Alan-Nonprocrastonator", targets=["Guestbook"])
    assert nothing.problems[0].text.startswith("Alan-Nonprocrastonator removes nothing: a removal card must say")
    gone = ask("remove", removal="Spam Flood", targets=["Jack-The Assistant"])
    assert gone.problems[0].text == ("Jack-The Assistant does not say to keep it in play: it is discarded after use, "
                                     "so it is not in play.")
    base = ask("remove", removal="Site Hacker", targets=["Neutral Base Card"])
    assert not base.legal and "no removal the rulebook describes names a base site" in base.problems[0].text


def test_alan_the_programmer_protects_components_not_characters() -> None:
    # The FAQ: Alan-The Programmer protects your components, not your character cards.
    component = ask("remove", removal="Site Hacker", targets=["Guestbook"], programmer=True)
    assert not component.legal and component.problems[0].text.startswith("Alan-The Programmer is in play")
    character = ask("remove", removal="Spam Flood", targets=["Natasha-The Defender"], programmer=True)
    assert character.legal


def test_every_card_against_every_removal() -> None:
    """Brute force: the rulebook's table of who removes what, against each card of the catalogue unprotected."""
    words = {"Site Hacker": {"component", "critic"}, "Spam Flood": {"kept"}}
    for removal in {c.name for c in CARDS if c.kind == "character"}:
        for card in CARDS:
            name = card.key if sum(c.name == card.name for c in CARDS) > 1 else card.name
            result = ask("remove", removal=removal, targets=[name])
            kind = ("kept" if card.get("keep_in_play") else "gone") if card.kind == "character" else card.kind
            expected = kind in words.get(removal, set()) and not card.get("cannot_be_removed")
            assert result.legal == expected == result.values["removed"], (removal, name, result.text())
            assert result.summary == f"{removal} {'removes' if expected else 'cannot remove'} {card.name}."


# ----------------------------------------------------------------------------------------------------- Natasha
def test_the_faqs_four_natashas_on_each_other() -> None:
    result = ask("natasha", target="Guestbook", natashas=4)
    assert result.summary == "Removing Guestbook takes 5 removals: the 4 Natashas from the top down, then Guestbook."
    assert result.values["order"] == ["Natasha-The Defender 4", "Natasha-The Defender 3", "Natasha-The Defender 2",
                                      "Natasha-The Defender 1", "Guestbook"]
    assert texts(result)[1] == ("Natasha-The Defender 2 is played on Natasha-The Defender 1: Natasha-The Defender 1 "
                                "cannot be removed while it stays in play (a Natasha may be played on a Natasha: the "
                                "card is doubly protected).")
    assert texts(result)[4] == ("Removal 1: Natasha-The Defender 4 (the top one, nothing protects it), by a card that "
                                "says to remove a card 'kept in play' (Spam Flood).")
    assert result.working[0].rule == "rules/website/rulebook.md#faq"


def test_a_natasha_protected_card_cannot_be_removed_until_the_natashas_go() -> None:
    result = ask("remove", removal="Site Hacker", targets=["Guestbook"], natashas=2)
    assert result.problems[0].text == ("2 Natasha-The Defenders on Guestbook: it cannot be removed while they stay in "
                                       "play; remove the top Natasha first.")


@pytest.mark.parametrize(("natashas", "programmer"), list(itertools.product(range(9), (False, True))))
def test_removals_needed_for_every_stack(natashas: int, programmer: bool) -> None:
    for target, kind in (("Guestbook", "component"), ("Casual Surfer", "critic"), ("Alan-The Programmer", "kept")):
        result = ask("natasha", target=target, natashas=natashas, programmer=programmer)
        extra = 1 if programmer and kind == "component" else 0
        assert result.legal and result.values["removals"] == natashas + extra + 1 == len(result.values["order"])
        assert result.values["order"][-1] == target
        assert result.values["order"][0] == (f"Natasha-The Defender {natashas}" if natashas else
                                             "Alan-The Programmer" if extra else target)


def test_natasha_on_what_cannot_be_removed_or_is_not_in_play() -> None:
    fixed = ask("natasha", target="Dedicated Server", natashas=2)
    assert fixed.legal and fixed.values["removals"] is None
    assert fixed.summary == "Dedicated Server cannot be removed: the Natashas add nothing."
    too_many = ask("natasha", target="Guestbook", natashas=9)
    assert [p.text for p in too_many.problems] == [
        "9 Natasha-The Defenders: each deck holds at most 4, so no more than 8 can be in play."]
    gone = ask("natasha", target="Alan-Site Master", natashas=1)
    assert not gone.legal and gone.values["removals"] is None


def test_unreadable_requests() -> None:
    with pytest.raises(InputError, match="name the critics you have won over"):
        ask("favour", critics=[], sites=[site("Neutral Base Card")])
    with pytest.raises(InputError, match="natashas must be from 0 to 99, not -1"):
        ask("natasha", target="Guestbook", natashas=-1)
    with pytest.raises(InputError, match="Webring Judge is a critic, not a component"):
        ask("favour", critics=["Casual Surfer"], sites=[site("Neutral Base Card", "Webring Judge")])


# ------------------------------------------------------------------------------------------------ command line
def test_on_the_command_line(cli) -> None:  # type: ignore[no-untyped-def]
    refused = cli("play", "website", "remove", "Site Hacker", "Dedicated Server")
    assert refused.exit_code == 1
    assert "Problem: Dedicated Server cannot be removed from play by any means" in refused.stdout
    stack = cli("play", "website", "natasha", "Guestbook", "--natashas", "4", "--json")
    assert stack.exit_code == 0 and json.loads(stack.stdout)["removals"] == 5
    bad = cli("play", "website", "remove", "Site Hackr", "Guestbook")
    assert bad.exit_code == 2 and bad.stderr.strip().splitlines() == [
        "Error: no removal card called 'Site Hackr' in Website TCG; did you mean 'Site Hacker' or 'Site Search'?"]
    assert bad.stdout == ""


def test_natashas_on_an_opponents_card_and_on_a_limit_one_card() -> None:
    # The FAQ: a Natasha may go on an opponent's card and stays yours; it suits cards limited to one copy.
    result = ask("natasha", target="Net Award Committee", natashas=1, theirs=True)
    assert texts(result)[1:3] == [
        "Played on your opponent's Net Award Committee, the Natashas stay your cards, not theirs (the FAQ).",
        "Net Award Committee is limit one per deck: the Natashas keep its one copy in play (the FAQ)."]
    assert result.values["removals"] == 2
