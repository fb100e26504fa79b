"""Mini-Battle knock-outs and victory as a player asks them: the rulebook's own sentences ("discarded along with
any pre-evolved forms under it", "send up one of them", "no Pokemon in play", Evolution Healer) answered exactly,
every evolution line of the catalogue knocked out by brute force, and impossible positions refused with their
rule."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from carddb.core.play.helpers import Answer, answer
from carddb.errors import InputError, NotFoundError
from tests.core.decks import starter

GAME, CARDS = starter("minibattle")
BY_NAME = {c.name: c for c in CARDS}
RULES = "rules/minibattle/rulebook.md#"


def row(stack: str, damage: int = 0, waiting: bool = False) -> dict[str, Any]:
    """``Bulbasaur/Ivysaur`` (from the bottom up) as the request's row."""
    names = stack.split("/")
    return {"card": names[-1], "under": names[-2::-1], "damage": damage, "waiting": waiting}


def ko(attacker: str, target: str, damage: int, yours: list[dict[str, Any]], theirs: list[dict[str, Any]],
       send_up: str = "") -> Answer:
    return answer(GAME, CARDS, "knockout", {"attacker": attacker, "target": target, "damage": damage,
                                            "yours": yours, "theirs": theirs, "send_up": send_up})


def problems(found: Answer) -> list[tuple[str, str]]:
    return [(p.text, p.rule.removeprefix(RULES)) for p in found.problems]


# ------------------------------------------------------------------------------------- the rulebook's rules
def test_a_knocked_out_pokemon_is_discarded_with_every_pre_evolved_form_under_it() -> None:
    found = ko("Blastoise", "Charizard", 20, [row("Squirtle/Wartortle/Blastoise")],
               [row("Charmander/Charmeleon/Charizard", 70), row("Eevee")])
    assert found.legal and found.values["knocked_out"] == ["Charizard"]
    assert found.values["discarded"] == ["Charizard", "Charmeleon", "Charmander"]
    assert found.working[1].text == ("Charizard's HP is 0 or less: it is knocked out. Discard Charizard and the 2 "
                                     "pre-evolved forms under it, Charmeleon and Charmander (3 cards).")
    assert found.working[1].rule == RULES + "battle"


def test_hp_reduced_to_exactly_0_is_a_knock_out_and_1_is_not() -> None:
    out = ko("Charmander", "Squirtle", 5, [row("Charmander")], [row("Squirtle", 30), row("Eevee")])
    assert out.values["knocked_out"] == ["Squirtle"] and out.values["hp_left"]["target"] == 0
    stays = ko("Charmander", "Squirtle", 4, [row("Charmander")], [row("Squirtle", 30)])
    assert stays.values["knocked_out"] == [] and stays.summary == ("Squirtle is not knocked out (1 HP left). "
                                                                   "The game goes on.")
    assert stays.values["winner"] is None


def test_the_owner_sends_up_one_of_their_waiting_pokemon() -> None:
    theirs = [row("Bulbasaur/Ivysaur", 52), row("Squirtle", waiting=True), row("Pichu/Pikachu", waiting=True)]
    open_choice = ko("Charmeleon", "Ivysaur", 9, [row("Charmander/Charmeleon")], theirs)
    assert open_choice.summary == ("Ivysaur is knocked out (2 cards discarded); your opponent sends up Squirtle or "
                                   "Pikachu. The game goes on.")
    assert open_choice.values["send_up"] == {"opponent": {"choices": ["Squirtle", "Pikachu"], "chosen": None}}
    chosen = ko("Charmeleon", "Ivysaur", 9, [row("Charmander/Charmeleon")], theirs, send_up="pikachu")
    assert chosen.legal and chosen.values["send_up"]["opponent"]["chosen"] == "Pikachu"
    assert "Your opponent sends up Pikachu to take Ivysaur's place, at once" in chosen.working[-1].text
    not_waiting = ko("Charmeleon", "Ivysaur", 9, [row("Charmander/Charmeleon")], theirs, send_up="Eevee")
    assert problems(not_waiting) == [("Eevee is not one of your opponent's Waiting Pokemon (Squirtle, Pikachu), so "
                                      "it cannot be sent up.", "battle")]


def test_with_no_waiting_pokemon_the_place_stays_empty_and_the_game_goes_on() -> None:
    found = ko("Charmander", "Squirtle", 35, [row("Charmander")], [row("Squirtle"), row("Eevee")])
    assert found.working[-1].text == ("Your opponent has no Waiting Pokemon: Squirtle's place stays empty, and Eevee "
                                      "battles on.")
    assert found.values["winner"] is None and found.summary.endswith("The game goes on.")


def test_you_win_when_your_opponent_has_no_pokemon_in_play() -> None:
    found = ko("Charizard", "Pikachu", 14, [row("Charmander/Charmeleon/Charizard")], [row("Pichu/Pikachu", 30)])
    assert found.summary == "Pikachu is knocked out (2 cards discarded). You win: your opponent has no Pokemon in play."
    assert found.values["winner"] == "you" and found.working[-1].rule == RULES + "victory"
    # A Waiting Pokemon is in play: it keeps the game going.
    waiting = ko("Charizard", "Pikachu", 14, [row("Charmander/Charmeleon/Charizard")],
                 [row("Pichu/Pikachu", 30), row("Eevee", waiting=True)])
    assert waiting.values["winner"] is None


def test_dmg_reflect_knocks_out_the_attacker_a_draw_or_a_loss() -> None:
    draw = ko("Raichu", "Magneton", 12, [row("Pichu/Pikachu/Raichu", 53)], [row("Magnemite/Magneton", 40)])
    assert draw.values["winner"] == "draw" and draw.values["knocked_out"] == ["Magneton", "Raichu"]
    assert draw.summary.endswith("A draw: neither side has a Pokemon in play.")
    lost = ko("Raichu", "Magneton", 1, [row("Pichu/Pikachu/Raichu", 53)], [row("Magnemite/Magneton")])
    assert lost.values["winner"] == "opponent" and lost.values["knocked_out"] == ["Raichu"]
    assert lost.summary == ("Magneton is not knocked out (49 HP left). Raichu is knocked out (3 cards discarded). "
                            "Your opponent wins: you have no Pokemon in play.")
    # No damage, no reflect.
    nothing = ko("Raichu", "Magneton", 0, [row("Pichu/Pikachu/Raichu", 53)], [row("Magnemite/Magneton")])
    assert nothing.values["knocked_out"] == [] and nothing.values["hp_left"]["attacker"] == 2
    # Your own Waiting Pokemon comes up, your choice.
    kept = ko("Raichu", "Magneton", 1, [row("Pichu/Pikachu/Raichu", 53), row("Eevee", waiting=True)],
              [row("Magnemite/Magneton")])
    assert kept.values["winner"] is None and kept.values["send_up"] == {"you": {"choices": ["Eevee"], "chosen": None}}


def test_evolution_healer_does_not_save_a_pokemon_from_a_knock_out() -> None:
    found = ko("Charizard", "Pikachu", 40, [row("Charmander/Charmeleon/Charizard")],
               [row("Pichu/Pikachu"), row("Eevee")])
    assert "Pichu's Evolution Healer removes damage only when it evolves: it cannot save Pikachu, and Pichu is " \
           "discarded with the rest." in [s.text for s in found.working]
    assert found.values["discarded"] == ["Pikachu", "Pichu"]


def test_evolving_keeps_the_damage_unless_the_evolving_card_has_evolution_healer() -> None:
    healed = answer(GAME, CARDS, "evolve", {"pokemon": {"card": "Pichu", "damage": 12}, "into": "Pikachu"})
    assert healed.summary == "Pichu evolves into Pikachu with 35 HP (Evolution Healer removed 12 damage)."
    assert healed.values["healed"] == 12 and healed.working[1].rule == RULES + "special-abilities"
    kept = answer(GAME, CARDS, "evolve", {"pokemon": {"card": "Charmeleon", "under": ["Charmander"], "damage": 20},
                                          "into": "Charizard"})
    assert kept.summary == "Charmeleon evolves into Charizard with 65 HP (its 20 damage stays)."
    assert kept.values["stack"] == ["Charizard", "Charmeleon", "Charmander"]
    # The Baby's Healer is under Pikachu now: Pikachu evolving into Raichu keeps its damage.
    later = answer(GAME, CARDS, "evolve", {"pokemon": {"card": "Pikachu", "under": ["Pichu"], "damage": 10},
                                           "into": "Raichu"})
    assert later.values == {**later.values, "damage": 10, "hp_left": 45, "healed": 0}


def test_an_evolution_must_match_and_wait_a_turn() -> None:
    wrong = answer(GAME, CARDS, "evolve", {"pokemon": {"card": "Charmander"}, "into": "Wartortle", "new": True})
    assert problems(wrong) == [
        ("Wartortle evolves from Squirtle, not from Charmander: an evolved Pokemon is played on top of its matching "
         "pre-evolved Pokemon.", "evolution"),
        ("Charmander was played this turn: a Pokemon cannot evolve the turn it is played.", "evolution")]


# ------------------------------------------------------------------------------------------------ brute force
def lines() -> list[list[str]]:
    """Every stack the catalogue allows: each Pokemon with the chain of its pre-evolved forms down to a basic."""
    found = []
    for card in CARDS:
        chain, top = [card.name], card
        while top.get("stage") not in ("basic", "baby"):
            top = BY_NAME[top.get("evolves_from")]
            chain.append(top.name)
        found.append(chain)
        if card.get("stage") == "basic" and card.get("evolves_from"):  # a Basic on its Baby, too
            found.append([card.name, card.get("evolves_from")])
    return found


@pytest.mark.parametrize("others", list(itertools.product((0, 1), (0, 1, 2))), ids=lambda o: f"battling{o[0]}"
                         f"-waiting{o[1]}")
def test_every_stack_of_the_catalogue_knocked_out(others: tuple[int, int]) -> None:
    """For every stack, damage around its HP and every count of other Pokemon: knocked out exactly when the damage
    reaches the HP left, the whole stack discarded, a win exactly when nothing is left in play."""
    battling, waiting = others
    rest = [row("Eevee")] * battling + [row("Squirtle", waiting=True)] * waiting
    for chain in lines():
        hp = BY_NAME[chain[0]].get("hp")
        for already, damage in ((0, hp - 1), (0, hp), (hp - 1, 1), (hp - 1, 0), (hp // 2, hp)):
            theirs = [{"card": chain[0], "under": chain[1:], "damage": already, "waiting": False}, *rest]
            found = ko("Mewtwo", chain[0], damage, [row("Mewtwo")], theirs)
            out = already + damage >= hp
            assert found.legal, (chain, found.problems)
            assert found.values["discarded"] == (chain if out else [])
            assert found.values["winner"] == ("you" if out and not rest else None)
            assert found.values.get("send_up", {}).get("opponent", {}).get("choices", []) == \
                (["Squirtle"] * waiting if out else [])


# --------------------------------------------------------------------------------------- impossible positions
@pytest.mark.parametrize(("yours", "theirs", "target", "expected"), [
    ([row("Charmander/Charmeleon")], [row("Bulbasaur/Ivysaur")], "Venusaur",
     [("Venusaur is not in play on your opponent's side (Ivysaur): only a Battling Pokemon in play may be attacked, "
       "so it cannot be knocked out.", "battling-and-waiting-pokemon")]),
    ([row("Charmander/Charmeleon")], [row("Bulbasaur/Ivysaur")], "Bulbasaur",
     [("Bulbasaur is under your opponent's Ivysaur: only the card on top is a Pokemon in play, and only a Battling "
       "Pokemon in play may be attacked.", "evolution")]),
    ([row("Charmander/Charmeleon")], [row("Ivysaur"), row("Squirtle", waiting=True)], "Squirtle",
     [("Ivysaur is stage 1: it is in play only on top of Bulbasaur, which must be under it.", "evolution"),
      ("Your opponent's Squirtle is Waiting: only Battling Pokemon may be attacked.", "battling-and-waiting-pokemon")]),
    ([row("Charmander/Charmeleon"), row("Eevee"), row("Pidgey")], [row("Squirtle/Ivysaur", 60)], "Ivysaur",
     [("You have 3 Battling Pokemon (Charmeleon, Eevee, Pidgey): at most 2; the others are Waiting.",
       "battling-and-waiting-pokemon"),
      ("Squirtle cannot be under Ivysaur: Ivysaur evolves from Bulbasaur, and an evolved Pokemon is played on top of "
       "its match.", "evolution"),
      ("Your opponent's Ivysaur has 60 damage and 60 HP: it was knocked out already and is no longer in play.",
       "battle")]),
    ([row("Charmeleon", waiting=True)], [row("Squirtle")], "Squirtle",
     [("Charmeleon is stage 1: it is in play only on top of Charmander, which must be under it.", "evolution"),
      ("Your Charmeleon is Waiting: only Battling Pokemon may attack.", "battling-and-waiting-pokemon")]),
])
def test_impossible_positions_are_refused_with_their_rule(yours: list, theirs: list, target: str,
                                                          expected: list) -> None:
    attacker = yours[0]["card"]
    found = ko(attacker, target, 9, yours, theirs)
    assert not found.legal and problems(found) == expected
    assert found.values["knocked_out"] == [] and found.summary.startswith("The position breaks")


def test_unreadable_input_is_an_input_error() -> None:
    with pytest.raises(NotFoundError, match="no Pokemon called 'Venusuar'"):
        ko("Charmeleon", "Ivysaur", 9, [row("Charmander/Charmeleon")], [row("Bulbasaur/Venusuar")])
    with pytest.raises(InputError, match="give the damage the attack deals"):
        answer(GAME, CARDS, "knockout", {"attacker": "Charmeleon", "target": "Ivysaur"})
    with pytest.raises(InputError, match="the damage on Ivysaur must be a whole number"):
        ko("Charmeleon", "Ivysaur", 9, [row("Charmander/Charmeleon")], [{"card": "Ivysaur", "damage": "lots"}])


def test_the_command_line_exit_codes(cli) -> None:  # type: ignore[no-untyped-def]
    refused = cli("play", "minibattle", "knockout", "Charmeleon", "Venusaur", "--damage", "9", "--yours",
                  "Charmander/Charmeleon", "--theirs", "Bulbasaur/Ivysaur")
    assert refused.exit_code == 1 and "Problem: Venusaur is not in play on your opponent's side" in refused.stdout
    bad = cli("play", "minibattle", "knockout", "Charmeleon", "Ivysaur", "--damage", "9", "--theirs",
              "Bulbasaur/Ivysaur=lots")
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == ["Error: --theirs 'Bulbasaur/Ivysaur=lots': write the stack from the bottom up "
                                       "and the damage on it, as Bulbasaur/Ivysaur=52"]
    healed = cli("play", "minibattle", "evolve", "Pichu=12", "Pikachu")
    assert healed.exit_code == 0 and healed.stdout.splitlines()[0] == ("Pichu evolves into Pikachu with 35 HP "
                                                                       "(Evolution Healer removed 12 damage).")
