"""``carddb build``: the main job."""

from __future__ import annotations

import typer

from carddb.build import STEPS
from carddb.build import build as run_build
from carddb.cli.common import state


def build(
    ctx: typer.Context,
    game: list[str] = typer.Option(None, "--game", "-g", help="Build only this game (repeatable)."),
    skip: list[str] = typer.Option(None, "--skip", help=f"Skip a step (repeatable): {', '.join(STEPS)}."),
) -> None:
    """Load the games into the catalogue, check the sample decks, render faces, print proxy sheets, export
    for LackeyCCG and Apprentice, and build the site, all into output/."""
    st = state(ctx)
    workspace = st.workspace
    for game_id in game or []:
        workspace.game_dir(game_id)  # an unknown game fails before anything is written
    if not workspace.game_ids():
        typer.echo(f"No games found in {workspace.rules_dir}; start one with 'carddb init'.")
        return
    report = run_build(workspace, st.catalogue(), list(game or []) or None, skip=list(skip or []),
                       say=typer.echo)
    if report.failed:
        for failure in report.failures:
            typer.echo(f"Error: {failure}", err=True)
        raise typer.Exit(1)
