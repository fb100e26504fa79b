"""The card studio's HTTP side: the addresses ``carddb site serve`` answers under ``/__carddb__/studio/`` and the
script it adds to each page it sends (never part of a built site; ``docs/studio.md``).

Safe by design, since a page of any other site open in the same browser can send requests to 127.0.0.1, and a
card's data is shown on the very pages that edit it:
- a fresh token each start, never in a page: the server sends it with each page it sends to its own ``Host`` as a
  cookie no script can read (``HttpOnly``), that no other site's request carries (``SameSite=Strict``), sent only
  to the studio's addresses; a request must also carry the header ``X-Carddb-Studio``, which only a script can
  set (no form of another site can) and only the studio's own script file does;
- the pages run no inline script (``carddb.site.policy``, sent with every answer): card data let into a page by
  an escaping bug cannot run, so it cannot send a request either;
- the ``Host`` must be this server's own (127.0.0.1, localhost or [::1] and its port: a DNS-rebinding name is
  refused) and the ``Origin`` must be that same address;
- only ``POST`` of ``application/json`` of at most ``MAX_BODY`` bytes;
- a game is one of the workspace's and a file one of its card files, by name (``carddb.catalogue.studio_edits``).
Typed errors become a status and a one-line message: not found 404, conflict 409, bad input 422 (values that
make no card: with the problem of each field).
"""

from __future__ import annotations

import base64
import hmac
import http.cookies
import json
import secrets
import sys
from collections.abc import Callable
from importlib import resources
from typing import Any

from carddb.catalogue.studio_edits import FormProblems, Studio
from carddb.core.limits import json_whole_number
from carddb.errors import CarddbError, ConflictError, InputError, NotFoundError
from carddb.site.live import TAG, LiveReload

PREFIX = "/__carddb__/studio/"
#: The largest request body read: a card's values are a few kilobytes.
MAX_BODY = 64 * 1024
#: The header only the studio's script sets; its value is ``STUDIO_HEADER_VALUE``.
STUDIO_HEADER = "X-Carddb-Studio"
STUDIO_HEADER_VALUE = "1"
#: The token's cookie, named for the server's port: two servers on one machine keep a cookie each.
COOKIE = "carddb-studio-{port}"
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")
_ASSETS = {"studio.js": "text/javascript; charset=utf-8", "studio.css": "text/css; charset=utf-8"}
GALLERY = f"{PREFIX}gallery"
LIVE_TAG = TAG.split(" data-stamp", 1)[0].encode()


class Refused(Exception):
    """A request the studio does not answer: its status and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class StudioServer:
    """What the studio's addresses answer for one server start: its token, its studio, its faces."""

    #: the actions that write the card files and the catalogue
    WRITES = frozenset({"save", "new", "duplicate", "delete", "undo"})

    def __init__(self, studio: Studio) -> None:
        self.studio = studio
        self.token = secrets.token_urlsafe(24)
        #: told once an action has written all it writes (``site serve``: the watcher builds it without waiting for
        #: the files to be quiet)
        self.written: Callable[[], None] = lambda: None

    def tell_written_to(self, told: Callable[[], None]) -> None:
        """Call ``told`` once each action has written all it writes (``site serve``: ``Watcher.hurry``)."""
        self.written = told

    # who may ask -------------------------------------------------------------------------------------------
    @staticmethod
    def own_host(host_header: str | None, port: int) -> bool:
        """The ``Host`` a browser sends for this server: a local name and this port, nothing else."""
        return host_header in {f"{name}:{port}" for name in LOCAL_NAMES}

    def admit(self, headers: Any, port: int, length: int | None) -> None:
        """Raise ``Refused`` unless the request is one the studio's own page made."""
        host = headers.get("Host")
        if not self.own_host(host, port):
            raise Refused(403, "the studio answers only requests to this server's own address")
        if headers.get("Origin") != f"http://{host}":
            raise Refused(403, "the studio answers only its own pages")
        if headers.get(STUDIO_HEADER) != STUDIO_HEADER_VALUE:
            raise Refused(403, "the studio answers only its own script")
        if not hmac.compare_digest(self._sent_token(headers.get("Cookie"), port).encode(), self.token.encode()):
            raise Refused(403, "the studio's token is missing or stale: reload the page")
        if (headers.get("Content-Type") or "").split(";")[0].strip().lower() != "application/json":
            raise Refused(415, "the studio takes JSON")
        if length is None or length < 0:
            raise Refused(411, "the studio needs the body's length")
        if length > MAX_BODY:
            raise Refused(413, f"the request is larger than the studio's {MAX_BODY // 1024} KB")

    @staticmethod
    def _sent_token(cookie_header: str | None, port: int) -> str:
        cookies: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
        try:
            cookies.load(cookie_header or "")
        except http.cookies.CookieError:
            return ""
        found = cookies.get(COOKIE.format(port=port))
        return found.value if found is not None else ""

    def cookie(self, port: int) -> str:
        """The ``Set-Cookie`` value that hands a page of this server the token."""
        return f"{COOKIE.format(port=port)}={self.token}; Path={PREFIX}; HttpOnly; SameSite=Strict"

    # the page's part ---------------------------------------------------------------------------------------
    @staticmethod
    def tag() -> bytes:
        return (f'<link rel="stylesheet" href="{PREFIX}studio.css">'
                f'<script src="{PREFIX}studio.js" defer></script>').encode()

    def with_studio(self, html: bytes) -> bytes:
        """The page with the studio's tags before the live-reload script (else before ``</body>``)."""
        at = html.rfind(LIVE_TAG)
        at = at if at >= 0 else html.rfind(b"</body>")
        return html[:at] + self.tag() + html[at:] if at >= 0 else html + self.tag()

    @staticmethod
    def asset(path: str) -> tuple[str, bytes] | None:
        name = path.removeprefix(PREFIX)
        if path.startswith(PREFIX) and name in _ASSETS:
            return _ASSETS[name], resources.files("carddb.site").joinpath("studio_assets", name).read_bytes()
        return None

    def gallery_page(self, game_id: str) -> bytes:
        """The designer's gallery: a bare page the studio script fills with every face of the game."""
        from carddb.site.markup import html_text

        shown = html_text(game_id)
        return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                f"<title>Studio gallery: {shown}</title></head><body>"
                f"<main class=\"carddb-studio-gallery\" data-studio-gallery data-game=\"{shown}\">"
                f"<h1>Studio gallery: {shown}</h1></main></body></html>").encode()

    # what it answers ---------------------------------------------------------------------------------------
    def answer(self, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
        """The status and JSON answer of one admitted request; never raises for a user's mistake."""
        action = path.removeprefix(PREFIX)
        try:
            request = json.loads(body.decode("utf-8") or "{}", parse_int=json_whole_number)
            if not isinstance(request, dict):
                raise InputError("the studio takes a JSON object")
            handler = getattr(self, f"_do_{action}", None) if action.isidentifier() else None
            if handler is None:
                return 404, {"error": f"the studio has no action {action[:40]!r}"}
            answered = handler(request)
            if action in self.WRITES:
                self.written()
            return 200, answered
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):  # the last: arrays nested 30,000 deep
            return 400, {"error": "the request is not JSON"}
        except NotFoundError as exc:
            return 404, {"error": exc.message}
        except ConflictError as exc:
            return 409, {"error": exc.message, "conflict": True}
        except FormProblems as exc:  # each problem beside its field
            return 422, {"error": exc.message, "problems": exc.problems}
        except InputError as exc:
            return 422, {"error": exc.message}
        except CarddbError as exc:
            return 500, {"error": exc.message}
        except Exception as exc:  # a bug: one line on the terminal, a plain answer to the page
            print(f"carddb studio: {action}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 500, {"error": f"the studio failed ({type(exc).__name__}); see the terminal"}

    def _do_open(self, request: dict[str, Any]) -> dict[str, Any]:
        from carddb.paint.face_preview import inline_icons

        opened = self.studio.open(_text(request, "game"), _text(request, "key"))
        game = self.studio.game_cards(opened["game"]).game
        return {**opened, "icons": inline_icons(self.studio.workspace.root, game)}

    def _do_preview(self, request: dict[str, Any]) -> dict[str, Any]:
        from carddb.paint.face_preview import face_png

        game_id = _text(request, "game")
        key = request.get("key")
        card, problems = self.studio.check(game_id, request.get("values"), key if isinstance(key, str) else None)
        if card is None:
            return {"problems": problems, "face": None, "layout": []}
        png, layout = face_png(self.studio.workspace.root, self.studio.game_cards(game_id).game, card)
        return {"problems": {}, "face": "data:image/png;base64," + base64.b64encode(png).decode(), "layout": layout}

    def _do_save(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.studio.save(_text(request, "game"), _text(request, "key"), _text(request, "digest"),
                                request.get("values")).to_dict()

    def _do_new(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.studio.create(_text(request, "game"), _text(request, "file"), request.get("values")).to_dict()

    def _do_duplicate(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.studio.duplicate(_text(request, "game"), _text(request, "key"), _text(request, "digest")).to_dict()

    def _do_delete(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.studio.delete(_text(request, "game"), _text(request, "key"), _text(request, "digest")).to_dict()

    def _do_undo(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.studio.undo().to_dict()

    def _do_gallery(self, request: dict[str, Any]) -> dict[str, Any]:
        from carddb.site.studio_gallery import gallery_cards

        return gallery_cards(self.studio, _text(request, "game"))


def _text(request: dict[str, Any], key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value or len(value) > 1000:
        raise InputError(f"the request needs {key} (a text)")
    return value


def studio_handler(base: type, studio: StudioServer, live: LiveReload) -> type:
    """A subclass of the server's handler ``base`` answering the studio's addresses and adding the studio's script
    to every HTML page sent to this server's own address. A missing page (a card just renamed or added, its page
    not built yet) carries the live-reload script too, so it turns into the page once the site is rebuilt."""

    class StudioHandler(base):  # type: ignore[valid-type,misc]
        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0]
            if not path.startswith(PREFIX):
                self._studio_send(405, {"error": "this server takes POST only for the studio"})
                return
            length = self.headers.get("Content-Length")
            try:
                studio.admit(self.headers, self.server.server_address[1], int(length) if length else None)
            except (Refused, ValueError) as exc:
                status, message = (exc.status, exc.message) if isinstance(exc, Refused) else (400, "bad length")
                self.close_connection = True  # the body is not read
                self._studio_send(status, {"error": message})
                return
            body = self.rfile.read(int(length or 0))
            self._studio_send(*studio.answer(path, body))

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            asset = studio.asset(path)
            if asset is not None:
                self._send_body(200, *asset)
                return
            if path == GALLERY:
                import urllib.parse

                game = urllib.parse.parse_qs(self.path.partition("?")[2]).get("game", [""])[0]
                self._send_body(200, "text/html; charset=utf-8", studio.gallery_page(game))
                return
            super().do_GET()

        def _send_body(self, code: int, content_type: str, body: bytes) -> None:
            port = self.server.server_address[1]
            if content_type.startswith("text/html") and studio.own_host(self.headers.get("Host"), port):
                body = studio.with_studio(body)
                self._studio_cookie = studio.cookie(port)
            super()._send_body(code, content_type, body)

        def end_headers(self) -> None:
            cookie = getattr(self, "_studio_cookie", None)
            if cookie:
                self.send_header("Set-Cookie", cookie)
                self._studio_cookie = None
            super().end_headers()

        def _studio_send(self, status: int, answer: dict[str, Any]) -> None:
            body = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

    return StudioHandler
