"""Fonts: the files both painters draw with, their metrics, and per-character fallback.

The main family is Bitstream Vera (shipped inside ReportLab, so it installs with the project); Noto Sans
(the ``fontpkg-noto-sans`` package) covers what Vera lacks (Greek, Cyrillic, most Latin extensions, the
euro sign...). A character neither font has is replaced by U+FFFD (a visible diamond question mark) and
reported, so nothing is ever drawn as an empty box. A game adds styles of its own in
``templates/<game>/fonts.toml`` (``game_styles``): a display family installed as a wheel (the ``fontpkg-*``
packages: Google Fonts' OFL families on PyPI) or a TrueType file in the workspace, with Noto Sans behind it
for any character it lacks. Metrics are read with fontTools from the same files
the painters use; widths are unhinted advances without kerning, which is what ReportLab draws and what the
raster painter reproduces by placing every word at its computed position.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from pathlib import Path

import fontpkg_noto_sans
import reportlab

from carddb.errors import TemplateError

_VERA = Path(reportlab.__file__).parent / "fonts"
_NOTO = Path(fontpkg_noto_sans.__file__).parent / "files"

#: Style name -> the chain of files tried in order for each character.
BUILTIN_STYLES: dict[str, tuple[Path, ...]] = {
    "regular": (_VERA / "Vera.ttf", _NOTO / "NotoSans[wdth,wght].ttf"),
    "bold": (_VERA / "VeraBd.ttf", _NOTO / "NotoSans[wdth,wght].ttf"),
    "italic": (_VERA / "VeraIt.ttf", _NOTO / "NotoSans-Italic[wdth,wght].ttf"),
    "bold-italic": (_VERA / "VeraBI.ttf", _NOTO / "NotoSans-Italic[wdth,wght].ttf"),
}
REPLACEMENT = "\ufffd"
GAME_FONTS = "fonts.toml"
_STYLE_NAME = re.compile(r"[a-z][a-z0-9-]{0,30}")
_PACKAGE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def game_styles(workspace_root: str | Path, game_id: str) -> dict[str, tuple[Path, ...]]:
    """The styles ``templates/<game>/fonts.toml`` names: ``display = "lilita-one"`` (the installed package
    ``fontpkg-lilita-one``) or ``display = "fonts/Title.ttf"`` (a file in the workspace). Only files are looked
    for (no font is opened): a face's cache key is found with this. A mistake is a ``TemplateError``."""
    root = Path(workspace_root).resolve()
    path = root / "templates" / game_id / GAME_FONTS
    if not path.is_file():
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TemplateError(f"{path}: not a readable TOML file ({exc})") from None
    styles: dict[str, tuple[Path, ...]] = {}
    for name, value in table.items():
        if not _STYLE_NAME.fullmatch(name):
            raise TemplateError(f"{path}: {name!r} is not a style name (lower-case letters, digits and -)")
        if not isinstance(value, str) or not value.strip():
            raise TemplateError(f"{path}: {name}: give a font package (\"lilita-one\") or a .ttf file in the "
                                f"workspace, not {value!r}")
        styles[name] = (_font_file(root, path, name, value.strip()),)
    return styles


def _font_file(root: Path, where: Path, name: str, value: str) -> Path:
    if value.lower().endswith((".ttf", ".otf")):
        file = (root / value).resolve()
        if not file.is_relative_to(root) or not file.is_file():
            raise TemplateError(f"{where}: {name}: no font file {value!r} inside the workspace")
        return file
    if not _PACKAGE.fullmatch(value):
        raise TemplateError(f"{where}: {name}: {value!r} is neither a font package name nor a .ttf file")
    package = f"fontpkg-{value}"
    spec = importlib.util.find_spec(package.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        raise TemplateError(f"{where}: {name}: the font package {package} is not installed "
                            f"(pip install {package})")
    files = sorted((Path(spec.submodule_search_locations[0]) / "files").glob("*.ttf"))
    static = [f for f in files if "[" not in f.name]  # a variable font draws only its default instance
    chosen = next((f for f in static if f.stem.endswith("-Regular")), None) or (static or files or [None])[0]
    if chosen is None:
        raise TemplateError(f"{where}: {name}: the font package {package} holds no TrueType file")
    return chosen


@dataclass(frozen=True)
class FontMetrics:
    """One font file's metrics, in em (multiply by the size in points to get points)."""

    path: str
    advances: dict[int, float]
    ascent: float
    descent: float
    cap_height: float

    def has(self, char: str) -> bool:
        return ord(char) in self.advances

    def width(self, text: str) -> float:
        # the advances summed in the text's order, looked up without a Python loop (faces ask thousands of times)
        return sum(map(self.advances.get, map(ord, text), repeat(0.5, len(text))))


#: What a font file was (its modification time and size) when this process read it, by path: a long ``build
#: --watch`` or ``site serve`` reads a font again when a designer saves a new one over it (``forget_changed_fonts``).
_READ_AS: dict[str, tuple[int, int] | None] = {}
#: What else keeps a font file's contents in this process (the painters' loaded fonts): forgotten with the metrics.
_ALSO_FORGET: list[Callable[[], None]] = []


def _file_version(path: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def also_forget(forget: Callable[[], None]) -> None:
    """Have ``forget`` run whenever a font file this process read has changed (a painter's cache of loaded
    fonts, by path)."""
    _ALSO_FORGET.append(forget)


def forget_changed_fonts() -> bool:
    """Forget every font this process read when any of their files changed since: the next face is laid out and
    drawn from the file as it is, as a clean build would (the build calls this before it starts; its drawing
    processes are forked after). Whether any had changed."""
    if all(_file_version(path) == version for path, version in _READ_AS.items()):
        return False
    _READ_AS.clear()
    font_metrics.cache_clear()
    for forget in _ALSO_FORGET:
        forget()
    return True


@cache
def font_metrics(path: str) -> FontMetrics:
    _READ_AS[path] = _file_version(path)
    try:
        from fontTools.ttLib import TTFont  # here: listing the font files (a face's cache key) needs no fontTools

        font = TTFont(path, lazy=True)
        upm = font["head"].unitsPerEm
        hmtx = font["hmtx"].metrics
        advances = {code: hmtx[name][0] / upm for code, name in font.getBestCmap().items()}
        hhea = font["hhea"]
        cap = getattr(font["OS/2"], "sCapHeight", 0) if "OS/2" in font else 0
        if not cap and "glyf" in font and "H" in font.getGlyphOrder():
            glyph = font["glyf"]["H"]
            cap = getattr(glyph, "yMax", 0)
        font.close()
    except Exception as exc:  # fontTools raises many kinds for a broken file
        raise TemplateError(f"{path}: not a usable TrueType font ({exc})") from None
    return FontMetrics(path, advances, hhea.ascent / upm, -hhea.descent / upm, (cap or 0.7 * upm) / upm)


class FontBook:
    """The styles a template may name, each a chain of font files, and character-to-file resolution."""

    #: Words a book remembers the runs of: a game's vocabulary many times over (a few hundred bytes each).
    RUNS_KEPT = 8192

    def __init__(self, extra: dict[str, tuple[Path, ...]] | None = None) -> None:
        self.styles: dict[str, tuple[str, ...]] = {k: tuple(str(p) for p in v) for k, v in BUILTIN_STYLES.items()}
        fallback = self.styles["regular"][1:]
        for name, files in (extra or {}).items():  # a game's own style (or one it replaces), Noto behind it
            self.styles[name] = tuple(str(p) for p in files) + fallback
        # (text, style) -> its runs and the characters no font has: a book's styles never change, and the faces of
        # a game set the same words again and again
        self._runs: dict[tuple[str, str], tuple[tuple[tuple[str, str, float], ...], frozenset[str]]] = {}

    def files(self) -> list[str]:
        """Every font file in use (its content is part of a face's cache key)."""
        return sorted({f for chain in self.styles.values() for f in chain})

    def main(self, style: str) -> FontMetrics:
        return font_metrics(self.chain(style)[0])

    def chain(self, style: str) -> tuple[str, ...]:
        try:
            return self.styles[style]
        except KeyError:
            raise TemplateError(f"unknown font style {style!r} (styles: {', '.join(self.styles)})") from None

    def runs(self, text: str, style: str, missing: set[str] | None = None) -> list[tuple[str, str, float]]:
        """Split ``text`` into (text, font file, width in em) runs, each character from the first font having it.

        Characters no font has become U+FFFD and are added to ``missing``.
        """
        known = self._runs.get((text, style))
        if known is None:
            lacking: set[str] = set()
            known = (tuple(self._split(text, style, lacking)), frozenset(lacking))
            if len(self._runs) >= self.RUNS_KEPT:
                self._runs.clear()
            self._runs[(text, style)] = known
        if missing is not None:
            missing.update(known[1])
        return list(known[0])

    def _split(self, text: str, style: str, missing: set[str]) -> list[tuple[str, str, float]]:
        chain = [font_metrics(p) for p in self.chain(style)]
        out: list[tuple[str, str, float]] = []
        cur_font: FontMetrics | None = None
        buf: list[str] = []
        for ch in text:
            font = next((f for f in chain if f.has(ch)), None)
            if font is None:
                missing.add(ch)
                ch = REPLACEMENT
                font = next((f for f in chain if f.has(ch)), chain[-1])
            if font is not cur_font and buf:
                out.append(("".join(buf), cur_font.path, cur_font.width("".join(buf))))  # type: ignore[union-attr]
                buf = []
            cur_font = font
            buf.append(ch)
        if buf and cur_font is not None:
            out.append(("".join(buf), cur_font.path, cur_font.width("".join(buf))))
        return out
