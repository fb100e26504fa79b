"""The Play page of a deck game (``games/<id>/play.md``) and the fields its forms are made of: one form per play
helper, written by the game's ``forms`` module (``carddb.core.play.registry.GamePlugin.forms``, for the bundled
games ``carddb/games/<id>/forms.py``), answered in the browser by the rules engine's worker
(``javascripts/play.js`` sends each form as the helper's request to ``carddb/core/browser.py play_json``, the function
``carddb play <game> <helper> --json`` calls), with card names autocompleted from the catalogue (a datalist per kind).

A form field's ``name`` is the request key it fills: ``a.b`` a key of an object, ``x[]`` an entry of a list (a
checkbox with a value adds it when ticked), and the fields of a ``data-row`` element make one object of the list
the row names (kept when its ``data-key`` field is filled). A ``format`` select picks the game's format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.core.play.registry import load, plugin
from carddb.errors import InputError
from carddb.site.bundle import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text, html_url, md_code, md_text, rule_href, url_prefix

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


def form_html(game: GameDefinition, form: Form, headings: bool, page: str) -> list[str]:
    if headings:  # Markdown: MkDocs checks the link and its anchor
        head = [f"## {md_text(form.title)} {{#{form.helper}}}", "",
                f"{md_text(form.intro)} [Rule]({rule_href(game.id, form.anchor, page)}). On the command line: "
                f"`{form.command}`.", ""]
    else:  # raw HTML inside another block: the built URL of the rulebook section
        href = f"{url_prefix(page)}games/{game.id}/rulebook/#{form.anchor}"
        head = [f'<h2 id="{html_text(form.helper)}">{html_text(form.title)}</h2>',
                f'<p>{html_text(form.intro)} <a href="{html_url(href)}">Rule</a>. On the command line: '
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


def name_list(game: GameDefinition, key: str) -> str:
    return f"play-{game.id}-{key}"


def _forms_module(game: GameDefinition) -> ModuleType | None:
    found = plugin(game.id)
    return load(found.forms) if found is not None and found.forms else None


def has_play_page(game: GameDefinition) -> bool:
    """A deck game whose play helpers bring site forms (``GamePlugin.forms``) gets a Play page."""
    found = plugin(game.id)
    return game.deck_game and found is not None and bool(found.forms)


def play_page(game: GameDefinition, cards: Sequence[Card], page: str) -> str:
    """Markdown of ``games/<id>/play.md``: the engine's status, then a form per helper (``page``: its docs path)."""
    module = _forms_module(game)
    if module is None:
        raise InputError(f"{game.name} has no play helpers with site forms")
    out = [f"# {md_text(game.name)}: play helpers", "",
           "Settle what the table argues about: each form asks the same rules as `carddb play "
           f"{game.id} ...` on the command line, in your browser, and shows how the answer is worked out with the "
           "rulebook section of each step. Card names are offered as you type.", "",
           f'<div class="carddb-play" data-play data-game="{html_text(game.id)}" '
           f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
           '<p class="carddb-engine" data-engine role="status">The helpers need JavaScript.</p>',
           *datalists(game, cards, getattr(module, "NAME_LISTS", {})), "</div>", ""]
    for form in module.forms(game):
        out += form_html(game, form, True, page)
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
            *(f"| {md_code(key)} | {md_text(shown(value))} |" for key, value in game.play.items()), ""]
