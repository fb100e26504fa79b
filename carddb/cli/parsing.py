"""What every carddb command is declared with: Typer, set up once, and the few types every command shares.

A command is a function whose typed signature is its interface::

    app = group(help="Search, show, import and export cards.")   # carddb cards ...

    @app.command("show")
    def show(ctx: typer.Context, *,
             name: Annotated[str, typer.Argument(help="The card's name.")],
             game: Annotated[str | None, typer.Option("--game", "-g", callback=workspace_game, help="The "
                  "game.")] = None,
             as_json: Annotated[bool, typer.Option("--json", help="Print the card as JSON.")] = False) -> None:
        \"\"\"Show one card.\"\"\"

``group()`` (a group) and ``single()`` (a module holding one top-level command, as ``carddb roll``) make every
``typer.Typer`` the same way: plain help (``rich_markup_mode=None``: Rich never loads for help or a usage error),
no pretty tracebacks (a crash is ``carddb.cli.crash``'s one line), no completion install options. Numbers are
checked as they are parsed (``INTEGER``, ``NUMBER``, ``integer(low, high)``: a count of ``1e30``, a ``--luck nan``
or a ``--limit`` past what a catalogue holds is a usage error, which ``carddb.cli.main`` prints as the one
``Error:`` line). ``click_command()`` turns a Typer app into the command that runs, with values named after their
option (``--game GAME``, a number ``N``) and no ``[default: ...]`` noise.

Typer carries its own copy of Click; ``carddb.cli.bundled_click`` names what carddb uses of it.
"""

from __future__ import annotations

import math
from typing import Any

import typer
from typer.core import TyperGroup

from carddb.cli import bundled_click as click

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


def integer(low: int | None = None, high: int | None = None) -> Integer:
    return Integer(low, high)


def workspace_game(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
    """``--game``'s callback: without it, the workspace's ``default_game`` (carddb.toml) or its only game; with
    neither, the option is missing."""
    if value is not None or ctx.resilient_parsing:
        return value
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
    if chosen is None:
        raise click.MissingParameter(ctx=ctx, param=param)
    return chosen


def suggest(word: str, choices: list[str]) -> str:
    """`` Did you mean 'search'?`` for a misspelt ``word``, else nothing."""
    import difflib  # only on a misspelling: a command that runs never pays for it

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]!r}?" if close else ""


class Group(TyperGroup):
    """A group of commands: help when run alone, a did-you-mean for a misspelt command (from ``list_commands``,
    so a lazy group suggests commands it has not imported)."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                             list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            raise click.UsageError(f"no command {name!r} in '{ctx.command_path}'.{suggest(name, self.shown(ctx))}",
                                   ctx)
        return super().resolve_command(ctx, args)

    def shown(self, ctx: click.Context) -> list[str]:
        """The names ``--help`` lists (a lazy group answers without importing)."""
        return [n for n in self.list_commands(ctx) if not getattr(self.get_command(ctx, n), "hidden", False)]


#: How every ``typer.Typer`` of carddb is made (``rich_markup_mode`` is per instance, so each must say it).
SETTINGS: dict[str, Any] = {"rich_markup_mode": None, "pretty_exceptions_enable": False, "add_completion": False}


def group(cls: type[TyperGroup] = Group, no_args_is_help: bool = True, **kwargs: Any) -> typer.Typer:
    """A group of subcommands, as ``carddb cards``: ``app = group(help=...)``, then ``@app.command(...)``."""
    return typer.Typer(cls=cls, no_args_is_help=no_args_is_help, **SETTINGS, **kwargs)


def single() -> typer.Typer:
    """The app of a module holding one top-level command (``carddb roll``): ``app = single()``, then
    ``@app.command("roll")``; the root loads it as that command, not as a group."""
    return typer.Typer(**SETTINGS)


def click_command(app: typer.Typer, name: str) -> click.Command:
    """The command (or group) ``app`` declares, named ``name``, as it runs and shows its help."""
    from typer.main import get_command, get_group

    is_group = app.registered_callback or isinstance(app.info.cls, type)  # group() names its class; single() not
    command = get_group(app) if is_group else get_command(app)
    command.name = name
    _plain(command)
    return command


class Argument(click.Argument):
    """An argument as the usage line shows it: ``FILE``, ``[DEFENDER]``, ``CARDS...`` (Typer's own shows
    ``{file}``); a hidden one (an old spelling kept working) is not shown at all."""

    def make_metavar(self, ctx: click.Context, *, usage: bool = False) -> str:
        word = self.metavar or (self.name or "").upper()
        if self.nargs != 1 and not word.endswith("..."):
            word += "..."
        return word if self.required or word.startswith("[") else f"[{word}]"

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [] if self.hidden else [self.make_metavar(ctx, usage=True)]


def _plain(command: click.Command) -> None:
    """Values named after their option (``--game GAME``, ``--limit N``) or argument (``FILE``), defaults left to
    the help text."""
    for param in command.params:
        if type(param) is click.Argument:  # Typer makes every argument; only how it shows changes
            param.__class__ = Argument
            param.metavar = param.metavar or (param.name or "").upper()
        if isinstance(param, click.Option):
            param.show_default = False
            if param.metavar is None and not param.is_flag:
                number = isinstance(param.type, Integer | Number | click.IntParamType | click.FloatParamType)
                param.metavar = "N" if number else max(param.opts, key=len).lstrip("-").upper()
                if param.multiple and param.nargs == -1:
                    param.metavar += "..."
    for sub in getattr(command, "commands", {}).values():
        _plain(sub)
