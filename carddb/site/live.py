"""Live reload for ``carddb site serve``: an open page reloads itself when the site is rebuilt, and shows the
build's error over the page when a build fails.

Nothing of this is ever in a built site: the server adds one ``<script>`` to each HTML page as it sends it, and
answers two addresses of its own under ``/__carddb__/``: ``live.js`` (the script) and ``status`` (a small JSON:
a stamp of the site's pages, read from its manifest, which a rebuild replaces; from the watcher's status file, the
last build's error, the builds finished, whether one runs and whether a change was seen that no build has taken
yet, ``pending``, so that a page or a test waits on a state, not on a quiet time). The script asks for the status
four times a second; a stamp other than the one its page was built with reloads the page, an error shows an
overlay naming the file and line, and the overlay goes when a build succeeds. Before reloading, the script sends
the window a cancellable ``carddb:rebuilt`` event: a page with unsaved work (the studio's editor) cancels it and
reloads itself once that work is saved or closed.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carddb.incremental import MANIFEST, Manifest, digest
from carddb.site.client_files import SITE_FOLDER

#: The site's parts that are the online clients' files: a rebuild of them alone reloads no page.
_CLIENT_FILES = f"{SITE_FOLDER}/"
#: What the watcher (``carddb.app.watch``) says of its last build, for the open pages to show.
STATUS_FILE = Path(".carddb") / "watch.json"  # inside output/


@dataclass
class WatchStatus:
    """What the last build of a watcher said: written for the site's live reload to show."""

    builds: int = 0  # the builds finished
    building: bool = False  # a build is running now
    pending: bool = False  # a change was seen that no build has taken yet (the watcher waits for a quiet moment)
    error: str | None = None
    changed: list[str] = field(default_factory=list)
    games: list[str] | None = None  # the games the build built; None: every game

    def write(self, output_dir: Path) -> None:
        from carddb.files.replacing import write_file

        write_file(output_dir / STATUS_FILE, json.dumps({"builds": self.builds, "building": self.building,
                                                         "pending": self.pending, "error": self.error,
                                                         "changed": self.changed, "games": self.games}))


def read_status(output_dir: Path) -> dict[str, object]:
    try:
        data = json.loads((output_dir / STATUS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


PREFIX = "/__carddb__/"
POLL_MS = 250
TAG = f'<script src="{PREFIX}live.js" data-stamp="STAMP" defer></script>'

SCRIPT = """// carddb site serve: reload when the site is rebuilt, show the build's error over the page.
(() => {
  // the stamp of the site this page was sent from (the server writes it into the tag): any other, a rebuild
  let stamp = document.currentScript?.dataset.stamp ?? null;
  // a page the site does not hold yet (a card just added in the studio): it says so while a build runs or a change
  // waits for one, and the
  // reload on the next stamp opens it once built
  const missing = document.currentScript?.dataset.missing === "1";
  const building = (now) => {
    let note = document.getElementById("carddb-page-building");
    if (!now) { note?.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.id = "carddb-page-building";
      note.setAttribute("role", "status");
      note.style.cssText = "position:fixed;inset:auto 1rem 1rem 1rem;z-index:10000;margin:0;padding:.8rem 1rem;" +
        "background:#1a237e;color:#fff;font:16px/1.4 system-ui,sans-serif;border-radius:6px";
      note.textContent = "This page is being built: it opens here by itself in a moment.";
      document.body.appendChild(note);
    }
  };
  const overlay = () => {
    let box = document.getElementById("carddb-build-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "carddb-build-error";
      box.setAttribute("role", "alert");
      box.tabIndex = 0;  // it scrolls: a keyboard must reach it (axe: scrollable-region-focusable)
      box.style.cssText = "position:fixed;inset:auto 1rem 1rem 1rem;z-index:10000;max-height:60vh;overflow:auto;" +
        "background:#3b0508;color:#fff;font:14px/1.4 monospace;padding:1rem 1.2rem;border-radius:6px;" +
        "box-shadow:0 4px 24px rgba(0,0,0,.4);white-space:pre-wrap";
      document.body.appendChild(box);
    }
    return box;
  };
  const check = async () => {
    try {
      const answer = await fetch("/__carddb__/status", {cache: "no-store"});
      const status = await answer.json();
      if (stamp === null) stamp = status.stamp;
      if (status.stamp !== stamp) {
        // a page with unsaved work (the studio's open editor) cancels the event and reloads once it is free
        const rebuilt = new CustomEvent("carddb:rebuilt", {cancelable: true});
        if (window.dispatchEvent(rebuilt)) { location.reload(); return; }
        stamp = status.stamp;
      }
      if (missing) building(status.building || status.pending);  // pending: saved, its build about to start
      if (status.error) {
        overlay().textContent = "carddb build failed; the page shows the last good build.\\n\\n" + status.error;
      } else {
        document.getElementById("carddb-build-error")?.remove();
      }
    } catch (error) { /* the server is restarting: try again */ }
    setTimeout(check, POLL);
  };
  check();
})();
""".replace("POLL", str(POLL_MS))


class LiveReload:
    """What the live-reload addresses answer for the site in ``site_dir`` built into ``output_dir``."""

    def __init__(self, site_dir: str | Path, output_dir: str | Path) -> None:
        self.site_dir = Path(site_dir)
        self.output_dir = Path(output_dir)
        self._stamps: tuple[tuple[int, int, int], str] | None = None  # the last manifest seen, and its stamp
        self._lock = threading.Lock()

    def status(self) -> dict[str, Any]:
        try:
            st = os.stat(self.site_dir / MANIFEST)
            stamp = self._stamp(st)
        except OSError:
            st, stamp = None, ""
        watched = read_status(self.output_dir)
        error = watched.get("error") or None
        try:
            said = os.stat(self.output_dir / STATUS_FILE).st_mtime_ns
        except OSError:
            said = None
        if error and st is not None and said is not None and st.st_mtime_ns > said:
            # The site was built after that failure was written down: a later build got through its site step
            # (which follows every step a page shows), and its status follows in a moment. A page reloaded in
            # between shows no stale error.
            error = None
        return {"stamp": stamp, "error": error, "builds": watched.get("builds", 0),
                "building": bool(watched.get("building")), "pending": bool(watched.get("pending"))}

    def _stamp(self, st: os.stat_result) -> str:
        """What a page compares to know the site changed: the keys of every part of the site but the client files.
        A rebuild that changed only the files the site hosts for online clients (the exports, which ``site serve``
        redoes after the pages) is no reason to reload a page. Read once for each manifest written."""
        seen = (st.st_ino, st.st_mtime_ns, st.st_size)
        with self._lock:
            if self._stamps is not None and self._stamps[0] == seen:
                return self._stamps[1]
            parts = Manifest.read(self.site_dir / MANIFEST).parts
            shown = sorted((name, part.get("key")) for name, part in parts.items()
                           if not name.startswith(_CLIENT_FILES))
            stamp = digest(shown)[:16] if shown else f"{st.st_ino}:{st.st_mtime_ns}"
            self._stamps = (seen, stamp)
            return stamp

    def answer(self, path: str) -> tuple[str, bytes] | None:
        """The content type and body of a live-reload address, or None for any other address."""
        if path == f"{PREFIX}live.js":
            return "text/javascript; charset=utf-8", SCRIPT.encode()
        if path == f"{PREFIX}status":
            return "application/json", json.dumps(self.status()).encode()
        return None


def with_script(html: bytes, stamp: str = "", *, missing: bool = False) -> bytes:
    """A page with the live-reload script added before ``</body>`` (or at its end), told the site's stamp; with
    ``missing``, the page stands for one the site does not hold (yet)."""
    at = html.rfind(b"</body>")
    tag = TAG.replace("STAMP", stamp).replace(" defer", ' data-missing="1" defer' if missing else " defer").encode()
    return html[:at] + tag + html[at:] if at >= 0 else html + tag


def live_handler(base: type, live: LiveReload, refused: Callable[[str], bool] = lambda path: False) -> type:
    """A subclass of the server's handler ``base`` that answers the live-reload addresses and adds the script to
    every HTML page it sends (never cached, so a reload always gets the new page). A path ``refused`` is left to
    ``base``, which answers it as it answers any bad path."""

    class LiveHandler(base):  # type: ignore[valid-type,misc]
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            answered = live.answer(path)
            if answered is not None:
                self._send_body(200, *answered)
                return
            page = None if refused(self.path) else self._html_file(path)
            if page is not None:
                try:
                    stamp = str(live.status()["stamp"])  # before reading the page: a rebuild between is noticed
                    body = with_script(self.page_bytes(page), stamp)
                except OSError:
                    super().do_GET()
                    return
                self._send_body(200, "text/html; charset=utf-8", body)
                return
            super().do_GET()

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            """A missing page is the site's 404 page with the script, told that the page is missing: it says so
            while a build runs and reloads once the site changed (a card just added shows as its own page)."""
            page = Path(self.directory) / "404.html"
            if code == 404 and self.command == "GET" and page.is_file():
                try:
                    body = with_script(self.page_bytes(page), str(live.status()["stamp"]), missing=True)
                except OSError:
                    body = None
                if body is not None:
                    self._send_body(404, "text/html; charset=utf-8", body)
                    return
            super().send_error(code, message, explain)

        def _html_file(self, path: str) -> Path | None:
            try:
                target = Path(self.translate_path(path))
                if target.is_dir() and path.endswith("/"):  # without the slash the server redirects first
                    target = target / "index.html"
                return target if target.suffix == ".html" and target.is_file() else None
            except (OSError, ValueError):  # what the file system refuses to look up: the base answers it
                return None

        def _send_body(self, code: int, content_type: str, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return LiveHandler
