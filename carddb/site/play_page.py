"""The page of a game's play helpers (a deck game's ``games/<id>/play.md``, the ``checker.md`` turn calculator of a game
without decks) and the fields its forms are made of: one form per play helper, made from the helper's typed
signature (``described_forms``: a field per parameter, with its label, range, choices, card names and help),
answered in the browser by the rules engine's worker
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

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.core.play.registry import load, plugin
from carddb.core.play.signature import Described, Param, names_for
from carddb.errors import InputError
from carddb.site.bundle import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text, html_url, md_code, md_text, rule_href, url_prefix


# ------------------------------------------------------------------------------------------------- form fields
def text(name: str, label: str, names: str = "", value: str = "") -> str:
    """A text field; ``names``: the datalist its card names are offered from."""
    listed = f' list="{html_text(names)}"' if names else ""
    preset = f' value="{html_text(value)}"' if value else ""
    return (f'<label>{html_text(label)} <input type="text" name="{html_text(name)}"{listed}{preset} '
            f'autocomplete="off"></label>')


def number(name: str, label: str, value: str = "", low: int = 0, high: int | None = None) -> str:
    preset = f' value="{html_text(value)}"' if value else ""
    top = f' max="{high}"' if high is not None else ""
    return (f'<label>{html_text(label)} <input type="number" name="{html_text(name)}" min="{low}"{top} step="1"'
            f'{preset}></label>')


def check(name: str, label: str, value: str = "", checked: bool = False) -> str:
    extra = (f' value="{html_text(value)}"' if value else "") + (" checked" if checked else "")
    return f'<label><input type="checkbox" name="{html_text(name)}"{extra}> {html_text(label)}</label>'


def select(name: str, label: str, options: Sequence[tuple[str, str]], chosen: str = "") -> str:
    items = "".join(f'<option value="{html_text(v)}"{" selected" if chosen and v == chosen else ""}>{html_text(t)}'
                    "</option>" for v, t in options)
    return f'<label>{html_text(label)} <select name="{html_text(name)}">{items}</select></label>'


def many(name: str, label: str, names: str, count: int) -> str:
    """``count`` text fields filling the list ``name[]``, in order."""
    return "".join(text(f"{name}[]", f"{label} {i}" if count > 1 else label, names) for i in range(1, count + 1))


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


# ------------------------------------------------------------------------------- forms from typed signatures
def described_forms(game: GameDefinition, helpers: Sequence[Described]) -> list[Form]:
    """A form per helper, made from its typed signature (``carddb.core.play.signature``): a field per parameter,
    labelled, with its range, choices, card names and help."""
    return [Form(one.name, one.title, one.rule, _intro(one.help), one.example,
                 (*_lines(game, one), *_format(game, one))) for one in helpers]


def _lines(game: GameDefinition, one: Described) -> list[str]:
    """The form's rows: a field per parameter, those ``Arg.beside`` in the row before."""
    lines: list[str] = []
    for param in (p for p in one.params if p.arg.form):
        field = _field(game, param)
        if param.arg.beside and lines and not lines[-1].startswith("<div") and not field.startswith("<div"):
            lines[-1] += field
        else:
            lines.append(field)
    return lines


def _format(game: GameDefinition, one: Described) -> list[str]:
    """A helper whose answer depends on the format: a select of the game's formats (``format``, not in the
    request: it picks the game definition the engine reads)."""
    if not one.formats or len(game.formats) < 2:
        return []
    return [select("format", "Format", [(f.id, f.label) for f in game.formats.values()], game.default_format)]


def _intro(doc: str) -> str:
    """A form's intro: the docstring's second paragraph (its first is the command's one line), else the first."""
    paragraphs = [" ".join(part.split()) for part in doc.split("\n\n") if part.strip()]
    return paragraphs[1] if len(paragraphs) > 1 else paragraphs[0] if paragraphs else ""


def _field(game: GameDefinition, param: Param, name: str = "", label: str = "") -> str:
    """The form's field(s) of one parameter (``name``: its request key; inside a row, the row's key)."""
    name, label = name or param.key, label or param.label
    names = name_list(game, param.arg.names or (param.arg.kinds[0] if param.arg.kinds else "")) \
        if (param.arg.names or param.arg.kinds) else ""
    helped = f' title="{html_text(param.arg.help)}"' if param.arg.help else ""
    if param.kind in ("card", "text"):
        field = text(name, label, names)
    elif param.kind in ("cards", "texts"):
        field = many(name, label, names, param.arg.count)
    elif param.kind == "int":
        field = number(name, label, "" if param.default is None else str(param.default), param.low, param.high)
    elif param.kind == "ints":
        field = "".join(number(f"{name}[]", f"{label} {i}", "", param.low, param.high)
                        for i in range(1, param.arg.count + 1))
    elif param.kind == "bool":
        field = check(name, label, checked=bool(param.default))
    elif param.kind == "choice":
        unset = [("", "(not given)")] if param.default is None and not param.required else []
        words = dict(param.arg.shown)
        field = select(name, label, [*unset, *((choice, words.get(choice, choice)) for choice in param.choices)],
                       "" if param.default is None else str(param.default))
    elif param.kind == "choices":  # a box per word, ticked adds it to the list
        return _group(label, "".join(check(f"{name}[]", c, c) for c in param.choices), param.arg.help)
    elif param.kind == "counts":  # a number per name of the game field Arg.keys
        _, keys = names_for(param, game)
        return _group(label, "".join(number(f"{name}.{key}", key, low=param.low, high=param.high) for key in keys),
                      param.arg.help)
    elif param.kind == "object":  # its fields side by side, the first labelled with the object's label
        return _group(label, "".join(_field(game, f, f"{name}.{f.key}", label if n == 0 else f.label)
                                     for n, f in enumerate(param.fields)),
                      "" if param.arg.read else param.arg.help, legend=False)  # read: the command line's syntax
    else:  # rows: each row's fields, numbered
        first = (lambda i: f"{param.arg.label} {i}") if param.arg.label else \
            (lambda i: f"{i}. {param.fields[0].label}")
        return rows(name, param.fields[0].key, param.arg.count,
                    lambda i: "".join(_field(game, f, f.key, first(i) if n == 0 else f.label)
                                      for n, f in enumerate(param.fields) if f.arg.form))
    return field.replace("<label>", f"<label{helped}>", 1) if helped else field


def _group(label: str, fields: str, help_text: str, legend: bool = True) -> str:
    """Fields that make one value, in a row of their own named for assistive technology (``legend``: the label shown
    before them, when none of them carries it)."""
    helped = f' title="{html_text(help_text)}"' if help_text else ""
    shown = f'<span class="carddb-group-label">{html_text(label)}</span>' if legend else ""
    return (f'<div class="carddb-row" role="group" aria-label="{html_text(label)}"{helped}>{shown}{fields}</div>')


def _helpers(game: GameDefinition) -> list[Described]:
    found = plugin(game.id)
    if found is None:
        return []
    return [one for one in load(found.helpers).HELPERS.values() if isinstance(one, Described)]


def has_play_page(game: GameDefinition) -> bool:
    """A game with play helpers gets a page of their forms: a deck game its Play page, a game without decks its turn
    calculator (in place of the deck builder)."""
    return bool(_helpers(game))


def play_page(game: GameDefinition, cards: Sequence[Card], page: str) -> str:
    """Markdown of the page of the game's helpers: the engine's status, then a form per helper (``page``: its docs
    path)."""
    described = _helpers(game)
    if not described:
        raise InputError(f"{game.name} has no play helpers")
    found = plugin(game.id)
    helpers_module = load(found.helpers) if found is not None else None
    head = (f"# {md_text(game.name)}: play helpers", "Settle what the table argues about: each form asks") \
        if game.deck_game else (f"# {md_text(game.name)}: turn calculator", f"{md_text(game.name)} has no decks; "
                                "this page checks a turn and works out what happens around it instead. Each form asks")
    out = [head[0], "",
           f"{head[1]} the same rules as `carddb play {game.id} ...` on the command line, in your browser, and shows "
           "how the answer is worked out with the rulebook section of each step. Card names are offered as you type.",
           "",
           f'<div class="carddb-play" data-play data-game="{html_text(game.id)}" '
           f'data-timeout-ms="{ENGINE_TIMEOUT_MS}">',
           '<p class="carddb-engine" data-engine role="status">The helpers need JavaScript.</p>',
           *datalists(game, cards, getattr(helpers_module, "NAME_LISTS", {})),
           "</div>", ""]
    for form in described_forms(game, described):
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
