"""Doing again only what changed: every output keeps a manifest of the digests of what it was made from.

Each writer of ``carddb build`` (faces, sheets, the four exporters, the site) digests its inputs (catalogue rows,
the game definition, template and deck files, its options, carddb's own code) before it works, and compares the
digests with the manifest it left beside its output last time:

* the digest of all its inputs equal, and the output still there: nothing is done, and the report the manifest
  kept is given back, so an up-to-date step says what a fresh one would;
* else only the parts (a face, a PDF, an exported image, a site page) whose own digest changed are made again;
  the others are taken from the previous output as they are.

A manifest is written whole or not at all (a temporary file, then a rename), and after the output it describes,
so a build stopped in between finds an older manifest, digests that do not match, and redoes the work: an
interrupted build can cost time, never leave something stale. Manifests hold only digests and reports, so a
clean build and an incremental one of the same inputs write the same bytes.

Standard library only (files are written through ``carddb.files.replacing``): digests are SHA-256 of canonical
JSON.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: Bump when what a manifest holds changes meaning: every output is then made again once.
FORMAT = 1
MANIFEST = ".build-inputs.json"  # hidden, and not named like carddb's staging files (".carddb-new-...")

#: The libraries whose versions change what carddb writes (a new Pillow encodes JPEGs differently).
LIBRARIES = ("pillow", "reportlab", "rl-accel", "fonttools", "fontpkg-noto-sans", "pypdf", "jinja2", "markupsafe",
             "pyyaml", "markdown", "mkdocs", "mkdocs-material", "pymdown-extensions", "brotli")


def digest(*parts: Any) -> str:
    """The SHA-256 of ``parts`` as canonical JSON (keys sorted; sets sorted; anything else by ``str``)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if isinstance(value, Path):
        return value.as_posix()
    if hasattr(value, "__dataclass_fields__"):
        return {name: getattr(value, name) for name in value.__dataclass_fields__}
    return str(value)


def file_digest(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, or ``"missing"`` when it is not a readable file.

    Kept for the life of the process per (path, size, modification time, inode), so a file read by several
    steps of one build is read once; a file changed meanwhile has another key and is read again."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return _digest_of(str(path), st.st_size, st.st_mtime_ns, st.st_ino)


@cache
def _digest_of(path: str, size: int, mtime_ns: int, inode: int) -> str:
    sha = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                sha.update(block)
    except OSError:
        return "missing"
    return sha.hexdigest()


def files_digest(paths: Iterable[str | Path], relative_to: str | Path | None = None) -> str:
    """One digest of several files: their names (relative to ``relative_to``) and their contents."""
    base = Path(relative_to) if relative_to is not None else None
    entries = []
    for path in paths:
        name = Path(path).relative_to(base).as_posix() if base is not None else Path(path).as_posix()
        entries.append((name, file_digest(path)))
    return digest(sorted(entries))


def tree_digest(folder: str | Path, *, skip: Iterable[str] = ()) -> str:
    """One digest of every file under ``folder`` (names and contents); names in ``skip`` and their contents are
    left out at any depth (``node_modules``, ``__pycache__``)."""
    root = Path(folder)
    skipped = set(skip)
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skipped)
        found += [Path(dirpath) / name for name in filenames if name not in skipped]
    return files_digest(found, root)


def stat_digest(folder: str | Path) -> str:
    """A digest of the names, sizes and times of every file under ``folder``, for large installed trees that
    nobody edits by hand (the site's Pyodide, 14 MB): a reinstall changes their times."""
    root = Path(folder)
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            try:
                st = path.stat()
            except OSError:
                continue
            entries.append((path.relative_to(root).as_posix(), st.st_size, st.st_mtime_ns))
    return digest(entries)


def code_digest() -> str:
    """carddb itself as an input: its version, every file of the package, and the versions of the libraries
    that shape its outputs. A new carddb (or an edited one) makes everything again."""
    import carddb

    return _code_digest(carddb.__version__)


@cache
def _code_digest(version: str) -> str:
    from importlib import metadata

    package = Path(__file__).resolve().parent
    sources = tree_digest(package, skip=("__pycache__",))
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return digest(FORMAT, version, sources, versions)


@dataclass
class Manifest:
    """What one output was made from: ``inputs``, the digest of all of it; ``parts``, each part's own digest and
    what is worth keeping about it; ``report``, what the step said, given back when it is skipped."""

    inputs: str = ""
    parts: dict[str, dict[str, Any]] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, path: str | Path) -> Manifest:
        """The manifest at ``path``; an empty one (so everything is made again) when it is missing, damaged or of
        another format."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return cls()
        parts = data.get("parts")
        report = data.get("report")
        return cls(inputs=str(data.get("inputs") or ""),
                   parts={str(k): v for k, v in parts.items() if isinstance(v, dict)} if isinstance(parts, dict)
                   else {},
                   report=report if isinstance(report, dict) else {})

    def current(self, inputs: str) -> bool:
        """Whether the whole output was made from exactly ``inputs``."""
        return bool(self.inputs) and self.inputs == inputs

    def part(self, name: str, key: str) -> dict[str, Any] | None:
        """What was kept about part ``name`` if it was made from ``key``, else None."""
        entry = self.parts.get(name)
        return entry if entry is not None and entry.get("key") == key else None

    def to_bytes(self) -> bytes:
        data = {"format": FORMAT, "inputs": self.inputs, "parts": self.parts, "report": self.report}
        return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False, default=_plain) + "\n").encode()

    def write(self, path: str | Path) -> None:
        """Write the manifest whole or not at all (``carddb.files.replacing``)."""
        from carddb.files.replacing import write_file

        write_file(path, self.to_bytes())


def forget(path: str | Path) -> None:
    """Remove a manifest, so its output is made again next time (done before an output is changed in place)."""
    Path(path).unlink(missing_ok=True)


def plain_report(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` as JSON-ready data (paths as strings), for a manifest's report."""
    return json.loads(json.dumps(dict(values), default=_plain))


_remembered: dict[str, bytes] = {}
_cache_dirs: list[Path] = []
_used: list[set[str]] = []  # per open ``remember_in``: the keys asked for within it


def remembered(key: str, make: Callable[[], bytes]) -> bytes:
    """``make()``, made once for ``key`` (a digest of all it is made from): kept for the life of the process and,
    inside ``remember_in``, in a folder of files for the next process. For costly outputs that seldom change
    (the site's trimmed Pyodide library, its printing bundle, each rulebook page with its drawn faces)."""
    if _used:
        _used[-1].add(key)
    if key in _remembered:
        return _remembered[key]
    folder = _cache_dirs[-1] if _cache_dirs else None
    path = folder / key if folder is not None else None
    data = None
    if path is not None:
        with contextlib.suppress(OSError):
            data = path.read_bytes()
    if data is None:
        data = make()
        if path is not None:
            from carddb.errors import CarddbError
            from carddb.files.replacing import write_file

            with contextlib.suppress(OSError, CarddbError):  # a cache that cannot be written is only slower
                write_file(path, data)
    if len(_remembered) > 16:  # a long watch: keep only the recent ones
        _remembered.clear()
    _remembered[key] = data
    return data


@contextlib.contextmanager
def remember_in(folder: str | Path) -> Iterator[None]:
    """Within the block, ``remembered`` keeps what it makes in ``folder`` too (a cache: deleting it is safe).
    When the block ends without an error, what it did not ask for is removed: the folder holds what the last
    run used, not every version of everything ever made."""
    _cache_dirs.append(Path(folder))
    _used.append(set())
    try:
        yield
        used = _used[-1]
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                if _CACHE_KEY.fullmatch(entry.name) and entry.name not in used:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
    finally:
        _cache_dirs.pop()
        _used.pop()


_CACHE_KEY = re.compile(r"[0-9a-f]{64}")
