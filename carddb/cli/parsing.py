"""The one parser of the command line: Click, with the few things every carddb command shares.

Every command module declares its commands with ``@app.command``, ``@option`` and ``@argument`` from here:
an option's value is named after the option
(``--game GAME``, a number ``N``) rather than its type, and numbers are checked as they are parsed (a count
of ``1e30``, a ``--luck nan`` or a ``--limit`` past what a catalogue can hold is a usage error, which
``carddb.cli.main`` prints as the one ``Error:`` line).
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import click

#: The largest whole number an option takes: SQLite's (and PostgreSQL's) largest integer.
LARGEST_INTEGER = 2**63 - 1


class Integer(click.ParamType):
    """A whole number within bounds (by default what a database column holds)."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low = -LARGEST_INTEGER if low is None else low
        self.high = LARGEST_INTEGER if high is None else high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            try:
                number = int(text)
            except ValueError:
                self.fail(f"{text!r} is not a whole number", param, ctx)
        if not self.low <= number <= self.high:
            if self.low == -LARGEST_INTEGER:
                self.fail(f"{value} is more than {self.high}", param, ctx)
            if self.high == LARGEST_INTEGER:
                self.fail(f"{value} is less than {self.low}", param, ctx)
            self.fail(f"{value} is not between {self.low} and {self.high}", param, ctx)
        return number


class Number(click.ParamType):
    """A finite decimal number: ``nan`` and ``inf`` are refused, as is anything past 1e15 (no card game
    measures or counts that far; such a value only overflows what is computed from it)."""

    name = "number"
    largest = 1e15

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number) or abs(number) > self.largest:
            self.fail(f"{value!r} is not a usable number", param, ctx)
        return number


INTEGER = Integer()
NUMBER = Number()
PATH = click.Path(path_type=Path)


def integer(low: int | None = None, high: int | None = None) -> Integer:
    return Integer(low, high)


class Option(click.Option):
    """An option whose value shows as a word: ``--game GAME``, ``--limit N``."""

    def make_metavar(self, ctx: click.Context | None = None) -> str:  # type: ignore[override]
        if self.metavar is not None:
            return self.metavar
        word = "N" if isinstance(self.type, Integer | Number) else max(self.opts, key=len).lstrip("-").upper()
        return f"{word}..." if self.nargs == -1 else word


class GameOption(Option):
    """``--game``, given or not: without it, the workspace's ``default_game`` (carddb.toml) or its only game."""

    def process_value(self, ctx: click.Context, value: Any) -> Any:
        if self.value_is_missing(value) and not ctx.resilient_parsing:
            value = _workspace_game(ctx)
        return super().process_value(ctx, value)


def _workspace_game(ctx: click.Context) -> str | None:
    from carddb.errors import CarddbError
    from carddb.workspace import SETTINGS_FILE, Workspace

    settings = ctx.find_root().obj
    try:
        workspace = Workspace.locate(getattr(settings, "root", None))
        chosen = workspace.default_game() if workspace is not None else None
    except CarddbError as exc:
        raise click.UsageError(str(exc), ctx) from None
    if chosen is None and workspace is not None and workspace.game_ids():
        raise click.UsageError(f"say which game with --game: one of {', '.join(workspace.game_ids())} (or set "
                               f"default_game in {workspace.root / SETTINGS_FILE})", ctx)
    return chosen


class Argument(click.Argument):
    """An argument as the usage line shows it (``FILE``, ``[DEFENDER]``, ``CARDS...``); a hidden one (an old
    spelling kept working) is not shown at all."""

    def __init__(self, param_decls: list[str], hidden: bool = False, **kwargs: Any) -> None:
        kwargs.pop("show_default", None)
        super().__init__(param_decls, **kwargs)
        self.hidden = hidden

    def make_metavar(self, ctx: click.Context | None = None) -> str:  # type: ignore[override]
        word = self.metavar or (self.name or "").upper()
        if self.nargs == -1 and not word.endswith("..."):
            word += "..."
        return word if self.required else f"[{word}]"

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [] if self.hidden else [self.make_metavar(ctx)]


option = functools.partial(click.option, cls=Option)
argument = functools.partial(click.argument, cls=Argument)


def suggest(word: str, choices: list[str]) -> str:
    """`` Did you mean 'search'?`` for a misspelt ``word``, else nothing."""
    import difflib  # only on a misspelling: a command that runs never pays for it
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""


class Group(click.Group):
    """A group of commands: help when run alone, a did-you-mean for a misspelt command."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("no_args_is_help", True)
        super().__init__(*args, **kwargs)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                             list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            shown = [n for n in self.list_commands(ctx) if not getattr(self.get_command(ctx, n), "hidden", False)]
            raise click.UsageError(f"no command {name!r} in '{ctx.command_path}'.{suggest(name, shown)}", ctx)
        return super().resolve_command(ctx, args)


Group.group_class = Group


def group(**kwargs: Any) -> Group:
    """A group of subcommands, as ``carddb cards``: ``app = group(help=...)``, then ``@app.command(...)``."""
    return Group(**kwargs)


def command(name: str, **kwargs: Any) -> Any:
    """A command of its own (``carddb roll``): ``@command("roll")`` over the function."""
    return click.command(name, **kwargs)
