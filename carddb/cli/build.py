"""``carddb build``: the main job."""

from __future__ import annotations

import typer

from carddb.cli.common import state


def build(
    ctx: typer.Context,
    game: list[str] = typer.Option(None, "--game", "-g", help="Build only this game (repeatable)."),
) -> None:
    """Load the games into the catalogue, check the sample decks, render faces, print sheets, export and
    build the site, all into output/."""
    from carddb.build import build as run_build  # heavy (SQLAlchemy): imported only when building

    st = state(ctx)
    workspace = st.workspace
    for game_id in game or []:
        workspace.game_dir(game_id)  # an unknown game fails before anything is written
    report = run_build(workspace, st.catalogue(), list(game or []) or None, say=typer.echo)
    if not report.loaded:
        typer.echo(f"No games found in {workspace.rules_dir}; start one with 'carddb init'.")
    if report.failed:
        raise typer.Exit(1)
