"""The forms of Pokemon Mini-Battle's Play page on the site, one per helper of ``play.py`` (answered in the browser)."""

from __future__ import annotations

from carddb.core.game.definition import GameDefinition
from carddb.site.play_page import Form, check, conditions, many, name_list, number, rows, text


def forms(game: GameDefinition) -> list[Form]:
    pokemon = name_list(game, "pokemon")
    return [
        Form("battle", "An attack's odds", "battle",
             "ATK - DEF when above 0, with the special abilities and conditions: every outcome with its exact chance. "
             "HP: what is left (empty: the card's).", "carddb play minibattle battle Charizard Wartortle",
             (text("attacker.card", "Attacker", pokemon) + number("attacker.hp", "HP", low=1),
              conditions("attacker.conditions", "Attacker's conditions:"),
              text("defender.card", "Defender", pokemon) + number("defender.hp", "HP", low=1),
              conditions("defender.conditions", "Defender's conditions:"),
              text("attacker_partner", "Attacker's other Battling Pokemon", pokemon)
              + text("defender_partner", "Defender's other Battling Pokemon", pokemon))),
        Form("between", "Between turns", "conditions",
             "Poison deals 2, a sleeping Pokemon wakes up at 50%, Effect Off may clear every condition.",
             "carddb play minibattle between Clefairy --hp 12 --condition Psn",
             (text("card", "Pokemon", pokemon) + number("hp", "HP", low=1) + conditions("conditions", "conditions:"),)),
        Form("plays", "What may be played", "evolution",
             "One basic and one evolution a turn, not on a Pokemon played this turn; up to 2 Battling.",
             "carddb play minibattle plays --in-play Charmander --play Charmeleon",
             (rows("in_play", "card", 4, lambda i: text("card", f"In play {i}", pokemon)
                   + check("new", "played this turn")),
              rows("play", "card", 3, lambda i: text("card", f"Play {i}", pokemon)
                   + text("on", "on (a Baby)", pokemon)),
              many("battling", "Battling", pokemon, 3))),
        Form("knockout", "A knock-out and victory", "battle",
             "The attacked Pokemon's damage, what a knock-out discards (the card on top and every pre-evolved form "
             "under it), the Waiting Pokemon its owner sends up, and whether the game is won. Damage: what is on a "
             "Pokemon already.", "carddb play minibattle knockout Charmeleon Ivysaur --damage 9 --yours "
             "Charmander/Charmeleon --theirs Bulbasaur/Ivysaur=52 --theirs-waiting Squirtle",
             (text("attacker", "Your attacking Pokemon", pokemon) + text("target", "attacks", pokemon)
              + number("damage", "Damage dealt") + text("send_up", "They send up", pokemon),
              *(rows(side, "card", 3, lambda i, who=who: text("card", f"{who} Pokemon {i}", pokemon)
                     + text("under[]", "on", pokemon) + text("under[]", "on that", pokemon)
                     + number("damage", "damage on it") + check("waiting", "Waiting"))
                for side, who in (("yours", "Your"), ("theirs", "Their"))))),
        Form("evolve", "Evolving and Evolution Healer", "evolution",
             "The damage on a Pokemon stays when it evolves, unless the evolving card has Evolution Healer.",
             "carddb play minibattle evolve Pichu=12 Pikachu",
             (text("card", "Pokemon", pokemon) + text("under[]", "on", pokemon) + number("damage", "damage on it")
              + check("new", "played this turn"), text("into", "Evolves into", pokemon))),
    ]

