"""``carddb site``: build the website (rulebooks, construction tables, galleries, in-browser checkers) or serve it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carddb.cli.common import state
from carddb.cli.parsing import INTEGER, group
from carddb.core.wording import plural
from carddb.errors import InputError

app = group(help="Build or serve the website: rulebooks, card galleries, deck checkers.")


def _summary(report) -> str:  # type: ignore[no-untyped-def]
    return (f"Built the site in {report.out_dir}: {plural(len(report.games), 'game')}, {report.pages} pages, "
            f"{plural(report.cards, 'card')} ({report.faces} faces), {plural(report.decks, 'sample deck')}, "
            f"Pyodide {report.pyodide_version}, {report.bytes / 1048576:.1f} MB in {report.seconds:.1f} s.")


@app.command("build")
def build(
    ctx: typer.Context,
    *,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Build into this folder (default: output/site).")] = None,
    site_url: Annotated[str | None, typer.Option(
        "--site-url", help="The address the site will be served from.")] = None,
) -> None:
    """Build the site into output/site (replaced whole, only when the build succeeds)."""
    from carddb.site.build import build_workspace_site

    st = state(ctx)
    with st.progress() as progress:
        report = build_workspace_site(st.workspace, st.catalogue(), out or st.workspace.output_dir / "site",
                                      site_url=site_url, progress=progress)
    st.say(_summary(report))
    for note in report.warnings():
        typer.echo(f"note: {note}", err=True)


@app.command("serve")
def serve(
    ctx: typer.Context,
    *,
    port: Annotated[int, typer.Option(
        "--port", "-p", click_type=INTEGER, help="The port to serve on (0 picks a free one).")] = 8000,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Build into this folder (default: output/site).")] = None,
    watch: Annotated[bool, typer.Option(
        "--watch/--no-watch", help="Watch the workspace: load a saved card file, draw its faces, rebuild the pages "
             "that show it and reload open pages (the default); --no-watch builds the site from the catalogue as it "
             "is, once.")] = True,
    studio: Annotated[bool, typer.Option(
        "--studio/--no-studio", help="Let the served pages edit their cards while watching (the card studio, "
             "docs/studio.md; the default); --no-studio serves them read-only.")] = True,
    skip: Annotated[list[str] | None, typer.Option(
        "--skip", help="While watching, skip a step of every build (repeatable), as `carddb build --skip` does: "
             "`--skip sheets --skip kit` leaves the PDFs as they were and shows a save sooner.")] = None,
) -> None:
    """Build the site and serve it on http://127.0.0.1:PORT/ until Ctrl-C; with watching (the default), every saved
    change of the workspace is built and shown in open pages within moments."""
    from carddb.app.serve import watch_and_serve
    from carddb.site.serve import serve_workspace_site

    st = state(ctx)
    if skip and not watch:
        raise InputError("--skip is for watching: --no-watch builds the site alone")
    if watch:
        if out is not None:
            raise InputError("--out is for --no-watch: watching builds output/site with the rest of the build")
        with st.progress() as progress:
            watch_and_serve(st.workspace, st.catalogue(), port=port, say=st.say, progress=progress,
                            error=lambda line: typer.echo(line, err=True),
                            on_ready=lambda url: st.show(f"Serving on {url} (Ctrl-C to stop)."), studio=studio,
                            skip=list(skip or []))
        return

    def ready(report, url: str) -> None:  # type: ignore[no-untyped-def]
        typer.echo(_summary(report))
        typer.echo(f"Serving on {url} (Ctrl-C to stop).")

    serve_workspace_site(st.workspace, st.catalogue(), out or st.workspace.output_dir / "site", port=port,
                         on_ready=ready)
