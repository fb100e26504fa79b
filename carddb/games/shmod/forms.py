"""The forms of Shmod's Play page on the site for the helpers of ``play.py`` that read their requests by hand (the
others' forms come from their typed signatures), answered in the browser."""

from __future__ import annotations

from carddb.core.game.definition import GameDefinition
from carddb.site.play_page import Form, check, name_list, number, rows, select, text


def forms(game: GameDefinition) -> list[Form]:
    monster, card = name_list(game, "monster"), name_list(game, "card")
    position = [("attack", "Attack Position"), ("defense", "Defense Position")]
    types = game.fields["type"].choices if "type" in game.fields else ()
    whose = [("mine", "your monster"), ("theirs", "their monster")]
    return [
        Form("battle", "A battle", "battling",
             "Attack against attack, attack against defense, or (no defender) a direct attack. Leave ATK and DEF empty "
             "to use the cards' own.", 'carddb play shmod battle "Night Reaver" "Coral Warden" --defense',
             (text("attacker", "Attacker", monster) + number("atk", "ATK now"),
              text("defender", "Defender", monster) + select("position", "in", position)
              + number("defender_atk", "ATK now") + number("defender_def", "DEF now"),
              check("defender_has_monsters", "the defending player has monsters (for a direct attack)"))),
        Form("phase", "A Battle Phase", "battling",
             "Each attack in order; leave the target empty to attack directly. Life starts at 10.",
             'carddb play shmod phase --mine "Night Reaver" --theirs "Gloom Imp" --attack "Night Reaver=Gloom Imp"',
             (number("life", "Your Life", "10") + number("their_life", "their Life", "10")
              + check("first_turn", "the first player's first turn"),
              rows("mine", "card", 4, lambda i: text("card", f"Your monster {i}", monster)
                   + select("position", "in", position)),
              rows("theirs", "card", 4, lambda i: text("card", f"Their monster {i}", monster)
                   + select("position", "in", position)),
              rows("attacks", "attacker", 5, lambda i: text("attacker", f"Attack {i}: attacker", monster)
                   + text("target", "target", monster)))),
        Form("mana", "Paying mana", "monsters",
             "Tap mana equal to the LEVEL, with at least 1 of a monster's TYPE (not for COLOURLESS); a Level X card "
             "takes any amount.", 'carddb play shmod mana "Magma Colossus" FIRE=1 EARTH=4',
             (text("card", "Card", card) + number("x", "X") + check("by_effect", "played by an effect"),
              "".join(number(f"mana.{t}", t) for t in types))),
        Form("atk-change", "An ATK changed in the Battle Phase", "battling",
             "An Equip, a Field card or an effect changes a monster's ATK after some attacks (0: before the first): "
             "the battles already fought stand, the attacks after it use the new ATK.",
             'carddb play shmod atk-change --mine "Cinder Hound" --theirs "Coral Warden=defense" '
             '--attack "Cinder Hound=Coral Warden" --change "0:Cinder Hound=+2"',
             (number("life", "Your Life", "10") + number("their_life", "their Life", "10"),
              rows("mine", "card", 3, lambda i: text("card", f"Your monster {i}", monster)
                   + select("position", "in", position)),
              rows("theirs", "card", 3, lambda i: text("card", f"Their monster {i}", monster)
                   + select("position", "in", position)),
              rows("attacks", "attacker", 4, lambda i: text("attacker", f"Attack {i}: attacker", monster)
                   + text("target", "target", monster)),
              rows("changes", "card", 3, lambda i: number("after", f"Change {i}: after attacks")
                   + select("whose", "to", whose) + text("card", "monster", monster)
                   + number("by", "ATK +/-", low=-99)))),
        Form("fusion", "Fusion and Transformation", "fusion-and-transformation-monsters",
             "The monsters a Fusion or Transformation monster names, where they may come from, and what goes to "
             "the Graveyard; no mana is paid.", 'carddb play shmod fusion "Steam Titan" "Cinder Hound=hand" '
             '"Reef Lancer"',
             (text("card", "Fusion or Transformation monster", monster),
              rows("materials", "card", 3, lambda i: text("card", f"Material {i}", monster)
                   + select("from", "from your", [("field", "field"), ("hand", "hand")])))),
    ]


#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"card": lambda c: True}
