"""Mini-Battle at the table: every listed ability form is read, and the exact distribution of an attack's outcomes
equals a brute-force count over every face of every die the attack rolls (written here independently of the
helper, from the rulebook's rules and the readings of rules/minibattle/game.toml)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import gcd

import pytest

from carddb.core.cards.card import Card
from carddb.core.game.definition import load_game_text
from carddb.core.play.helpers import answer
from carddb.errors import InputError
from carddb.games.minibattle.play import Battler, attack_odds
from carddb.games.minibattle.pokemon import parse_ability
from tests.core.decks import REPO, starter

GAME, CARDS = starter("minibattle")
BY_NAME = {c.name: c for c in CARDS}


def test_every_ability_of_the_catalogue_is_a_listed_form() -> None:
    unread = [(c.name, c.get("ability")) for c in CARDS if parse_ability(str(c.get("ability"))) is None]
    assert unread == []


@pytest.mark.parametrize(("text", "form", "number", "extra"), [
    ("ATK+2 vs Water", "atk-vs", 2, "Water"), ("DEF+3 vs Electric", "def-vs", 3, "Electric"),
    ("Opponent's Attack-2", "opponent-attack", 2, ""), ("Dmg Reflect 3", "reflect", 3, ""),
    ("Halve DMG: 30%", "halve", 30, ""), ("Double DMG: 25%", "double", 25, ""), ("Evasion D6-1", "evasion", 1, 6),
    ("Evasion D(8)-2", "evasion", 2, 8), ("Negate Evasion", "negate", 0, ""), ("Psn Atk: 30%", "condition", 30, "Psn"),
    ("Effect Chance x2", "effect-chance", 2, ""), ("Effect Off 50%", "effect-off", 50, ""),
    ("Evolution Healer", "healer", 0, ""),
])
def test_ability_forms(text: str, form: str, number: int, extra: object) -> None:
    found = parse_ability(text)
    assert found is not None and (found.form, found.number) == (form, number)
    if isinstance(extra, int):
        assert found.sides == extra
    elif extra:
        assert extra in (found.type, found.condition)


# ------------------------------------------------------------------------------------------------ brute force
def die_for(percent: int) -> tuple[int, int]:
    """A percentage as the smallest fair die: (faces, rolls that succeed), 30% -> a d10 showing 1 to 3."""
    g = gcd(percent, 100)
    return 100 // g, percent // g


def ability(card: Card | None) -> str:
    return str(card.get("ability") or "") if card is not None else ""


def brute(attacker: Card, defender: Card, *, conditions: frozenset[str] = frozenset(), hp: int | None = None,
          defender_hp: int | None = None, partner: Card | None = None, defender_partner: Card | None = None
          ) -> dict[tuple, Fraction]:
    """Count every combination of every die: paralysis d2, confusion d4, evasion d(n), Double/Halve/condition dice."""
    a_hp, d_hp = hp or attacker.get("hp"), defender_hp or defender.get("hp")
    a_ab, d_ab = parse_ability(ability(attacker)), parse_ability(ability(defender))
    atk = attacker.get("atk")
    if a_ab and a_ab.form == "atk-vs" and a_ab.type == defender.get("type"):
        atk += a_ab.number
    for holder in (defender, defender_partner):
        held = parse_ability(ability(holder))
        if held and held.form == "opponent-attack":
            atk -= held.number
    defence = defender.get("def") + (d_ab.number if d_ab and d_ab.form == "def-vs"
                                     and d_ab.type == attacker.get("type") else 0)
    base = max(0, max(0, atk) - defence)
    double = a_ab.number if a_ab and a_ab.form == "double" else 0
    halve = d_ab.number if d_ab and d_ab.form == "halve" else 0
    reflect = d_ab.number if d_ab and d_ab.form == "reflect" else 0
    inflict = a_ab if a_ab and a_ab.form == "condition" else None
    doubled_chances = any(parse_ability(ability(c)) and parse_ability(ability(c)).form == "effect-chance"
                          for c in (attacker, partner, defender, defender_partner))
    rate = min(100, inflict.number * (2 if doubled_chances else 1)) if inflict else 0
    evade = d_ab if d_ab and d_ab.form == "evasion" and not (a_ab and a_ab.form == "negate") else None
    dice = [("prlz", (2, 1) if "Prlz" in conditions else (1, 0)), ("cnfs", (4, 1) if "Cnfs" in conditions else (1, 0)),
            ("evade", (evade.sides, evade.number) if evade else (1, 0)),
            ("double", die_for(double) if double and base else (1, 0)),
            ("halve", die_for(halve) if halve and base else (1, 0)), ("inflict", die_for(rate) if rate else (1, 0))]
    counts: dict[tuple, int] = {}
    total = 0
    for rolls in itertools.product(*(range(1, faces + 1) for _, (faces, _) in dice)):
        total += 1
        hit = {name: roll <= wins for (name, (_, wins)), roll in zip(dice, rolls, strict=True)}
        if "Slp" in conditions:
            key = ("asleep", 0, 0, False, False, None)
        elif hit["prlz"]:
            key = ("paralysed", 0, 0, False, False, None)
        elif hit["cnfs"]:
            key = ("confused", 0, base, False, base >= a_hp, None)
        elif hit["evade"]:
            key = ("evaded", 0, 0, False, False, None)
        else:
            dealt = base * 2 if hit["double"] else base
            dealt = dealt // 2 if hit["halve"] else dealt
            back = reflect if dealt > 0 else 0
            out = dealt >= d_hp
            condition = inflict.condition if inflict and hit["inflict"] and not out else None
            key = ("hit", dealt, back, out, back > 0 and back >= a_hp, condition)
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, total) for k, v in counts.items()}


def helper(attacker: Card, defender: Card, *, conditions: frozenset[str] = frozenset(), hp: int | None = None,
           defender_hp: int | None = None, partner: Card | None = None, defender_partner: Card | None = None
           ) -> dict[tuple, Fraction]:
    result = attack_odds(GAME, Battler(attacker, hp or attacker.get("hp"), conditions),
                         Battler(defender, defender_hp or defender.get("hp")), attacker_partner=partner,
                         defender_partner=defender_partner)
    return {(r["kind"], r["damage"], r["self_damage"], r["knocked_out"], r["attacker_knocked_out"], r["condition"]):
            Fraction(r["probability"]["fraction"]) for r in result.values["outcomes"]}


CASES = [
    ("Pikachu", "Squirtle", {}),
    ("Charizard", "Wartortle", {"conditions": frozenset({"Prlz", "Cnfs"}), "defender_hp": 20}),  # Double, Evasion
    ("Ivysaur", "Clefable", {}),  # Psn Atk 30%, Halve DMG 25%
    ("Hitmonlee", "Wartortle", {}),  # Negate Evasion
    ("Raichu", "Magneton", {"hp": 2}),  # Dmg Reflect 2 knocks out a 2-HP attacker
    ("Pikachu", "Magnemite", {}),  # DEF+3 vs Electric: 10 - 10 = 0, Prlz still inflicted
    ("Charmander", "Bulbasaur", {"defender_hp": 6}),  # ATK+2 vs Grass: 11 - 6 = 5
    ("Ivysaur", "Squirtle", {"defender_partner": "Dragonite"}),  # Opponent's Attack-2: 12 - 2 - 7 = 3
    ("Arbok", "Squirtle", {"partner": "Gengar"}),  # Effect Chance x2: Psn 50% x2 = 100%
    ("Haunter", "Gastly", {"conditions": frozenset({"Cnfs"}), "hp": 4}),  # Cnfs Atk, Evasion D6-2, self knock-out
    ("Machamp", "Golem", {}),  # Double 25% then Halve 30%
    ("Pikachu", "Squirtle", {"conditions": frozenset({"Slp"})}),
]


@pytest.mark.parametrize(("attacker", "defender", "options"), CASES, ids=[f"{a}-{d}" for a, d, _ in CASES])
def test_distribution_equals_brute_force(attacker: str, defender: str, options: dict) -> None:
    options = {k: BY_NAME[v] if k.endswith("partner") else v for k, v in options.items()}
    expected = brute(BY_NAME[attacker], BY_NAME[defender], **options)
    got = helper(BY_NAME[attacker], BY_NAME[defender], **options)
    assert got == {k: v for k, v in expected.items() if v}
    assert sum(got.values()) == 1


def test_damage_is_atk_minus_def_when_above_zero() -> None:
    result = answer(GAME, CARDS, "battle", {"attacker": {"card": "Pikachu"}, "defender": {"card": "Squirtle"}})
    assert result.working[0].text == "Pikachu ATK 10 against Squirtle DEF 7: 10 - 7 = 3 damage."
    assert Fraction(result.values["expected_damage"]["fraction"]) == 3
    blocked = answer(GAME, CARDS, "battle", {"attacker": {"card": "Caterpie"}, "defender": {"card": "Metapod"}})
    assert blocked.working[0].text.endswith("5 - 12 = -7, not above 0: no damage.")
    assert all(row["damage"] == 0 for row in blocked.values["outcomes"])


def test_evasion_d6_1_misses_one_time_in_six() -> None:
    result = answer(GAME, CARDS, "battle", {"attacker": {"card": "Squirtle"}, "defender": {"card": "Wartortle"}})
    evaded = [r for r in result.values["outcomes"] if r["kind"] == "evaded"]
    assert evaded[0]["probability"] == {"fraction": "1/6", "percent": 16.67}


def test_effect_chance_x2_is_capped_at_100_percent() -> None:
    strong = Card(game="minibattle", name="Test Stinger", kind="pokemon",
                  fields={"atk": 10, "def": 1, "hp": 30, "type": "Bug", "stage": "basic", "level": 5,
                          "ability": "Psn Atk: 60%"})
    result = attack_odds(GAME, Battler(strong, 30), Battler(BY_NAME["Squirtle"], 35),
                         attacker_partner=BY_NAME["Gengar"])
    assert [r["condition"] for r in result.values["outcomes"]] == ["Psn"]  # 60% x2 = 120%, read as 100%
    assert "Test Stinger's Psn Atk: 60% x2: 1 (100%) that Squirtle becomes poisoned." in [s.text for s in
                                                                                           result.working]


def test_effect_chance_scope_is_data() -> None:
    text = (REPO / "rules" / "minibattle" / "game.toml").read_text(encoding="utf-8")
    own_side = load_game_text(text.replace('effect_chance_scope = "all"', 'effect_chance_scope = "own-side"'))
    # Gengar battles beside the defender: both sides' conditions double by default, only its own side's otherwise.
    both = attack_odds(GAME, Battler(BY_NAME["Ekans"], 30), Battler(BY_NAME["Squirtle"], 35),
                       defender_partner=BY_NAME["Gengar"])
    own = attack_odds(own_side, Battler(BY_NAME["Ekans"], 30), Battler(BY_NAME["Squirtle"], 35),
                      defender_partner=BY_NAME["Gengar"])
    poisoned = lambda r: sum(Fraction(o["probability"]["fraction"]) for o in r.values["outcomes"]  # noqa: E731
                             if o["condition"] == "Psn")
    assert (poisoned(both), poisoned(own)) == (Fraction(3, 5), Fraction(3, 10))


def test_between_turns_poison_sleep_and_effect_off() -> None:
    result = answer(GAME, CARDS, "between", {"card": "Clefairy", "hp": 12, "conditions": ["Psn", "Slp"]})
    rows = {(r["hp"], tuple(r["conditions"])): Fraction(r["probability"]["fraction"])
            for r in result.values["outcomes"]}
    # Psn 2 first (12 -> 10), then waking 1/2, then Effect Off 50% clears everything.
    assert rows == {(10, ()): Fraction(1, 2), (10, ("Psn",)): Fraction(1, 4), (10, ("Psn", "Slp")): Fraction(1, 4)}
    out = answer(GAME, CARDS, "between", {"card": "Bulbasaur", "hp": 2, "conditions": ["Psn"]})
    assert out.values["outcomes"][0]["knocked_out"] and out.values["outcomes"][0]["probability"]["fraction"] == "1/1"


def plays(in_play: list, play: list, battling: list | None = None):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, "plays", {"in_play": in_play, "play": play, "battling": battling or []})


def test_one_basic_and_one_evolution_a_turn() -> None:
    ok = plays([{"card": "Charmander"}], [{"card": "Charmeleon"}, {"card": "Squirtle"}])
    assert ok.legal and ok.values["in_play"] == ["Charmeleon", "Squirtle"]
    two = plays([{"card": "Charmander"}, {"card": "Squirtle"}], [{"card": "Charmeleon"}, {"card": "Wartortle"},
                                                                 {"card": "Bulbasaur"}, {"card": "Eevee"}])
    assert [p.text for p in two.problems] == ["Wartortle: only 1 evolution may be played a turn.",
                                              "Eevee: only 1 basic Pokemon may be played a turn."]


def test_no_evolving_the_turn_a_pokemon_is_played() -> None:
    same_turn = plays([], [{"card": "Charmander"}, {"card": "Charmeleon"}])
    assert same_turn.problems[0].text == ("Charmander was played this turn: a Pokemon cannot evolve the turn it is "
                                          "played.")
    marked = plays([{"card": "Charmander", "new": True}], [{"card": "Charmeleon"}])
    assert not marked.legal
    missing = plays([], [{"card": "Charizard"}])
    assert missing.problems[0].text == "Charizard evolves from Charmeleon, and no Charmeleon is in play."


def test_a_basic_from_a_baby_is_a_basic_or_an_evolution() -> None:
    as_basic = plays([{"card": "Pichu"}], [{"card": "Pikachu"}, {"card": "Raichu"}])
    assert not as_basic.legal  # Pikachu played as the basic: it cannot evolve into Raichu this turn
    as_evolution = plays([{"card": "Pichu"}], [{"card": "Pikachu", "on": "Pichu"}, {"card": "Squirtle"}])
    assert as_evolution.legal and as_evolution.values["in_play"] == ["Pikachu", "Squirtle"]
    assert "Evolution Healer" in as_evolution.working[0].text


def test_up_to_two_battling() -> None:
    three = plays([{"card": "Charmander"}, {"card": "Squirtle"}, {"card": "Eevee"}], [],
                  ["Charmander", "Squirtle", "Eevee"])
    assert three.problems[-1].text == "3 Battling Pokemon: at most 2; the others are Waiting."


def test_opening_hand() -> None:
    keep = answer(GAME, CARDS, "hand", {"hand": ["Raichu", "Pichu", "Ivysaur"]})
    assert keep.values == {"keep": True, "can_start": ["Pichu"]}
    again = answer(GAME, CARDS, "hand", {"hand": ["Raichu", "Charizard", "Ivysaur"]})
    assert again.summary == "Reshuffle and draw a new hand."
    short = answer(GAME, CARDS, "hand", {"hand": ["Pichu"]})
    assert short.problems[0].text == "An opening hand is 3 cards, not 1."


def test_bad_input_names_what_is_wrong() -> None:
    with pytest.raises(InputError, match="'Burn' is not a condition; use Prlz, Slp, Cnfs or Psn"):
        answer(GAME, CARDS, "battle", {"attacker": {"card": "Pikachu", "conditions": ["Burn"]},
                                       "defender": {"card": "Squirtle"}})
    with pytest.raises(InputError, match="Squirtle's HP must be from 1 to 999, not 0"):
        answer(GAME, CARDS, "battle", {"attacker": {"card": "Pikachu"}, "defender": {"card": "Squirtle", "hp": 0}})
    with pytest.raises(InputError, match="did you mean 'Pikachu'"):
        answer(GAME, CARDS, "hand", {"hand": ["Pikachoo"]})
