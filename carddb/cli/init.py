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
) -> None:
    """Start a workspace or a new game in one, with a game definition, a card file, a deck and a template;
    without a folder, create the catalogue of the current workspace."""
    from carddb.scaffold import scaffold_game

    st = state(ctx)
    if directory is None and game is None:
        cat = st.catalogue()
        typer.echo(f"Catalogue ready at {cat.db} ({len(cat.games())} games).")
        return
    root = directory or st.workspace.root
    created = scaffold_game(root, game or "mygame", name)
    for path in created:
        typer.echo(f"created {path}")
    typer.echo(f"Next: cd {root} && carddb build --game {game or 'mygame'}")
