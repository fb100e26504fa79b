"""``carddb init``: scaffold a workspace and a new game, or create the catalogue of the current workspace."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import state
from carddb.cli.parsing import single
from carddb.workspace import Workspace

app = single()


@app.command("init")
def init(
    ctx: typer.Context,
    *,
    directory: Annotated[Path | None, typer.Argument(help="Scaffold a workspace here (created if missing).")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", help="Id of a new game to start (lower case, e.g. 'mygame').")] = None,
    name: Annotated[str | None, typer.Option("--name", help="The new game's full name.")] = None,
    example: Annotated[str | None, typer.Option(
        "--example", help="Start from a copy of a bundled game: minibattle, shmod, ssbm, ssq or website.")] = None,
    npm: Annotated[bool, typer.Option("--npm/--no-npm", help="Install the new site's Pyodide with npm ci.")] = True,
) -> None:
    """Start a workspace (a game, the site's sources, the docs) or add a game to one; without a folder, create
    the catalogue of the current workspace and load its games' card files into it."""
    from carddb.scaffold import init_workspace

    st = state(ctx)
    if directory is None and game is None and example is None:
        workspace = st.workspace  # none here: "no workspace found", exit 2
        catalogue = st.catalogue()
        for game_id in workspace.game_ids():
            for line in catalogue.load_workspace_game(workspace, game_id).lines():
                st.say(line)
        games = len(catalogue.held_games())
        typer.echo(f"Catalogue ready at {catalogue.db} ({games} game{'' if games == 1 else 's'}).")
        return
    # a game without a folder goes into the current workspace, or makes the current folder one
    root = directory or (Workspace.locate(st.root) or Workspace(Path.cwd())).root
    with st.progress() as progress:
        report = init_workspace(root, game_id=game, name=name, example=example, install_pyodide=npm,
                                progress=progress)
    for path in report.created:
        st.say(f"created {path}")
    for note in report.notes:
        st.say(f"note: {note}")
    for warning in report.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if not report.created:
        st.say(f"{root} already holds every workspace file; add a game with --game ID or --example GAME.")
        return
    here = root.resolve() == Path.cwd().resolve()
    alone = set(report.games) == set(Workspace(root).game_ids())  # a new workspace: build it all, as README says
    st.say(f"Next: {'' if here else f'cd {root} && '}carddb build"
           + ("" if alone else "".join(f" --game {g}" for g in report.games)))
