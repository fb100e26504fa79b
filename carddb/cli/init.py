"""``carddb init``: scaffold a workspace and a new game, or create the catalogue."""

from __future__ import annotations

from pathlib import Path

import typer

from carddb.cli.common import state


def init(
    ctx: typer.Context,
    directory: Path = typer.Argument(None, help="Scaffold a workspace here (created if missing)."),
    game: str = typer.Option(None, "--game", "-g", help="Id of a new game to start (lower case, e.g. 'mygame')."),
    name: str = typer.Option(None, "--name", help="The new game's full name."),
    example: str = typer.Option(None, "--example", help="Start from a copy of a bundled game: minibattle, shmod, "
                                "ssbm, ssq or website."),
    npm: bool = typer.Option(True, "--npm/--no-npm", help="Install the new site's Pyodide with npm ci."),
) -> None:
    """Start a workspace (a game, the site's sources, the docs) or add a game to one; without a folder, create
    the catalogue of the current workspace."""
    from carddb.scaffold import init_workspace

    st = state(ctx)
    if directory is None and game is None and example is None:
        cat = st.catalogue()
        typer.echo(f"Catalogue ready at {cat.db} ({len(cat.games())} games).")
        return
    root = directory or st.workspace.root
    with st.progress() as progress:
        report = init_workspace(root, game_id=game, name=name, example=example, install_pyodide=npm,
                                progress=progress)
    for path in report.created:
        typer.echo(f"created {path}")
    for note in report.notes:
        typer.echo(f"note: {note}")
    if not report.created:
        typer.echo(f"{root} already holds every workspace file; add a game with --game ID or --example GAME.")
        return
    typer.echo(f"Next: cd {root} && carddb build" + "".join(f" --game {g}" for g in report.games))
