"""``carddb site serve``: build, serve ``output/site``, and build again on every change.

The server itself (``carddb.site.serve``) only serves a folder; this module is the application around it: one
build less the steps the site does not show, then the watcher (``carddb.app.watch``) building again on every
saved file while the server keeps sending the last good site.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from carddb.catalogue.studio_edits import Studio
from carddb.errors import InputError
from carddb.progress import SILENT, Reporter
from carddb.site.live import LiveReload
from carddb.site.serve import make_server, server_url
from carddb.site.studio_http import StudioServer
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.app.build import BuildReport
    from carddb.catalogue.api import Catalogue


def serve_build(workspace: Workspace, catalogue: Catalogue, games: list[str] | None = None, *,
                say: Callable[[str], None] = lambda line: None, progress: Reporter = SILENT,
                skip: Sequence[str] = ()) -> BuildReport:
    """One build of ``carddb site serve``: ``carddb build``, into the same ``output/`` and cache and with the same
    ``site_url``, so that neither redoes what the other made. The site is built once, after the exports it hosts,
    with the proxy sheets drawn beside it: every output, the sheets a designer prints included, is brought up to
    date by the same save, but the steps in ``skip`` (never the site, which is what is served)."""
    from carddb.app.build import build

    return build(workspace, catalogue, games, skip=skip, say=say, progress=progress, served_here=True)


def watch_and_serve(workspace: Workspace, catalogue: Catalogue, *, host: str = "127.0.0.1", port: int = 8000,
                    say: Callable[[str], None], error: Callable[[str], None], progress: object = None,
                    stop: threading.Event | None = None, on_ready: Callable[[str], None] = lambda url: None,
                    studio: bool = True, skip: Sequence[str] = ()) -> None:
    """``carddb site serve``: build (the card files loaded, the faces drawn, the site), serve ``output/site`` on
    ``http://host:port/``, and build again whenever a file of the workspace changes; open pages reload
    themselves, and show a failed build's error until a build succeeds (``carddb.app.watch``). With ``studio``,
    the served pages can edit their cards (``docs/studio.md``): what they save, the watcher builds. Every build
    leaves out the steps in ``skip``."""
    from carddb.app.build import STATE_DIR, check_steps
    from carddb.app.build_stamp import STUDIO_UNDO_FILE
    from carddb.app.watch import watch_build

    check_steps(skip)  # before serving: the first build runs once the server is up, and shows its errors there
    if "site" in skip:
        raise InputError("site serve cannot skip the site: it is what it serves")
    site = workspace.output_dir / "site"
    # the last edit is kept beside the build's state, so that Undo still works after the server is started again
    undo_file = workspace.output_dir / STATE_DIR / STUDIO_UNDO_FILE
    editor = StudioServer(Studio(workspace, catalogue, load_files=False, undo_file=undo_file)) if studio else None
    server = make_server(site.resolve(), host, port, live=LiveReload(site, workspace.output_dir), studio=editor)
    url = server_url(server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()  # the last good site is served even while the first build fails
    ready: list[str] = []

    def once(games: list[str] | None, watched: Catalogue) -> object:
        first = not ready
        try:
            report = serve_build(workspace, watched, games, say=say, progress=progress or SILENT,  # type: ignore[arg-type]
                                 skip=skip)
        finally:
            if first:
                ready.append(url)
                on_ready(url)
        if first and "site" not in report.redone:  # a first build with nothing to redo has loaded nothing yet
            warm_up(workspace, watched)
        return report

    try:
        watch_build(workspace, catalogue, once, say=say, error=error, stop=stop,
                    hurried=editor.tell_written_to if editor else None)
    finally:
        server.shutdown()
        server.server_close()


def warm_up(workspace: Workspace, catalogue: Catalogue) -> None:
    """Load what a first save's build would otherwise load while the designer waits: the site's page generator
    with the game's templates, rulebooks and client files (from the cache), and MkDocs. Run once, after a first
    build that had nothing to redo (a build that did work leaves all of it loaded). It changes no output: the
    pages it makes are dropped; only the cache may gain what any build would have put there. Measured: the first
    save then reaches its open page in about 2.5 s instead of 6 s; a save during it is built right after it."""
    from carddb.errors import CarddbError
    from carddb.incremental import remember_in
    from carddb.site.build import effective_site_url, generate_content, workspace_cache

    try:
        address = effective_site_url(workspace.site_dir / "mkdocs.yml", None)  # the served build's, so its keys
        with remember_in(workspace_cache(workspace), prune=False):
            generate_content(workspace.root.resolve(), catalogue, site_url=address)
    except CarddbError:  # what stops the site also stops the next build, which says it
        return
    import mkdocs.commands.build  # noqa: F401  (the site step's own import, paid now)
