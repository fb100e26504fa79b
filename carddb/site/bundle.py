"""What the browser's rules engine needs: Pyodide's runtime files, ``carddb/core`` and the games' play helpers as
a zip, and per game its definition (TOML text) and cards (JSON), with a manifest that names them all.

File names carry a content hash (and Pyodide's folder its version and a hash of what the site serves of it), so
a browser may cache them for ever and a rebuilt site is never checked with a stale engine; only
``manifest.json`` is fetched without the cache.

The site serves less of Pyodide than npm installs: its standard library without the parts nothing on the site
imports (debuggers, test runners, mail and network servers, the REPL, multiprocessing, DOS and EBCDIC code
pages), and a lock file that lists no packages (the site loads none through it). That keeps the engine's
download small on a slow link.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.core.play.registry import ENTRY_POINT_GROUP, plugins
from carddb.errors import InputError

#: The files of the npm ``pyodide`` package that run it in a browser (the rest are types, maps and demos).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: What the browser imports: the pure core and the two modules it may import (and each game plugin's engine).
PACKAGE_FILES = ("carddb/__init__.py", "carddb/errors.py")
PACKAGE_DIRS = ("carddb/core",)
#: The distribution the site's engine zip declares, holding the ``carddb.games`` entry points of its plugins.
ENGINE_DIST = "carddb_site_engine-0.dist-info"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)

#: Top-level names of Pyodide's ``python_stdlib.zip`` that nothing on the site imports.
STDLIB_LEFT_OUT = frozenset({
    "__hello__.py", "__phello__", "_pyrepl", "antigravity.py", "bdb.py", "cProfile.py", "doctest.py", "ftplib.py",
    "imaplib.py", "mailbox.py", "modulefinder.py", "multiprocessing", "pdb.py", "pickletools.py", "poplib.py",
    "profile.py", "pstats.py", "pyclbr.py", "pydoc.py", "pydoc_data", "sched.py", "smtplib.py", "sqlite3",
    "tabnanny.py", "this.py", "trace.py", "turtle.py", "turtledemo", "unittest", "wave.py", "webbrowser.py",
    "wsgiref", "xmlrpc", "zipapp.py", "idlelib", "lib2to3", "ensurepip", "venv", "tkinter", "curses", "dbm",
})
#: Code pages of the ``encodings`` package left out with them (DOS, EBCDIC, rare Mac and regional ones): deck
#: files are read as UTF-8/16/32, Windows-1252 or Latin-1, and ReportLab and pypdf use none of these. (cp437
#: stays: ``zipfile`` decodes member names with it.)
ENCODINGS_LEFT_OUT = frozenset({
    "cp037", "cp273", "cp424", "cp500", "cp720", "cp737", "cp775", "cp850", "cp852", "cp855", "cp856",
    "cp857", "cp858", "cp860", "cp861", "cp862", "cp863", "cp864", "cp865", "cp866", "cp869", "cp874", "cp875",
    "cp1006", "cp1026", "cp1125", "cp1140", "hp_roman8", "koi8_r", "koi8_t", "koi8_u", "kz1048", "mac_arabic",
    "mac_croatian", "mac_cyrillic", "mac_farsi", "mac_greek", "mac_iceland", "mac_romanian", "mac_turkish",
    "palmos", "ptcp154", "tis_620",
})

#: How long a page waits for the rules engine before it says it failed (a wrong wasm MIME type hangs it).
ENGINE_TIMEOUT_MS = 30_000


@dataclass(frozen=True)
class Pyodide:
    version: str
    folder: Path

    def files(self) -> list[Path]:
        return [self.folder / name for name in PYODIDE_FILES]


def find_pyodide(site_dir: Path) -> Pyodide:
    """The Pyodide that ``site/package.json`` pins, installed by ``npm ci --prefix site``.

    Refuses an installed version other than the pinned one, so the site never ships an engine nobody tested.
    """
    try:
        pinned = json.loads((site_dir / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"{site_dir / 'package.json'} does not pin a pyodide version ({exc})") from None
    folder = site_dir / "node_modules" / "pyodide"
    hint = f"run `npm ci --prefix {site_dir}` to install it from the npm registry"
    try:
        installed = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        raise InputError(f"Pyodide {pinned} is not installed in {folder}", hint=hint) from None
    if installed != pinned:
        raise InputError(f"{folder} holds Pyodide {installed} but site/package.json pins {pinned}", hint=hint)
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise InputError(f"Pyodide in {folder} lacks {', '.join(missing)}", hint=hint)
    return Pyodide(version=installed, folder=folder)


def _left_out(name: str) -> bool:
    top = name.split("/")[0]
    if top in STDLIB_LEFT_OUT:
        return True
    return top == "encodings" and name.count("/") == 1 and name[len("encodings/"):].removesuffix(".py") in \
        ENCODINGS_LEFT_OUT


def site_stdlib(pyodide: Pyodide) -> bytes:
    """Pyodide's ``python_stdlib.zip`` without ``STDLIB_LEFT_OUT`` and ``ENCODINGS_LEFT_OUT``, reproducibly (made
    once per installed Pyodide and carddb: ``carddb.incremental.remembered``)."""
    from carddb.incremental import code_digest, digest, remembered

    source = (pyodide.folder / "python_stdlib.zip").stat()
    return remembered(digest("site-stdlib", code_digest(), source.st_size, source.st_mtime_ns),
                      lambda: _trimmed_stdlib(pyodide))


def _trimmed_stdlib(pyodide: Pyodide) -> bytes:
    """The kept entries copied as Pyodide compressed them (``carddb.files.zip_copy``)."""
    from carddb.files.zip_copy import copy_entries

    return copy_entries(pyodide.folder / "python_stdlib.zip",
                        lambda info: not info.is_dir() and not _left_out(info.filename))


def site_lock(pyodide: Pyodide) -> bytes:
    """A lock file with Pyodide's own ``info`` and no packages: the site installs none through Pyodide."""
    info = json.loads((pyodide.folder / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    return json.dumps({"info": info, "packages": {}}, sort_keys=True).encode()


def engine_files(pyodide: Pyodide) -> tuple[str, dict[str, bytes], dict[str, Path]]:
    """The folder name under ``assets/pyodide/`` (version and content hash), the files made for the site and
    the files copied as npm installed them."""
    made = {"python_stdlib.zip": site_stdlib(pyodide), "pyodide-lock.json": site_lock(pyodide)}
    copied = {path.name: path for path in pyodide.files() if path.name not in made}
    digest = hashlib.sha256()
    for name in sorted([*made, *copied]):
        digest.update(name.encode())
        digest.update(made[name] if name in made else copied[name].read_bytes())
    return f"{pyodide.version}-{digest.hexdigest()[:8]}", made, copied


def rules_zip(package_root: Path) -> bytes:
    """``carddb/core`` (with ``carddb/__init__.py`` and ``carddb/errors.py``), every game plugin's engine modules
    and an ``entry_points.txt`` that registers them, as a reproducible zip.

    The browser unpacks it on ``sys.path``, so ``carddb.core.play.registry`` finds the same plugins there through
    ``importlib.metadata`` as on the command line; a sixth game's package is shipped as installed. Made again only
    when one of those files or the plugins changed (``carddb.incremental.remembered``): every site build asks for it,
    and zipping it took a tenth of the build of a site whose one card was added."""
    import zlib

    from carddb.incremental import code_digest, digest, file_digest, remembered

    plugin_files = engine_plugin_files()
    key = digest("rules-zip", code_digest(), str(package_root), plugin_entry_points(), zlib.ZLIB_RUNTIME_VERSION,
                 sorted((name, file_digest(path)) for name, path in plugin_files.items()))
    return remembered(key, lambda: _rules_zip(package_root, plugin_files))


def _rules_zip(package_root: Path, plugin_files: dict[str, Path]) -> bytes:
    files = {p: package_root / p for p in PACKAGE_FILES}
    for folder in PACKAGE_DIRS:
        files |= {path.relative_to(package_root).as_posix(): path
                  for path in sorted((package_root / folder).rglob("*.py"))}
    files |= plugin_files
    members = {name: path.read_bytes() for name, path in files.items()}
    name = ENGINE_DIST.split("-")[0]
    members[f"{ENGINE_DIST}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n".encode()
    members[f"{ENGINE_DIST}/entry_points.txt"] = plugin_entry_points().encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, _FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name])
    return buffer.getvalue()


def plugin_entry_points() -> str:
    """The ``carddb.games`` entry points of this installation, as an ``entry_points.txt``."""
    lines = [f"[{ENTRY_POINT_GROUP}]"]
    lines += [f"{entry.name} = {entry.value}" for entry in
              sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)]
    return "\n".join(lines) + "\n"


def engine_plugin_files() -> dict[str, Path]:
    """Each plugin's engine modules and the ``__init__.py`` of every package above them, by their path in the zip
    (``carddb/games/ssq/turn.py``, ``sixth_game/play.py``)."""
    files: dict[str, Path] = {}
    for found in plugins().values():
        for module in found.engine_modules:
            parts = module.split(".")
            for depth in range(1, len(parts) + 1):
                name = ".".join(parts[:depth])
                spec = importlib.util.find_spec(name)
                if spec is None or spec.origin is None:
                    raise InputError(f"the play helpers of {found.game} name {module}, which is not installed")
                origin = Path(spec.origin)
                inside = "/".join(parts[:depth]) + ("/__init__.py" if origin.name == "__init__.py" else ".py")
                files[inside] = origin
    return files


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def cards_json(cards: Sequence[Card]) -> str:
    return json.dumps([card.to_dict() for card in cards], ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def game_entry(game: GameDefinition, toml_file: str, cards_file: str, deck_files: dict[str, str]) -> dict:
    """One game in ``manifest.json``: what the checker page needs to fill its pickers and call the engine."""
    return {
        "id": game.id, "name": game.name, "deck_game": game.deck_game, "default_format": game.default_format,
        "formats": [{"id": f.id, "label": f.label} for f in game.formats.values()],
        "zones": {z.id: z.label for z in game.zones.values()},
        "toml": toml_file, "cards": cards_file, "decks": deck_files,
    }
