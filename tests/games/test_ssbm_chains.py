"""ssbm interrupt chains and what follows a KO, with the rulebook's own examples as exact answers: a taunt
interrupted by Attack does nothing and the Attack deals its player's STRENGTH; Link's Spin Attack interrupts Jump
before the attack it was meant for; interrupting ends the turn but for the two exceptions; Charge and Item cards,
uninterruptable and unreversible cards cannot be interrupted; a recovery card always interrupts a KO card; after a
KO the field and the discard pile go back into the deck and SPEED cards are drawn. Every chain of up to three
links over a pool of cards is worked out and checked against the rules' invariants (brute force)."""

from __future__ import annotations

import itertools

import pytest

from carddb.core.play.helpers import answer
from carddb.errors import InputError, NotFoundError
from carddb.games.ssbm.chains import Link, interrupt_chain
from tests.core.decks import starter
from tests.games.test_ssbm_play import with_play

GAME, CARDS = starter("ssbm")
BY_NAME = {card.name: card for card in CARDS}
RULE = "rules/ssbm/rulebook.md#interrupting"


def chain(*plays: str, game=GAME):  # type: ignore[no-untyped-def]
    """``chain("Mario=Taunt", "Link=Attack")``."""
    rows = [dict(zip(("player", "card"), play.split("=", 1), strict=True)) for play in plays]
    return answer(game, CARDS, "chain", {"plays": rows})


# --------------------------------------------------------------------------------------- the rulebook's examples
def test_a_taunt_interrupted_by_an_attack_does_nothing_and_the_attack_deals_strength() -> None:
    result = chain("Mario=Taunt", "Link=Attack")
    assert result.summary == "Link's Attack takes effect and Taunt is void; Mario's turn ends."
    assert result.values["effects"] == [{"card": "Attack", "player": "Link", "damage": 5, "to": "Mario"}]
    assert [s.text for s in result.working] == [
        "1. Mario plays Taunt.",
        "2. Link's Attack interrupts Mario's Taunt (Attack interrupts Taunt).",
        "Link's Attack takes effect: STRENGTH 5 + 0 = 5D to Mario.",
        "Mario's Taunt is void: Link's Attack interrupted it.",
        "Effects a card has when it is interrupted, or when it interrupts, happen before anything else (follow the "
        "card).",
        "Taunt and Attack go to the discard pile: the interrupted and the interrupting cards.",
        "Mario's turn ends: Link's Attack interrupted Mario's Taunt, is not a defensive card and was not interrupted."]
    assert result.working[1].rule == RULE and result.legal


def test_links_spin_attack_interrupts_jump_dash_and_set_up_attacks() -> None:
    for card in ("Jump", "Dash", "Set-Up Attack"):
        result = chain(f"Mario={card}", "Link=Link's Spin Attack")
        assert result.legal and result.values["void"] == [card]
        assert result.values["effects"][0] == {"card": "Link's Spin Attack", "player": "Link", "damage": 9,
                                               "to": "Mario"}
    refused = chain("Mario=Attack", "Link=Link's Spin Attack")
    assert refused.problems[0].text == ("Link's Spin Attack cannot interrupt Attack: it interrupts only Jump, Dash, "
                                        "Attack - Set-up.")


def test_the_two_exceptions_keep_the_turn_going() -> None:
    defensive = chain("Mario=Smash Attack", "Link=Block")
    assert defensive.values["turn_ends"] is False
    assert defensive.working[-1].text == "Mario's turn goes on: Link's Block is a defensive card."
    interrupted = chain("Mario=Taunt", "Link=Attack", "Mario=Block")
    assert interrupted.summary == ("Mario's Block, then Mario's Taunt take effect and Attack is void; Mario's turn "
                                   "goes on.")
    assert interrupted.working[-1].text == "Mario's turn goes on: Link's Attack was itself interrupted."


def test_cards_that_cannot_be_interrupted_or_blocked() -> None:
    assert chain("Mario=Charge", "Link=Attack").problems[0].text == (
        "Link's Attack cannot interrupt Charge: Charge cards cannot be interrupted.")
    assert chain("Mario=Item: Throw", "Link=Power Block").problems[0].text == (
        "Link's Power Block cannot interrupt Item: Throw: Item cards cannot be interrupted.")
    assert chain("Mario=Meteor Smash", "Link=Dodge: Roll").problems[0].text == (
        "Link's Dodge: Roll cannot interrupt Meteor Smash: it is unreversible: it can be neither interrupted nor "
        "blocked.")
    assert chain("Mario=Shield Breaker", "Link=Block").problems[0].text == (
        "Link's Block cannot block Shield Breaker: it is unblockable.")
    assert chain("Mario=Shield Breaker", "Link=Dodge: Roll").legal  # a dodge is not a block


def test_a_recovery_card_always_interrupts_a_ko_card_but_not_an_unreversible_one() -> None:
    jump = chain("Link=Smash Attack", "Mario=Jump")
    assert jump.legal and jump.working[1].rule == "rules/ssbm/rulebook.md#recovering"
    assert "whatever its interrupt list says" in jump.working[1].text
    spin = chain("Mario=Smash Attack", "Link=Link's Spin Attack")  # its list names no attack: the icon wins
    assert spin.legal and spin.values["void"] == ["Smash Attack"]
    meteor = chain("Link=Meteor Smash", "Mario=Jump")
    assert meteor.problems[0].text.endswith("a recovery icon beats an interrupt list, not an unreversible card.")
    house = with_play(**{"recovery_beats_unreversible = false": "recovery_beats_unreversible = true"})
    assert chain("Link=Meteor Smash", "Mario=Jump", game=house).legal


def test_a_two_card_recovery_is_one_recovery_and_edge_guard_undoes_it() -> None:
    pair = chain("Link=Smash Attack", "Mario=Jump", "Mario=Dodge: Air")
    assert pair.legal and pair.values["void"] == ["Smash Attack"]
    assert pair.values["effects"][0]["card"] == "Jump then Dodge: Air"
    guarded = chain("Link=Smash Attack", "Mario=Jump", "Mario=Dodge: Air", "Link=Edge Guard")
    assert guarded.values["void"] == ["Jump", "Dodge: Air"]
    assert [e["card"] for e in guarded.values["effects"]] == ["Edge Guard", "Smash Attack"]


def test_jump_then_jump_is_no_recovery_in_a_chain_as_in_ko() -> None:
    """Recovering: "you may NOT play the card titled 'Jump' then another card titled 'Jump' to recover yourself,
    because they are both 1st Recovery cards" (issue 36: the chain let the pair take effect)."""
    twice = chain("Link=Smash Attack", "Mario=Jump", "Mario=Jump")
    assert not twice.legal and twice.problems[0].rule == "rules/ssbm/rulebook.md#recovering"
    assert twice.problems[0].text == ("Mario's Jump cannot be Mario's second recovery card: Jump then Jump: both "
                                      "are 1st Recovery cards; the same recovery type cannot be used twice.")
    ko = answer(GAME, CARDS, "ko", {"attack": "Smash Attack", "target": "Mario", "damage": 85,
                                    "recovery": ["Jump", "Jump"]})
    assert ko.values["outcome"] == "ko"


def test_impossible_chains_are_problems_naming_the_rule() -> None:
    itself = chain("Mario=Attack", "Mario=Block")
    assert itself.problems[0].text == ("Mario's Block cannot interrupt Mario's own Attack: a chain cannot interrupt "
                                       "itself; only another player interrupts a card.")
    assert itself.problems[0].rule == RULE and not itself.legal
    assert itself.summary.startswith("This chain cannot be played: ")
    block_first = chain("Mario=Block")
    assert block_first.problems[0].rule == "rules/ssbm/rulebook.md#playing-cards-and-attacking"
    later = chain("Mario=Charge", "Link=Attack", "Mario=Block")
    assert "3. Mario's Block is not played: the chain stopped at a link that breaks a rule." in [
        s.text for s in later.working]
    assert chain("Pikachu=Mario's Fireball").problems[0].rule == "rules/ssbm/rulebook.md#character-symbols"


def test_unreadable_chains_are_input_errors() -> None:
    with pytest.raises(NotFoundError, match="did you mean 'Taunt'"):
        chain("Mario=Tant")
    with pytest.raises(InputError, match="Jump is a play card, not a character"):
        chain("Jump=Attack")
    with pytest.raises(InputError, match="names no player"):
        answer(GAME, CARDS, "chain", {"plays": [{"card": "Attack"}]})
    with pytest.raises(InputError, match="give the chain"):
        answer(GAME, CARDS, "chain", {"plays": []})


# ------------------------------------------------------------------------------------------------- brute force
POOL = ["Taunt", "Attack", "Jump", "Dash", "Charge", "Set-Up Attack", "Block", "Dodge: Roll", "Dodge: Air",
        "Smash Attack", "Meteor Smash", "Shield Breaker", "Grab", "Edge Guard", "Item: Throw", "Aerial Attack"]
PLAYERS = ("Mario", "Link")


def every_chain() -> list[tuple[str, ...]]:
    return [combo for size in (1, 2, 3) for combo in itertools.product(POOL, repeat=size)]


def test_every_chain_of_up_to_three_links_keeps_the_rules_invariants() -> None:
    legal: set[tuple[str, ...]] = set()
    for combo in every_chain():
        links = [Link(BY_NAME[name], BY_NAME[PLAYERS[i % 2]]) for i, name in enumerate(combo)]
        result = interrupt_chain(GAME, links)
        if combo[:-1] and combo[:-1] not in legal:
            assert not result.legal, combo  # a chain is no more legal than its start
            continue
        if not result.legal:
            assert len(result.problems) == 1, combo  # the chain stops at the first link that breaks a rule
            continue
        legal.add(combo)
        effects, void = result.values["effects"], result.values["void"]
        # from the last card back: it takes effect, the one before is void, and so on
        assert [e["card"] for e in effects] == list(combo[::-2]), combo
        assert void == list(combo[-2::-2]), combo
        # two players alternate: only Link's card interrupting Mario's, when it stands, can end Mario's turn
        ends = len(combo) == 2 and "defensive" not in (BY_NAME[combo[1]].get("types") or [])
        assert result.values["turn_ends"] is ends, combo
        for earlier, later in itertools.pairwise(combo):
            card, target = BY_NAME[later], BY_NAME[earlier]
            assert not {"charge", "item"} & set(target.get("types") or []), combo
            assert not {"uninterruptable", "unreversible"} & set(target.get("flags") or []), combo
            assert card.get("interrupts") or "ko" in (target.get("icons") or []), combo
    assert len(legal) > 60  # the pool makes real chains, not only refusals


# --------------------------------------------------------------------------------------------------- after a KO
def after(**request):  # type: ignore[no-untyped-def]
    return answer(GAME, CARDS, "after-ko", {"character": "Mario", **request})


def test_after_a_ko_the_field_and_discard_pile_go_back_and_speed_cards_are_drawn() -> None:
    result = after(field=["Set-Up Attack", "Mushroom"], equipped=["Super Mushroom"], deck=30, discard=12, hand=3,
                   stock=3, by="Link")
    assert (result.values["back_to_deck"], result.values["stay"]) == (["Set-Up Attack", "Super Mushroom"],
                                                                      ["Mushroom"])
    assert (result.values["deck"], result.values["draws"], result.values["deck_after_draw"]) == (44, 4, 40)
    assert (result.values["hand"], result.values["stock"]) == (7, 2)
    assert result.summary == ("Mario shuffles 2 cards from the field and the discard pile back into the deck and "
                              "draws 4 cards (SPEED); 2 stock left, play goes on.")
    assert result.working[3].text == "Deck: 30 + 2 from the field + 12 from the discard pile = 44 cards; shuffle it."
    assert result.working[0].rule == "rules/ssbm/rulebook.md#koing"


def test_a_ko_in_a_time_match_and_the_last_stock() -> None:
    time = after(mode="time", by="Link")
    assert time.values["points"] == {"Link": 1, "Mario": -1}
    last = after(stock=1)
    assert last.values["out_of_game"] and last.summary.endswith("out of stock, Mario is out of the game.")
    short = after(deck=0, discard=2)
    assert short.values["draws"] == 2  # only two cards to draw from


def test_no_card_is_lost_or_made_after_a_ko() -> None:
    """Every count of deck, discard pile and field: the deck after the draw and the cards drawn are all of them."""
    from carddb.games.ssbm.knockout import after_ko
    mario, field_cards = BY_NAME["Mario"], [BY_NAME[n] for n in ("Attack", "Mushroom", "Grab", "Super Mushroom")]
    for deck, discard, on_field in itertools.product(range(0, 7), range(0, 5), range(0, 5)):
        result = after_ko(GAME, mario, field_cards[:on_field], deck=deck, discard=discard, hand=2)
        back, values = len(result.values["back_to_deck"]), result.values
        assert values["deck"] == deck + discard + back
        assert values["draws"] == min(4, values["deck"])  # Mario's SPEED 4, or what the deck holds
        assert values["deck_after_draw"] + values["draws"] == values["deck"]
        assert values["hand"] == 2 + values["draws"]
        assert back + len(values["stay"]) == on_field


def test_impossible_knock_outs_are_problems_and_bad_input_errors() -> None:
    gone = after(stock=0)
    assert gone.problems[0].text == "Mario has no stock left: a player out of the game cannot be KO'd."
    assert gone.problems[0].rule == "rules/ssbm/rulebook.md#match-modes"
    assert after(equipped=["Attack"]).problems[0].text == ("Attack is not an item: only an item is equipped next to "
                                                           "the character card.")
    with pytest.raises(InputError, match="Mario cannot KO themself"):
        after(by="mario")
    with pytest.raises(InputError, match="Mario is a character, not a play card"):
        after(field=["Mario"])


# --------------------------------------------------------------------------------------------- the command line
def test_the_command_line_exit_codes(cli) -> None:  # type: ignore[no-untyped-def]
    itself = cli("play", "ssbm", "chain", "Mario=Attack", "Mario=Block")
    assert itself.exit_code == 1 and itself.stdout.startswith("This chain cannot be played:")
    bad = cli("play", "ssbm", "chain", "Mario", "Link=Attack")
    assert (bad.exit_code, bad.stderr) == (2, "Error: 'Mario': write each play as PLAYER=CARD, e.g. Link=Attack\n")
    unknown = cli("play", "ssbm", "after-ko", "Marop")
    assert unknown.exit_code == 2 and unknown.stderr.count("\n") == 1 and unknown.stderr.startswith("Error: ")
    out = cli("play", "ssbm", "after-ko", "Mario", "--stock", "0")
    assert out.exit_code == 1 and "Problem: Mario has no stock left" in out.stdout
