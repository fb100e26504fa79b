"""``carddb site serve``: build, serve ``output/site``, and build again on every change.

The server itself (``carddb.site.serve``) only serves a folder; this module is the application around it: one
build less the steps the site does not show, then the watcher (``carddb.app.watch``) building again on every
saved file while the server keeps sending the last good site.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from carddb.progress import SILENT, Reporter
from carddb.site.live import LiveReload
from carddb.site.serve import make_server, server_url
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.app.build import BuildReport
    from carddb.catalogue.api import Catalogue


#: What ``site serve`` leaves out of the build it runs on every change: the steps the site does not show (the
#: exports stay: the site hosts their files, carddb.site.client_files).
SERVE_SKIP = ("sheets",)


def serve_build(workspace: Workspace, catalogue: Catalogue, games: list[str] | None = None, *,
                say: Callable[[str], None] = lambda line: None, progress: Reporter = SILENT) -> BuildReport:
    """One build of ``carddb site serve``: ``carddb build`` less ``SERVE_SKIP``, into the same ``output/`` and cache
    and with the same ``site_url``, so that neither redoes what the other made."""
    from carddb.app.build import build

    return build(workspace, catalogue, games, skip=SERVE_SKIP, say=say, progress=progress)


def watch_and_serve(workspace: Workspace, catalogue: Catalogue, *, host: str = "127.0.0.1", port: int = 8000,
                    say: Callable[[str], None], error: Callable[[str], None], progress: object = None,
                    stop: threading.Event | None = None, on_ready: Callable[[str], None] = lambda url: None) -> None:
    """``carddb site serve``: build (the card files loaded, the faces drawn, the site), serve ``output/site`` on
    ``http://host:port/``, and build again whenever a file of the workspace changes; open pages reload
    themselves, and show a failed build's error until a build succeeds (``carddb.app.watch``)."""
    from carddb.app.watch import watch_build

    site = workspace.output_dir / "site"
    server = make_server(site.resolve(), host, port, live=LiveReload(site, workspace.output_dir))
    url = server_url(server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()  # the last good site is served even while the first build fails
    ready: list[str] = []

    def once(games: list[str] | None, watched: Catalogue) -> object:
        try:
            return serve_build(workspace, watched, games, say=say, progress=progress or SILENT)  # type: ignore[arg-type]
        finally:
            if not ready:
                ready.append(url)
                on_ready(url)

    try:
        watch_build(workspace, catalogue, once, say=say, error=error, stop=stop)
    finally:
        server.shutdown()
        server.server_close()
