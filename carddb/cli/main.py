"""The ``carddb`` command line: the root app, its global options, and the one place errors become messages."""

from __future__ import annotations

from typing import Any

import click
import typer
from typer.core import TyperGroup

from carddb import __version__
from carddb.cli import booster as booster_cli
from carddb.cli import build, cards, init
from carddb.cli import collection as collection_cli
from carddb.cli import db as db_cli
from carddb.cli import deck as deck_cli
from carddb.cli import export as export_cli
from carddb.cli import play as play_cli
from carddb.cli import print_ as print_cli
from carddb.cli import render as render_cli
from carddb.cli import roll as roll_cli
from carddb.cli import site as site_cli
from carddb.cli import ssq as ssq_cli
from carddb.cli.common import State
from carddb.cli.crash import report_crash
from carddb.cli.help import tidy_help
from carddb.errors import CarddbError, OutputError, mask_secrets


class CarddbGroup(TyperGroup):
    """Turns every ``CarddbError`` into ``Error: ...`` on stderr and its exit code, for every command."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tidy_help(self)  # every command is built by now: show their help texts as written

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CarddbError as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except OSError as exc:
            # The last net for a file the system refused (a folder where a file goes, no permission, disk full):
            # the library should have said it as a CarddbError, but a user still gets one line, not a traceback.
            # os.replace(temp, target) names both: the target is the one the user knows.
            named = exc.filename2 or exc.filename
            where = f"{named}: " if named else ""
            typer.echo(mask_secrets(f"Error: {where}{exc.strerror or exc}"), err=True)
            raise typer.Exit(OutputError.exit_code) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort, typer.Exit, typer.Abort,
                typer.exceptions.TyperException):
            raise  # how commands and Click end a run on purpose
        except Exception as exc:
            # Anything else is a bug: one line naming the report, never a traceback (docs: exit code 70).
            raise typer.Exit(report_crash(exc)) from None


app = typer.Typer(
    cls=CarddbGroup,
    name="carddb",
    help="Card catalogue, deck checker, card faces, proxy sheets, exports and rulebook sites for fan card games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"carddb {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    root: str = typer.Option(None, "--root", help="The workspace folder (default: the nearest one holding rules/)."),
    db: str = typer.Option(None, "--db", envvar="CARDDB_DB",
                           help="Catalogue file or database URL (default: output/catalogue.db)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or chatter."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    ctx.obj = State(root=root, db=db, quiet=quiet)


app.command("init")(init.init)
app.command("build")(build.build)
app.command("render")(render_cli.render)
app.command("roll")(roll_cli.roll)
app.add_typer(cards.app, name="cards", help="Search, show, import and export cards.")
app.add_typer(db_cli.app, name="db", help="Catalogue schema status and upgrade; dump and restore.")
app.add_typer(deck_cli.app, name="deck", help="Check decks against the rules; convert deck files.")
app.add_typer(ssq_cli.app, name="ssq", help="Super Smash Quest: check a turn, order fighters by initiative.")
app.add_typer(play_cli.app, name="play", help="Play helpers for every game: damage, KOs, battles, odds, critics.")
app.add_typer(collection_cli.app, name="collection", help="A player's cards: add, remove, show, import.")
app.add_typer(booster_cli.app, name="booster", help="Open booster packs into a player's collection.")
app.add_typer(export_cli.app, name="export", help="Export a game as a LackeyCCG plugin or an Apprentice patch.")
app.add_typer(print_cli.app, name="print", help="Print proxy sheets (PDF): a deck, a set or a game; duplex "
              "calibration and printer profiles.")
app.add_typer(site_cli.app, name="site", help="Build or serve the website: rulebooks, card galleries, deck checkers.")


def run() -> None:
    """The Typer app; the ``carddb`` entry point (``cli.fastcheck.main``) calls it for every command but a
    plain ``deck check``."""
    try:
        app()
    except Exception as exc:  # a bug outside any command (the rest are caught in CarddbGroup.invoke)
        raise SystemExit(report_crash(exc)) from None


if __name__ == "__main__":
    from carddb.cli.fastcheck import main as entry_point

    entry_point()
