"""Compressed copies of the site's engine files, written once at build time beside each file (``x.wasm.br``,
``x.wasm.gz``): ``carddb site serve`` sends them to a browser that accepts them, and a static host that serves
precompressed files (nginx ``gzip_static``/``brotli_static``, and most CDNs) can do the same.

Brotli needs the ``brotli`` package; without it only gzip copies are written. Only what is large and compresses
is done: Pyodide's runtime, carddb's data, the page scripts and styles, and the larger pages (a gallery's HTML).
"""

from __future__ import annotations

import contextlib
import gzip
import os
from collections.abc import Callable, Iterable
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
#: gzip's levels for the engine files and for pages (the pages', like their Brotli quality, quicker).
GZIP_LEVEL = 9
PAGE_GZIP_LEVEL = 6
ENCODINGS = {"br": ".br", "gzip": ".gz"}
#: Files at least this large have their copies kept in the build's cache: Pyodide's wasm alone costs 4 s of CPU.
CACHED_BYTES = 256 * 1024
#: Set (to anything but 0) for copies made at the compressors' quickest settings: an eighth of the CPU of a site's
#: first build (0.5 s instead of 3.9 s for the bundled games), for copies of the engine 14% (gzip) and 26% (Brotli)
#: larger. For machines that build many sites from nothing and serve none of them to a visitor: the test suite sets
#: it.
QUICK_ENV = "CARDDB_QUICK_COMPRESSION"


def _levels() -> tuple[int, int, int, int]:
    """Brotli's quality and gzip's level for the engine files, then for pages."""
    if os.environ.get(QUICK_ENV, "0") not in ("", "0"):
        return 1, 1, 1, 1
    return BROTLI_QUALITY, GZIP_LEVEL, PAGE_BROTLI_QUALITY, PAGE_GZIP_LEVEL


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
    return digest("precompress", file_digest(__file__), *_levels(), MIN_BYTES,
                  PAGE_MIN_BYTES, zlib.ZLIB_RUNTIME_VERSION, getattr(brotli, "__version__", None))


def may_have_copies(relative: str) -> bool:
    """Whether the file at ``relative`` (a POSIX path in the site) is of a kind ``precompress`` makes copies of
    (whatever its size): no other file has any, so a rebuild looks for none beside the images and zips it keeps."""
    return relative.endswith(".html") or (relative.endswith(SUFFIXES)
                                          and any(relative.startswith(f"{folder}/") for folder in FOLDERS))


def precompress(site_dir: str | Path, pages: Iterable[str] | None = None) -> int:
    """Write the compressed copies under ``site_dir``; a copy not smaller than its file is not kept. A file whose
    copies are there already (kept from the previous site with them) is left as it is. ``pages``: the HTML files
    (relative paths) this build wrote, when the others were kept with their copies; else every page of the site is
    looked at. Returns how many copies were written."""
    root = Path(site_dir)
    quality, level, page_quality, page_level = _levels()
    chosen = [(path, size, quality, level) for path, size in _files(root, FOLDERS)
              if path.suffix in SUFFIXES and size >= MIN_BYTES]
    html = _files(root, ("",)) if pages is None else _sizes(root, pages)
    chosen += [(path, size, page_quality, page_level) for path, size in html
               if path.suffix == ".html" and size >= PAGE_MIN_BYTES]
    settings = settings_digest() if any(size >= CACHED_BYTES for _, size, _, _ in chosen) else ""
    written = 0
    for path, size, brotli_quality, gzip_level in sorted(chosen):
        data = None
        for suffix, pack in _packers(brotli_quality, gzip_level).items():
            copy = path.with_name(path.name + suffix)
            if size < CACHED_BYTES:
                if copy.is_file():
                    continue
                data = path.read_bytes() if data is None else data
                packed = pack(data)
            else:
                data = path.read_bytes() if data is None else data
                packed = _remembered_copy(settings, suffix, brotli_quality, gzip_level, data, copy, pack)
                if copy.is_file():
                    continue
            if len(packed) < len(data) * 0.95:
                copy.write_bytes(packed)
                written += 1
    return written


def _files(root: Path, folders: tuple[str, ...]) -> list[tuple[Path, int]]:
    """Every file under the ``folders`` of ``root`` with its size, each once (``os.walk`` and one ``stat`` a file:
    this runs over the whole site in every build)."""
    found: dict[str, int] = {}
    for folder in folders:
        for dirpath, _dirnames, filenames in os.walk(root / folder):
            for name in filenames:
                path = os.path.join(dirpath, name)
                with contextlib.suppress(OSError):
                    found[path] = os.stat(path).st_size
    return [(Path(path), size) for path, size in found.items()]


def _sizes(root: Path, relatives: Iterable[str]) -> list[tuple[Path, int]]:
    """The files at ``relatives`` under ``root`` that are there, with their sizes."""
    found = []
    for relative in relatives:
        path = root / relative
        with contextlib.suppress(OSError):
            found.append((path, path.stat().st_size))
    return found


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
