"""``carddb build``: the main job."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from carddb.app.build import STEPS
from carddb.app.build import build as run_build
from carddb.cli.common import state
from carddb.cli.parsing import single

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue

#: How many warnings the end of a build lists; the rest are in the warnings file it names.
SHOWN_WARNINGS = 10


def warning_summary(warnings: list[str], written_to: object) -> list[str]:
    """The build's closing lines on its warnings: every one, or the first ten and where all of them are."""
    if not warnings:
        return []
    shown = warnings[:SHOWN_WARNINGS]
    lines = [f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}:", *(f"  warning: {w}" for w in shown)]
    if len(warnings) > len(shown):
        lines.append(f"  ... and {len(warnings) - len(shown)} more: all {len(warnings)} are in {written_to}")
    return lines


app = single()


@app.command("build")
def build(
    ctx: typer.Context,
    *,
    game: Annotated[list[str] | None, typer.Option("--game", "-g", help="Build only this game (repeatable).")] = None,
    skip: Annotated[list[str] | None, typer.Option(
        "--skip", help=f"Skip a step (repeatable): {', '.join(STEPS)}.")] = None,
    take_files: Annotated[bool, typer.Option(
        "--take-files", help="Where the catalogue holds a card that a card file gives differently (changed or "
             "imported since), take the card file's version instead of keeping the catalogue's "
             "(docs/catalogue.md).")] = False,
    watch: Annotated[bool, typer.Option(
        "--watch", "-w", help="After building, watch the workspace and build again whatever a saved file changes, "
             "until Ctrl-C (a build that fails keeps the last good outputs).")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Say, for each part made again (a face, a PDF, an export, a page), which of its inputs "
             "changed.")] = False,
    site_url: Annotated[str | None, typer.Option(
        "--site-url", help="The address the site will be published at; the client files it hosts point there "
             "(default: SITE_URL, else site/mkdocs.yml).")] = None,
) -> None:
    """Load the games' card files into the catalogue (cards from other sources stay), check the sample decks,
    render faces, print proxy sheets, export for LackeyCCG, Apprentice, Tabletop Simulator and Cockatrice, and
    build the site, all into output/."""
    st = state(ctx)
    workspace = st.workspace
    for game_id in game or []:
        workspace.game_dir(game_id)  # an unknown game fails before anything is written
    if not workspace.game_ids():
        typer.echo(f"No games found in {workspace.rules_dir}; start one with 'carddb init'.")
        return
    if watch:
        from carddb.app.watch import watch_build

        def once(games: list[str] | None, catalogue: Catalogue) -> object:
            with st.progress() as progress:
                report = run_build(workspace, catalogue, games, skip=list(skip or []), say=st.say, progress=progress,
                                   take_files=take_files, site_url=site_url)
            _explain(report, explain)
            for line in warning_summary(report.warnings, report.warnings_file):
                typer.echo(line, err=True)
            return report

        watch_build(workspace, st.catalogue(), once, games=list(game or []) or None, say=st.say,
                    error=lambda line: typer.echo(line, err=True))
        return
    with st.progress() as progress:
        report = run_build(workspace, st.catalogue, list(game or []) or None, skip=list(skip or []),
                           say=st.say, progress=progress, take_files=take_files, db=st.db_location(),
                           site_url=site_url)
    _explain(report, explain)
    for line in warning_summary(report.warnings, report.warnings_file):
        typer.echo(line, err=True)
    if report.failed:
        for failure in report.failures:
            typer.echo(f"Error: {failure}", err=True)
        raise typer.Exit(1)


def _explain(report: object, wanted: bool) -> None:
    """``--explain``: why each part was made again (said even with ``--quiet``: it was asked for)."""
    if not wanted:
        return
    lines = report.explanation()  # type: ignore[attr-defined]
    for line in lines or ["Nothing was made again: every part was up to date."]:
        typer.echo(line)
