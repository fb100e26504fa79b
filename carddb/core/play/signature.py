"""A play helper described once, by its typed signature. Pure standard library (it runs in the browser).

A helper is one function of the game, the catalogue's cards and its typed inputs, returning an ``Answer``::

    @helper(title="Turn order", rule="turn", example="carddb play ssbm order Mario Ganondorf")
    def order(game: GameDefinition, index: CardIndex, *,
              characters: Annotated[list[Card], Arg("The characters of the match.", kinds=("character",),
                                                    label="Character", count=4)]) -> Answer:
        \"\"\"Turn order: the highest INTELLIGENCE first, ties by SPEED; cards drawn a turn and the starting hand.\"\"\"

Everything else comes from that signature: ``read`` checks a request (the JSON object the site's form sends, the
one ``carddb play <game> <helper> --json`` builds) against it and calls the function; ``carddb.cli.play_command``
makes the command, its arguments and help; ``carddb.site.play_form`` makes the Play page's form (labels, card
name lists, ranges, choices, help). A parameter's type says what it holds:

- ``Card`` a card named by the player (``Arg.kinds``: the kinds it may be), ``list[Card]`` several;
- ``int`` a whole number (``Arg.low``, ``Arg.high``), ``bool`` a flag, ``str`` a word, ``Literal["a", "b"]`` one
  of those, ``list[str]``/``list[int]`` several;
- ``list[Row]`` rows of a form, ``Row`` a dataclass whose fields are described the same way (its first field names
  the row; ``carddb play`` takes a row as ``A=B`` text, or through ``Arg.read``, and a row's other field through
  a repeated ``--option PLACE=VALUE``, ``Arg.option``; ``Arg.also`` more options adding rows with fields preset);
- ``Row`` alone one object of the request, its fields grouped on the form and, on the command line, the object's
  own text (its first field, or ``Arg.read``) and an option per field (``Arg.option``, after ``Arg.prefix``);
- ``list[Literal[...]]`` several of those words (ticked boxes), ``dict[str, int]`` a number per name, the names the
  choices of the game's field ``Arg.keys`` (``TYPE=N`` on the command line: ``FIRE=2``).

A parameter with a default may be left out; ``X | None = None`` is "not given". ``Arg.key`` is its request key when
that is no Python name (``"from"``). ``Arg.option`` names its option on the command line; without it a required
value, a list or a value marked ``Arg.positional`` is a positional argument, anything else an option named after it;
with ``Arg.sets`` the option is a flag that sets that choice (``--defense``). ``Arg.help`` says what the value is, in
words that read right on the form as on the command line (which adds how to repeat or place it).

A request breaking a rule is answered (``Answer.problems``); one that cannot be read raises ``InputError``, with the
same words on the command line and in the browser.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args, get_origin

from carddb.core.cards.card import Card
from carddb.core.play.helpers import find_card, flag, names_of, rows, whole, word
from carddb.errors import InputError

#: The largest number a request may hold unless ``Arg.high`` says otherwise.
MAX_NUMBER = 9999


@dataclass(frozen=True)
class Arg:
    """What a parameter means to a player: its help, its form label, its range or card kinds, how the command line
    takes it."""

    help: str = ""
    label: str = ""  # the form's label (default: the help's first words)
    low: int | None = None
    high: int | None = None
    kinds: tuple[str, ...] = ()  # a card's kinds (``find_card``); the first names the form's list of names
    what: str = ""  # how a message names a card ("play card"); default: its kind
    names: str = ""  # the form's card-name list, when not the first kind's (a game's ``NAME_LISTS``)
    option: str = ""  # its option on the command line ("--damage"; a row's field: "--bonus", as PLACE=VALUE)
    positional: bool = False  # an optional value the command line takes as a positional argument
    short: str = ""  # "-d"
    metavar: str = ""  # "DAMAGE", "PLAYER=CARD"
    example: str = ""  # a row as the command line writes it ("Link=Attack")
    count: int = 1  # the form's fields for a list (rows, names)
    sep: str = ""  # a list given on the command line in one value, split by this ("20,40")
    read: Callable[[str], Any] | None = None  # a row (or value) from its command-line text, for a syntax of its own
    key: str = ""  # the request key, when it is not the parameter's name ("from")
    sets: str = ""  # a choice set by a flag (``option``) on the command line: --defense sets "defense"
    keys: str = ""  # a ``dict[str, int]``: the game field whose choices are its names ("type")
    prefix: str = ""  # an object's fields' options after this ("defender-": --defender-hp)
    also: tuple[Also, ...] = ()  # rows: more options, each adding rows with some fields preset
    old: str = ""  # an old name of its option, still taken (hidden) with a word saying the new one
    cli: bool = True  # on the command line (a row's field the form alone fills, as the successes of each row)
    form: bool = True  # on the form (a seed to roll dice from, the command line's own syntax of the form's fields)
    beside: bool = False  # on the form, in the row of the field before it (the defender's position beside it)
    shown: tuple[tuple[str, str], ...] = ()  # a choice's words on the form ("defense", "Defense Position")


@dataclass(frozen=True)
class Also:
    """Another repeated option filling a list of rows, each row with ``preset`` fields (``--their-change`` adds
    changes whose ``whose`` is ``theirs``)."""

    option: str
    help: str
    preset: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Param:
    """One described parameter (``describe``)."""

    name: str
    kind: str  # card, cards, int, ints, bool, text, texts, choice, choices, counts, rows, object
    arg: Arg
    required: bool
    default: Any
    choices: tuple[str, ...] = ()
    row: type | None = None  # the dataclass of a ``rows`` or ``object`` parameter
    fields: tuple[Param, ...] = ()  # the row's fields

    @property
    def key(self) -> str:
        """Its key in the request."""
        return self.arg.key or self.name

    @property
    def label(self) -> str:
        return self.arg.label or self.name.replace("_", " ").capitalize()

    @property
    def what(self) -> str:
        return self.arg.what or (self.arg.kinds[0] if self.arg.kinds else self.name.replace("_", " "))

    @property
    def low(self) -> int:
        return 0 if self.arg.low is None else self.arg.low

    @property
    def high(self) -> int:
        return MAX_NUMBER if self.arg.high is None else self.arg.high


@dataclass(frozen=True)
class Described:
    """A helper as its signature describes it."""

    name: str
    function: Callable[..., Any]
    params: tuple[Param, ...]
    title: str
    rule: str  # the rulebook section it follows
    example: str  # the same question on the command line
    help: str = field(default="")
    formats: bool = False  # the answer depends on the game's format: --format on the command, a select on the form

    def __call__(self, game: Any, index: Any, request: Mapping[str, Any]) -> Any:
        """Answer a request (``carddb.core.play.helpers.answer`` calls every helper so)."""
        return read(self, game, index, request)


def helper(name: str = "", *, title: str, rule: str, example: str, formats: bool = False
           ) -> Callable[[Callable[..., Any]], Any]:
    """Mark a function as a play helper (its name with ``-`` for ``_`` unless ``name`` is given; ``formats``: its
    answer depends on the format chosen, as a damage formula a house rule changes)."""

    def mark(function: Callable[..., Any]) -> Callable[..., Any]:
        function.play_helper = {"name": name or function.__name__.replace("_", "-"),  # type: ignore[attr-defined]
                                "title": title, "rule": rule, "example": example, "formats": formats}
        return function

    return mark


def helpers_of(module: Any, order: Sequence[str] = ()) -> dict[str, Described]:
    """Every helper a game's module marks with ``@helper``, by name, in ``order`` and then as written."""
    found = [describe(value) for value in vars(module).values()
             if callable(value) and hasattr(value, "play_helper") and value.__module__ == module.__name__]
    found.sort(key=lambda d: (order.index(d.name) if d.name in order else len(order),
                              d.function.__code__.co_firstlineno))
    return {d.name: d for d in found}


def describe(function: Callable[..., Any]) -> Described:
    """The helper's parameters as its signature says them; an annotation this cannot describe is an error."""
    marks = function.play_helper  # type: ignore[attr-defined]
    hints = typing.get_type_hints(function, include_extras=True)
    params = tuple(_param(p.name, hints[p.name], p.default) for p in inspect.signature(function).parameters.values()
                   if p.kind is inspect.Parameter.KEYWORD_ONLY)
    return Described(marks["name"], function, params, marks["title"], marks["rule"], marks["example"],
                     inspect.getdoc(function) or "", marks["formats"])


def _param(name: str, hint: Any, default: Any) -> Param:
    arg = Arg()
    if get_origin(hint) is Annotated:
        hint, *extras = get_args(hint)
        arg = next((e for e in extras if isinstance(e, Arg)), arg)
    required = default is inspect.Parameter.empty
    default = None if required else default
    if get_origin(hint) in (types.UnionType, typing.Union):  # X | None
        hint = next(a for a in get_args(hint) if a is not type(None))
    kind, choices, row, fields = _kind(name, hint)
    return Param(name, kind, arg, required, default, choices, row, fields)


def _kind(name: str, hint: Any) -> tuple[str, tuple[str, ...], type | None, tuple[Param, ...]]:
    if hint is Card:
        return "card", (), None, ()
    if hint is int:
        return "int", (), None, ()
    if hint is bool:
        return "bool", (), None, ()
    if hint is str:
        return "text", (), None, ()
    if get_origin(hint) is Literal:
        return "choice", tuple(str(a) for a in get_args(hint)), None, ()
    if dataclasses.is_dataclass(hint):
        return "object", (), hint, _fields(hint)
    if get_origin(hint) in (dict, Mapping) and get_args(hint) == (str, int):
        return "counts", (), None, ()
    if get_origin(hint) in (list, Sequence):
        (item,) = get_args(hint)
        if get_origin(item) is Literal:
            return "choices", tuple(str(a) for a in get_args(item)), None, ()
        if item is Card:
            return "cards", (), None, ()
        if item is int:
            return "ints", (), None, ()
        if item is str:
            return "texts", (), None, ()
        if dataclasses.is_dataclass(item):
            return "rows", (), item, _fields(item)
    raise TypeError(f"play helper parameter {name!r}: cannot describe {hint!r}")


def _fields(row: Any) -> tuple[Param, ...]:
    hints = typing.get_type_hints(row, include_extras=True)
    return tuple(_param(f.name, hints[f.name], inspect.Parameter.empty if f.default is dataclasses.MISSING
                        else f.default) for f in dataclasses.fields(row))


# ----------------------------------------------------------------------------------------------- reading requests
def read(described: Described, game: Any, index: Any, request: Mapping[str, Any]) -> Any:
    """Check ``request`` against the helper's signature and call it: the one check of the command line and the
    site alike."""
    if not isinstance(request, Mapping):
        raise InputError("the request is not a JSON object")
    values = {p.name: value(p, game, index, request.get(p.key)) for p in described.params}
    return described.function(game, index, **values)


def _empty(raw: Any) -> bool:
    return raw is None or raw == "" or raw == [] or raw == {}


class _Said(dict):  # type: ignore[type-arg]
    """The fields read so far, by name, for a message naming them (``Arg(what="{card}'s HP")``)."""

    def __missing__(self, key: str) -> str:
        return key


def _what(param: Param, said: Mapping[str, Any]) -> str:
    return param.arg.what.format_map(said) if param.arg.what else param.name.replace("_", " ")


def value(param: Param, game: Any, index: Any, raw: Any, said: Mapping[str, Any] | None = None) -> Any:
    """One value of a request, as its parameter's type says; missing ones are the default (or an error).
    ``said``: the fields of the same row or object read before it (their names for a message)."""
    said = _Said(said or {})
    lists = ("cards", "texts", "ints", "rows", "choices")
    if _empty(raw):
        if param.required and param.kind not in (*lists, "bool", "counts"):
            raise InputError(f"give the {param.what.format_map(said)}" if param.kind in ("card", "object") else
                             f"give the {_what(param, said) if param.arg.what else param.label.lower()}")
        if param.kind in lists and param.default is None:
            return [] if param.required else None
        if param.kind == "counts" and param.default is None:
            return {}
        if param.kind == "bool" and param.default is None:
            return False
        return param.default
    kind, what = param.kind, _what(param, said)
    if kind == "card":
        return find_card(game, index, raw, param.arg.kinds, param.what.format_map(said))
    if kind == "cards":
        return [find_card(game, index, name, param.arg.kinds, param.what) for name in names_of(raw)]
    if kind == "int":
        return whole({param.key: raw}, param.key, low=param.low, high=param.high, what=what)
    if kind == "ints":
        if not isinstance(raw, list | tuple):
            raise InputError(f"{what} must be a list of whole numbers, not {raw!r}")
        return [whole({param.key: item}, param.key, low=param.low, high=param.high, what=what) for item in raw]
    if kind == "bool":
        return flag({param.key: raw}, param.key, bool(param.default))
    if kind == "choice":
        return word({what: raw}, what, param.choices, "" if param.default is None else param.default)
    if kind == "choices":
        return _choices(param, raw)
    if kind == "text":
        return str(raw).strip()
    if kind == "texts":
        return names_of(raw)
    if kind == "counts":
        return _counts(param, game, raw)
    if kind == "object":
        if not isinstance(raw, Mapping):
            raise InputError(f"{what} is an object of {', '.join(f.key for f in param.fields)}")
        return _made(param, game, index, raw)
    return [_made(param, game, index, row) for row in rows({param.key: raw}, param.key)]


def _made(param: Param, game: Any, index: Any, raw: Mapping[str, Any]) -> Any:
    """The row or object of ``raw``, its fields read in order."""
    said: dict[str, Any] = {}
    read_fields: dict[str, Any] = {}
    for one in param.fields:
        read_fields[one.name] = got = value(one, game, index, raw.get(one.key), said)
        said[one.name] = got.name if isinstance(got, Card) else got
    assert param.row is not None
    return param.row(**read_fields)


def _choices(param: Param, raw: Any) -> list[str]:
    """Words of ``param.choices``, in any case, each once."""
    by_case = {choice.lower(): choice for choice in param.choices}
    found: list[str] = []
    for item in names_of(raw):
        choice = by_case.get(item.lower())
        if choice is None:
            listed = ", ".join(param.choices[:-1]) + f" or {param.choices[-1]}"
            raise InputError(f"{item!r} is not a {param.what}; use {listed}")
        if choice not in found:
            found.append(choice)
    return found


def names_for(param: Param, game: Any) -> tuple[str, tuple[str, ...]]:
    """A ``counts`` parameter's names: the label of the game field ``Arg.keys`` and its choices."""
    field_def = getattr(game, "fields", {}).get(param.arg.keys) if param.arg.keys else None
    if field_def is None:
        return "name", ()
    return field_def.label, tuple(field_def.choices)


def _counts(param: Param, game: Any, raw: Any) -> dict[str, int]:
    """``{"FIRE": 2, "earth": 3}`` -> ``{"FIRE": 2, "EARTH": 3}``: names of the game field ``Arg.keys``."""
    label, allowed = names_for(param, game)
    if not isinstance(raw, Mapping):
        raise InputError(f"{param.name} is a table of {label} to a number, e.g. {param.arg.example or 'FIRE=2'}")
    by_case = {name.upper(): name for name in allowed}
    out: dict[str, int] = {}
    for key, count in raw.items():
        name = by_case.get(str(key).strip().upper()) if allowed else str(key).strip()
        if name is None:
            raise InputError(f"{key!r} is not a {label} of {param.name}; use {', '.join(allowed)}")
        got = whole({"n": count}, "n", 0, low=param.low, high=param.high, what=f"{name} {param.name}") or 0
        out[name] = out.get(name, 0) + got
    return out
