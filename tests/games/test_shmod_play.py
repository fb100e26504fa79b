"""Shmod at the table: the battle table of the rulebook (with the ATK-equals-DEF reading as data), Life from 10 after
a Battle Phase, VAMPIRISIM, mana (LEVEL, 1 of the TYPE, COLOURLESS exempt, the Level X example), and a turn's limits."""

from __future__ import annotations

import pytest

from carddb.core.game.definition import load_game_text
from carddb.core.play.helpers import answer
from carddb.errors import InputError
from tests.core.decks import REPO, starter

GAME, CARDS = starter("shmod")


def ask(helper: str, **request):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, helper, request)


def fight(attacker: str, defender: str | None = None, position: str = "attack", **extra):  # type: ignore[no-untyped-def]
    result = ask("battle", attacker=attacker, defender=defender, position=position, **extra)
    v = result.values
    return v["attacker_destroyed"], v["defender_destroyed"], v["attacker_loses"], v["defender_loses"]


def test_attack_against_attack() -> None:
    assert fight("Cinder Hound", "Ember Whelp") == (False, True, 0, 1)  # 3 against 2: the lower is destroyed
    assert fight("Ember Whelp", "Cinder Hound") == (True, False, 1, 0)
    assert fight("Halo Knight", "Reef Lancer") == (True, True, 1, 1)  # 3 against 3: both


def test_attack_against_defense_and_the_equal_reading() -> None:
    assert fight("Cinder Hound", "Dawn Acolyte", "defense") == (False, True, 0, 0)  # ATK 3 > DEF 2
    assert fight("Gale Sparrow", "Coral Warden", "defense") == (False, False, 1, 0)  # ATK 2 < DEF 4
    equal = ask("battle", attacker="Night Reaver", defender="Coral Warden", position="defense")  # 4 = 4
    assert (equal.summary, equal.legal) == ("Nothing happens.", True)
    assert "by our reading nothing is destroyed and no one takes damage" in equal.working[0].text
    text = (REPO / "rules" / "shmod" / "game.toml").read_text(encoding="utf-8")
    house = load_game_text(text.replace('equal_atk_def = "nothing"', 'equal_atk_def = "destroy-defender"'))
    other = answer(house, CARDS, "battle", {"attacker": "Night Reaver", "defender": "Coral Warden",
                                            "position": "defense"})
    assert other.values["defender_destroyed"]


def test_direct_attacks() -> None:
    assert fight("Gloom Imp") == (False, False, 0, 1)
    assert fight("Mimic Chest") == (False, False, 0, 0)  # a 0-ATK monster deals none
    blocked = ask("battle", attacker="Gloom Imp", defender_has_monsters=True)
    assert blocked.problems[0].text == "A direct attack is allowed only when the defending player has no monsters in " \
                                       "play."


def test_atk_as_it_is_now() -> None:
    # Flame Blade equipped: Gale Sparrow 2 + 2 = 4 beats Coral Warden's DEF 4? No: 4 equals 4.
    assert fight("Gale Sparrow", "Coral Warden", "defense", atk=5) == (False, True, 0, 0)


def test_life_after_a_battle_phase_from_10() -> None:
    result = ask("phase", mine=[{"card": "Cinder Hound"}, {"card": "Gale Sparrow"}, {"card": "Coral Warden",
                                                                                      "position": "defense"}],
                 theirs=[{"card": "Ember Whelp"}, {"card": "Reef Lancer"}],
                 attacks=[{"attacker": "Cinder Hound", "target": "Ember Whelp"},
                          {"attacker": "Gale Sparrow", "target": "Reef Lancer"},
                          {"attacker": "Cinder Hound", "target": "Reef Lancer"},
                          {"attacker": "Coral Warden", "target": "Reef Lancer"}])
    assert (result.values["life"], result.values["their_life"]) == (9, 9)
    assert result.values["theirs"] == ["Reef Lancer"] and result.values["mine"] == ["Cinder Hound", "Coral Warden"]
    assert [p.text for p in result.problems] == [
        "Attack 3: Cinder Hound has already attacked this Battle Phase.",
        "Attack 4: Coral Warden is in Defense Position and cannot attack."]


def test_direct_attack_only_once_the_field_is_empty_and_vampirisim() -> None:
    result = ask("phase", mine=[{"card": "Night Reaver"}, {"card": "Gale Sparrow"}], theirs=[{"card": "Gloom Imp"}],
                 attacks=[{"attacker": "Gale Sparrow"}, {"attacker": "Night Reaver", "target": "Gloom Imp"},
                          {"attacker": "Gale Sparrow"}], life=7)
    assert result.problems[0].text == ("Attack 1: Gale Sparrow cannot attack directly while the defending player has "
                                       "monsters (Gloom Imp).")
    # Night Reaver destroys Gloom Imp (its owner takes 1) with VAMPIRISIM at 7 Life: 8; Gale Sparrow then hits: 10 - 2.
    assert (result.values["life"], result.values["their_life"]) == (8, 8)


def test_monsters_that_attack_twice_and_the_first_turn() -> None:
    twice = ask("phase", mine=[{"card": "Vortex Wyvern"}], attacks=[{"attacker": "Vortex Wyvern"}] * 3)
    assert twice.values["their_life"] == 8 and len(twice.problems) == 1
    first = ask("phase", mine=[{"card": "Gloom Imp"}], attacks=[{"attacker": "Gloom Imp"}], first_turn=True)
    assert first.problems[0].rule == "rules/shmod/rulebook.md#the-first-turn"


def test_zero_life_has_lost() -> None:
    result = ask("phase", mine=[{"card": "Gloom Imp"}], attacks=[{"attacker": "Gloom Imp"}], their_life=1)
    assert result.values["lost"] == ["the defending player"]


def mana(card: str, **tapped: int):  # type: ignore[no-untyped-def]
    return ask("mana", card=card, mana=tapped)


def test_mana_level_and_type() -> None:
    assert mana("Magma Colossus", FIRE=1, EARTH=4).legal
    no_fire = mana("Magma Colossus", WATER=2, EARTH=3)
    assert no_fire.problems[0].text == "Magma Colossus needs at least 1 FIRE mana among the mana tapped."
    short = mana("Magma Colossus", FIRE=4)
    assert short.problems[0].text == "Magma Colossus is Level 5: tap exactly 5 mana, not 4."
    assert mana("Wandering Golem", COLOURLESS=2).legal  # COLOURLESS monsters are exempt
    assert mana("Prism Chimera", WATER=1, COLOURLESS=4).legal  # MULTI-TYPE: any TYPE but COLOURLESS
    assert not mana("Prism Chimera", COLOURLESS=5).legal
    assert mana("Monster Bash", COLOURLESS=2).legal  # spells: any mana
    assert ask("mana", card="Steam Titan", by_effect=True).values["paid"]


def test_level_x_draw_x_cards() -> None:
    # The rulebook's example: a Level X "Draw X cards"; tap 1 mana and draw 1, tap 5 and draw 5.
    for tapped in (1, 5):
        result = mana("Sudden Insight", COLOURLESS=tapped)
        assert result.legal and result.values["x"] == tapped
    wrong = ask("mana", card="Sudden Insight", mana={"FIRE": 2}, x=3)
    assert wrong.problems[0].text == "X is the mana tapped: 2, not 3."
    with pytest.raises(InputError, match="'GOLD' is not a TYPE of mana"):
        mana("Sudden Insight", GOLD=1)


def test_a_turns_limits() -> None:
    result = ask("turn", charges=["Ember Whelp", "Replenish"], set=["Pitfall Snare"],
                 activate=["Pitfall Snare", "Mirror Guard"], attacks=["Gloom Imp", "Gloom Imp"])
    assert [p.text for p in result.problems] == [
        "Charging Replenish: only 1 mana may be charged a turn, though a turn has two Main Phases.",
        "Pitfall Snare was set this turn: a trap cannot be activated the turn it is set.",
        "Gloom Imp attacks 2 times; a monster attacks once a Battle Phase."]
    assert "Activate Mirror Guard: turn it face up and tap 2 mana (its LEVEL)." in [s.text for s in result.working]
    first = ask("turn", first_turn=True)
    assert first.legal and [s.text for s in first.working][:2] == [
        "Setting up: each player has 10 Life and draws 7 cards.",
        "Draw Phase: draw 1 card (the first player draws too, as the forum thread settles it)."]
    assert not ask("turn", first_turn=True, attacks=["Gloom Imp"]).legal


def test_a_house_format_overrides_play() -> None:
    text = (REPO / "rules" / "shmod" / "game.toml").read_text(encoding="utf-8")
    text += ('\n[formats.strict-defense]\nlabel = "Strict defense"\n'
             '[formats.strict-defense.override.play]\nequal_atk_def = "attacker-takes-damage"\n')
    house = load_game_text(text, "game.toml", "strict-defense")
    result = answer(house, CARDS, "battle", {"attacker": "Night Reaver", "defender": "Coral Warden",
                                             "position": "defense"})
    assert (result.values["attacker_loses"], result.values["defender_destroyed"]) == (1, False)
    assert answer(load_game_text(text), CARDS, "battle", {"attacker": "Night Reaver", "defender": "Coral Warden",
                                                          "position": "defense"}).values["attacker_loses"] == 0
