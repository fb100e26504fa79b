"""The build engine's one mechanism: every part of every step is made again exactly when its key changed.

A step of ``carddb build`` (the decks' verdicts, faces, sheets, the four exporters, the site) names its *parts*
(a face, a PDF, an exported image, a site page) and, for each, the *sources* it is made from: named digests such
as ``card``, ``template files``, ``game.toml game.card_size``, ``carddb code``, ``libraries``. A part's key is the
digest of its sources and the step's common ones; ``Plan`` compares the keys with the step's manifest
(``.build-inputs.json`` in the step's folder) and says which parts to make and, from the names whose digests
changed, why (``carddb build --explain``).

Keys are complete by construction, not by care:

* ``code_digest(layers)`` digests every source file of the carddb layers a part's maker can import (imports point
  downwards only, so a face's maker, ``paint``, can run no code outside ``paint`` and the layers below it) and the
  versions of the libraries that shape outputs; no version constant is bumped by hand;
* ``game_sources`` digests the game definition section by section, so a changed ``card_size`` is named;
* a step's files (templates, art, fonts, deck files) are digested by content.

A manifest is read through the bounded reader (a damaged, huge or deeply nested one only means "make everything
again"), is written whole or not at all after the outputs it describes, and holds only digests and reports, so a
clean build and an incremental one write the same bytes. The names of its parts are checked to be plain names
before anything is removed by them (``plain_name``). Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO, Generic, TypeVar

MANIFEST = ".build-inputs.json"  # hidden, and not named like carddb's staging files (".carddb-new-...")

#: The libraries whose versions change what carddb writes (a new Pillow encodes JPEGs differently).
LIBRARIES = ("pillow", "reportlab", "rl-accel", "fonttools", "fontpkg-noto-sans", "pypdf", "jinja2", "markupsafe",
             "pyyaml", "markdown", "mkdocs", "mkdocs-material", "pymdown-extensions", "brotli", "deflate")
#: carddb's own source files, digested as the code that made a part.
PACKAGE = Path(__file__).resolve().parent
#: What every layer may import besides the layers below it (the package's modules that belong to no layer).
SHARED_MODULES = ("__init__.py", "errors.py", "incremental.py", "files")
#: The layers that draw a face, from the bottom up: what ``paint`` can import.
FACE_LAYERS = ("core", "layout", "paint")


def digest(*parts: Any) -> str:
    """The SHA-256 of ``parts`` as canonical JSON (keys sorted; sets sorted; anything else by ``str``)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def short(*parts: Any) -> str:
    """A 128-bit digest, for the many named sources a manifest keeps (half the bytes of ``digest``)."""
    return digest(*parts)[:32]


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
    steps of one build is read once; a file changed meanwhile has another key and is read again. Inside
    ``remember_in``, also kept for the next build by the file's full status (``_FileDigests``): a build of 5,000
    cards does not read 5,000 faces again to find them unchanged."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    name = str(path)
    status = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    found = _file_digests.known(name, status)
    if found is None:
        found = _digest_of(name, st.st_size, st.st_mtime_ns, st.st_ino)
    _file_digests.seen(name, status, found)
    return found


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


# -- carddb and its libraries as inputs -------------------------------------------------------------------------
def library_versions() -> dict[str, str | None]:
    """The installed version of each library in ``LIBRARIES`` (None: not installed), read once a process (the
    running code is what was imported, whatever is installed meanwhile)."""
    return dict(_library_versions())


@cache
def _library_versions() -> dict[str, str | None]:
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def code_digest(layers: Iterable[str] | None = None) -> str:
    """carddb itself as an input: its version, the source files of ``layers`` (None: the whole package) with the
    modules every layer shares, and the versions of the libraries that shape outputs. An edited or upgraded
    carddb, or another library version, makes again what that code made."""
    import carddb

    return _code_digest(carddb.__version__, tuple(layers) if layers is not None else None, str(PACKAGE),
                        json.dumps(library_versions(), sort_keys=True), _plugin_packages() if layers is None else ())


@cache
def _plugin_packages() -> tuple[tuple[str, str], ...]:
    """The ``carddb.games`` entry points and the folder of each one's package outside carddb (a sixth game's
    play helpers shape the site as carddb's own code does)."""
    import importlib.util
    from importlib import metadata

    found = []
    for entry in metadata.entry_points(group="carddb.games"):
        top = entry.module.split(".")[0]
        spec = importlib.util.find_spec(top) if top != "carddb" else None
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        source = (origin.parent if origin.name == "__init__.py" else origin) if origin else None
        found.append((f"{entry.name} = {entry.value}", str(source) if source else ""))
    return tuple(sorted(found))


@cache
def _code_digest(version: str, layers: tuple[str, ...] | None, package: str, versions: str,
                 plugins: tuple[tuple[str, str], ...] = ()) -> str:
    root = Path(package)
    names = [*SHARED_MODULES, *layers] if layers is not None else sorted(os.listdir(root))
    sources = []
    for name in names:
        path = root / name
        if name == "__pycache__":  # the package's own bytecode: written by whichever run compiles first
            continue
        if path.is_dir():
            sources.append((name, tree_digest(path, skip=("__pycache__",))))
        elif name.endswith(".py"):
            sources.append((name, file_digest(path)))
    for entry, folder in plugins:  # "": a plugin inside carddb, digested above (Path("") would be the cwd)
        path = Path(folder)
        made = "" if not folder else tree_digest(path, skip=("__pycache__",)) if path.is_dir() else file_digest(path)
        sources.append((entry, made))
    return digest(version, sorted(sources), versions)


def forget_code() -> None:
    """Digest carddb's files again (a test that edits a copy of them; a long watch never needs it)."""
    _code_digest.cache_clear()
    _plugin_packages.cache_clear()


def code_sources(layers: Iterable[str] | None = None) -> dict[str, str]:
    """carddb's code and libraries as two named sources, so ``--explain`` can tell an upgrade of either."""
    import carddb

    return {"carddb code": short(code_digest(layers), carddb.__version__),
            "libraries": short(library_versions())}


# -- the game definition, section by section --------------------------------------------------------------------
def game_sources(raw: Mapping[str, Any], skip: Iterable[str] = ()) -> dict[str, str]:
    """Named digests of a game definition: one per key of each top-level table (``game.toml game.card_size``,
    ``game.toml fields.damage``), one per other top-level value (``game.toml sets``). ``skip`` names the top-level
    sections a step provably never reads (everything else is in, so a new section can only cost a redraw)."""
    skipped = set(skip)
    sources = {}
    for section, value in raw.items():
        if section in skipped:
            continue
        if isinstance(value, Mapping):
            for key, inner in value.items():
                sources[f"game.toml {section}.{key}"] = short(inner)
        else:
            sources[f"game.toml {section}"] = short(value)
    return sources


# -- manifests --------------------------------------------------------------------------------------------------
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9 _.,()'+-]{0,254}")


def plain_name(name: object) -> bool:
    """Whether ``name`` is a plain file name a step may remove in its own folder: no separator, no ``..``, no
    control character (a manifest is a file in ``output/`` that anyone could have edited)."""
    return isinstance(name, str) and bool(_PLAIN.fullmatch(name)) and ".." not in name


def changed_sources(old: Mapping[str, Any], new: Mapping[str, str]) -> list[str]:
    """The names of the sources whose digests differ between ``old`` and ``new`` (new, gone or changed)."""
    reasons = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            reasons.append(f"{name} (new)")
        elif name not in new:
            reasons.append(f"{name} (gone)")
        elif old[name] != new[name]:
            reasons.append(name)
    return reasons


@dataclass
class Manifest:
    """What one step's output was made from: ``inputs``, the digest of all of it; ``sources``, the named digests
    every part shares; ``parts``, each part's key, its own named sources and what is worth keeping about it;
    ``report``, what the step said, given back when it is skipped."""

    inputs: str = ""
    parts: dict[str, dict[str, Any]] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    found: bool = False  # whether a manifest was read (False: no earlier build to compare with)

    @classmethod
    def read(cls, path: str | Path) -> Manifest:
        """The manifest at ``path``; an empty one (so everything is made again) when it is missing, damaged, too
        large, too deep or of another shape."""
        from carddb.errors import CarddbError
        from carddb.files.reading import read_json_file

        try:
            data = read_json_file(path, what="build manifest", max_bytes=256 * 1024 * 1024)
        except (CarddbError, OSError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        parts, report, sources = data.get("parts"), data.get("report"), data.get("sources")
        return cls(inputs=str(data.get("inputs") or ""),
                   parts={str(k): v for k, v in parts.items() if isinstance(v, dict)} if isinstance(parts, dict)
                   else {},
                   report=report if isinstance(report, dict) else {},
                   sources={str(k): str(v) for k, v in sources.items()} if isinstance(sources, dict) else {},
                   found=True)

    def current(self, inputs: str) -> bool:
        """Whether the whole output was made from exactly ``inputs``."""
        return bool(self.inputs) and self.inputs == inputs

    def part(self, name: str, key: str) -> dict[str, Any] | None:
        """What was kept about part ``name`` if it was made from ``key``, else None."""
        entry = self.parts.get(name)
        return entry if entry is not None and entry.get("key") == key else None

    def changes(self, sources: Mapping[str, str]) -> list[str]:
        """Why a step made of one part (an export folder) is made again: the sources that changed."""
        if not self.found:
            return ["no earlier build"]
        return changed_sources(self.sources, sources) or ["its output files are missing"]

    def why(self, name: str, sources: Mapping[str, str], part_sources: Mapping[str, str] = {}) -> list[str]:
        """Why part ``name`` is made again: the names of the sources that changed since it was made."""
        if not self.found:
            return ["no earlier build"]
        entry = self.parts.get(name)
        if entry is None:
            return ["a new part"]
        kept = entry.get("sources")
        reasons = changed_sources(self.sources, sources) + changed_sources(
            kept if isinstance(kept, dict) else {}, part_sources)
        return reasons or ["its output file is missing"]

    def to_bytes(self) -> bytes:
        data = {"inputs": self.inputs, "parts": self.parts, "report": self.report, "sources": self.sources}
        # compact: an indented dump runs in Python, not C (a site of 2,000 cards has a manifest of 3.5 MB)
        return (json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_plain)
                + "\n").encode()

    def write(self, path: str | Path) -> None:
        """Write the manifest whole or not at all (``carddb.files.replacing``)."""
        from carddb.files.replacing import write_file

        write_file(path, self.to_bytes())


def sources_key(*groups: Mapping[str, str]) -> str:
    """The key of a part: the digest of all its named sources."""
    merged: dict[str, str] = {}
    for group in groups:
        merged.update(group)
    return digest(sorted(merged.items()))


class Plan:
    """One step's parts checked against its previous manifest: which to make again, and why.

    ``common`` are the named sources every part shares; ``add`` each part with its own. A part is kept when its
    key is the manifest's and ``exists`` (its output is still there); else it is to do, with its reasons."""

    def __init__(self, previous: Manifest, common: Mapping[str, str]) -> None:
        self.previous = previous
        self.common = dict(common)
        self.new = Manifest(sources=self.common)
        self.todo: list[str] = []
        self.reasons: dict[str, list[str]] = {}

    def add(self, name: str, sources: Mapping[str, str] = {}, *, exists: bool = True) -> str:
        """Plan part ``name``; returns its key. Its entry in the new manifest is the kept one or a fresh one."""
        key = sources_key(self.common, sources)
        kept = self.previous.part(name, key)
        if kept is not None and exists:
            self.new.parts[name] = kept
            keep_cache_of(key)
        else:
            self.new.parts[name] = {"key": key, "sources": dict(sources)} if sources else {"key": key}
            self.todo.append(name)
            self.reasons[name] = self.previous.why(name, self.common, sources)
        return key

    def made(self, name: str, *, cache_keys: Iterable[str] = (), **kept: Any) -> None:
        """What is worth keeping about a part just made (its report), beside its key. ``cache_keys``: the entries
        of the build's cache its making asked for, kept for as long as the part is (``keep_cache_of``)."""
        self.new.parts[name].update(kept)
        if cache_keys:
            note_cache_of(self.new.parts[name]["key"], cache_keys)

    def gone(self) -> list[str]:
        """The parts the previous manifest had and this plan has not, whose names are plain (safe to remove)."""
        return sorted(name for name in self.previous.parts if name not in self.new.parts and plain_name(name))

    @property
    def changed(self) -> bool:
        return bool(self.todo) or self.new.parts.keys() != self.previous.parts.keys() \
            or self.new.sources != self.previous.sources or not self.previous.found


def forget(path: str | Path) -> None:
    """Remove a manifest, so its output is made again next time (done before an output is changed in place)."""
    Path(path).unlink(missing_ok=True)


def plain_report(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` as JSON-ready data (paths as strings), for a manifest's report."""
    return json.loads(json.dumps(dict(values), default=_plain))


# -- the one bounded memo and the one cache folder ---------------------------------------------------------------
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")
R = TypeVar("R")


class Memo(Generic[K, V]):
    """A bounded memo, least recently used out first: the one eviction rule of every in-process cache of a build
    (a long ``--watch`` keeps the recent entries, never all of them)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, make: Callable[[], V]) -> V:
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        value = make()
        self._items[key] = value
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        self._items.pop(key, None)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items


class _FileDigests:
    """The digests of the files the last build read, by each file's status (size, modification and change times,
    inode), kept in a file the build names (``remember_in(..., digests=)``). Any write to a file changes its change
    time, which no program sets back, and a replaced file has another inode: an equal status is the same bytes. A file
    changed in the last two seconds before it was read is not kept (its next write could share its times, as git's
    "racy" files), nor anything outside an open ``remember_in``."""

    RECENT_NS = 2_000_000_000

    def __init__(self) -> None:
        self.earlier: dict[str, list[Any]] = {}
        self.now: dict[str, list[Any]] | None = None  # None: not inside a build's cache

    def known(self, name: str, status: tuple[int, int, int, int]) -> str | None:
        entry = self.earlier.get(name)
        return entry[4] if entry is not None and tuple(entry[:4]) == status else None

    def seen(self, name: str, status: tuple[int, int, int, int], found: str) -> None:
        if self.now is not None and found != "missing" and \
                max(status[1], status[2]) < time.time_ns() - self.RECENT_NS:
            self.now[name] = [*status, found]

    def open(self, path: Path) -> None:
        from carddb.errors import CarddbError
        from carddb.files.reading import read_json_file

        try:
            data = read_json_file(path, what="build cache", max_bytes=256 * 1024 * 1024)
        except (CarddbError, OSError):
            data = {}
        self.earlier = {str(name): entry for name, entry in data.items()
                        if isinstance(entry, list) and len(entry) == 5} if isinstance(data, dict) else {}
        self.now = {}

    def close(self, path: Path, keep: bool) -> None:
        if keep and self.now is not None and self.now != self.earlier:
            _store(path, json.dumps(self.now, sort_keys=True, separators=(",", ":")).encode())
        self.earlier, self.now = {}, None


_file_digests = _FileDigests()
_remembered: Memo[str, bytes] = Memo(16)
_cache_dirs: list[Path] = []
_used: list[set[str]] = []  # per open ``remember_in``: the keys asked for within it


def remembered(key: str, make: Callable[[], bytes], memo: Memo[str, bytes] | None = None) -> bytes:
    """``make()``, made once for ``key`` (a digest of all it is made from): kept for the life of the process and,
    inside ``remember_in``, in the build's cache folder for the next process. For costly outputs that seldom
    change (the site's trimmed Pyodide library, its printing bundle, each rulebook page with its drawn faces).
    ``memo``: the process's memo for a kind of output that comes by the hundred (a PDF's compressed streams), so
    that it does not push the few large ones out of the common memo."""
    for used in _used:
        used.add(key)
    memo = _remembered if memo is None else memo
    held = key in memo
    value = memo.get(key, lambda: _from_cache_folder(key, make))
    if held and _cache_dirs and not os.path.exists(_cache_dirs[-1] / key):
        # known to this process, pruned from the folder by a build in between (a long ``site serve``): put back, so
        # that the folder holds what this build asked for, as the parts that note it expect
        _store(_cache_dirs[-1] / key, value)
    return value


def cache_folder() -> Path | None:
    """The cache folder of the innermost open ``remember_in`` (None outside one): sent with a task to the pool's
    processes, which open it too."""
    return _cache_dirs[-1] if _cache_dirs else None


@contextlib.contextmanager
def keys_used() -> Iterator[set[str]]:
    """The cache keys ``remembered``, ``cached_file`` and ``cached_path`` are asked for within the block: a task
    run on the pool's processes returns them, and the build that sent it marks them used (``mark_used``), so that
    pruning keeps what the task used."""
    used: set[str] = set()
    _used.append(used)
    try:
        yield used
    finally:
        _forget_set(used)


def _forget_set(used: set[str]) -> None:
    """``used`` out of ``_used``, found by identity (sets equal by value are other blocks' sets)."""
    for index, held in enumerate(_used):
        if held is used:
            del _used[index]
            return


def mark_used(keys: Iterable[str]) -> None:
    """``keys`` count as asked for in every open ``remember_in`` (they were asked for in a worker process)."""
    for used in _used:
        used.update(keys)


def _keys_of_part(key: str) -> str:
    return digest("the cache entries of the part made from", key)


def note_cache_of(part_key: str, cache_keys: Iterable[str]) -> None:
    """Note, in the build's cache folder, the entries a part made from ``part_key`` asked for (``Plan.made``)."""
    if not _cache_dirs:
        return
    name = _keys_of_part(part_key)
    mark_used([name])
    _store(_cache_dirs[-1] / name, "".join(f"{key}\n" for key in sorted(set(cache_keys))).encode("ascii"))


def keep_cache_of(part_key: str) -> None:
    """A part kept as it is keeps the cache entries its making asked for: pruning would otherwise remove them, and
    the next change to the part would make all of them again (a PDF whose one card changed would deflate every
    face it holds, not that card's). Nothing to keep outside a build's cache, or when the note is gone."""
    if not _cache_dirs:
        return
    name = _keys_of_part(part_key)
    try:
        text = (_cache_dirs[-1] / name).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return
    mark_used([name, *(line for line in text.splitlines() if _CACHE_KEY.fullmatch(line))])


@dataclass(frozen=True)
class _KeepingKeys(Generic[T, R]):
    """``function`` as a pool's worker runs it: inside the build's cache block (opened there when the worker did not
    inherit it by fork), returning its result with the cache keys it asked for."""

    function: Callable[[T], R]
    cache: Path | None

    def __call__(self, task: T) -> tuple[R, set[str]]:
        opened = remember_in(self.cache, prune=False) if self.cache is not None and cache_folder() != self.cache \
            else contextlib.nullcontext()
        with opened, keys_used() as used:
            result = self.function(task)
        return result, set(used)


def map_with_cache_keys(pool: Any, function: Callable[[T], R], tasks: Sequence[T],
                        **options: Any) -> list[tuple[R, set[str]]]:
    """``pool.map(function, tasks, **options)`` (``carddb.workers.Pool``) with the build's cache shared, each result
    with the cache keys its task asked for (for ``Plan.made``). What a worker process keeps in the cache folder is
    marked used in this one (``mark_used``), so the build's pruning keeps it instead of removing what it never saw
    asked for."""
    results = pool.map(_KeepingKeys(function, cache_folder()), tasks, **options)
    for _result, used in results:
        mark_used(used)
    return results


def forget_remembered(key: str) -> None:
    """Drop what ``remembered`` keeps for ``key``, in the process and in the cache folder: an entry its reader
    found damaged is made again by the next ``remembered``."""
    _remembered.pop(key)
    for folder in _cache_dirs:
        with contextlib.suppress(OSError):
            os.unlink(folder / key)


def cached_file(key: str, make: Callable[[], bytes], suffix: str = "") -> Path | None:
    """The path of a file in the cache folder holding ``make()`` for ``key`` (None outside ``remember_in``): for
    outputs a writer reads as files (the JPEG faces of raster sheets)."""
    return _cached(key + suffix, lambda path: _store(path, make()))


def cached_written_file(key: str, write: Callable[[BinaryIO], None], suffix: str = "") -> Path | None:
    """``cached_file`` for a file that ``write`` writes into an open file, never whole in memory (a LackeyCCG plugin's
    zip of every card image: 200 MB at 5,000 cards); None also when it could not be written."""
    from carddb.files.replacing import staged_file

    def store(path: Path) -> None:
        from carddb.errors import CarddbError

        with contextlib.suppress(OSError, CarddbError), staged_file(path) as part, open(part, "wb") as handle:
            write(handle)

    path = _cached(key + suffix, store)
    return path if path is not None and path.is_file() else None


def _cached(name: str, store: Callable[[Path], None]) -> Path | None:
    if not _cache_dirs:
        return None
    for used in _used:
        used.add(name)
    path = _cache_dirs[-1] / name
    if not path.is_file():
        store(path)
    return path


def cached_path(name: str) -> Path | None:
    """The file ``name`` that ``cached_file`` made in this build's cache folder, kept for this build (not pruned), or
    None when it is not there (or outside ``remember_in``)."""
    if not _cache_dirs or not _CACHE_KEY.fullmatch(name):
        return None
    path = _cache_dirs[-1] / name
    if not path.is_file():
        return None
    for used in _used:
        used.add(name)
    return path


def _from_cache_folder(key: str, make: Callable[[], bytes]) -> bytes:
    path = _cache_dirs[-1] / key if _cache_dirs else None
    if path is not None:
        with contextlib.suppress(OSError):
            return path.read_bytes()
    data = make()
    if path is not None:
        _store(path, data)
    return data


def _store(path: Path, data: bytes) -> None:
    from carddb.errors import CarddbError
    from carddb.files.replacing import write_file

    with contextlib.suppress(OSError, CarddbError):  # a cache that cannot be written is only slower
        write_file(path, data)


@dataclass
class CacheUse:
    """An open ``remember_in``: ``prune`` can be turned off before it ends (a build with a failed step)."""

    folder: Path
    prune: bool


# -- answers the steps of one build share ----------------------------------------------------------------------
_shared: dict[Hashable, tuple[Any, Any]] = {}
_sharing = [0]  # how many builds are running in this process (``sharing_answers``)
_shared_lock = threading.Lock()
T_ = TypeVar("T_")


@contextlib.contextmanager
def sharing_answers() -> Iterator[None]:
    """Within the block (a build's steps), ``shared`` gives an answer already found again for an equal question.
    Only within it: every step of one build reads copies of the same cards, so equal questions are the same
    question; across builds a value may compare equal and differ (``1 == True``), so each build starts afresh."""
    with _shared_lock:
        if _sharing[0] == 0:
            _shared.clear()
        _sharing[0] += 1
    try:
        yield
    finally:
        with _shared_lock:
            _sharing[0] -= 1
            if _sharing[0] == 0:
                _shared.clear()


def shared(name: Hashable, given: Any, make: Callable[[], T_], keep: Callable[[Any], Any] = lambda value: value) -> T_:
    """``make()``, or, within a build (``sharing_answers``), the value it gave for ``name`` when ``given`` was equal:
    four exporters digesting the same 5,000 cards, checking the same sample decks. ``keep``: a copy of ``given``
    to compare with later (a caller may change what it asked about once it has its answer)."""
    with _shared_lock:
        active = _sharing[0] > 0
        hit = _shared.get(name) if active else None
    if hit is not None and hit[0] == given:
        return hit[1]  # type: ignore[no-any-return]
    value = make()
    if active:
        with _shared_lock:
            if _sharing[0] > 0:
                _shared[name] = (keep(given), value)
    return value


@contextlib.contextmanager
def remember_in(folder: str | Path, *, prune: bool = True, digests: Path | None = None) -> Iterator[CacheUse]:
    """Within the block, ``remembered`` and ``cached_file`` keep what they make in ``folder`` too (a cache:
    deleting it is safe). When the outermost block ends without an error and ``prune`` (a whole build), what it did
    not ask for is removed: the folder holds what the last build used, not every version of everything ever made.
    ``digests`` (a build's): the file keeping the digests of the files read, by their status, for the next build."""
    use = CacheUse(Path(folder), prune)
    outermost = not _cache_dirs and digests is not None
    if outermost:
        _file_digests.open(digests)
    _cache_dirs.append(use.folder)
    used: set[str] = set()
    _used.append(used)
    completed = False
    try:
        yield use
        completed = True
        if use.prune and len(_used) == 1:  # an inner block (the site within a build) leaves pruning to the build
            with contextlib.suppress(OSError):
                for entry in os.scandir(folder):
                    if _CACHE_KEY.fullmatch(entry.name) and entry.name not in used:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)
    finally:
        _cache_dirs.pop()
        _forget_set(used)  # its own set: a block of another thread (a step beside the site) may have opened since
        if outermost:
            _file_digests.close(digests, keep=completed)


_CACHE_KEY = re.compile(r"[0-9a-f]{64}(\.[a-z0-9]{1,8})?")
