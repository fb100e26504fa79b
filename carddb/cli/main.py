"""The ``carddb`` command line: the root group, its global options, and the one place errors become messages.

Each command lives in its own module and is imported only when it runs (``COMMANDS`` names them), so a
command that only reads starts about as fast as Python itself; ``carddb --help`` lists them from the table
without importing any, and a misspelt command gets a did-you-mean from it too.

Adding a command (say ``carddb kit``):

1. write ``carddb/cli/kit.py`` with ``app = group(help=...)`` and ``@app.command("make")`` functions for a group
   (``carddb kit make``), or ``app = single()`` and one ``@app.command("kit")`` for a command of its own; each
   function's typed signature (``Annotated[..., typer.Option(...)]``, see ``carddb.cli.parsing``) is its
   interface, its docstring its help; the library does the work, errors are ``carddb.errors`` raised as they are;
2. add one line to ``COMMANDS`` below: ``"kit": ("carddb.cli.kit", "Its line in carddb --help.")`` (a group's
   line is its ``help`` too);
3. run ``python -m carddb.cli.reference`` to regenerate ``docs/cli.md`` and README.md's table.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from carddb import __version__
from carddb.cli.common import State
from carddb.cli.parsing import SETTINGS, Group, click, click_command
from carddb.errors import CarddbError, ExitCode, OutputError, mask_secrets

#: Every top-level command: its name, its module (whose ``app`` declares it), and its line in ``carddb --help``.
#: A group's line is its help too (tests/cli/test_reference.py checks they agree).
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("carddb.cli.init", "Make a workspace or add a game to one."),
    "build": ("carddb.cli.build", "The main job: load, check, render, print, export and build the site."),
    "cards": ("carddb.cli.cards", "Search, show, import and export cards."),
    "deck": ("carddb.cli.deck", "Check decks against the rules; convert deck files."),
    "render": ("carddb.cli.render", "Draw card faces, with the legibility report."),
    "print": ("carddb.cli.print_", "Print proxy sheets (PDF): a deck, a set or a game; duplex calibration "
              "and printer profiles."),
    "kit": ("carddb.cli.kit", "A game's print-and-play kit: rulebook, cards, tuck box, pieces, checklist."),
    "export": ("carddb.cli.export", "Export a game for LackeyCCG, Apprentice, Tabletop Simulator or "
               "Cockatrice."),
    "site": ("carddb.cli.site", "Build or serve the website: rulebooks, card galleries, deck checkers."),
    "collection": ("carddb.cli.collection", "A player's cards: add, remove, show, import."),
    "booster": ("carddb.cli.booster", "Open booster packs into a player's collection."),
    "db": ("carddb.cli.db", "Catalogue schema status and upgrade; dump and restore."),
    "ssq": ("carddb.cli.ssq", "An alias of 'carddb play ssq' (Super Smash Quest's helpers), kept for the scripts "
            "written for it."),
    "play": ("carddb.cli.play", "Play helpers for every game: damage, KOs, battles, odds, critics."),
    "roll": ("carddb.cli.roll", "Roll dice: a success pool (7d10), a percentile roll (d%), a sum (2d6)."),
}


def load_command(name: str) -> click.Command:
    """The command ``name`` of ``COMMANDS``, importing its module (its ``app``, a ``typer.Typer``)."""
    import importlib

    module, short_help = COMMANDS[name]
    loaded = importlib.import_module(module)
    found = click_command(loaded.app, name)
    found.short_help = short_help
    if getattr(loaded, "ALIAS", False):  # its help says whose alias it is; the reference shows it once, under play
        found.help, found.hidden = short_help, True
    return found


#: The root's options, as ``hoist_global_options`` knows them: flags, and options that take a value
GLOBAL_FLAGS = frozenset({"-q", "--quiet"})
GLOBAL_VALUED = frozenset({"--root", "--db"})


def hoist_global_options(args: list[str]) -> list[str]:
    """``args`` with the root's options written after the command moved in front of it.

    ``carddb build -q`` and ``carddb cards search x --root ../games`` are what people type; Click only takes a
    group's options before its command. No command has an option of these names, so moving them changes no
    command's meaning; ``--`` ends the options as usual (what follows it is never moved).
    """
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "--":
        name = args[index].split("=", 1)[0]
        index += 2 if name in GLOBAL_VALUED and "=" not in args[index] else 1
    if index >= len(args) or args[index] == "--":
        return args  # no command: nothing is after one
    front, rest, kept = args[:index], args[index:], []
    position = 0
    while position < len(rest):
        token = rest[position]
        name = token.split("=", 1)[0]
        if token == "--":
            kept.extend(rest[position:])
            break
        if token in GLOBAL_FLAGS or (name in GLOBAL_VALUED and "=" in token):
            front.append(token)
        elif token in GLOBAL_VALUED:
            if position + 1 == len(rest):  # Click would call it unknown here: say what it lacks
                raise click.UsageError(f"Option '{token}' requires an argument.")
            front.extend(rest[position:position + 2])
            position += 1
        else:
            kept.append(token)
        position += 1
    return front + kept


class RootGroup(Group):
    """The ``carddb`` group: commands load when they run, and every way a run can fail ends here as one line.

    ``main`` is the one place an error becomes ``Error: ...`` on stderr and its exit code (``ExitCode``):
    carddb's own errors, usage errors (unknown option, missing or bad value), a file the system
    refused, and, for a bug, one line naming the crash report.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.commands:  # loaded once per root (a test runner makes a root per run)
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands[cmd_name]

    def shown(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)  # the table, without importing any command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands from ``COMMANDS``, without importing them."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, short_help) for name, (_, short_help) in COMMANDS.items()])

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(args))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # Typer would turn it into a silent exit 130
            raise click.Abort() from None

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        code = run_safely(lambda: super(RootGroup, self).main(args, prog_name or "carddb", complete_var,
                                                              standalone_mode=False, **extra))
        if standalone_mode:
            sys.exit(code)
        return code


def run_safely(run: Any) -> int:
    """Run ``run`` (the parsing and the command) and return the exit code, having printed what went wrong."""
    try:
        result = run()
    except click.NoArgsIsHelpError as exc:  # ``carddb cards`` alone: its help, as asked
        click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
        return ExitCode.OK
    except click.UsageError as exc:
        click.echo(f"Error: {usage_message(exc)}", err=True)
        return ExitCode.BAD_INPUT
    except click.ClickException as exc:
        click.echo(f"Error: {exc.format_message()}", err=True)
        return exc.exit_code
    except click.Exit as exc:
        return exc.exit_code
    except (click.Abort, KeyboardInterrupt):
        click.echo("Interrupted.", err=True)
        return ExitCode.INTERRUPTED
    except CarddbError as exc:
        click.echo(f"Error: {exc}", err=True)
        return exc.exit_code
    except OSError as exc:
        # The last net for a file the system refused (a folder where a file goes, no permission, disk full):
        # the library should have said it as a CarddbError, but a user still gets one line, not a traceback.
        # os.replace(temp, target) names both: the target is the one the user knows.
        named = exc.filename2 or exc.filename
        where = f"{named}: " if named else ""
        click.echo(mask_secrets(f"Error: {where}{exc.strerror or exc}"), err=True)
        return OutputError.exit_code
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else ExitCode.OK if exc.code is None else ExitCode.BAD_INPUT
    except Exception as exc:
        # Anything else is a bug: one line naming the report, never a traceback (docs: exit code 70).
        from carddb.cli.crash import report_crash

        return report_crash(exc)
    return result if isinstance(result, int) else ExitCode.OK


def usage_message(exc: click.UsageError) -> str:
    """Click's usage error as one line, naming the command's help (a hidden command's is its parent's)."""
    if isinstance(exc, click.NoSuchOption):  # as Click itself words it, not Typer's "(Possible options: ...)"
        close = f" Did you mean {exc.possibilities[0]!r}?" if exc.possibilities else ""
        message = f"No such option {exc.option_name!r}.{close}"
    else:
        message = " ".join(exc.format_message().split())
    ctx = exc.ctx
    while ctx is not None and getattr(ctx.command, "hidden", False) and ctx.parent is not None:
        ctx = ctx.parent
    if ctx is None:
        return message
    return f"{message} (see '{ctx.command_path} --help')"


def _version(ctx: typer.Context, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        typer.echo(f"carddb {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="carddb", cls=RootGroup, no_args_is_help=True, **SETTINGS,
    help="Card catalogue, deck checker, card faces, proxy sheets, exports and rulebook sites for fan card games.",
)


@app.callback()
def _global_options(
    ctx: typer.Context,
    *,
    root: Annotated[str | None, typer.Option(
        "--root", metavar="ROOT", help="The workspace folder (default: the nearest one holding rules/).")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", envvar="CARDDB_DB", metavar="DB", show_envvar=False, help="Catalogue file or database URL (default: "
             "output/catalogue.db).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or chatter.")] = False,
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, expose_value=False, callback=_version, help="Show the version.")] = False,
) -> None:
    ctx.obj = State(root=root, db=db, quiet=quiet)


def root_command() -> RootGroup:
    """The ``carddb`` group as it runs (a new one each call, its commands not yet loaded)."""
    command = click_command(app, "carddb")
    assert isinstance(command, RootGroup)
    return command


def every_command(hidden: bool = False) -> list[tuple[list[str], click.Command]]:
    """Every command and group under ``carddb`` with its path (``["cards", "search"]``), the root first,
    loading them all: for the help tests and the generated reference (``carddb.cli.reference``)."""
    found: list[tuple[list[str], click.Command]] = []
    root = root_command()
    ctx = click.Context(root, info_name="carddb")

    def walk(command: click.Command, path: list[str]) -> None:
        found.append((path, command))
        if isinstance(command, TyperGroup):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and (hidden or not sub.hidden):
                    walk(sub, [*path, name])

    walk(root, [])
    return found


def main() -> None:
    """The ``carddb`` entry point."""
    from carddb.cli.closed_pipe import guard_stdout

    guard_stdout()
    try:
        root_command().main(prog_name="carddb")
    finally:
        # The process ends here: its objects are left out of the collection Python makes at exit, which walks them
        # all (a second after a build of a 5,000-card game). What must be closed was closed by the command.
        import gc

        gc.freeze()


if __name__ == "__main__":
    main()
