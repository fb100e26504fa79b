"""``carddb site``: build the website (rulebooks, construction tables, galleries, in-browser checkers) or serve it."""

from __future__ import annotations

from pathlib import Path

import typer

from carddb.cli.common import state

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
) -> None:
    """Build the site and serve it on http://127.0.0.1:PORT/ until Ctrl-C."""
    from carddb.site.serve import serve_workspace_site

    st = state(ctx)

    def ready(report, url: str) -> None:  # type: ignore[no-untyped-def]
        typer.echo(_summary(report))
        typer.echo(f"Serving on {url} (Ctrl-C to stop).")

    serve_workspace_site(st.workspace, st.catalogue(), out or st.workspace.output_dir / "site", port=port,
                         on_ready=ready)
