"""The play helpers' forms of ssq's turn calculator page (``page.py``): odds and items, lives and Smash Powers,
answered in the browser by ``play.py``."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.site.bundle import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text
from carddb.site.play_page import Form, check, datalists, form_html, many, name_list, number, select, text


def odds_forms(game: GameDefinition, cards: Sequence[Card], page: str) -> list[str]:
    """The odds and items forms of the ssq calculator page (raw HTML, inside its calculator block)."""
    fighter, move = name_list(game, "fighter"), name_list(game, "move")
    formats = [(f.id, f.label) for f in game.formats.values()]
    forms = [
        Form("odds", "Hit odds", "attacking-and-defending",
             "The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage, "
             "before anyone rolls.", 'carddb play ssq odds Mario "Red Fireball" Bowser',
             (text("fighter", "Fighter", fighter, "Mario") + text("move", "attack", move, "Red Fireball")
              + text("target", "target", fighter, "Bowser"),
              select("defence", "Defence", [("dodge", "dodge (AGI + Dodge)"), ("guard", "guard (AGI + Guard)")])
              + check("same_tick", "same tick (AGI alone)"),
              number("attacks", "attacks this turn", "1", 1) + number("extra_dice", "extra dice", "0")
              + select("format", "Damage", formats)), "Work out the odds"),
        Form("clash-odds", "Same-tick clash odds", "same-tick",
             "Two fighters attacking each other on the same tick, before the roll: who hits, how often they clash.",
             'carddb play ssq clash-odds Mario "Red Fireball" Bowser "Bowser\'s Punch"',
             (text("first.fighter", "First fighter", fighter) + text("first.move", "attack", move)
              + number("first.extra_power", "Power bought", "0"),
              text("second.fighter", "Second fighter", fighter) + text("second.move", "attack", move)
              + number("second.extra_power", "Power bought", "0"), select("format", "Damage", formats)),
             "Work out the odds"),
        Form("items", "Items held", "items", "One held item at a time; the Smash Dex and badges do not count.",
             'carddb play ssq items Link "Beam Sword"',
             (text("fighter", "Fighter", fighter), many("items", "Item", name_list(game, "weapon"), 3)), "Check"),
        *movement_forms(game),
    ]
    forms += lives_forms(game)
    lines = [f'<div class="carddb-play" data-play data-game="{html_text(game.id)}" '
             f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
             *datalists(game, cards, {"weapon": lambda c: c.get("move_type") == "weapon"})]
    for form in forms:
        lines += form_html(game, form, False, page)
    return [*lines, "</div>"]


# ------------------------------------------------- movement and percentile rolls (movement.py, percentile.py)
def movement_forms(game: GameDefinition) -> list[Form]:
    """How far a fighter gets in a turn, and a percentile move's outcomes for a Luck."""
    fighter, move = name_list(game, "fighter"), name_list(game, "move")
    return [
        Form("reach", "Movement in a turn", "movement",
             "How far a fighter gets: a walk is half its Movement, a dash its Movement, a jump its Jump; a double "
             "jump straight after a jump, a triple jump with an Up+B move; all within the turn's lowest Rate. Write "
             "walk, dash, jump or double jump, or a move's name; leave the actions empty for the farthest turn.",
             "carddb play ssq reach Bowser dash \"Bowser's Punch\" \"Koopa Klaw\" --tick 4",
             (text("fighter", "Fighter", fighter, "Mario") + number("tick", "tick", "0"),
              many("actions", "Action", move, 4)), "Work out the distance"),
        Form("percentile", "Percentile moves and Luck", "percentile-rolls",
             "The exact chance of each outcome of a move whose Power a percentile roll decides (Item Pull, Judgment "
             "Hammer), Luck added; give a roll to see what it pulls.",
             'carddb play ssq percentile "Judgment Hammer"',
             (text("move", "Move", move, "Judgment Hammer") + text("fighter", "Fighter (default: the move's own)",
                                                                 fighter),
              number("luck", "Luck (default: the fighter's)") + check("no_luck", "do not add Luck")
              + number("roll", "roll (1 to 100)", "", 1)), "Work out the odds"),
    ]


# ------------------------------------------------------------ lives, Game Over, one Smash Power a turn (lives.py)
def lives_forms(game: GameDefinition) -> list[Form]:
    """A life lost and the Game Over; the Smash Powers of one turn."""
    fighter, move = name_list(game, "fighter"), name_list(game, "move")
    causes = [("fall", "fell off a ledge"), ("hp", "0 HP in HP mode"), ("smash", "killed outright by a Smash"),
              ("star-finish", "star finish")]
    return [
        Form("lose-life", "A life lost, Game Over", "death",
             "Lives left after a death; with none left, the Game Over: half the coins, the sessions sat out in the "
             "infirmary and the three lives a fighter comes back with.",
             "carddb play ssq lose-life Mario --lives 1 --coins 125 --session 4",
             (text("fighter", "Fighter", fighter, "Mario") + select("cause", "How", causes),
              number("lives", "lives before (empty: the fighter's)") + number("coins", "coins held")
              + number("session", "this session's number", low=1)), "Work it out"),
        Form("smash-powers", "One Smash Power a turn", "smash-points",
             "The Smash Powers of one turn; defensive ones used between the fighter's turns, such as the Bubble "
             "Shield, do not count.",
             'carddb play ssq smash-powers Mario "Bubble Shield" --between "Bubble Shield"',
             (text("fighter", "Fighter", fighter), many("turn", "Move on the turn", move, 3),
              many("between_turns", "Used between turns", move, 2)), "Check"),
    ]
