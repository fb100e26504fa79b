"""How ``carddb site serve`` lets a browser keep the engine: a file whose name carries its version or content hash
(Pyodide's folder, carddb's bundles and data, Material's assets) is cacheable for a year and never revalidated;
everything else is revalidated on each use (``no-cache``, answered ``304 Not Modified`` when unchanged). A file
with a precompressed copy (``precompress``) is sent as that copy to a browser that accepts its encoding.
"""

from __future__ import annotations

import email.utils
import http.server
import os
import re
from pathlib import Path
from typing import BinaryIO

from carddb.site.precompress import ENCODINGS

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_VERSIONED = re.compile(r"(^/assets/pyodide/[^/]+-[0-9a-f]{8}/)|(-[0-9a-f]{12}\.[a-z]+$)"
                        r"|(\.[0-9a-f]{8}\.min\.(js|css)$)")


def cache_control(url_path: str) -> str:
    """The Cache-Control of a site path: immutable for versioned names, revalidated for the rest."""
    path = url_path.split("?", 1)[0].split("#", 1)[0]
    return IMMUTABLE if _VERSIONED.search(path) else REVALIDATE


class CachingHandler(http.server.SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` with cache lifetimes and precompressed copies."""

    def end_headers(self) -> None:
        # An error answered before the request line was read (too long, not HTTP) has no path: never cached.
        path = getattr(self, "path", None)
        self.send_header("Cache-Control", "no-store" if path is None else cache_control(path))
        super().end_headers()

    def send_head(self) -> BinaryIO | None:  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"  # a page's address is its folder
        accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
        if path.is_file():
            for encoding, suffix in ENCODINGS.items():
                packed = path.with_name(path.name + suffix)
                if encoding in accepted and packed.is_file():
                    return self._send_packed(path, packed, encoding)
        return super().send_head()  # type: ignore[return-value]

    def _send_packed(self, path: Path, packed: Path, encoding: str) -> BinaryIO | None:
        stat = os.stat(packed)
        modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        since = self.headers.get("If-Modified-Since")
        if since and since == modified:
            self.send_response(http.server.HTTPStatus.NOT_MODIFIED)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        handle = open(packed, "rb")  # noqa: SIM115 -- the caller copies it to the socket and closes it
        self.send_response(http.server.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", modified)
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return handle
