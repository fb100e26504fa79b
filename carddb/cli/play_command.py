"""``carddb play <game> <helper>`` made from the helper's typed signature (``carddb.core.play.signature``).

Each parameter becomes an argument or option whose help is the parameter's ``Arg.help``; the values are passed on
as text, in the request the site's form sends too, and checked by the one reader of requests
(``signature.read``), so a bad value gets the same words here as in the browser:

- a required value, a list of cards or words, or a list of rows is a positional argument (in signature order);
  any other value is an option named after the parameter (``--attack-damage``), or ``Arg.option``;
- a row is ``A=B`` text, its fields without an option in order (``Mario=Taunt`` for player and card), or what
  the row's ``Arg.read`` makes of it; a row field with ``Arg.option`` is a repeated ``--option PLACE=VALUE``
  (a flag: ``--option PLACE`` turns the field away from its default, as ``--failed 2``);
- a list with ``Arg.sep`` is one option value split by it (``--stages 20,40``).
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from carddb.cli.play_common import JsonFlag, game_group, run_helper
from carddb.core.play.signature import Described, Param
from carddb.errors import InputError

LISTS = ("cards", "texts", "ints", "rows")


def game_commands(game_id: str, described: dict[str, Described], app: typer.Typer | None = None) -> typer.Typer:
    """The group ``carddb play <game_id>``: a command per helper (added to ``app``, a game's own group of commands
    not yet described by signatures, where it has not one of that name)."""
    app = app or game_group()
    written = {info.name for info in app.registered_commands}
    for one in described.values():
        if one.name not in written:
            app.command(one.name, help=one.help)(command(game_id, one))
    return app


def _positional(param: Param) -> bool:
    return not param.arg.option and param.kind != "bool" and (param.required or param.kind in LISTS
                                                              or param.arg.positional) and not param.arg.sep


def _option_names(param: Param) -> list[str]:
    return [param.arg.option or f"--{param.name.replace('_', '-')}", *([param.arg.short] if param.arg.short else [])]


def _cli_help(param: Param) -> str:
    return param.arg.help or param.label


def command(game_id: str, described: Described) -> Any:
    """The command function of one helper, with a signature Typer reads."""
    params = [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)]
    extra: list[tuple[Param, Param]] = []  # (rows parameter, its field given by place)
    for param in described.params:
        many = param.kind in LISTS and not param.arg.sep
        if _positional(param):
            info: Any = typer.Argument(metavar=param.arg.metavar or param.name.upper(), help=_cli_help(param))
        elif param.kind == "bool":
            info = typer.Option(*_option_names(param), help=_cli_help(param))
        else:
            info = typer.Option(*_option_names(param), metavar=param.arg.metavar or None, help=_cli_help(param))
        annotation: Any = bool if param.kind == "bool" else list[str] if many else str
        required = param.required and param.kind != "bool"
        default = False if param.kind == "bool" else inspect.Parameter.empty if required else None
        if default is None:
            annotation = annotation | None
        params.append(inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                        annotation=Annotated[annotation, info]))
        extra += [(param, f) for f in param.fields if f.arg.option]
    for rows, row_field in extra:
        info = typer.Option(row_field.arg.option, metavar="PLACE" if row_field.kind == "bool" else "PLACE=VALUE",
                            help=row_field.arg.help)
        params.append(inspect.Parameter(f"{rows.name}__{row_field.name}", inspect.Parameter.KEYWORD_ONLY,
                                        default=None, annotation=Annotated[list[str] | None, info]))
    params.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=JsonFlag))

    def run(ctx: typer.Context, as_json: bool = False, **values: Any) -> None:
        run_helper(ctx, game_id, described.name, request(described, values), as_json)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    run.__name__ = described.function.__name__
    run.__doc__ = described.help
    return run


def request(described: Described, values: dict[str, Any]) -> dict[str, Any]:
    """The helper's request from the command line's values (text, checked by ``signature.read``)."""
    out: dict[str, Any] = {}
    for param in described.params:
        given = values.get(param.name)
        if param.arg.sep and given is not None:
            given = [part.strip() for part in given.split(param.arg.sep)]
        if param.kind == "rows":
            given = [_row(param, text) for text in given or []]
            for row_field in (f for f in param.fields if f.arg.option):
                _by_place(param, row_field, given, values.get(f"{param.name}__{row_field.name}") or [])
        out[param.name] = given
    return out


def _row(param: Param, text: str) -> dict[str, Any]:
    if param.arg.read is not None:
        return param.arg.read(text)
    named = [f for f in param.fields if not f.arg.option]
    parts = [part.strip() for part in text.split("=", len(named) - 1)] if len(named) > 1 else [text.strip()]
    if len(parts) != len(named) or not all(parts):
        example = param.arg.metavar or "=".join(f.name.upper() for f in named)
        raise InputError(f"{text!r}: write each {param.what} as {example}"
                         + (f", e.g. {param.arg.example}" if param.arg.example else ""))
    return dict(zip((f.name for f in named), parts, strict=True))


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
        rows[place - 1][row_field.name] = (not row_field.default) if row_field.kind == "bool" else value
