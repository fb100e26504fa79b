"""Serving a built site on this machine: a static HTTP server that gives ``.wasm`` and ``.mjs`` the types
browsers require (a wrong wasm MIME type makes Pyodide hang without an error).

It answers hostile requests plainly: a path with a NUL or another control character, a backslash or an
absurd length gets 400, anything outside the site 404 (the standard handler already drops ``..``), and a
browser that goes away mid-download (a closed tab, a cancelled file) is not an error worth a traceback.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from carddb.errors import InputError
from carddb.site.build import SiteReport, build_workspace_site
from carddb.site.http_cache import CachingHandler
from carddb.site.live import LiveReload, live_handler
from carddb.site.policy import SECURITY_HEADERS
from carddb.site.served_sitemap import SITEMAP, local_move, served_copy, served_sitemap
from carddb.site.studio_http import StudioServer, studio_handler
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue

_TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
          ".json": "application/json", ".toml": "text/plain; charset=utf-8", ".dek": "text/plain; charset=utf-8",
          ".dec": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8"}


#: What may name the site's address: its pages, and the client files it hosts under /clients/ (their
#: updatelist, saved objects and card database; a .cod or .dek deck names none).
_MOVED_CLIENT_FILES = (".txt", ".json", ".xml")
#: The longest request path answered (a site's longest is well under 300 characters).
MAX_PATH = 2048
#: The first byte of a TLS record (handshake, alert): what a browser sends to an https:// address.
TLS_RECORDS = (b"\x16", b"\x15")
#: What a client going away looks like; never worth a message.
_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)


def refused_path(raw: str) -> bool:
    """True for a request path no file of a site can have: too long, a control character or a backslash
    (once percent-decoded), or not valid UTF-8."""
    if len(raw) > MAX_PATH:
        return True
    path = raw.split("?", 1)[0].split("#", 1)[0]
    try:
        decoded = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError:
        return True
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in decoded) or "\\" in decoded


class _Handler(CachingHandler):  # cache lifetimes and precompressed copies: carddb.site.http_cache
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, **_TYPES}

    def log_message(self, format: str, *args: object) -> None:  # quiet: a page load is dozens of requests
        pass

    def end_headers(self) -> None:
        """Every answer carries the site's security headers (``carddb.site.policy``): no inline script runs."""
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def handle_one_request(self) -> None:
        """A TLS handshake on this plain port (a browser told https://) gets 400 at once: the standard handler
        would wait for the end of a request line that never comes."""
        try:
            first = self.rfile.peek(1)[:1]
        except (OSError, ValueError):
            first = b""
        if first in TLS_RECORDS:
            self.requestline, self.request_version, self.command = "", "HTTP/1.1", ""
            self.close_connection = True
            self.send_error(400, "This server speaks plain HTTP", "Open the site with http://, not https://.")
            return
        super().handle_one_request()

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

    def send_head(self):  # type: ignore[no-untyped-def]
        if refused_path(self.path):
            self.send_error(400, "Bad request path")
            return None
        if self.path.split("?", 1)[0] == SITEMAP:
            return self._send_sitemap()
        try:
            moved = self._moved_file()
            if moved is not None:
                return self._send_moved(moved)
            return super().send_head()
        except ValueError:  # what the file system refuses to look up at all
            self.send_error(400, "Bad request path")
            return None

    def list_directory(self, path):  # type: ignore[no-untyped-def]
        """A folder without a page (``/games/ssbm/``) is the site's 404 page, as on a web host: never a listing."""
        self.send_error(404, "File not found")
        return None

    def page_bytes(self, page: Path) -> bytes:
        """A page or client file of the site as sent: a site built for this computer at another address than the
        one served names the served one (``carddb.site.served_sitemap``)."""
        return served_copy(page.read_bytes(), self._move())

    def _move(self) -> tuple[bytes, bytes] | None:
        try:
            sitemap = Path(self.directory) / SITEMAP.lstrip("/")
            stamp = sitemap.stat().st_mtime_ns
        except OSError:
            return None
        known = getattr(self.server, "move", None)
        if known is None or known[0] != stamp:
            known = (stamp, local_move(sitemap.read_bytes(), server_url(self.server)))  # type: ignore[arg-type]
            self.server.move = known  # type: ignore[attr-defined]
        return known[1]

    def _moved_file(self) -> Path | None:
        """A page or client file whose built address this server moves (never its precompressed copy, which
        names the built one), or None."""
        if self._move() is None:
            return None
        target = Path(self.translate_path(self.path))
        if target.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            target = target / "index.html"
        client_file = self.path.startswith("/clients/") and target.suffix in _MOVED_CLIENT_FILES
        return target if (target.suffix == ".html" or client_file) and target.is_file() else None

    def _send_moved(self, target: Path):  # type: ignore[no-untyped-def]
        body = self.page_bytes(target)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(target)))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def _send_sitemap(self):  # type: ignore[no-untyped-def]
        """The sitemap with this server's origin in its addresses (``carddb.site.served_sitemap``), never the
        precompressed copy MkDocs wrote beside it (that names the address the site was built for)."""
        try:
            built = (Path(self.directory) / SITEMAP.lstrip("/")).read_bytes()
        except OSError:
            self.send_error(404, "File not found")
            return None
        body = served_sitemap(built, server_url(self.server))  # type: ignore[arg-type]
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        with contextlib.suppress(*_GONE):
            super().copyfile(source, outputfile)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        error = sys.exc_info()[1]
        if isinstance(error, _GONE):
            return
        # Anything else is a bug in answering one request: one line, and the server goes on.
        print(f"carddb site serve: could not answer {client_address[0]} ({type(error).__name__}: {error})",
              file=sys.stderr)


def make_server(directory: str | Path, host: str = "127.0.0.1", port: int = 8000, *,
                live: LiveReload | None = None, studio: StudioServer | None = None) -> http.server.ThreadingHTTPServer:
    """A server bound to ``host:port`` (port 0 picks a free one), not yet serving; with ``live``, its pages reload
    themselves when the site is rebuilt (``carddb.site.live``); with ``live`` and ``studio`` too, they can edit
    their cards (``carddb.site.studio_http``)."""
    base = live_handler(_Handler, live, refused_path) if live else _Handler
    if studio is not None and live is not None:
        base = studio_handler(base, studio, live)
    handler = functools.partial(base, directory=str(directory))
    try:
        return _Server((host, port), handler)
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port} ({exc.strerror}); pick another port with --port") from None


def server_url(server: http.server.ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"


def serve_workspace_site(workspace: Workspace, catalogue: Catalogue, out_dir: str | Path, *, host: str = "127.0.0.1",
                         port: int = 8000, on_ready: Callable[[SiteReport, str], None] = lambda report, url: None
                         ) -> None:
    """Build the site (as ``carddb site build`` does, for the configured ``site_url``: the server gives the sitemap
    its own origin, ``carddb.site.served_sitemap``), then serve it until interrupted. The port is taken before the
    build, so a busy port fails fast."""
    server = make_server(Path(out_dir).resolve(), host, port)  # the folder is read per request: it may not exist yet
    try:
        url = server_url(server)
        report = build_workspace_site(workspace, catalogue, out_dir)
        on_ready(report, url)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a user stops serving
            server.serve_forever()
    finally:
        server.server_close()
