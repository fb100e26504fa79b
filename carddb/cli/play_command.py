"""``carddb play <game> <helper>`` made from the helper's typed signature (``carddb.core.play.signature``).

Each parameter becomes an argument or option whose help is the parameter's ``Arg.help``; the values are passed on
as text, in the request the site's form sends too, and checked by the one reader of requests
(``signature.read``), so a bad value gets the same words here as in the browser:

- a required value, a list of cards or words, or a list of rows is a positional argument (in signature order);
  any other value is an option named after the parameter (``--attack-damage``), or ``Arg.option``;
- a row is ``A=B`` text, its fields without an option in order (``Mario=Taunt`` for player and card), or what
  the row's ``Arg.read`` makes of it; a row field with ``Arg.option`` is a repeated ``--option PLACE=VALUE``
  (a flag: ``--option PLACE`` turns the field away from its default, as ``--failed 2``);
- a list with ``Arg.sep`` is one option value split by it (``--stages 20,40``); ``Arg.also`` another option adding
  rows with some fields preset (``--their-change``);
- an object is its first field's text (or ``Arg.read``'s), its other fields options (``--defender-hp``);
- ``dict[str, int]`` is ``NAME=N`` arguments (``FIRE=2 EARTH=3``); a choice with ``Arg.sets`` a flag (``--defense``).
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from carddb.cli.play_common import JsonFlag, game_group, run_helper
from carddb.core.play.signature import Described, Param
from carddb.errors import InputError

LISTS = ("cards", "texts", "ints", "rows", "choices", "counts")


def game_commands(game_id: str, described: dict[str, Described]) -> typer.Typer:
    """The group ``carddb play <game_id>``: a command per helper."""
    app = game_group()
    for one in described.values():
        app.command(one.name, help=one.help)(command(game_id, one))
    return app


def _positional(param: Param) -> bool:
    return not param.arg.option and param.kind != "bool" and (param.required or param.kind in LISTS
                                                              or param.arg.positional) and not param.arg.sep


def _option_names(param: Param) -> list[str]:
    return [param.arg.option or f"--{param.name.replace('_', '-')}", *([param.arg.short] if param.arg.short else [])]


def _repeated(help_text: str) -> str:
    return help_text if "(repeat" in help_text else f"{help_text.rstrip('.')} (repeat)."


def _cli_help(param: Param) -> str:
    """The parameter's help; an option given once per value says so, a flag setting a choice which."""
    said = param.arg.help or param.label
    if param.arg.sets:
        return f"{said.rstrip('.')}: {param.arg.sets} with this flag, else {param.default}."
    if param.kind == "counts":
        return f"{said} Write {param.arg.metavar or 'NAME=N'}, e.g. {param.arg.example or 'FIRE=2'}."
    many = param.kind in LISTS and param.kind != "counts" and not param.arg.sep
    return _repeated(said) if many and not _positional(param) else said


def _field_option(param: Param, one: Param) -> str:
    """The option of an object's field: ``--hp``, after the object's ``Arg.prefix`` (``--defender-hp``)."""
    return f"--{param.arg.prefix}{one.arg.option.lstrip('-')}"


def _field_help(param: Param, one: Param) -> str:
    """A field given by option: an object's (``Attacker: HP left``) or a row's, given by the row's place."""
    if param.kind == "object":
        said = f"{param.label}: {one.arg.help[:1].lower()}{one.arg.help[1:]}"
        return _repeated(said) if one.kind in LISTS else said
    if one.kind == "bool":
        return (f"{one.arg.help} Give the {param.what}'s place, from 1, to turn it {'off' if one.default else 'on'} "
                "(repeat).")
    return (f"{one.arg.help} Give the {param.what}'s place and the value, PLACE={one.arg.metavar or 'VALUE'}"
            f"{', e.g. ' + one.arg.example if one.arg.example else ''} (repeat).")


def _option(name: str, annotation: Any, info: Any, default: Any = None) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=Annotated[annotation, info])


def command(game_id: str, described: Described) -> Any:
    """The command function of one helper, with a signature Typer reads."""
    params = [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)]
    extra: list[inspect.Parameter] = []  # the options of a row's or an object's fields, and more rows
    for param in (p for p in described.params if p.arg.cli):
        many = param.kind in LISTS and not param.arg.sep
        flag = param.kind == "bool" or bool(param.arg.sets)
        if _positional(param):
            info: Any = typer.Argument(metavar=param.arg.metavar or param.name.upper(), help=_cli_help(param))
        elif flag:
            info = typer.Option(*_option_names(param), help=_cli_help(param))
        else:
            metavar = param.arg.metavar or ("N" if param.kind == "int" else None)
            info = typer.Option(*_option_names(param), metavar=metavar, help=_cli_help(param))
        annotation: Any = bool if flag else list[str] if many else str
        required = param.required and not flag
        default = False if flag else inspect.Parameter.empty if required else None
        if default is None:
            annotation = annotation | None
        params.append(_option(param.name, annotation, info, default))
        if param.arg.old:
            extra.append(_option(f"{param.name}__old", annotation | None, typer.Option(
                param.arg.old, hidden=True, help=f"Old name of {_option_names(param)[0]}.")))
        for one in (f for f in param.fields if f.arg.option):
            option = _field_option(param, one) if param.kind == "object" else one.arg.option
            metavar = ("N" if one.kind == "int" else None) if param.kind == "object" else \
                "PLACE" if one.kind == "bool" else f"PLACE={one.arg.metavar or 'VALUE'}"
            listed = param.kind == "rows" or one.kind in LISTS
            extra.append(_option(f"{param.name}__{one.name}", list[str] | None if listed else str | None,
                                 typer.Option(option, metavar=metavar, help=_field_help(param, one))))
        for n, also in enumerate(param.arg.also):
            extra.append(_option(f"{param.name}__also{n}", list[str] | None,
                                 typer.Option(also.option, metavar=param.arg.metavar or None,
                                              help=_repeated(also.help))))
    params += extra
    if described.formats:
        params.append(_option("format_id", str | None, typer.Option(
            "--format", "-f", help="A format of the game (a house rule) whose readings to follow.")))
    params.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=JsonFlag))

    def run(ctx: typer.Context, as_json: bool = False, format_id: str | None = None, **values: Any) -> None:
        run_helper(ctx, game_id, described.name, request(described, values), as_json, format_id)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    run.__name__ = described.function.__name__
    run.__doc__ = described.help
    return run


def request(described: Described, values: dict[str, Any]) -> dict[str, Any]:
    """The helper's request from the command line's values (text, checked by ``signature.read``)."""
    out: dict[str, Any] = {}
    for param in (p for p in described.params if p.arg.cli):
        given = values.get(param.name)
        if param.arg.old and values.get(f"{param.name}__old") is not None:
            from carddb.cli.common import deprecated

            old = deprecated(values[f"{param.name}__old"], param.arg.old, _option_names(param)[0])
            given = old if given is None else given
        if param.arg.sep and given is not None:
            given = [part.strip() for part in given.split(param.arg.sep)]
        if param.arg.sets:
            given = param.arg.sets if given else None
        elif param.kind == "counts":
            given = _counts(param, given or [])
        elif param.kind == "object" and given is not None:
            given = _row(param, given, whole=True)
            for one in (f for f in param.fields if f.arg.option):
                if values.get(f"{param.name}__{one.name}") is not None:
                    given[one.key] = values[f"{param.name}__{one.name}"]
        elif param.kind == "rows":
            given = [_row(param, text, option=param.arg.option) for text in given or []]
            for n, also in enumerate(param.arg.also):
                given += [{**_row(param, text, option=also.option), **dict(also.preset)}
                          for text in values.get(f"{param.name}__also{n}") or []]
            for row_field in (f for f in param.fields if f.arg.option):
                _by_place(param, row_field, given, values.get(f"{param.name}__{row_field.name}") or [])
        out[param.key] = given
    return out


def _counts(param: Param, given: list[str]) -> dict[str, int]:
    """``FIRE=2 EARTH=3`` -> ``{"FIRE": 2, "EARTH": 3}`` (the names are checked by ``signature.read``)."""
    table: dict[str, int] = {}
    names = param.arg.keys.upper() or "NAME"
    for text in given:
        name, sep, count = (part.strip() for part in text.partition("="))
        if not (sep and name and count.isdigit()):
            raise InputError(f"{param.name} {text!r}: write the {names} and how many, as {param.arg.example}")
        table[name.upper()] = table.get(name.upper(), 0) + int(count)
    return table


def _row(param: Param, text: str, whole: bool = False, option: str = "") -> dict[str, Any]:
    """A row (or an object) from its text: ``Arg.read``'s, else its fields without an option, split by ``=``, those
    with defaults left out at the end as they may be (an object's text is its first field, whole). A message names
    the ``option`` the text was given with."""
    if param.arg.read is not None:
        try:
            return param.arg.read(text)
        except InputError as exc:
            raise InputError(f"{option} {exc}" if option else str(exc)) from None
    named = [f for f in param.fields if not f.arg.option and f.arg.cli]
    if whole:
        return {named[0].key: text.strip()}
    parts = [part.strip() for part in text.split("=", len(named) - 1)] if len(named) > 1 else [text.strip()]
    needed = sum(1 for f in named if f.required) or len(named)  # a row of optional fields: all of them
    if not needed <= len(parts) <= len(named) or not all(parts):
        example = param.arg.metavar or "=".join(f.name.upper() for f in named)
        raise InputError(f"{text!r}: write each {param.what} as {example}"
                         + (f", e.g. {param.arg.example}" if param.arg.example else ""))
    return dict(zip((f.key for f in named), parts, strict=False))


def _by_place(param: Param, row_field: Param, rows: list[dict[str, Any]], given: list[str]) -> None:
    """``--failed 2`` (a flag field turned from its default), ``--bonus 2=3`` (a value) into the rows."""
    what, count = param.what, len(rows)
    for text in given:
        place_text, sep, value = (part.strip() for part in text.partition("="))
        if not place_text.isdigit() or (row_field.kind != "bool") != bool(sep):
            shape = "its place" if row_field.kind == "bool" else f"the {what}'s place and the value, as 2=3"
            raise InputError(f"{row_field.arg.option} {text!r}: write {shape}")
        place = int(place_text)
        if not 1 <= place <= count:
            there = f"there is 1 {what}" if count == 1 else f"there are {count} {what}s"
            raise InputError(f"{row_field.arg.option} {place}: {there}, numbered from 1")
        rows[place - 1][row_field.key] = (not row_field.default) if row_field.kind == "bool" else value
