"""The printing engine the site ships for the browser: what ``carddb print`` runs, as one zip the Pyodide worker
unpacks next to ``carddb/core`` on the first print.

It holds carddb's layout, painting and page-checking layers, the pure-Python libraries they import (ReportLab,
Jinja2, MarkupSafe without its C speed-up, fontTools, pypdf), the fonts the faces are drawn with (Bitstream Vera
from ReportLab, Noto Sans from ``fontpkg-noto-sans``, the games' display fonts their ``fonts.toml`` names), and the
workspace's face templates. The libraries are
copied from the environment the site is built in (their ``.py`` files and data, no compiled extension), so
the browser prints with the versions the command line prints with; nothing comes from another host. The icons of
game-icons.net a template can draw as a card's symbol (every name its files spell that the installed set has) come
too, cut from the set in its own format to where the engine looks for it.

Pillow is the one library of the command line's printing that cannot come along: it is a compiled extension,
and no WebAssembly build of it can be fetched from the package registries. Vector printing needs it only to
read card art; the bundle carries a stand-in ``PIL`` that refuses to open images, so in the browser a card's
art is drawn as the generated placeholder (and reported), and raster (JPEG) sheets are not offered.
"""

from __future__ import annotations

import importlib.util
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from carddb.layout.icon_set import FOLDER, subset

#: carddb's own modules the printing path imports, beyond the rules bundle.
CARDDB_PARTS = ("carddb/layout", "carddb/paint", "carddb/files", "carddb/catalogue/__init__.py",
                "carddb/site/__init__.py", "carddb/site/browser_print.py", "carddb/incremental.py",
                "carddb/workers.py")
#: Third-party packages, each with the parts of it that printing uses (None: all of it).
LIBRARIES: dict[str, tuple[str, ...] | None] = {
    "reportlab": ("__init__.py", "rl_config.py", "rl_settings.py", "lib", "pdfbase", "pdfgen", "fonts/Vera.ttf",
                  "fonts/VeraBd.ttf", "fonts/VeraIt.ttf", "fonts/VeraBI.ttf", "fonts/bitstream-vera-license.txt"),
    "jinja2": None,
    "markupsafe": None,
    "fontTools": ("__init__.py", "config", "misc", "ttLib", "pens", "encodings", "unicode.py", "agl.py",
                  "unicodedata", "annotations.py"),
    "pypdf": None,
    "fontpkg_noto_sans": None,
}
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # what an icon's name may be, as a template spells it
_SKIPPED_SUFFIXES = (".so", ".pyd", ".pyc", ".pyx", ".c", ".pxd", ".dylib")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)

#: A stand-in for Pillow (see the module's docstring): ReportLab and the art reader import it; nothing in vector
#: printing without art calls it.
PIL_STANDIN = {
    "PIL/__init__.py": '"""Stand-in for Pillow in the browser (carddb.site.print_bundle): images cannot be read."""\n'
                       '__version__ = "0"\n',
    "PIL/Image.py": '"""Stand-in for Pillow in the browser: opening an image fails (art becomes a placeholder)."""\n'
                    "MAX_IMAGE_PIXELS = None\n\n\n"
                    "class Image:\n    pass\n\n\n"
                    "class DecompressionBombWarning(RuntimeWarning):\n    pass\n\n\n"
                    "class DecompressionBombError(Exception):\n    pass\n\n\n"
                    "def open(fp, mode='r', formats=None):\n"
                    "    raise OSError('card art cannot be read in the browser (no Pillow for WebAssembly here)')\n",
}


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{name} is not installed: the site's printing engine needs it")
    return Path(next(iter(spec.submodule_search_locations)))


def _files_under(base: Path, parts: Iterable[str] | None) -> Iterator[Path]:
    tops = [base] if parts is None else [base / p for p in parts]
    for top in tops:
        candidates = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in candidates:
            if path.is_file() and "__pycache__" not in path.parts and not path.name.endswith(_SKIPPED_SUFFIXES):
                yield path


def _game_font_files(workspace_root: Path, game_ids: Iterable[str]) -> list[Path]:
    from carddb.layout.fonts import game_styles

    return sorted({file for game in game_ids for files in game_styles(workspace_root, game).values() for file in files})


def _font_packages(workspace_root: Path, game_ids: Iterable[str]) -> dict[str, None]:
    """The ``fontpkg-*`` packages the games' ``fonts.toml`` name, each whole (its font, licence and metadata)."""
    packages = {}
    for file in _game_font_files(workspace_root, game_ids):
        package = file.parent.parent  # <package>/files/<font>.ttf
        if package.name.startswith("fontpkg_") and file.parent.name == "files":
            packages[package.name] = None
    return packages


def _workspace_fonts(workspace_root: Path, game_ids: Iterable[str]) -> list[Path]:
    """The font files of the workspace itself that a game's ``fonts.toml`` names."""
    root = workspace_root.resolve()
    return [file for file in _game_font_files(workspace_root, game_ids) if file.is_relative_to(root)]


#: zlib's default level: level 9 took twice the time (1.18 against 0.56 s of CPU for the five games' bundle) for
#: 0.3 % fewer bytes, paid by every build that makes the bundle anew (a clean build, a changed template)
ZIP_LEVEL = 6


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, _FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data, compresslevel=ZIP_LEVEL)


def print_zip(package_root: Path, workspace_root: Path, game_ids: Iterable[str]) -> bytes:
    """The printing engine as a reproducible zip: packages at its top, the workspace under ``workspace/`` (made
    again only when carddb, a library or a template changed: ``carddb.incremental.remembered``)."""
    from carddb.incremental import code_digest, digest, file_digest, remembered, tree_digest

    games = sorted(set(game_ids))
    from carddb.layout.icon_set import icon_set_file

    key = digest("print-zip", code_digest(), str(package_root), tree_digest(workspace_root / "templates"), games,
                 file_digest(icon_set_file(workspace_root)))
    return remembered(key, lambda: _print_zip(package_root, workspace_root, games))


def _print_zip(package_root: Path, workspace_root: Path, game_ids: Iterable[str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for part in CARDDB_PARTS:
            for path in _files_under(package_root, [part]):
                if path.suffix == ".py":
                    _add(archive, path.relative_to(package_root).as_posix(), path.read_bytes())
        for name, parts in {**LIBRARIES, **_font_packages(workspace_root, game_ids)}.items():
            base = _package_dir(name)
            for path in _files_under(base, parts):
                _add(archive, f"{name}/{path.relative_to(base).as_posix()}", path.read_bytes())
        for name, text in PIL_STANDIN.items():
            _add(archive, name, text.encode())
        for path in _workspace_fonts(workspace_root, game_ids):
            _add(archive, f"workspace/{path.relative_to(workspace_root.resolve()).as_posix()}", path.read_bytes())
        templates = workspace_root / "templates"
        wanted = set(game_ids)
        words: set[str] = set()
        for path in _files_under(templates, None):
            relative = path.relative_to(templates)
            if len(relative.parts) == 1 or relative.parts[0] in wanted:  # shared files and the games' own
                _add(archive, f"workspace/templates/{relative.as_posix()}", path.read_bytes())
                words.update(_WORD.findall(path.read_text(encoding="utf-8", errors="replace").casefold()))
        icons = subset(workspace_root, words)
        if icons is not None:
            _add(archive, "workspace/" + "/".join((*FOLDER, "icons.json")), icons)
    return buffer.getvalue()
