"""Serving a built site on this machine: a static HTTP server that gives ``.wasm`` and ``.mjs`` the types
browsers require (a wrong wasm MIME type makes Pyodide hang without an error).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from carddb.errors import InputError
from carddb.site.build import SiteReport, build_workspace_site
from carddb.site.http_cache import CachingHandler
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue

_TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
          ".json": "application/json", ".toml": "text/plain; charset=utf-8", ".dek": "text/plain; charset=utf-8",
          ".dec": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8"}


class _Handler(CachingHandler):  # cache lifetimes and precompressed copies: carddb.site.http_cache
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, **_TYPES}

    def log_message(self, format: str, *args: object) -> None:  # quiet: a page load is dozens of requests
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing page gets the site's own 404 page (MkDocs builds ``404.html``), not Python's bare one."""
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def make_server(directory: str | Path, host: str = "127.0.0.1", port: int = 8000) -> http.server.ThreadingHTTPServer:
    """A server bound to ``host:port`` (port 0 picks a free one), not yet serving."""
    handler = functools.partial(_Handler, directory=str(directory))
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port} ({exc.strerror}); pick another port with --port") from None


def server_url(server: http.server.ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"


def serve_workspace_site(workspace: Workspace, catalogue: Catalogue, out_dir: str | Path, *, host: str = "127.0.0.1",
                         port: int = 8000, on_ready: Callable[[SiteReport, str], None] = lambda report, url: None
                         ) -> None:
    """Build the site for ``http://host:port/`` (instant navigation needs the exact origin), then serve it until
    interrupted. The port is taken before the build, so a busy port fails fast."""
    server = make_server(Path(out_dir).resolve(), host, port)  # the folder is read per request: it may not exist yet
    try:
        url = server_url(server)
        report = build_workspace_site(workspace, catalogue, out_dir, site_url=url)
        on_ready(report, url)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a user stops serving
            server.serve_forever()
    finally:
        server.server_close()
