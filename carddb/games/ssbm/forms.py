"""The forms of Super Smash Bros. Melee CCG's Play page on the site, one per helper of ``play.py`` (answered in the
browser)."""

from __future__ import annotations

from carddb.core.game.definition import GameDefinition
from carddb.site.play_page import Form, check, many, name_list, number, rows, select, text


def forms(game: GameDefinition) -> list[Form]:
    char, play = name_list(game, "character"), name_list(game, "play")
    attack, recovery = name_list(game, "attack"), name_list(game, "recovery")
    return [
        Form("damage", "Damage of a play", "combo-damage",
             "Each attack deals STRENGTH + X; successive successful attacks add +1D, +2D, ...; a failed attack ends "
             "the chain.", 'carddb play ssbm damage Ganondorf "Set-Up Attack"',
             (text("character", "Character", char, "Ganondorf"),
              rows("attacks", "card", 5, lambda i: text("card", f"Attack {i}", attack)
                   + check("hit", "hits", checked=True) + number("bonus", "+D", low=-99)))),
        Form("taken", "Damage taken", "damage",
             "Flip half the damage (rounded down); a defensive card flipped halves the damage and stops the flipping.",
             'carddb play ssbm taken 7 Attack "Dodge: Roll"',
             (number("damage", "Damage dealt") + number("before", "damage already taken"),
              many("flipped", "Flip", play, 6))),
        Form("ko", "KO and recovery", "recovering",
             "A KO-icon attack KOs a character whose damage is higher than ENDURANCE, unless their recovery cards "
             "save them.", 'carddb play ssbm ko "Smash Attack" Mario --damage 85 Jump "Dodge: Air"',
             (text("attack", "Attack", attack) + text("target", "Character hit", char),
              number("damage", "Its damage") + number("endurance", "ENDURANCE changed to"),
              many("recovery", "Recovery card", recovery, 2))),
        Form("chain", "Interrupt chain", "interrupting",
             "The card played, then each card that interrupts the one before, with who plays it: whether each "
             "interrupt is allowed, what takes effect from the last card back, and whose turn ends. A player's "
             "second recovery card must make a recovery with the first: \"you may NOT play the card titled 'Jump' "
             "then another card titled 'Jump' to recover yourself, because they are both 1st Recovery cards\" "
             "(Recovering).",
             'carddb play ssbm chain "Link=Smash Attack" Mario=Jump "Mario=Dodge: Air"',
             (rows("plays", "card", 6, lambda i: text("player", f"{i}. Player (character)", char)
                   + text("card", "plays", play)),)),
        Form("after-ko", "After a KO", "koing",
             "What the KO'd player puts back into the deck, the SPEED cards drawn, and what the KO costs in the "
             "match. An item among the field cards is an unequipped item.",
             "carddb play ssbm after-ko Mario --field \"Set-Up Attack\" --discard 12 --stock 3 --by Link",
             (text("character", "Character KO'd", char) + text("by", "KO'd by", char),
              many("field", "On the field", play, 4),
              many("equipped", "Equipped item", play, 2),
              number("deck", "Cards in the deck") + number("discard", "in the discard pile")
              + number("hand", "in the hand"),
              select("mode", "Mode", [("stock", "STOCK"), ("time", "TIME")]) + number("stock", "stock before",
                                                                                      low=0))),
        Form("order", "Turn order", "turn",
             "The highest INTELLIGENCE goes first, ties broken by SPEED; each player draws SPEED cards a turn.",
             "carddb play ssbm order Mario Ganondorf", (many("characters", "Character", char, 4),)),
        Form("cards", "The play phase", "interrupting",
             "Which cards may be played in the play phase, and which cannot be interrupted or blocked.",
             "carddb play ssbm cards Charge Block", (many("cards", "Card", play, 6),)),
        Form("discard", "Discarding to draw", "discarding-cards",
             "Up to three times a turn, discard a card to draw one (two for a dodge or block card).",
             "carddb play ssbm discard Taunt Block", (many("cards", "Discard", play, 4),)),
        Form("match", "Match score", "match-modes",
             "TIME: +1 a KO, -1 a self-destruct. STOCK: each KO or self-destruct costs 1 stock. Leave \"KO'd by\" "
             "empty for a self-destruct.", "carddb play ssbm match Link:Mario Mario:sd --stock 2",
             (select("mode", "Mode", [("stock", "STOCK"), ("time", "TIME")]) + number("stock", "stock", "5", 1),
              rows("events", "player", 6, lambda i: text("player", f"{i}. KO'd or self-destructed", char)
                   + text("by", "KO'd by", char)))),
    ]


#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"attack": lambda c: isinstance(c.get("damage"), int),
              "recovery": lambda c: bool({"recovery-1", "recovery-2"} & set(c.get("icons") or []))}
