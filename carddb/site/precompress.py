"""Compressed copies of the site's engine files, written once at build time beside each file (``x.wasm.br``,
``x.wasm.gz``): ``carddb site serve`` sends them to a browser that accepts them, and a static host that serves
precompressed files (nginx ``gzip_static``/``brotli_static``, and most CDNs) can do the same.

Brotli needs the ``brotli`` package; without it only gzip copies are written. Only what is large and compresses
is done: Pyodide's runtime, carddb's data, the page scripts and styles, and the larger pages (a gallery's HTML).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
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
#: Files at least this large have their copies kept in the build's cache: Pyodide's wasm alone costs 4 s of CPU.
CACHED_BYTES = 256 * 1024


def _brotli():  # type: ignore[no-untyped-def]
    try:
        import brotli
    except ImportError:
        return None
    return brotli


def settings_digest() -> str:
    """What shapes every compressed copy besides the file itself: this module and its settings, and the
    compressors' versions. A file kept from the previous site keeps its copies only while this is unchanged."""
    import zlib

    from carddb.incremental import digest, file_digest

    brotli = _brotli()
    return digest("precompress", file_digest(__file__), BROTLI_QUALITY, PAGE_BROTLI_QUALITY, MIN_BYTES,
                  PAGE_MIN_BYTES, zlib.ZLIB_RUNTIME_VERSION, getattr(brotli, "__version__", None))


def precompress(site_dir: str | Path) -> int:
    """Write the compressed copies under ``site_dir``; a copy not smaller than its file is not kept. A file whose
    copies are there already (kept from the previous site with them) is left as it is. Returns how many copies
    were written."""
    root = Path(site_dir)
    written = 0
    chosen = [(path, BROTLI_QUALITY, 9) for folder in FOLDERS if (root / folder).is_dir()
              for path in sorted((root / folder).rglob("*"))
              if path.is_file() and path.suffix in SUFFIXES and path.stat().st_size >= MIN_BYTES]
    chosen += [(path, PAGE_BROTLI_QUALITY, 6) for path in sorted(root.rglob("*.html"))
               if path.stat().st_size >= PAGE_MIN_BYTES]
    settings = settings_digest() if any(path.stat().st_size >= CACHED_BYTES for path, _, _ in chosen) else ""
    for path, quality, level in chosen:
        data = None
        for suffix, pack in _packers(quality, level).items():
            copy = path.with_name(path.name + suffix)
            if path.stat().st_size < CACHED_BYTES:
                if copy.is_file():
                    continue
                data = path.read_bytes() if data is None else data
                packed = pack(data)
            else:
                data = path.read_bytes() if data is None else data
                packed = _remembered_copy(settings, suffix, quality, level, data, copy, pack)
                if copy.is_file():
                    continue
            if len(packed) < len(data) * 0.95:
                copy.write_bytes(packed)
                written += 1
    return written


def _packers(quality: int, level: int) -> dict[str, Callable[[bytes], bytes]]:
    packers: dict[str, Callable[[bytes], bytes]] = {
        ".gz": lambda data: gzip.compress(data, compresslevel=level, mtime=0)}
    brotli = _brotli()
    if brotli is not None:
        packers[".br"] = lambda data: brotli.compress(data, quality=quality)
    return packers


def _remembered_copy(settings: str, suffix: str, quality: int, level: int, data: bytes, copy: Path,
                     pack: Callable[[bytes], bytes]) -> bytes:
    """The compressed copy of a large file, made once for its bytes (``carddb.incremental.remembered``): the copy
    kept from the previous site when there is one (made with the same settings: ``settings_digest``), else
    compressed now."""
    import hashlib

    from carddb.incremental import digest, remembered

    key = digest("precompressed", settings, suffix, quality, level, hashlib.sha256(data).hexdigest())
    return remembered(key, lambda: copy.read_bytes() if copy.is_file() else pack(data))
