"""The turn calculator of a game without decks (Super Smash Quest Skirmish): plan a turn and see whether it is
legal, each attack's dice pools and damage, and the next tick; and order fighters by initiative. The page script
(``javascripts/ssq.js``) sends the form to the same functions ``carddb ssq turn`` and ``carddb ssq initiative`` call.
"""

from __future__ import annotations

from collections.abc import Sequence

from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition
from carddb.site.checker_page import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text, md_text

#: Action rows of the form; the Rate of the moves rulebook keeps a turn far below this.
ACTION_ROWS = 6
PLAIN_ACTIONS = (("action:move", "Move (Speed 4, Rate 4)"), ("action:jump", "Jump"),
                 ("action:grab-item", "Grab an item"))


def _options(items: Sequence[tuple[str, str]], selected: str = "") -> str:
    return "".join(f'<option value="{html_text(v)}"{" selected" if v == selected else ""}>{html_text(label)}</option>'
                   for v, label in items)


def _move_options(moves: Sequence[Card]) -> str:
    """Moves grouped by their fighter (a move of another fighter is reported by the calculator, not hidden)."""
    groups: dict[str, list[Card]] = {}
    for move in moves:
        groups.setdefault(str(move.fields.get("fighter") or "Any fighter"), []).append(move)
    out = [f'<optgroup label="Actions">{_options(PLAIN_ACTIONS)}</optgroup>']
    for fighter, group in sorted(groups.items()):
        out.append(f'<optgroup label="{html_text(fighter)}">'
                   + _options([(m.name, m.name) for m in sorted(group, key=lambda m: m.name)]) + "</optgroup>")
    return "".join(out)


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
        f'<tr data-initiative-row><td><select name="fighter"><option value="">(none)</option>{_options(names)}'
        f'</select></td><td><input type="number" name="successes" min="0"></td><td data-tick></td></tr>'
        for _ in range(4))
    return "\n".join([
        f"# {md_text(game.name)}: turn calculator", "",
        f"{md_text(game.name)} has no decks; this page checks a planned turn instead, with the same functions as "
        "`carddb ssq turn` and `carddb ssq initiative`, running in your browser. Give the successes each attack and "
        "defence rolled to see the damage; leave them empty to see only the dice pools.", "",
        f'<div class="carddb-ssq" data-ssq-calculator data-game="{html_text(game.id)}" '
        f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
        '<p class="carddb-engine" data-engine role="status">The calculator needs JavaScript.</p>',
        '<form class="carddb-ssq-turn">',
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
        '<form class="carddb-ssq-initiative"><table><thead><tr><th>fighter</th><th>successes</th><th>tick</th></tr>'
        f"</thead><tbody>{initiative_rows}</tbody></table>",
        '<button type="submit" class="md-button" disabled>Order by initiative</button></form>',
        '<div class="carddb-result" data-initiative-result aria-live="polite"></div>',
        "</div>", "",
        "<noscript><p>This page needs JavaScript. On the command line: "
        "<code>carddb ssq turn Mario \"Red Fireball\" --tick 2 --target Bowser --result 3:1</code>.</p></noscript>",
        "",
    ])
