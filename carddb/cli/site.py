"""``carddb site``: build the website (rulebooks, construction tables, galleries, in-browser checkers) or serve it."""

from __future__ import annotations

from pathlib import Path

import typer

from carddb.cli.common import state
from carddb.errors import InputError

app = typer.Typer(no_args_is_help=True)


def _summary(report) -> str:  # type: ignore[no-untyped-def]
    return (f"Built the site in {report.out_dir}: {len(report.games)} games, {report.pages} pages, "
            f"{report.cards} cards ({report.faces} faces), {report.decks} sample decks, "
            f"Pyodide {report.pyodide_version}, {report.bytes / 1048576:.1f} MB in {report.seconds:.1f} s.")


@app.command("build")
def build(
    ctx: typer.Context,
    out: Path = typer.Option(None, "--out", "-o", help="Build into this folder (default: output/site)."),
    site_url: str = typer.Option(None, "--site-url", help="The address the site will be served from."),
) -> None:
    """Build the site into output/site (replaced whole, only when the build succeeds)."""
    from carddb.site.build import build_workspace_site

    st = state(ctx)
    with st.progress() as progress:
        report = build_workspace_site(st.workspace, st.catalogue(), out or st.workspace.output_dir / "site",
                                      site_url=site_url, progress=progress)
    st.say(_summary(report))
    for note in report.notes:
        typer.echo(f"note: {note}", err=True)


@app.command("serve")
def serve(
    ctx: typer.Context,
    port: int = typer.Option(8000, "--port", "-p", help="The port to serve on (0 picks a free one)."),
    out: Path = typer.Option(None, "--out", "-o", help="Build into this folder (default: output/site)."),
    watch: bool = typer.Option(True, "--watch/--no-watch",
                               help="Watch the workspace: load a saved card file, draw its faces, rebuild the pages "
                                    "that show it and reload open pages (the default); --no-watch builds the site "
                                    "from the catalogue as it is, once."),
) -> None:
    """Build the site and serve it on http://127.0.0.1:PORT/ until Ctrl-C; with watching (the default), every saved
    change of the workspace is built and shown in open pages within moments."""
    from carddb.app.serve import watch_and_serve
    from carddb.site.serve import serve_workspace_site

    st = state(ctx)
    if watch:
        if out is not None:
            raise InputError("--out is for --no-watch: watching builds output/site with the rest of the build")
        with st.progress() as progress:
            watch_and_serve(st.workspace, st.catalogue(), port=port, say=st.say, progress=progress,
                            error=lambda line: typer.echo(line, err=True),
                            on_ready=lambda url: typer.echo(f"Serving on {url} (Ctrl-C to stop)."))
        return

    def ready(report, url: str) -> None:  # type: ignore[no-untyped-def]
        typer.echo(_summary(report))
        typer.echo(f"Serving on {url} (Ctrl-C to stop).")

    serve_workspace_site(st.workspace, st.catalogue(), out or st.workspace.output_dir / "site", port=port,
                         on_ready=ready)
