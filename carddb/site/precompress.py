"""Compressed copies of the site's engine files, written once at build time beside each file (``x.wasm.br``,
``x.wasm.gz``): ``carddb site serve`` sends them to a browser that accepts them, and a static host that serves
precompressed files (nginx ``gzip_static``/``brotli_static``, and most CDNs) can do the same.

Brotli needs the ``brotli`` package; without it only gzip copies are written. Only what is large and compresses
is done: Pyodide's runtime, carddb's data, the page scripts and styles, and the larger pages (a gallery's HTML).
"""

from __future__ import annotations

import gzip
from pathlib import Path

#: The folders and kinds of file that get compressed copies.
FOLDERS = ("assets/pyodide", "assets/carddb", "assets/javascripts", "assets/stylesheets", "javascripts",
           "stylesheets")
SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".toml", ".css")  # zips are compressed inside already
MIN_BYTES = 1024
#: Brotli's quality 9 is within 12% of its best (11) on Pyodide's wasm at a twentieth of the time.
BROTLI_QUALITY = 9
#: Pages: every one of at least this size, compressed faster (there are hundreds, each read once a visit).
PAGE_MIN_BYTES = 8 * 1024
PAGE_BROTLI_QUALITY = 5
ENCODINGS = {"br": ".br", "gzip": ".gz"}


def _brotli():  # type: ignore[no-untyped-def]
    try:
        import brotli
    except ImportError:
        return None
    return brotli


def precompress(site_dir: str | Path) -> int:
    """Write the compressed copies under ``site_dir``; a copy not smaller than its file is not kept.
    Returns how many copies were written."""
    root = Path(site_dir)
    brotli = _brotli()
    written = 0
    chosen = [(path, BROTLI_QUALITY, 9) for folder in FOLDERS if (root / folder).is_dir()
              for path in sorted((root / folder).rglob("*"))
              if path.is_file() and path.suffix in SUFFIXES and path.stat().st_size >= MIN_BYTES]
    chosen += [(path, PAGE_BROTLI_QUALITY, 6) for path in sorted(root.rglob("*.html"))
               if path.stat().st_size >= PAGE_MIN_BYTES]
    for path, quality, level in chosen:
        data = path.read_bytes()
        copies = {".gz": gzip.compress(data, compresslevel=level, mtime=0)}
        if brotli is not None:
            copies[".br"] = brotli.compress(data, quality=quality)
        for suffix, packed in copies.items():
            if len(packed) < len(data) * 0.95:
                path.with_name(path.name + suffix).write_bytes(packed)
                written += 1
    return written
