"""The forms of Shmod's Play page on the site, one per helper of ``play.py`` (answered in the browser)."""

from __future__ import annotations

from carddb.core.game.definition import GameDefinition
from carddb.site.play_page import Form, check, many, name_list, number, rows, select, text


def forms(game: GameDefinition) -> list[Form]:
    monster, trap, card = name_list(game, "monster"), name_list(game, "trap"), name_list(game, "card")
    position = [("attack", "Attack Position"), ("defense", "Defense Position")]
    types = game.fields["type"].choices if "type" in game.fields else ()
    whose = [("mine", "your monster"), ("theirs", "their monster")]
    events = [("", "(what ends it)"), ("resolves", "its effect resolves"), ("turn-ends", "the turn ends"),
              ("monster-leaves", "the equipped monster leaves"), ("removed", "an effect removes it"),
              ("field-played", "another Field card is played")]
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
        Form("turn", "A turn's limits", "phases",
             "One mana charge a turn, no trap activated the turn it is set, no Battle Phase on the first player's "
             "first turn.", 'carddb play shmod turn --charge "Ember Whelp" --set "Pitfall Snare"',
             (check("first_turn", "the first player's first turn"), many("charges", "Charge", card, 2),
              many("set", "Set trap", trap, 2), many("activate", "Activate trap", trap, 2),
              many("attacks", "Attack with", monster, 4))),
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
        Form("immunity", "Immunity", "immunity",
             "Whether a card's effect touches a monster with Immunity to ___ (its own, or one a card gives it): "
             "never stopped is the card giving the immunity. \"A monster with Immunity to ___ is completely "
             "unaffected by whatever fills the blank, except by the card that gives it the immunity\": a monster "
             "with none is affected as usual, which breaks no rule.",
             'carddb play shmod immunity "Cinder Hound" "Monster Bash"',
             (text("monster", "Monster", monster) + text("card", "affected by", card),
              text("immunity", "Immunity to (given by a card)") + text("given_by", "given by", card))),
        Form("lasts", "How long a spell or trap stays", "spells",
             "Equip cards sit behind their monster, Continuous cards stay until an effect sends them away, Field "
             "cards until an effect removes them or another Field card is played.",
             'carddb play shmod lasts "Flame Blade" monster-leaves',
             (text("card", "Spell or trap", card) + select("event", "when", events)
              + text("other", "other card (Field card played, monster equipped)", card),
              check("by_opponent", "the other player plays the new Field card"))),
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
