"""A returning visitor's head start, given to the browser tests' fresh contexts.

Each test opens a fresh browser context, and a fresh context boots Pyodide from nothing: about 5 s of CPU, most of
the browser tests' CPU in all. A returning visitor starts from the memory snapshot the engine left in Cache Storage
(about 1 s). A context opened with ``seed_engine`` gets that snapshot, made once per worker process and site engine
by a real first visit: ``site/docs/javascripts/carddb.js`` awaits ``window.CARDDB_BEFORE_ENGINE`` before it starts
the engine, and the hook fetches the snapshot and puts it where the engine looks for it. What a first visit does
(boot, make and store the snapshot) keeps tests of its own, whose contexts are opened cold.

The page fetches the snapshot on the site's own origin (its policy lets it fetch nothing else), and the context's
route sends that request on to a server of this process. Not ``route.fulfill``: its body crosses the DevTools
protocol in base64, 12 s of CPU for the 31 MB, more than the boot it saves.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

#: Where a seeded context fetches the snapshot, and where the first visit hands it over (answered by the test's
#: route, never by the server).
SNAPSHOT_PATH = "__carddb-test__/engine-snapshot"
HARVEST_PATH = "__carddb-test__/engine-snapshot-made"
READY = "[data-engine][data-state=ready]"

_made: dict[str, bytes] = {}  # this worker's snapshots, by the site's engine and rules bundle
_server: list[str] = []  # the address of this process's snapshot server, once started


class _Snapshots(BaseHTTPRequestHandler):
    """GET /<n>: the snapshot numbered n; POST /made/<name>: a first visit's snapshot of that engine."""

    def do_GET(self) -> None:  # the http.server interface names it
        names = list(_made)
        index = int(self.path.strip("/")) if self.path.strip("/").isdigit() else -1
        body = _made[names[index]] if 0 <= index < len(names) else b""
        self.send_response(200 if body else 404)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        from urllib.parse import unquote

        _made[unquote(self.path.removeprefix("/made/"))] = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def _snapshot_server() -> str:
    if not _server:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Snapshots)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        _server.append(f"http://127.0.0.1:{server.server_address[1]}/")
    return _server[0]


def engine_name(folder: Path) -> tuple[str, str]:
    """The site's engine and rules bundle (their paths name their contents), and its first game."""
    manifest = json.loads((folder / "assets" / "carddb" / "manifest.json").read_text(encoding="utf-8"))
    return manifest["pyodide"] + manifest["package"], next(iter(manifest["games"]))


def _cache_key(url: str, name: str) -> str:
    return f"{url}carddb-engine-snapshot/{name}"  # as checker-worker.js names it


def made_snapshot(chromium: Any, url: str, folder: Path) -> tuple[str, str]:
    """The site's engine name, and the address (on this process's server) of the snapshot a first visit to the site
    at ``url`` leaves behind, made once per worker and engine."""
    from urllib.parse import quote

    name, game = engine_name(folder)
    if name not in _made:
        context = chromium.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(300_000)  # a boot on a loaded machine
            page.route(url + HARVEST_PATH, lambda route: route.continue_(
                url=f"{_snapshot_server()}made/{quote(name, safe='')}"))
            page.add_init_script("window.CARDDB_ENGINE_TIMEOUT_MS = 600000;")
            page.goto(f"{url}games/{game}/checker/")
            page.wait_for_selector(READY)
            assert page.evaluate("() => window.carddbEngine.snapshot") is True, "the engine stored no snapshot"
            page.evaluate("""async ([key, to]) => {
                const found = await (await caches.open("carddb-engine-snapshot")).match(key);
                const answer = await fetch(to, { method: "POST", body: await found.arrayBuffer() });
                if (!answer.ok) throw new Error(`the snapshot was not taken: ${answer.status}`);
            }""", [_cache_key(url, name), url + HARVEST_PATH])
        finally:
            context.close()
        assert len(_made.get(name, b"")) > 1_000_000, "the first visit handed over no snapshot"
    return name, f"{_snapshot_server()}{list(_made).index(name)}"


def seed_engine(context: Any, chromium: Any, url: str, folder: Path) -> None:
    """Give ``context`` the snapshot a first visit to ``url`` left, as if it had visited before. Its route for
    ``SNAPSHOT_PATH`` must be the context's last (the last route registered answers first)."""
    name, served = made_snapshot(chromium, url, folder)
    context.add_init_script(f"""window.CARDDB_BEFORE_ENGINE = async () => {{
      const key = {json.dumps(_cache_key(url, name))};
      const cache = await caches.open("carddb-engine-snapshot");
      if (await cache.match(key)) return;
      const answer = await fetch({json.dumps(url + SNAPSHOT_PATH)});
      if (answer.ok) await cache.put(key, answer);
    }};""")
    context.route(url + SNAPSHOT_PATH, lambda route: route.continue_(url=served))
