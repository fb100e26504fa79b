"""The Play page of a deck game (``games/<id>/play.md``) and the ssq calculator's odds forms: one form per play helper
of ``carddb/rules/*_play.py`` and ``ssq_odds.py``, answered in the browser by the rules engine's worker
(``javascripts/play.js`` sends each form as the helper's request to ``rules/browser.py play_json``, the function
``carddb play <game> <helper> --json`` calls), with card names autocompleted from the catalogue (a datalist per kind).

A form field's ``name`` is the request key it fills: ``a.b`` a key of an object, ``x[]`` an entry of a list (a
checkbox with a value adds it when ticked), and the fields of a ``data-row`` element make one object of the list
the row names (kept when its ``data-key`` field is filled). A ``format`` select picks the game's format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition
from carddb.site.bundle import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text, md_text, rule_href, url_prefix

CONDITIONS = ("Prlz", "Slp", "Cnfs", "Psn")


# ------------------------------------------------------------------------------------------------- form fields
def text(name: str, label: str, names: str = "", value: str = "") -> str:
    """A text field; ``names``: the datalist its card names are offered from."""
    listed = f' list="{html_text(names)}"' if names else ""
    preset = f' value="{html_text(value)}"' if value else ""
    return (f'<label>{html_text(label)} <input type="text" name="{html_text(name)}"{listed}{preset} '
            f'autocomplete="off"></label>')


def number(name: str, label: str, value: str = "", low: int = 0) -> str:
    preset = f' value="{html_text(value)}"' if value else ""
    return (f'<label>{html_text(label)} <input type="number" name="{html_text(name)}" min="{low}" step="1"'
            f'{preset}></label>')


def check(name: str, label: str, value: str = "", checked: bool = False) -> str:
    extra = (f' value="{html_text(value)}"' if value else "") + (" checked" if checked else "")
    return f'<label><input type="checkbox" name="{html_text(name)}"{extra}> {html_text(label)}</label>'


def select(name: str, label: str, options: Sequence[tuple[str, str]]) -> str:
    items = "".join(f'<option value="{html_text(v)}">{html_text(t)}</option>' for v, t in options)
    return f'<label>{html_text(label)} <select name="{html_text(name)}">{items}</select></label>'


def many(name: str, label: str, names: str, count: int) -> str:
    """``count`` text fields filling the list ``name[]``, in order."""
    return "".join(text(f"{name}[]", f"{label} {i}" if count > 1 else label, names) for i in range(1, count + 1))


def conditions(name: str, label: str) -> str:
    return f"<span>{html_text(label)}</span>" + "".join(check(f"{name}[]", c, c) for c in CONDITIONS)


def rows(name: str, key: str, count: int, make: Callable[[int], str]) -> str:
    """``count`` rows, each one object of the list ``name`` (kept when its ``key`` field is filled)."""
    return "".join(f'<div class="carddb-row" data-row="{html_text(name)}" data-key="{html_text(key)}">{make(i)}</div>'
                   for i in range(1, count + 1))


@dataclass(frozen=True)
class Form:
    helper: str
    title: str
    anchor: str  # the rulebook section it follows
    intro: str
    command: str  # the same question on the command line
    lines: tuple[str, ...]  # each a row of fields (or rows() output)
    button: str = "Work it out"


def _form_html(game: GameDefinition, form: Form, headings: bool, page: str) -> list[str]:
    if headings:  # Markdown: MkDocs checks the link and its anchor
        head = [f"## {md_text(form.title)} {{#{form.helper}}}", "",
                f"{md_text(form.intro)} [Rule]({rule_href(game.id, form.anchor, page)}). On the command line: "
                f"`{form.command}`.", ""]
    else:  # raw HTML inside another block: the built URL of the rulebook section
        href = f"{url_prefix(page)}games/{game.id}/rulebook/#{form.anchor}"
        head = [f'<h2 id="{html_text(form.helper)}">{html_text(form.title)}</h2>',
                f'<p>{html_text(form.intro)} <a href="{html_text(href)}">Rule</a>. On the command line: '
                f"<code>{html_text(form.command)}</code>.</p>"]
    body = [f'<form class="carddb-play-form" data-play-form data-game="{html_text(game.id)}" '
            f'data-helper="{html_text(form.helper)}">',
            *(line if line.startswith("<div") else f'<div class="carddb-row">{line}</div>' for line in form.lines),
            f'<div class="carddb-row"><button type="submit" class="md-button" disabled>{html_text(form.button)}'
            "</button></div>", "</form>",
            f'<div class="carddb-result" data-play-result="{html_text(form.helper)}" aria-live="polite"></div>']
    return [*head, *body, ""] if headings else [*head, *body]


# --------------------------------------------------------------------------------------------------- datalists
def datalists(game: GameDefinition, cards: Sequence[Card], extra: dict[str, Callable[[Card], bool]]) -> list[str]:
    """One ``<datalist>`` of card names per kind (``play-<game>-<kind>``) and per ``extra`` filter."""
    counts = Counter(c.name for c in cards)
    shared = {name for name, count in counts.items() if count > 1}
    groups: dict[str, list[str]] = {}
    for card in cards:
        name = card.key if card.name in shared else card.name
        groups.setdefault(card.kind, []).append(name)
        for key, keep in extra.items():
            if keep(card):
                groups.setdefault(key, []).append(name)
    return [f'<datalist id="play-{html_text(game.id)}-{html_text(key)}">'
            + "".join(f'<option value="{html_text(n)}"></option>' for n in sorted(set(names))) + "</datalist>"
            for key, names in sorted(groups.items())]


def _list(game: GameDefinition, key: str) -> str:
    return f"play-{game.id}-{key}"


# -------------------------------------------------------------------------------------------------- the games
def _ssbm(game: GameDefinition) -> list[Form]:
    char, play = _list(game, "character"), _list(game, "play")
    attack, recovery = _list(game, "attack"), _list(game, "recovery")
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


def _shmod(game: GameDefinition) -> list[Form]:
    monster, trap, card = _list(game, "monster"), _list(game, "trap"), _list(game, "card")
    position = [("attack", "Attack Position"), ("defense", "Defense Position")]
    types = game.fields["type"].choices if "type" in game.fields else ()
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
    ]


def _minibattle(game: GameDefinition) -> list[Form]:
    pokemon = _list(game, "pokemon")
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
        Form("hand", "The opening hand", "starting-a-game",
             "Kept when it holds a basic (or baby) Pokemon, else reshuffled.",
             "carddb play minibattle hand Raichu Charmander Ivysaur", (many("hand", "Card", pokemon, 3),)),
    ]


def _site_row(game: GameDefinition, count: int) -> Callable[[int], str]:
    base, component = _list(game, "base-site"), _list(game, "component")
    return lambda i: (text("base", f"Site {i}: base site", base)
                      + "".join(text("components[]", f"component {n}", component) for n in range(1, count + 1)))


def _website(game: GameDefinition) -> list[Form]:
    base, component, critic = _list(game, "base-site"), _list(game, "component"), _list(game, "critic")
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
        Form("setup", "Setup", "setup",
             "The components among the top 5 cards that fit the base site are attached; then draw 7.",
             'carddb play website setup "APSN Base Card" Guestbook "Casual Surfer" ...',
             (text("base", "Base site", base), many("top", "Card", _list(game, "card"), 5))),
        Form("turn", "A turn's limits", "turn",
             "One draw, one base site from the hand, a shuffle after every deck search.",
             'carddb play website turn --base-site "APSN Base Card" --searches 1',
             (many("base_sites", "Base site played", base, 2),
              number("searches", "deck searches", "0") + number("draws", "draws", "1"))),
    ]


FORMS = {"ssbm": _ssbm, "shmod": _shmod, "minibattle": _minibattle, "website": _website}
EXTRA_LISTS: dict[str, dict[str, Callable[[Card], bool]]] = {
    "ssbm": {"attack": lambda c: isinstance(c.get("damage"), int),
             "recovery": lambda c: bool({"recovery-1", "recovery-2"} & set(c.get("icons") or []))},
    "shmod": {"card": lambda c: True},
    "website": {"card": lambda c: True},
}


def has_play_page(game: GameDefinition) -> bool:
    return game.id in FORMS


def play_page(game: GameDefinition, cards: Sequence[Card], page: str) -> str:
    """Markdown of ``games/<id>/play.md``: the engine's status, then a form per helper (``page``: its docs path)."""
    out = [f"# {md_text(game.name)}: play helpers", "",
           "Settle what the table argues about: each form asks the same rules as `carddb play "
           f"{game.id} ...` on the command line, in your browser, and shows how the answer is worked out with the "
           "rulebook section of each step. Card names are offered as you type.", "",
           f'<div class="carddb-play" data-play data-game="{html_text(game.id)}" '
           f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
           '<p class="carddb-engine" data-engine role="status">The helpers need JavaScript.</p>',
           *datalists(game, cards, EXTRA_LISTS.get(game.id, {})), "</div>", ""]
    for form in FORMS[game.id](game):
        out += _form_html(game, form, True, page)
    out += _numbers(game)
    out += ["<noscript><p>This page needs JavaScript. On the command line: "
            f"<code>carddb play {html_text(game.id)} --help</code>.</p></noscript>", ""]
    return "\n".join(out)


def _numbers(game: GameDefinition) -> list[str]:
    """The ``[play]`` table the helpers read: what a house format would change."""
    if not game.play:
        return []
    shown = lambda v: ", ".join(str(x) for x in v) if isinstance(v, list) else (  # noqa: E731
        ", ".join(f"{k} {x:+d}" if isinstance(x, int) else f"{k} {x}" for k, x in v.items()) if isinstance(v, dict)
        else str(v).lower() if isinstance(v, bool) else str(v))
    return ["## The numbers of these rules {#numbers}", "",
            f"The helpers read these from `[play]` of `rules/{game.id}/game.toml`; a house format may change them. "
            "The readings they follow where the rulebook is unclear are on the deck construction page.", "",
            "| setting | value |", "|---|---|",
            *(f"| `{key}` | {md_text(shown(value))} |" for key, value in game.play.items()), ""]


def ssq_play_forms(game: GameDefinition, cards: Sequence[Card], page: str) -> list[str]:
    """The odds and items forms of the ssq calculator page (raw HTML, inside its calculator block)."""
    fighter, move = _list(game, "fighter"), _list(game, "move")
    formats = [(f.id, f.label) for f in game.formats.values()]
    forms = [
        Form("odds", "Hit odds", "attacking-and-defending",
             "The exact chance an attack hits (more successes than the defence; a tie misses) and its expected damage, "
             "before anyone rolls.", 'carddb ssq odds Mario "Red Fireball" Bowser',
             (text("fighter", "Fighter", fighter, "Mario") + text("move", "attack", move, "Red Fireball")
              + text("target", "target", fighter, "Bowser"),
              select("defence", "Defence", [("dodge", "dodge (AGI + Dodge)"), ("guard", "guard (AGI + Guard)")])
              + check("same_tick", "same tick (AGI alone)"),
              number("attacks", "attacks this turn", "1", 1) + number("extra_dice", "extra dice", "0")
              + select("format", "Damage", formats)), "Work out the odds"),
        Form("clash-odds", "Same-tick clash odds", "same-tick",
             "Two fighters attacking each other on the same tick, before the roll: who hits, how often they clash.",
             'carddb ssq clash-odds Mario "Red Fireball" Bowser "Bowser\'s Punch"',
             (text("first.fighter", "First fighter", fighter) + text("first.move", "attack", move)
              + number("first.extra_power", "Power bought", "0"),
              text("second.fighter", "Second fighter", fighter) + text("second.move", "attack", move)
              + number("second.extra_power", "Power bought", "0"), select("format", "Damage", formats)),
             "Work out the odds"),
        Form("items", "Items held", "items", "One held item at a time; the Smash Dex and badges do not count.",
             'carddb ssq items Link "Beam Sword"',
             (text("fighter", "Fighter", fighter), many("items", "Item", _list(game, "weapon"), 3)), "Check"),
    ]
    lines = [f'<div class="carddb-play" data-play data-game="{html_text(game.id)}" '
             f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
             *datalists(game, cards, {"weapon": lambda c: c.get("move_type") == "weapon"})]
    for form in forms:
        lines += _form_html(game, form, False, page)
    return [*lines, "</div>"]
