"""What every command shares: the global options, opening the catalogue, printing JSON and tables."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import typer

from carddb.progress import SILENT, Reporter
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue


@dataclass
class State:
    root: str | None = None
    db: str | None = None
    quiet: bool = False
    _catalogue: Catalogue | None = field(default=None, repr=False)
    _live: Any = field(default=None, repr=False)  # the live progress display while one is shown

    @property
    def workspace(self) -> Workspace:
        return Workspace.find(self.root)

    def catalogue(self) -> Catalogue:
        # Imported here so commands that never touch the database (roll, deck convert) start fast.
        from carddb.catalogue.api import open_catalogue

        if self._catalogue is None:
            self._catalogue = open_catalogue(self.db, self.root)
        return self._catalogue

    def reader(self) -> Catalogue:
        """The catalogue for a command that only reads: sqlite3 alone for a SQLite file (``read_only.py``)."""
        if self._catalogue is not None:
            return self._catalogue
        from carddb.catalogue.read_only import open_read_only

        return open_read_only(self.db, self.root)

    def db_location(self) -> str:
        """Where the catalogue is (``open_catalogue``'s choice), found without opening it."""
        import os

        from carddb.workspace import DB_ENV

        return self.db or os.environ.get(DB_ENV) or self.workspace.default_db()

    @property
    def show_progress(self) -> bool:
        """A live display only for a person watching: never with --quiet, in a pipe or in a log file."""
        return not self.quiet and sys.stdout.isatty() and sys.stderr.isatty()

    @contextmanager
    def progress(self) -> Iterator[Reporter]:
        """The reporter long library work tells its progress to: a live display on a terminal, else silence."""
        if not self.show_progress:
            yield SILENT
            return
        from carddb.cli.progress_display import RichReporter  # Rich's progress widgets load only when shown

        with RichReporter() as reporter:
            self._live = reporter
            try:
                yield reporter
            finally:
                self._live = None

    def say(self, line: str) -> None:
        """A line of what a command did: shown unless --quiet (errors and warnings are printed regardless),
        above the live display while there is one."""
        if not self.quiet:
            self.show(line)

    def show(self, line: str) -> None:
        """A line shown even with --quiet (``Serving on ...``), above the live display while there is one,
        never glued to its last frame."""
        if self._live is not None:
            self._live.print(line)
        else:
            typer.echo(line)


def state(ctx: typer.Context) -> State:
    root = ctx.find_root()
    if not isinstance(root.obj, State):
        root.obj = State()
    return root.obj


def deprecated(value: Any, old: str, new: str) -> Any:
    """The value given under an option's old spelling (None when not given), with a note on stderr that the
    option is now called ``new``. Old spellings keep working so scripts written for them do not break."""
    if value is not None:
        typer.echo(f"warning: {old} is deprecated, use {new}", err=True)
    return value


def print_json(data: Any) -> None:
    import json  # only for --json

    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def print_table(rows: list[list[str]], header: list[str] | None = None) -> None:
    """Plain aligned columns: readable in a terminal, stable in a pipe."""
    table = [header, *rows] if header else rows
    if not table:
        return
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for index, row in enumerate(table):
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        if header and index == 0:
            typer.echo("  ".join("-" * width for width in widths))
