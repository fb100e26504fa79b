"""``carddb export lackey|apprentice``: the game as a LackeyCCG plugin or an Apprentice patch."""

from __future__ import annotations

from pathlib import Path

import typer

from carddb.cli.common import state

app = typer.Typer(no_args_is_help=True)


def _print(st, report) -> None:  # type: ignore[no-untyped-def]
    for line in report.summary().splitlines():
        if line.startswith("warning:"):
            typer.echo(line, err=True)
        else:
            st.say(line)


@app.command("lackey")
def lackey(
    ctx: typer.Context,
    game: str = typer.Option(..., "--game", "-g", help="The game to export."),
    out: Path = typer.Option(..., "--out", "-o", help="Output folder; the plugin goes in <out>/<plugin name>/."),
    base_url: str = typer.Option(None, "--base-url",
                                 help="Where the plugin folder will be published: adds updatelist.txt and "
                                      "version.txt so players install it from <base-url>/updatelist.txt."),
    zip_: bool = typer.Option(False, "--zip", help="Also write <out>/<plugin name>.zip."),
) -> None:
    """Write a LackeyCCG plugin folder (rendering missing card faces first)."""
    from carddb.exporters.lackey import export_lackey

    st = state(ctx)
    workspace = st.workspace
    workspace.game_dir(game)
    with st.progress() as progress, progress.task(f"Exporting {game} for LackeyCCG"):
        report = export_lackey(workspace.root, st.catalogue(), game, out, base_url=base_url, zip=zip_,
                               faces_dir=workspace.output_dir / "faces")
    _print(st, report)
    st.say(f"Install: copy {report.root} into LackeyCCG's plugins/ folder"
               + (f", or give players {base_url.rstrip('/')}/updatelist.txt" if base_url else "") + ".")


@app.command("apprentice")
def apprentice(
    ctx: typer.Context,
    game: str = typer.Option(..., "--game", "-g", help="The game to export."),
    out: Path = typer.Option(..., "--out", "-o", help="Output folder for Sets/cardinfo.dat, Expan.dat, decks."),
) -> None:
    """Write an Apprentice patch: Sets/cardinfo.dat, Expan.dat, .dec decks and spoiler lists."""
    from carddb.exporters.apprentice import export_apprentice

    st = state(ctx)
    workspace = st.workspace
    workspace.game_dir(game)
    with st.progress() as progress, progress.task(f"Exporting {game} for Apprentice"):
        report = export_apprentice(workspace.root, st.catalogue(), game, out)
    _print(st, report)
    st.say(f"Install: copy Sets/cardinfo.dat and Expan.dat from {out} into the Apprentice folder "
               f"(back up the originals first).")
