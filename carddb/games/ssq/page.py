"""The turn calculator of a game without decks (Super Smash Quest Skirmish): plan a turn and see whether it is
legal, each attack's dice pools and damage, and the next tick; order fighters by initiative; and work out what
happens around turns (same-tick clashes, charging, Smash Points, recovery). The page script (``javascripts/ssq.js``)
sends each form to the same functions ``carddb play ssq turn``, ``initiative``, ``clash``, ``charge``, ``sp`` and
``recovery`` call.
"""

from __future__ import annotations

from collections.abc import Sequence

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.games.ssq.forms import odds_forms
from carddb.site.bundle import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text, md_text

#: Action rows of the form; the Rate of the moves rulebook keeps a turn far below this.
ACTION_ROWS = 6
PLAIN_ACTIONS = (("action:move", "Move (Speed 4, Rate 4)"), ("action:jump", "Jump"),
                 ("action:grab-item", "Grab an item"))


def _options(items: Sequence[tuple[str, str]], selected: str = "") -> str:
    return "".join(f'<option value="{html_text(v)}"{" selected" if v == selected else ""}>{html_text(label)}</option>'
                   for v, label in items)


def _move_options(moves: Sequence[Card], plain_actions: bool = True) -> str:
    """Moves grouped by their fighter (a move of another fighter is reported by the calculator, not hidden)."""
    groups: dict[str, list[Card]] = {}
    for move in moves:
        groups.setdefault(str(move.fields.get("fighter") or "Any fighter"), []).append(move)
    out = [f'<optgroup label="Actions">{_options(PLAIN_ACTIONS)}</optgroup>'] if plain_actions else []
    for fighter, group in sorted(groups.items()):
        out.append(f'<optgroup label="{html_text(fighter)}">'
                   + _options([(m.name, m.name) for m in sorted(group, key=lambda m: m.name)]) + "</optgroup>")
    return "".join(out)


def _number(name: str, label: str, value: str = "") -> str:
    preset = f' value="{html_text(value)}"' if value else ""
    return f'<label>{html_text(label)} <input type="number" name="{name}" min="0"{preset}></label>'


def _select(name: str, label: str, options: str, empty: bool = False) -> str:
    none = '<option value="">(none)</option>' if empty else ""
    return f'<label>{html_text(label)} <select name="{name}">{none}{options}</select></label>'


def _fight_form(calc: str, title: str, intro: str, command: str, rows: Sequence[str], button: str) -> list[str]:
    """One calculation of ``carddb play ssq <calc>``: its form, and the box its answer is written into."""
    return [
        f'<h2 id="{calc}">{html_text(title)}</h2>', f"<p>{intro} On the command line: <code>{command}</code>.</p>",
        f'<form class="carddb-ssq-fight" data-calc="{calc}" data-search-exclude>',
        *(f'<div class="carddb-row">{row}</div>' for row in rows),
        f'<div class="carddb-row"><button type="submit" class="md-button" disabled>{html_text(button)}</button></div>',
        "</form>",
        f'<div class="carddb-result" data-fight-result="{calc}" aria-live="polite"></div>',
    ]


def _fight_forms(names: Sequence[tuple[str, str]], moves: Sequence[Card], formats: str) -> list[str]:
    """Between and around turns: the four calculations of ``carddb/games/ssq/fight.py`` (see docs/ssq.md)."""
    fighters, attacks = _options(names), _move_options(moves, plain_actions=False)
    events = _options([(e, e) for e in ("resume", "hit", "release", "store", "drop")])
    clash_side = [_select(f"{side}_fighter", f"{label} fighter", fighters) + _select(f"{side}_move", "attack", attacks)
                  + _number(f"{side}_successes", "successes") + _number(f"{side}_extra_power", "Power bought", "0")
                  for side, label in (("first", "First"), ("second", "Second"))]
    return [
        *_fight_form("clash", "Same tick",
                     "Two fighters attacking each other on the same tick: each attack's Power (not POW) adds to its "
                     "successes, the higher total hits.", "carddb play ssq clash",
                     [*clash_side, f'<label>Damage <select name="format">{formats}</select></label>'],
                     "Resolve the clash"),
        *_fight_form("charge", "Charging",
                     "A charged attack: the tick the turn resumes on, or what a hit, an early release, storing or "
                     "dropping the charge does.", "carddb play ssq charge",
                     [_select("fighter", "Fighter", fighters) + _select("move", "charged move", attacks),
                      _number("tick", "from tick", "0") + _number("ticks", "for ticks", "1")
                      + _select("event", "ends by", events) + _number("at", "on tick"),
                      "".join(_select("used", f"attack used {n}", attacks, empty=True) for n in (1, 2, 3))],
                     "Work out the charge"),
        *_fight_form("sp", "Smash Points",
                     "Smash Points come back 1 every 5 ticks of the fight, up to the fighter's SP.",
                     "carddb play ssq sp",
                     [_select("fighter", "Fighter", fighters) + _number("sp", "SP") + _number("from", "on tick", "0")
                      + _number("to", "by tick")],
                     "Count the Smash Points"),
        *_fight_form("recovery", "Recovery, wall hits, star finish",
                     "A Smash hit on a fighter past the damage threshold. Leave a roll empty to see what it must beat.",
                     "carddb play ssq recovery",
                     [_select("fighter", "Fighter", fighters) + _number("damage", "damage before")
                      + _number("hit", "hit damage", "0"),
                      _number("attack_successes", "attack successes") + _number("defence_successes",
                                                                                 "defence successes"),
                      _number("ledge", "units to the ledge", "0") + _number("roll", "AGI + Jump successes")
                      + _select("up_b", "Up+B", attacks, empty=True) + _number("up_b_roll", "Up+B successes"),
                      _number("walls", "walls hit", "0")
                      + '<label><input type="checkbox" name="sheltered"> sheltered</label>'
                      + '<label><input type="checkbox" name="no_pit"> ground below (no pit)</label>'],
                     "Resolve the Smash hit"),
    ]


def turn_page(game: GameDefinition, cards: Sequence[Card]) -> str:
    fighters = sorted((c for c in cards if c.kind == "fighter"), key=lambda c: c.name)
    moves = [c for c in cards if c.kind == "move"]
    names = [(f.name, f.name) for f in fighters]
    formats = _options([(f.id, f.label) for f in game.formats.values()], game.default_format)
    rows = []
    for index in range(ACTION_ROWS):
        rows.append(
            f'<tr data-action-row><td>{index + 1}</td>'
            f'<td><select name="action" aria-label="Action {index + 1}"><option value="">(none)</option>'
            f"{_move_options(moves)}</select></td>"
            f'<td><input type="number" name="successes" min="0" aria-label="Attack successes {index + 1}"></td>'
            f'<td><input type="number" name="defence_successes" min="0" aria-label="Defence successes {index + 1}">'
            "</td></tr>")
    initiative_rows = "".join(
        f'<tr data-initiative-row><td><select name="fighter" aria-label="Fighter {n}"><option value="">(none)</option>'
        f'{_options(names)}</select></td><td><input type="number" name="successes" min="0" '
        f'aria-label="Initiative successes {n}"></td><td data-tick></td></tr>'
        for n in range(1, 5))
    return "\n".join([
        f"# {md_text(game.name)}: turn calculator", "",
        f"{md_text(game.name)} has no decks; this page checks a planned turn instead, with the same functions as "
        "`carddb play ssq turn` and `carddb play ssq initiative`, running in your browser (below them: same-tick "
        "clashes, charging, Smash Points and recovery, as `carddb play ssq clash`, `charge`, `sp` and `recovery`). "
        "Give the successes each attack and defence rolled to see the damage; leave them empty to see only the dice "
        "pools.", "",
        f'<div class="carddb-ssq" data-ssq-calculator data-game="{html_text(game.id)}" '
        f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
        '<p class="carddb-engine" data-engine role="status">The calculator needs JavaScript.</p>',
        '<form class="carddb-ssq-turn" data-search-exclude>',
        '<div class="carddb-row">',
        f'<label>Fighter <select name="fighter">{_options(names)}</select></label>',
        '<label>Tick <input type="number" name="tick" min="0" value="0"></label>',
        '<label>SP now <input type="number" name="sp" min="0" placeholder="max"></label>',
        f"<label>Damage <select name=\"format\">{formats}</select></label>",
        "</div>",
        '<div class="carddb-row">',
        f'<label>Target <select name="target"><option value="">(none)</option>{_options(names)}</select></label>',
        '<label>Defence <select name="defence"><option value="dodge">dodge (AGI + Dodge)</option>'
        '<option value="guard">guard (AGI + Guard)</option></select></label>',
        '<label><input type="checkbox" name="same_tick"> same tick (the target rolls AGI alone)</label>',
        "</div>",
        "<table><thead><tr><th>#</th><th>action or move</th><th>attack successes</th><th>defence successes</th>"
        "</tr></thead><tbody>", *rows, "</tbody></table>",
        '<div class="carddb-row"><button type="submit" class="md-button md-button--primary" disabled>'
        "Check the turn</button></div>",
        "</form>",
        '<div class="carddb-result" data-result aria-live="polite"></div>',
        "<h2 id=\"initiative\">Initiative</h2>",
        "<p>Each fighter rolls AGI + Movement; the most successes act on tick 0, each other fighter that many ticks "
        "later.</p>",
        '<form class="carddb-ssq-initiative" data-search-exclude><table><thead><tr><th>fighter</th>'
        "<th>successes</th><th>tick</th></tr>"
        f"</thead><tbody>{initiative_rows}</tbody></table>",
        '<button type="submit" class="md-button" disabled>Order by initiative</button></form>',
        '<div class="carddb-result" data-initiative-result aria-live="polite"></div>',
        *_fight_forms(names, moves, formats),
        *odds_forms(game, cards, "games/ssq/checker.md"),  # hit odds, clash odds, items (forms.py)
        "</div>", "",
        "<noscript><p>This page needs JavaScript. On the command line: <code>"
        "carddb play ssq turn Mario \"Red Fireball\" --tick 2 --target Bowser --result 3:1</code>.</p></noscript>",
        "",
    ])
