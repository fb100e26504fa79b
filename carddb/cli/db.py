"""``carddb db``: the catalogue's schema version, upgrades, and whole-catalogue dump and restore."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import deprecated, state
from carddb.cli.parsing import group
from carddb.core.wording import plural
from carddb.errors import InputError

app = group(help="Catalogue schema status and upgrade; dump and restore.")


def _db_name(ctx: typer.Context) -> str:
    current = state(ctx)
    return current.db or current.workspace.default_db()


def _db_and_engine(ctx: typer.Context):  # type: ignore[no-untyped-def]
    from carddb.catalogue.db import make_engine, missing_catalogue_file
    from carddb.errors import InputError

    db = _db_name(ctx)
    if missing_catalogue_file(db):  # opening it would make it
        raise InputError(f"no catalogue at {db}; nothing to upgrade (the first command that writes makes it)")
    return db, make_engine(db)


@app.command("status")
def status(
    ctx: typer.Context,
) -> None:
    """Say which schema revision the catalogue is at, and whether an upgrade is waiting. Changes nothing."""
    from carddb.catalogue.read_only import sqlite_revision
    from carddb.catalogue.schema_revision import HEAD_REVISION, SCHEMA_VERSION

    db = _db_name(ctx)
    file = Path(db).expanduser() if "://" not in db and db not in ("", ":memory:") else None
    if file is not None and not file.exists():
        typer.echo(f"Catalogue: {db}")
        typer.echo(f"Schema: none yet (no such file; the first command that writes makes it, at revision "
                   f"{SCHEMA_VERSION:04d})")
        return
    if file is not None and file.is_file() and sqlite_revision(file) == HEAD_REVISION:  # no SQLAlchemy needed
        typer.echo(f"Catalogue: {file}")
        typer.echo(f"Schema: revision {HEAD_REVISION} (up to date)")
        return
    from carddb.catalogue.db import display_url, schema_status

    _, engine = _db_and_engine(ctx)
    info = schema_status(engine)
    typer.echo(f"Catalogue: {display_url(engine)}")
    if not info.known:
        typer.echo(f"Schema: revision {info.current}, from a newer carddb (this one knows up to {info.head})")
        raise typer.Exit(2)
    if info.current is None:
        typer.echo(f"Schema: none yet (a new catalogue; the first command creates revision {info.head})")
    elif info.pending:
        typer.echo(f"Schema: revision {info.current}; {plural(len(info.pending), 'upgrade')} waiting "
                   f"({', '.join(info.pending)}): run 'carddb db upgrade'")
    else:
        typer.echo(f"Schema: revision {info.current} (up to date)")


@app.command("upgrade")
def upgrade(
    ctx: typer.Context,
) -> None:
    """Bring the catalogue to this carddb's schema, in one transaction: all revisions or none."""
    from carddb.catalogue.db import display_url
    from carddb.catalogue.db import upgrade as run_upgrade

    _, engine = _db_and_engine(ctx)
    applied = run_upgrade(engine)
    if applied:
        typer.echo(f"Upgraded {display_url(engine)} to revision {applied[-1]} (applied {', '.join(applied)}).")
    else:
        typer.echo(f"{display_url(engine)} is already up to date.")


@app.command("dump")
def dump(
    ctx: typer.Context,
    *,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="The folder to write (new, empty, or an earlier dump).")] = None,
    old_folder: Annotated[Path | None, typer.Argument(hidden=True, help="Deprecated: --out.")] = None,
) -> None:
    """Write the whole catalogue (games, sets, cards, printings, collections, boosters) as plain files."""
    from carddb.catalogue.backup import dump as run_dump

    folder = out or deprecated(old_folder, "the folder as an argument", "--out FOLDER")
    if folder is None:
        raise InputError("say where to write the dump with --out FOLDER")

    counts = run_dump(state(ctx).catalogue(), folder)
    typer.echo(f"Dumped {_counts(counts)} to {folder}.")


@app.command("restore")
def restore(
    ctx: typer.Context,
    *,
    folder: Annotated[Path, typer.Argument(help="A folder written by 'carddb db dump'.")],
) -> None:
    """Read a dump into an empty catalogue, all or nothing."""
    from carddb.catalogue.backup import restore as run_restore

    counts = run_restore(state(ctx).catalogue(), folder)
    typer.echo(f"Restored {_counts(counts)} from {folder}.")


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {what if count != 1 else what.rstrip('s')}" for what, count in counts.items())
