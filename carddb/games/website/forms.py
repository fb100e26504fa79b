"""The forms of Website TCG's Play page on the site, one per helper of ``play.py`` (answered in the browser)."""

from __future__ import annotations

from collections.abc import Callable

from carddb.core.game.definition import GameDefinition
from carddb.games.website.persistence import removals_of
from carddb.site.play_page import Form, check, many, name_list, number, rows, select, text


def _site_row(game: GameDefinition, count: int) -> Callable[[int], str]:
    base, component = name_list(game, "base-site"), name_list(game, "component")
    return lambda i: (text("base", f"Site {i}: base site", base)
                      + "".join(text("components[]", f"component {n}", component) for n in range(1, count + 1)))


def forms(game: GameDefinition) -> list[Form]:
    base, component, critic = name_list(game, "base-site"), name_list(game, "component"), name_list(game, "critic")
    return [
        Form("site", "A site's totals", "components",
             "One component of each name, types matching, requirements met when played; its IP, GP and CP.",
             'carddb play website site "Neutral Base Card + Splash Page (Neutral) + Guestbook"',
             (text("base", "Base site", base), many("components", "Component", component, 8))),
        Form("critics", "Critics won over", "critics",
             "Every critic of the catalogue against your sites; a critic looks at one site only.",
             'carddb play website critics "Alan\'s Site Base Card + Guestbook"',
             (rows("sites", "base", 2, _site_row(game, 6)),
              number("short", "short allowed (Kathleen-The Helper: 10)"))),
        Form("missing", "What a critic still needs", "critics",
             "The IP, GP and CP each site falls short of one critic.",
             'carddb play website missing "Graphics Guru" "Alan\'s Site Base Card + Guestbook"',
             (text("critic", "Critic", critic) + number("short", "short allowed"),
              rows("sites", "base", 2, _site_row(game, 6)))),
        Form("win", "Has anyone won?", "winning",
             "100 critic points, an opponent without components, or an opponent without cards at the start of their "
             "turn.", "carddb play website win --points 95 --critic \"Casual Surfer\"",
             (number("points", "Your points") + number("components", "components") + number("deck", "deck"),
              many("critics", "Critic won", critic, 3),
              number("opponent_points", "Their points") + number("opponent_components", "components")
              + number("opponent_deck", "deck"),
              many("opponent_critics", "Their critic", critic, 3),
              select("turn_starts", "Turn starting", [("", "(neither)"), ("you", "yours"), ("opponent", "theirs")]))),
        *persistence_forms(game),
    ]


def persistence_forms(game: GameDefinition) -> list[Form]:
    """What stays in play: critics won, removal cards, Natasha's stack."""
    critic, card = name_list(game, "critic"), name_list(game, "card")
    return [
        Form("favour", "Do my critics stay won?", "critics",
             "A critic won over never loses favour, even when your sites' totals fall below what it needs.",
             'carddb play website favour "Webring Judge" --site "Neutral Base Card + Guestbook"',
             (many("critics", "Critic won", critic, 4), rows("sites", "base", 2, _site_row(game, 6)))),
        Form("remove", "What may a removal card remove?", "keeping-cards-in-play",
             "Only what its words name: a component, a critic or a card kept in play; never a card that cannot be "
             "removed, nor one Natasha-The Defender protects.",
             'carddb play website remove "Spam Flood" "Natasha-The Defender"',
             (text("removal", "Removal card", name_list(game, "removal")), many("targets", "Card to remove", card, 1),
              number("natashas", "Natashas on it", "0") + check("programmer", "Alan-The Programmer in play"))),
        Form("natasha", "Natashas stacked on a card", "faq",
             "Each Natasha protects the card beneath it: the top one goes first, then each below, then the card.",
             'carddb play website natasha Guestbook --natashas 4',
             (text("target", "Card in play", card), number("natashas", "Natashas on it", "1")
              + check("programmer", "Alan-The Programmer in play") + check("theirs", "on your opponent's card"))),
    ]


#: Card name lists beside one per kind, offered by the forms' fields.
NAME_LISTS = {"card": lambda c: True, "removal": lambda c: bool(removals_of(c))}
