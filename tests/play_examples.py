"""One example of each play helper, as the command line is given it and as the site's form sends it, shared by the
rules tests (every rule link lands on a rulebook heading), the CLI tests and the browser tests (the page and the
command line give the same answer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Example:
    game: str
    helper: str
    args: tuple[str, ...]  # after `carddb play GAME HELPER`
    request: dict[str, Any]  # what the helper reads (the site's form sends the same)

    @property
    def id(self) -> str:
        return f"{self.game}-{self.helper}"


EXAMPLES = [
    # ssbm: the rulebook's examples where it gives them
    Example("ssbm", "damage", ("Ganondorf", "Set-Up Attack", "Attack", "Grab", "--failed", "3"),
            {"character": "Ganondorf", "attacks": [{"card": "Set-Up Attack", "hit": True, "bonus": 0},
                                                   {"card": "Attack", "hit": True, "bonus": 0},
                                                   {"card": "Grab", "hit": False, "bonus": 0}]}),
    Example("ssbm", "taken", ("7", "Attack", "Dodge: Roll"), {"damage": 7, "flipped": ["Attack", "Dodge: Roll"]}),
    Example("ssbm", "ko", ("Smash Attack", "Mario", "Jump", "Dodge: Air", "--damage", "85"),
            {"attack": "Smash Attack", "target": "Mario", "damage": 85, "recovery": ["Jump", "Dodge: Air"]}),
    Example("ssbm", "order", ("Mario", "Ganondorf", "Ness"), {"characters": ["Mario", "Ganondorf", "Ness"]}),
    Example("ssbm", "cards", ("Charge", "Block", "Item: Throw"), {"cards": ["Charge", "Block", "Item: Throw"]}),
    Example("ssbm", "discard", ("Taunt", "Block", "Dodge: Air"), {"cards": ["Taunt", "Block", "Dodge: Air"]}),
    Example("ssbm", "match", ("Link:Mario", "Mario:sd", "--stock", "2"),
            {"mode": "stock", "stock": 2, "events": [{"player": "Mario", "by": "Link"}, {"player": "Mario"}]}),
    Example("ssbm", "chain", ("Mario=Taunt", "Link=Attack", "Mario=Block"),
            {"plays": [{"player": "Mario", "card": "Taunt"}, {"player": "Link", "card": "Attack"},
                       {"player": "Mario", "card": "Block"}]}),
    Example("ssbm", "after-ko", ("Mario", "--field", "Set-Up Attack", "--field", "Mushroom", "--equipped",
                                 "Super Mushroom", "--deck", "30", "--discard", "12", "--hand", "3", "--stock", "3",
                                 "--by", "Link"),
            {"character": "Mario", "by": "Link", "field": ["Set-Up Attack", "Mushroom"], "equipped": ["Super Mushroom"],
             "deck": 30, "discard": 12, "hand": 3, "mode": "stock", "stock": 3}),
    # shmod
    Example("shmod", "battle", ("Night Reaver", "Coral Warden", "--defense"),
            {"attacker": "Night Reaver", "defender": "Coral Warden", "position": "defense"}),
    Example("shmod", "phase", ("--mine", "Night Reaver", "--mine", "Gale Sparrow", "--theirs", "Gloom Imp",
                               "--attack", "Night Reaver=Gloom Imp", "--attack", "Gale Sparrow", "--life", "7"),
            {"mine": [{"card": "Night Reaver", "position": "attack"}, {"card": "Gale Sparrow", "position": "attack"}],
             "theirs": [{"card": "Gloom Imp", "position": "attack"}],
             "attacks": [{"attacker": "Night Reaver", "target": "Gloom Imp"}, {"attacker": "Gale Sparrow",
                                                                               "target": ""}], "life": 7}),
    Example("shmod", "mana", ("Magma Colossus", "FIRE=1", "EARTH=4"),
            {"card": "Magma Colossus", "mana": {"FIRE": 1, "EARTH": 4}}),
    Example("shmod", "turn", ("--first-turn", "--charge", "Ember Whelp", "--set", "Pitfall Snare"),
            {"first_turn": True, "charges": ["Ember Whelp"], "set": ["Pitfall Snare"]}),
    Example("shmod", "atk-change", ("--mine", "Gale Sparrow", "--mine", "Cinder Hound",
                                    "--theirs", "Coral Warden=defense", "--attack", "Gale Sparrow=Coral Warden",
                                    "--attack", "Cinder Hound=Coral Warden",
                                    "--change", "1:Gale Sparrow=+2", "--change", "1:Cinder Hound=+2"),
            {"mine": [{"card": "Gale Sparrow", "position": "attack"}, {"card": "Cinder Hound", "position": "attack"}],
             "theirs": [{"card": "Coral Warden", "position": "defense"}],
             "attacks": [{"attacker": "Gale Sparrow", "target": "Coral Warden"},
                         {"attacker": "Cinder Hound", "target": "Coral Warden"}],
             "changes": [{"after": 1, "whose": "mine", "card": "Gale Sparrow", "by": 2},
                         {"after": 1, "whose": "mine", "card": "Cinder Hound", "by": 2}]}),
    Example("shmod", "immunity", ("Halo Knight", "Monster Bash", "--immunity", "Spells", "--given-by", "Monster Bash"),
            {"monster": "Halo Knight", "card": "Monster Bash", "immunity": "Spells", "given_by": "Monster Bash"}),
    Example("shmod", "lasts", ("Volcanic Caldera", "field-played", "--other", "Sunken Reef"),
            {"card": "Volcanic Caldera", "event": "field-played", "other": "Sunken Reef"}),
    Example("shmod", "fusion", ("Steam Titan", "Cinder Hound=hand", "Reef Lancer"),
            {"card": "Steam Titan", "materials": [{"card": "Cinder Hound", "from": "hand"},
                                                  {"card": "Reef Lancer", "from": "field"}]}),
    # minibattle
    Example("minibattle", "battle", ("Charizard", "Wartortle", "--defender-hp", "20"),
            {"attacker": {"card": "Charizard"}, "defender": {"card": "Wartortle", "hp": 20}}),
    Example("minibattle", "between", ("Clefairy", "--hp", "12", "--condition", "Psn", "--condition", "Slp"),
            {"card": "Clefairy", "hp": 12, "conditions": ["Psn", "Slp"]}),
    Example("minibattle", "plays", ("--in-play", "Charmander", "--in-play", "Pichu", "--play", "Charmeleon",
                                    "--play", "Pikachu=Pichu"),
            {"in_play": [{"card": "Charmander", "new": False}, {"card": "Pichu", "new": False}],
             "play": [{"card": "Charmeleon", "on": ""}, {"card": "Pikachu", "on": "Pichu"}]}),
    Example("minibattle", "hand", ("Raichu", "Charmander", "Ivysaur"), {"hand": ["Raichu", "Charmander", "Ivysaur"]}),
    Example("minibattle", "knockout", ("Charmeleon", "Ivysaur", "--damage", "9", "--yours", "Charmander/Charmeleon",
                                       "--theirs", "Bulbasaur/Ivysaur=52", "--theirs-waiting", "Squirtle",
                                       "--theirs-waiting", "Pichu/Pikachu", "--send-up", "Pikachu"),
            {"attacker": "Charmeleon", "target": "Ivysaur", "damage": 9, "send_up": "Pikachu",
             "yours": [{"card": "Charmeleon", "under": ["Charmander"], "damage": 0, "waiting": False}],
             "theirs": [{"card": "Ivysaur", "under": ["Bulbasaur"], "damage": 52, "waiting": False},
                        {"card": "Squirtle", "under": [], "damage": 0, "waiting": True},
                        {"card": "Pikachu", "under": ["Pichu"], "damage": 0, "waiting": True}]}),
    Example("minibattle", "evolve", ("Pichu=12", "Pikachu"),
            {"pokemon": {"card": "Pichu", "under": [], "damage": 12}, "into": "Pikachu", "new": False}),
    # website
    Example("website", "site", ("Neutral Base Card + Splash Page (Neutral) + Guestbook + Hit Counter",),
            {"site": {"base": "Neutral Base Card",
                      "components": ["Splash Page (Neutral)", "Guestbook", "Hit Counter"]}}),
    Example("website", "critics", ("Alan's Site Base Card + Splash Page (Alan's Site) + Guestbook + Hit Counter",),
            {"sites": [{"base": "Alan's Site Base Card",
                        "components": ["Splash Page (Alan's Site)", "Guestbook", "Hit Counter"]}]}),
    Example("website", "missing", ("Graphics Guru", "Alan's Site Base Card + Splash Page (Alan's Site) + Animated "
                                                    "Banner"),
            {"critic": "Graphics Guru", "sites": [{"base": "Alan's Site Base Card",
                                                   "components": ["Splash Page (Alan's Site)", "Animated Banner"]}]}),
    Example("website", "win", ("--points", "95", "--critic", "Casual Surfer"),
            {"points": 95, "critics": ["Casual Surfer"]}),
    Example("website", "setup", ("APSN Base Card", "Guestbook", "Casual Surfer", "Message Board", "APSN Forum",
                                 "Alan-Site Master"),
            {"base": "APSN Base Card", "top": ["Guestbook", "Casual Surfer", "Message Board", "APSN Forum",
                                               "Alan-Site Master"]}),
    Example("website", "turn", ("--base-site", "APSN Base Card", "--searches", "1"),
            {"base_sites": ["APSN Base Card"], "searches": 1}),
    Example("website", "favour", ("Webring Judge", "Casual Surfer", "--site", "Neutral Base Card + Guestbook"),
            {"critics": ["Webring Judge", "Casual Surfer"],
             "sites": [{"base": "Neutral Base Card", "components": ["Guestbook"]}]}),
    Example("website", "remove", ("Spam Flood", "Natasha-The Defender", "--natashas", "1"),
            {"removal": "Spam Flood", "targets": ["Natasha-The Defender"], "natashas": 1}),
    Example("website", "natasha", ("Guestbook", "--natashas", "2", "--programmer"),
            {"target": "Guestbook", "natashas": 2, "programmer": True}),
    # ssq additions
    Example("ssq", "odds", ("Mario", "Red Fireball", "Bowser"),
            {"fighter": "Mario", "move": "Red Fireball", "target": "Bowser"}),
    Example("ssq", "clash-odds", ("Mario", "Red Fireball", "Bowser", "Bowser's Punch"),
            {"first": "Mario", "first_move": "Red Fireball", "second": "Bowser", "second_move": "Bowser's Punch"}),
    Example("ssq", "items", ("Link", "Beam Sword", "Smash Dex"), {"fighter": "Link", "items": ["Beam Sword",
                                                                                           "Smash Dex"]}),
    # ssq movement and percentile rolls: the rulebook's Bowser's combo (a dash, then two attacks of Rate 3)
    Example("ssq", "reach", ("Bowser", "dash", "Bowser's Punch", "Koopa Klaw", "--tick", "4"),
            {"fighter": "Bowser", "actions": ["dash", "Bowser's Punch", "Koopa Klaw"], "tick": 4}),
    Example("ssq", "percentile", ("Item Pull", "--roll", "97"), {"move": "Item Pull", "roll": 97}),
    # ssq lives, Game Over and the one Smash Power a turn (lives.py)
    Example("ssq", "lose-life", ("Mario", "--lives", "1", "--coins", "125", "--session", "4"),
            {"fighter": "Mario", "lives": 1, "coins": 125, "session": 4}),
    Example("ssq", "smash-powers", ("Mario", "Red Fireball", "Bubble Shield", "--between", "Bubble Shield"),
            {"fighter": "Mario", "turn": ["Red Fireball", "Bubble Shield"], "between_turns": ["Bubble Shield"]}),
    # ssq's turn and what happens around it (table.py): the rulebook's Red Fireball on Bowser
    Example("ssq", "turn", ("Mario", "Red Fireball", "--tick", "2", "--target", "Bowser", "--result", "3:1"),
            {"fighter": "Mario", "tick": 2, "target": "Bowser",
             "actions": [{"action": "Red Fireball", "successes": 3, "defence_successes": 1}]}),
    Example("ssq", "initiative", ("Pikachu=5", "Mario=3", "Bowser=1"),
            {"fighters": [{"fighter": "Pikachu", "successes": 5}, {"fighter": "Mario", "successes": 3},
                          {"fighter": "Bowser", "successes": 1}]}),
    Example("ssq", "clash", ("Mario", "Red Fireball", "Bowser", "Bowser's Punch", "--result", "3:2"),
            {"first": "Mario", "first_move": "Red Fireball", "second": "Bowser", "second_move": "Bowser's Punch",
             "result": [3, 2]}),
    Example("ssq", "charge", ("Pikachu", "Super Smash", "--tick", "9", "--ticks", "3", "--used", "Pikachu's Punch",
                              "--event", "release", "--at", "11"),
            {"fighter": "Pikachu", "move": "Super Smash", "tick": 9, "ticks": 3, "used": ["Pikachu's Punch"],
             "event": "release", "at": 11}),
    Example("ssq", "sp", ("Mario", "--sp", "1", "--from-tick", "3", "--to-tick", "14"),
            {"fighter": "Mario", "sp": 1, "from_tick": 3, "to_tick": 14}),
    Example("ssq", "recovery", ("Mario", "--damage", "75", "--hit", "10", "--ledge", "1", "--roll", "1", "--up-b",
                                "Super Jump Punch", "--up-b-roll", "2"),
            {"fighter": "Mario", "damage": 75, "hit": 10, "ledge": 1, "roll": 1, "up_b": "Super Jump Punch",
             "up_b_roll": 2}),
]
