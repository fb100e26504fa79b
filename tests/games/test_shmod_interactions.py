"""Shmod's card interactions: the rulebook's two Immunity examples, what an Immunity's blank covers, how long each
subtype of spell and trap stays at each event, Fusion and Transformation materials, and an ATK changed inside a
Battle Phase (the battles fought before it stand: checked against the same phase without the change)."""

from __future__ import annotations

import json
import random

import pytest

from carddb.core.game.definition import load_game_text
from carddb.core.play.helpers import answer
from carddb.errors import InputError, NotFoundError
from tests.core.decks import REPO, starter

GAME, CARDS = starter("shmod")


def ask(helper: str, **request):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, helper, request)


def house(old: str, new: str):  # type: ignore[no-untyped-def]
    text = (REPO / "rules" / "shmod" / "game.toml").read_text(encoding="utf-8")
    assert old in text
    return load_game_text(text.replace(old, new))


# ------------------------------------------------------------------------------------------------------- Immunity
def test_the_rulebooks_immunity_examples() -> None:
    # "if a Spell card destroys all monsters on the field, it would not affect a monster with an Immunity to Spells"
    spared = ask("immunity", monster="Shade Wraith", card="Monster Bash")
    assert (spared.summary, spared.values["affected"], spared.legal) == (
        "Shade Wraith is unaffected by Monster Bash.", False, True)
    # "if that Spell card said 'Select 1 monster; it has Immunity to Spells. Destroy all monsters.' the monster
    # would be destroyed"
    given = ask("immunity", monster="Halo Knight", card="Monster Bash", immunity="Spells", given_by="Monster Bash")
    assert (given.summary, given.values["affected"], given.legal) == (
        "Monster Bash affects Halo Knight as usual.", True, True)
    assert given.working[0].text == ("Halo Knight has Immunity to Spells, but Monster Bash is the card that gives it: "
                                     "an immunity never stops the card giving it.")
    assert given.working[0].rule == "rules/shmod/rulebook.md#immunity"


@pytest.mark.parametrize(("monster", "card", "affected"), [
    ("Shade Wraith", "Flame Blade", False),  # Immunity to Spells: an Equip spell too
    ("Shade Wraith", "Cursed Armor", True),  # a trap is not a spell
    ("Magma Colossus", "Pitfall Snare", False),  # Immunity to Traps
    ("Magma Colossus", "Volcanic Caldera", True),
    ("Primordial Wyrm", "Volcanic Caldera", False),  # Immunity to Spells and Traps: both
    ("Primordial Wyrm", "Chain Shackles", False),
    ("Primordial Wyrm", "Pyrelord Ignatius", True),  # a monster's effect
])
def test_printed_immunities(monster: str, card: str, affected: bool) -> None:
    assert ask("immunity", monster=monster, card=card).values["affected"] is affected


@pytest.mark.parametrize(("blank", "card", "affected"), [
    ("FIRE Monsters", "Pyrelord Ignatius", False), ("FIRE Monsters", "Night Reaver", True),
    ("FIRE", "Pyrelord Ignatius", False), ("Field Spells", "Volcanic Caldera", False),
    ("Field Spells", "Flame Blade", True), ("Equip cards", "Cursed Armor", False),
    ("Deity monsters", "Pyrelord Ignatius", False), ("Monsters", "Gloom Imp", False),
    ("Monsters", "Monster Bash", True), ("Monster Bash", "Monster Bash", False), ("Yoink! and Traps", "Yoink!", False),
])
def test_what_a_given_blank_covers(blank: str, card: str, affected: bool) -> None:
    result = ask("immunity", monster="Halo Knight", card=card, immunity=blank, given_by="Solaria, Dawnbringer")
    assert result.values["affected"] is affected and result.legal


def test_the_card_giving_an_immunity_is_never_stopped_by_it() -> None:
    # Solaria gives Halo Knight Immunity to Monsters: other monsters are stopped, Solaria herself is not.
    assert not ask("immunity", monster="Halo Knight", card="Gloom Imp", immunity="Immunity to Monsters.",
                   given_by="Solaria, Dawnbringer").values["affected"]
    assert ask("immunity", monster="Halo Knight", card="Solaria, Dawnbringer", immunity="Monsters",
               given_by="Solaria, Dawnbringer").values["affected"]


def test_an_immunity_stops_effects_not_the_battle_table() -> None:
    result = ask("immunity", monster="Halo Knight", card="Gloom Imp", immunity="Monsters",
                 given_by="Solaria, Dawnbringer")
    assert (result.values["affected"], result.values["stops_battle"]) == (False, False)
    assert result.working[-1].rule == "rules/shmod/rulebook.md#battling"
    strict = house("immunity_stops_battle = false", "immunity_stops_battle = true")
    assert answer(strict, CARDS, "immunity", {"monster": "Halo Knight", "card": "Gloom Imp", "immunity": "Monsters",
                                              "given_by": "Solaria, Dawnbringer"}).values["stops_battle"]
    assert "stops_battle" not in ask("immunity", monster="Shade Wraith", card="Monster Bash").values


def test_immunity_on_a_monster_that_has_none_is_an_answer_not_a_problem() -> None:
    """No rule is broken by asking: the card affects the monster as usual (issue 36)."""
    result = ask("immunity", monster="Halo Knight", card="Monster Bash")
    assert result.legal and result.values["affected"]
    assert result.working[0].text == ("Halo Knight has no Immunity: its text gives none and no card is named as "
                                      "giving it one; Monster Bash affects it as usual.")


def test_unreadable_immunity_requests() -> None:
    with pytest.raises(InputError, match="'Spels' names no kind of card"):
        ask("immunity", monster="Halo Knight", card="Monster Bash", immunity="Spels", given_by="Flame Blade")
    with pytest.raises(InputError, match="name a card giving the immunity"):
        ask("immunity", monster="Halo Knight", card="Monster Bash", immunity="Spells")
    with pytest.raises(InputError, match="say the immunity"):
        ask("immunity", monster="Halo Knight", card="Monster Bash", given_by="Flame Blade")
    with pytest.raises(InputError, match="is a spell, not a monster"):
        ask("immunity", monster="Flame Blade", card="Monster Bash")
    with pytest.raises(NotFoundError):
        ask("immunity", monster="Shade Wraith", card="Monster Bosh")


# ------------------------------------------------------------------------------------------- how long cards stay
# Every subtype at every event: does the card leave the field now?
STAYS = {
    # card: subtype                resolves turn-ends monster-leaves removed field-played
    "Monster Bash": ("", (True, False, False, False, False)),  # in the Graveyard once resolved
    "Pitfall Snare": ("", (True, False, False, True, False)),  # set face down until activated or removed
    "Flame Blade": ("Equip", (False, False, True, True, False)),
    "Cursed Armor": ("Equip", (False, False, True, True, False)),
    "Sanctuary Ward": ("Continuous", (False, False, False, True, False)),
    "Chain Shackles": ("Continuous", (False, False, False, True, False)),
    "Volcanic Caldera": ("Field", (False, False, False, True, True)),
}
EVENTS = ("resolves", "turn-ends", "monster-leaves", "removed", "field-played")


@pytest.mark.parametrize("card", sorted(STAYS))
def test_how_long_each_subtype_stays(card: str) -> None:
    subtype, leaves = STAYS[card]
    for event, gone in zip(EVENTS, leaves, strict=True):
        result = ask("lasts", card=card, event=event)
        assert (result.values["subtype"] or "", result.values["leaves"], result.legal) == (subtype, gone, True), event
    listed = ask("lasts", card=card).values["leaves_when"]
    assert listed == {"": ["its effect resolves"], "Equip": ["an effect removes it", "the monster it equips leaves "
                                                             "the field"],
                      "Continuous": ["an effect sends it to the Graveyard"],
                      "Field": ["an effect removes it", "another Field card is played"]}[subtype]


def test_the_rulebooks_subtype_table_is_linked() -> None:
    assert ask("lasts", card="Flame Blade").working[0].rule == "rules/shmod/rulebook.md#spells"
    assert ask("lasts", card="Cursed Armor").working[0].rule == "rules/shmod/rulebook.md#traps"


def test_a_field_card_replaced_and_the_readings_as_data() -> None:
    replaced = ask("lasts", card="Volcanic Caldera", event="field-played", other="Sunken Reef", by_opponent=True)
    assert replaced.summary == "When Sunken Reef is played, Volcanic Caldera goes to the Graveyard."
    owner_only = house('field_replaced_by = "any-player"', 'field_replaced_by = "same-player"')
    kept = answer(owner_only, CARDS, "lasts", {"card": "Volcanic Caldera", "event": "field-played",
                                               "other": "Sunken Reef", "by_opponent": True})
    assert kept.values["leaves"] is False
    stays = house("equip_leaves_with_monster = true", "equip_leaves_with_monster = false")
    assert answer(stays, CARDS, "lasts", {"card": "Flame Blade", "event": "monster-leaves"}).values["leaves"] is False


def test_impossible_events_are_problems() -> None:
    wrong = ask("lasts", card="Volcanic Caldera", event="field-played", other="Flame Blade")
    assert wrong.problems[0].text == "Flame Blade is not a Field card: only another Field card replaces a Field card."
    assert not ask("lasts", card="Flame Blade", event="monster-leaves", other="Sunken Reef").legal
    with pytest.raises(InputError, match="event must be resolves or"):
        ask("lasts", card="Flame Blade", event="explodes")
    with pytest.raises(InputError, match="not a spell or trap"):
        ask("lasts", card="Gloom Imp")


# ----------------------------------------------------------------------------------------- Fusion, Transformation
def fuse(card: str, *materials: str):  # type: ignore[no-untyped-def]
    rows = [dict(zip(("card", "from"), m.split("=") if "=" in m else (m, "field"), strict=True)) for m in materials]
    return ask("fusion", card=card, materials=rows)


def test_a_fusion_with_its_materials() -> None:
    result = fuse("Steam Titan", "Cinder Hound=hand", "Reef Lancer")
    assert result.legal and result.values["to_graveyard"] == ["Cinder Hound", "Reef Lancer"]
    assert result.values["mana"] == 0
    assert result.summary == "Steam Titan can be played: Cinder Hound and Reef Lancer go to the Graveyard; no mana."
    assert [s.rule.split("#")[1] for s in result.working] == [
        "fusion-transformation-stack", "fusion-and-transformation-monsters", "monsters"]
    assert fuse("Ascended Seraph", "Radiant Seraph").legal  # a Transformation from the field


def test_fusions_without_their_materials_are_problems() -> None:
    missing = fuse("Steam Titan", "Cinder Hound")
    assert (missing.legal, missing.values["missing"]) == (False, ["Reef Lancer"])
    assert missing.problems[0].text == "Reef Lancer is missing: a Fusion monster needs every monster it names."
    extra = fuse("Vortex Wyvern", "Thunderhead Roc", "Gale Sparrow", "Gale Sparrow")
    assert (extra.values["missing"], extra.values["extra"]) == ([], ["Gale Sparrow"])
    assert not fuse("Primordial Wyrm").legal
    hand = fuse("Granite Behemoth", "Granite Sentinel=hand")
    assert hand.problems[0].text == ("Granite Sentinel is in your hand: a Transformation's materials come from your "
                                     "field.")
    plain = fuse("Gloom Imp")
    assert plain.problems[0].text.startswith("Gloom Imp is not a Fusion or Transformation monster")
    loose = house('transformation_from = ["field"]', 'transformation_from = ["hand", "field"]')
    assert answer(loose, CARDS, "fusion", {"card": "Granite Behemoth",
                                           "materials": [{"card": "Granite Sentinel", "from": "hand"}]}).legal
    with pytest.raises(InputError, match="Cinder Hound's zone must be field or hand, not 'deck'"):
        fuse("Steam Titan", "Cinder Hound=deck", "Reef Lancer")
    with pytest.raises(InputError, match="is a spell, not a monster"):
        fuse("Steam Titan", "Fusion Rite")


def test_every_fusion_of_the_catalogue_takes_exactly_its_named_materials() -> None:
    """Brute force over the catalogue: each Fusion/Transformation monster is legal with its named monsters, and
    illegal with any one of them left out or any other monster added."""
    stacked = [c for c in CARDS if {"Fusion", "Transformation"} & set(c.get("categories") or [])]
    others = [c.name for c in CARDS if c.kind == "monster"]
    assert len(stacked) >= 5
    for card in stacked:
        needs = list(card.get("materials"))
        assert fuse(card.name, *needs).legal, card.name
        for left_out in range(len(needs)):
            assert not fuse(card.name, *needs[:left_out], *needs[left_out + 1:]).legal
        for extra in others:
            assert not fuse(card.name, *needs, extra).legal


# --------------------------------------------------------------------------------------- ATK inside a Battle Phase
PHASE = {"mine": [{"card": "Gale Sparrow"}, {"card": "Cinder Hound"}],
         "theirs": [{"card": "Coral Warden", "position": "defense"}],
         "attacks": [{"attacker": "Gale Sparrow", "target": "Coral Warden"},
                     {"attacker": "Cinder Hound", "target": "Coral Warden"}]}


def test_an_atk_change_counts_from_the_moment_it_is_made() -> None:
    result = ask("atk-change", **PHASE, changes=[{"after": 1, "card": "Gale Sparrow", "by": 2},
                                                {"after": 1, "card": "Cinder Hound", "by": 2}])
    first, second = result.values["battles"]
    assert (first["atk"], first["attacker_loses"], first["defender_destroyed"]) == (2, 1, False)  # stands
    assert (second["atk"], second["defender_destroyed"]) == (5, True)  # 3 + 2 beats DEF 4
    assert (result.values["life"], result.values["atk"]["Gale Sparrow"]) == (9, 4)
    assert "Attack 1, fought before the change, stands: a battle already fought is not fought again." in [
        s.text for s in result.working]
    before = ask("atk-change", **PHASE, changes=[{"after": 0, "card": "Gale Sparrow", "by": 3}])
    assert before.values["battles"][0]["defender_destroyed"]  # 2 + 3 = 5 beats DEF 4 before the first attack


def test_atk_changes_that_cannot_happen() -> None:
    gone = ask("atk-change", mine=[{"card": "Night Reaver"}], theirs=[{"card": "Gloom Imp"}],
               attacks=[{"attacker": "Night Reaver", "target": "Gloom Imp"}],
               changes=[{"after": 1, "card": "Gloom Imp", "by": 3, "whose": "theirs"}])
    assert gone.problems[0].text == ("After attack 1: Gloom Imp is not on the defending player's field (destroyed in "
                                     "battle), so its ATK cannot change.")
    late = ask("atk-change", **PHASE, changes=[{"after": 3, "card": "Gale Sparrow", "by": 1}])
    assert late.problems[0].text == "An ATK change after attack 3: only 2 attacks are declared."
    both = ask("atk-change", mine=[{"card": "Gloom Imp"}], theirs=[{"card": "Gloom Imp"}], attacks=[],
               changes=[{"after": 0, "card": "Gloom Imp", "by": 1}])
    assert both.problems[0].text == "Before the first attack: both players have Gloom Imp; say whose ATK changes."
    floor = ask("atk-change", **PHASE, changes=[{"after": 0, "card": "Gale Sparrow", "by": -5}])
    assert floor.values["atk"]["Gale Sparrow"] == 0
    with pytest.raises(InputError, match="give an ATK change"):
        ask("atk-change", **PHASE)
    with pytest.raises(InputError, match="give the ATK change of Gale Sparrow"):
        ask("atk-change", **PHASE, changes=[{"after": 1, "card": "Gale Sparrow"}])


def test_battles_before_a_change_are_those_of_the_phase_without_it() -> None:
    """Property, over random phases: the battles fought before a change are exactly those of the same phase with no
    change, and the first attack after it by the changed monster uses the old ATK plus the change."""
    rng = random.Random(27)
    monsters = [c.name for c in CARDS if c.kind == "monster" and not set(c.get("categories") or []) & {"Fusion"}
                and "attack twice" not in c.text and "[VAMPIRISIM]" not in c.text]
    for _ in range(150):
        mine, theirs = rng.sample(monsters, 3), rng.sample(monsters, 3)
        request = {"mine": [{"card": n} for n in mine],
                   "theirs": [{"card": n, "position": rng.choice(["attack", "defense"])} for n in theirs],
                   "attacks": [{"attacker": a, "target": rng.choice(theirs)} for a in mine]}
        plain = ask("phase", **request).values["battles"]
        after, who, by = rng.randint(0, 2), rng.choice(mine), rng.randint(-3, 3)
        changed = ask("atk-change", **request, changes=[{"after": after, "card": who, "by": by, "whose": "mine"}])
        fought = changed.values["battles"]
        assert [b for b in fought if b["attack"] <= after] == [b for b in plain if b["attack"] <= after]
        later = [b for b in fought if b["attack"] > after and b["attacker"] == who]
        base = next((b["atk"] for b in plain if b["attacker"] == who), None)
        if later and base is not None and changed.legal:
            assert later[0]["atk"] == max(0, base + by)
        json.dumps(changed.to_dict())


# ----------------------------------------------------------------------------------------------- the command line
@pytest.mark.parametrize(("args", "code", "first"), [
    (["immunity", "Shade Wraith", "Monster Bash"], 0, "Shade Wraith is unaffected by Monster Bash."),
    (["immunity", "Halo Knight", "Monster Bash"], 0, "Halo Knight has no Immunity, so nothing is stopped."),
    (["immunity", "Cinder Hound", "Monster Bash"], 0, "Cinder Hound has no Immunity, so nothing is stopped."),
    (["fusion", "Steam Titan", "Cinder Hound"], 1, "Steam Titan cannot be played with Cinder Hound."),
    (["lasts", "Volcanic Caldera", "field-played", "--other", "Flame Blade"], 1,
     "Volcanic Caldera: the event cannot happen as asked."),
    (["atk-change", "--mine", "Gale Sparrow", "--change", "0:Gale Sparrow=+2"], 0,
     "After the Battle Phase: your Life 10, the defending player's 10."),
])
def test_the_commands_exit_codes(cli, args: list[str], code: int, first: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "shmod", *args)
    assert (result.exit_code, result.stdout.splitlines()[0]) == (code, first)


@pytest.mark.parametrize(("args", "message"), [
    (["fusion", "Steam Titan", "Cinder Hound=deck"], "Error: Cinder Hound's zone must be field or hand, not "
                                                     "'deck'"),
    (["immunity", "Shade Wraith", "Monster Bosh"], "Error: no card called 'Monster Bosh' in Shmod"),
    (["atk-change", "--change", "Gale Sparrow=+2"], "Error: --change 'Gale Sparrow=+2': write the attacks before "
                                                     "it, the monster and the change, as 1:Gale Sparrow=+2"),
    (["lasts", "Flame Blade", "explodes"], "Error: event must be resolves or turn-ends or monster-leaves or removed "
                                           "or field-played, not 'explodes'"),
])
def test_unreadable_input_is_one_error_line(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = cli("play", "shmod", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith(message)
