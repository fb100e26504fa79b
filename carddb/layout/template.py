"""Card face templates: ``templates/<game>/<kind>.toml`` read, checked and compiled.

The format is documented for designers in ``docs/templates.md``. Loading is fail-closed: an unknown key, a
shape that does not exist, a Jinja2 syntax error, a field the game does not declare, or a palette that
does not exist is a ``TemplateError`` naming the file and the line.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined, TemplateSyntaxError, nodes
from jinja2.sandbox import SandboxedEnvironment

from carddb.core.cards.card import COMMON_KEYS, PRINTING_KEYS
from carddb.core.game.definition import GameDefinition
from carddb.errors import TemplateError
from carddb.incremental import Memo
from carddb.layout.fonts import GAME_FONTS, FontBook, also_forget, game_styles
from carddb.layout.icon_set import PACKAGE, IconSet, load_icon_set, mtime_key
from carddb.layout.icons import IconDef, load_icons
from carddb.layout.ornaments import ORNAMENTS
from carddb.layout.reminders import Reminder, load_reminders
from carddb.layout.roles import ROLES, default_role, floor
from carddb.layout.sources import template_files

#: Keys every shape takes, then each shape's own keys.
COMMON_BOX_KEYS = {"name", "shape", "when", "at"}
SHAPE_KEYS: dict[str, set[str]] = {
    "rect": {"fill", "fill_to", "fade", "stroke", "stroke_width", "radius"},
    "ellipse": {"fill", "stroke", "stroke_width"},
    "line": {"points", "colour", "width"},
    "polygon": {"points", "fill", "stroke", "stroke_width"},
    "text": {"text", "font", "size", "min_size", "colour", "align", "valign", "leading", "wrap", "padding", "role",
             "reminder"},
    "art": {"placeholder", "motif", "stroke", "stroke_width", "symbol", "symbol_colour"},
    "frame": {"corner", "corner_size", "fill", "stroke", "stroke_width", "rule", "rule_inset", "rule_width",
              "ornament", "ornament_colour", "ornament_size"},
    "texture": {"pattern", "colour", "scale", "radius"},
    "icon": {"icon", "colour"},
    "icons": {"icons", "colour", "align", "gap"},
    "emblem": {"text", "colour", "fill", "stroke"},
}
TOP_KEYS = {"extends", "size", "background", "palettes", "symbols", "box"}
#: Names a template may read besides ``card.<field>``.
CONTEXT_NAMES = {"card", "game", "set", "pick", "symbol", "reminders", "true", "false", "none", "True", "False", "None",
                 "loop", "range", "dict", "namespace", "joiner", "cycler", "lipsum"}
CARD_EXTRA_KEYS = {"slug", "key", "qualifier", "kind_label"}

_ENV = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False,
                            finalize=lambda v: "" if v is None else v)


@dataclass
class Box:
    name: str
    shape: str
    where: str  # "file:line" for messages
    at: tuple[float, float, float, float]
    values: dict[str, Any]  # plain values
    exprs: dict[str, Any] = field(default_factory=dict)  # compiled Jinja templates
    when: Any = None  # compiled Jinja expression
    points: tuple[tuple[float, float], ...] = ()


@dataclass
class Template:
    path: Path
    kind: str
    size: tuple[float, float]
    background: Any  # str or compiled template
    palettes: dict[str, dict[str, str]]
    boxes: list[Box]
    digest: str  # content hash of this file and what it extends
    symbols: dict[str, dict[str, str]] = field(default_factory=dict)  # table -> value -> icon name (game-icons)


@dataclass
class TemplateSet:
    game: GameDefinition
    root: Path
    faces: dict[str, Template]
    back: Template | None
    icons: dict[str, IconDef]
    fonts: FontBook
    icon_digest: str = ""
    reminders: tuple[Reminder, ...] = ()
    notes: list[str] = field(default_factory=list)  # template sizes raised to their role's floor
    #: faces already laid out with these templates (``carddb.paint.print_job``): a card in ten PDFs of a
    #: build is laid out once, as long as the templates (and so this object) are unchanged
    layouts: Memo[str, Any] = field(default_factory=lambda: Memo(4096), repr=False, compare=False)

    @property
    def draws_symbols(self) -> bool:
        """Whether a card of the game can show a symbol of game-icons.net (the set installed, a template naming one):
        what the game's prints and kits then credit."""
        boxes = [box for tpl in [*self.faces.values(), *([self.back] if self.back else [])] for box in tpl.boxes]
        return self.icon_set is not None and any(_draws_icon(box) for box in boxes)

    @property
    def icon_set(self) -> IconSet | None:
        """game-icons.net's set as installed in the workspace (``icon_set``), or None."""
        return load_icon_set(self.root)

    def template_for(self, kind: str) -> Template:
        try:
            return self.faces[kind]
        except KeyError:
            where = self.root / "templates" / self.game.id / f"{kind}.toml"
            raise TemplateError(f"{where}: no template for {self.game.id} cards of kind {kind!r}") from None

    def digest(self, kind: str | None) -> str:
        """A hash of everything a face of ``kind`` (None: the back) is drawn from, apart from the card."""
        tpl = self.back if kind is None else self.faces.get(kind)
        return hashlib.sha256(f"{tpl.digest if tpl else ''}|{self.icon_digest}".encode()).hexdigest()

    def role(self, box: Box) -> str:
        """The box's role: written in the template, or the default for its name and wrapping."""
        return str(box.values.get("role") or default_role(box.name, box.values.get("wrap", True) is not False))


def load_templates(workspace_root: str | Path, game: GameDefinition) -> TemplateSet:
    """Every template of ``game`` in ``<workspace_root>/templates/<game.id>/``, checked and compiled."""
    root = Path(workspace_root)
    folder = root / "templates" / game.id
    if not folder.is_dir():
        raise TemplateError(f"{folder}: no templates for game {game.id!r}")
    icons, icon_digest = load_icons([root / "templates" / "icons.toml", folder / "icons.toml"])
    reminders, reminder_digest = load_reminders(folder / "reminders.toml")
    icon_digest = hashlib.sha256(f"{icon_digest}|{reminder_digest}".encode()).hexdigest()
    faces: dict[str, Template] = {}
    back = None
    for path in sorted(folder.glob("*.toml")):
        stem = path.stem
        if stem.startswith("_") or path.name == GAME_FONTS or stem in ("icons", "reminders"):
            continue
        if stem != "back" and stem not in game.kinds:
            raise TemplateError(f"{path}: {game.id} has no card kind {stem!r} "
                                f"(kinds: {', '.join(game.kinds)}; the card back is back.toml)")
        tpl = _load(path, stem, game, icons)
        if stem == "back":
            back = tpl
        else:
            faces[stem] = tpl
    every = [*faces.values(), *([back] if back else [])]
    notes = sorted({note for tpl in every for note in _floor_notes(tpl)})
    symbols = [box.where for tpl in every for box in tpl.boxes if _draws_icon(box)]
    if symbols and load_icon_set(root) is None:  # said once: every face without art would say it again
        notes.append(f"{symbols[0]}: symbols are drawn from the icon set {PACKAGE}, which is not installed (run "
                     f"`npm ci --prefix {root / 'site'}`); cards without art get the generated placeholder, frames "
                     f"no ornament of the set")
    fonts = FontBook(game_styles(root, game.id))
    return TemplateSet(game, root, faces, back, icons, fonts, icon_digest, reminders, notes)


def _draws_icon(box: Box) -> bool:
    """Whether the box draws from game-icons.net's set: an art box's symbol, or a frame's ornament named by icon."""
    if box.shape == "frame":
        return "ornament" in box.exprs or str(box.values.get("ornament", "none")) not in ORNAMENTS
    return "symbol" in box.values or "symbol" in box.exprs


_LOADED: Memo[str, TemplateSet] = Memo(16)  # a long watch keeps only the recent ones
# A font file saved over: the template sets go too (what they laid out was measured with the font as it was).
also_forget(_LOADED.clear)


def loaded_templates(workspace_root: str | Path, game: GameDefinition) -> TemplateSet:
    """``load_templates``, done once for as long as the game and its template files are unchanged (a build lays
    out faces for a dozen PDFs and the site of a game; compiling its templates took a third of each)."""
    from carddb.incremental import digest, files_digest

    root = Path(workspace_root).resolve()
    key = digest(str(root), game.id, game.raw, files_digest(template_files(root, game.id)), mtime_key(root))
    return _LOADED.get(key, lambda: load_templates(root, game))


def _floor_notes(tpl: Template) -> list[str]:
    """A note for every literal size of a text box under its role's floor (the engine draws it at the floor)."""
    notes = []
    for box in tpl.boxes:
        if box.shape != "text":
            continue
        role = str(box.values.get("role") or default_role(box.name, box.values.get("wrap", True) is not False))
        for key in ("size", "min_size"):
            value = box.values.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool) and value < floor(role):
                notes.append(f"{box.where}: {box.name} asks for {key} {value:g} pt, under the {floor(role):g} pt "
                             f"floor for {role} text; it is drawn at {floor(role):g} pt at the least")
    return notes


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TemplateError(f"{path}: template not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateError(f"{path}: cannot be read ({exc})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TemplateError(f"{path}: not valid TOML ({exc})") from None


def _load(path: Path, kind: str, game: GameDefinition, icons: dict[str, IconDef],
          seen: tuple[Path, ...] = ()) -> Template:
    text, raw = _read(path)
    lines = _LineFinder(text)
    for key in raw:
        if key not in TOP_KEYS:
            raise TemplateError(f"{path}:{lines.top(key)}: unknown key {key!r} (keys: {', '.join(sorted(TOP_KEYS))})")
    digest = hashlib.sha256(text.encode()).hexdigest()
    base: Template | None = None
    if "extends" in raw:
        parent = (path.parent / str(raw["extends"])).resolve()
        if parent in seen or parent == path.resolve():
            raise TemplateError(f"{path}:{lines.top('extends')}: extends itself through {parent.name}")
        if parent.parent != path.parent.resolve():
            raise TemplateError(f"{path}:{lines.top('extends')}: may only extend a file in the same folder")
        base = _load(parent, kind, game, icons, (*seen, path.resolve()))
        digest = hashlib.sha256(f"{base.digest}|{digest}".encode()).hexdigest()
    palettes = dict(base.palettes) if base else {}
    for name, table in raw.get("palettes", {}).items():
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise TemplateError(f"{path}:{lines.table(f'palettes.{name}')}: palette {name!r} must map values "
                                f"to colours like \"#c62f26\"")
        palettes[name] = {str(k).casefold(): _colour_literal(v, path, lines.table(f"palettes.{name}"))
                          for k, v in table.items()}
    symbols = dict(base.symbols) if base else {}
    for name, table in raw.get("symbols", {}).items():
        where = f"{path}:{lines.table(f'symbols.{name}')}"
        if not isinstance(table, dict) or not all(isinstance(v, str) and _ICON_NAME.match(v) for v in table.values()):
            raise TemplateError(f"{where}: symbols {name!r} must map values to icon names of game-icons.net, "
                                f"like \"crossed-swords\"")
        symbols[name] = {str(k).casefold(): v for k, v in table.items()}
    size = base.size if base else game.card_size_mm
    if "size" in raw:
        size = _numbers(raw["size"], 2, f"{path}:{lines.top('size')}", "size")  # type: ignore[assignment]
    checker = _Checker(game, palettes, icons, symbols)
    background: Any = base.background if base else "#ffffff"
    if "background" in raw:
        background = checker.compile(raw["background"], f"{path}:{lines.top('background')}")
    boxes = list(base.boxes) if base else []
    raw_boxes = raw.get("box", [])
    if not isinstance(raw_boxes, list):
        raise TemplateError(f"{path}:{lines.top('box')}: boxes are written [[box]]")
    for i, item in enumerate(raw_boxes):
        box = _box(item, i, path, lines, checker)
        same = [j for j, b in enumerate(boxes) if "name" in item and b.name == box.name]
        if same:  # a box named like one of the template it extends replaces it, in its place
            boxes[same[0]] = box
        else:
            boxes.append(box)
    return Template(path, kind, (float(size[0]), float(size[1])), background, palettes, boxes, digest, symbols)


def _box(item: dict[str, Any], index: int, path: Path, lines: _LineFinder, checker: _Checker) -> Box:
    where = f"{path}:{lines.box(index)}"
    shape = item.get("shape")
    if shape not in SHAPE_KEYS:
        raise TemplateError(f"{where}: box needs a shape, one of {', '.join(SHAPE_KEYS)} (got {shape!r})")
    allowed = COMMON_BOX_KEYS | SHAPE_KEYS[shape]
    for key in item:
        if key not in allowed:
            raise TemplateError(f"{path}:{lines.box(index, key)}: unknown key {key!r} for a {shape} box "
                                f"(keys: {', '.join(sorted(allowed))})")
    name = str(item.get("name", f"{shape}{index + 1}"))
    at = (0.0, 0.0, 0.0, 0.0)
    points: tuple[tuple[float, float], ...] = ()
    if shape in ("line", "polygon"):
        raw_points = item.get("points")
        if not isinstance(raw_points, list) or len(raw_points) < 2:
            raise TemplateError(f"{path}:{lines.box(index, 'points')}: points must be a list of [x, y] pairs")
        points = tuple(tuple(_numbers(p, 2, where, "points")) for p in raw_points)  # type: ignore[misc]
    else:
        if "at" not in item:
            raise TemplateError(f"{where}: box {name!r} needs at = [left, top, width, height] in mm")
        at = _numbers(item["at"], 4, f"{path}:{lines.box(index, 'at')}", "at")  # type: ignore[assignment]
    if "role" in item and item["role"] not in ROLES:
        raise TemplateError(f"{path}:{lines.box(index, 'role')}: role must be one of {', '.join(ROLES)}, "
                            f"got {item['role']!r}")
    box = Box(name, shape, where, at, {})
    for key, value in item.items():
        if key in ("name", "shape", "at", "points"):
            continue
        key_where = f"{path}:{lines.box(index, key)}"
        if key == "when":
            box.when = checker.expression(value, key_where)
        elif isinstance(value, str) and ("{{" in value or "{%" in value):
            box.exprs[key] = checker.compile(value, key_where)
        else:
            box.values[key] = value
    box.points = points
    return box


def _numbers(value: Any, count: int, where: str, key: str) -> tuple[float, ...]:
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise TemplateError(f"{where}: {key} must be a list of {count} numbers (millimetres)")
    return tuple(float(v) for v in value)


_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_ICON_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _colour_literal(value: str, path: Path, line: int) -> str:
    if not _HEX.match(value):
        raise TemplateError(f"{path}:{line}: {value!r} is not a colour; write it as \"#rrggbb\"")
    return value.lower()


class _Checker:
    """Compiles Jinja2 text, naming file and line on a syntax error, an unknown field or palette."""

    def __init__(self, game: GameDefinition, palettes: dict[str, dict[str, str]], icons: dict[str, IconDef],
                 symbols: dict[str, dict[str, str]]):
        self.fields = set(COMMON_KEYS) | set(PRINTING_KEYS) | set(game.fields) | CARD_EXTRA_KEYS
        self.palettes = palettes
        self.symbols = symbols
        self.game = game

    def compile(self, source: Any, where: str) -> Any:
        if not isinstance(source, str):
            return source
        if "{{" not in source and "{%" not in source:
            return source
        self._check(source, where)
        return _ENV.from_string(source)

    def expression(self, source: Any, where: str) -> Any:
        if not isinstance(source, str):
            raise TemplateError(f"{where}: when must be an expression such as \"card.damage\"")
        text = source.strip()
        if text.startswith("{{") and text.endswith("}}"):
            text = text[2:-2]
        self._check("{{ " + text + " }}", where)
        return _ENV.compile_expression(text, undefined_to_none=False)

    def _check(self, source: str, where: str) -> None:
        file, _, line = where.rpartition(":")
        try:
            tree = _ENV.parse(source)
        except TemplateSyntaxError as exc:
            raise TemplateError(f"{file}:{int(line) + (exc.lineno or 1) - 1}: template syntax error: "
                                f"{exc.message}") from None
        stored = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
        for node in tree.find_all(nodes.Name):
            if node.ctx == "load" and node.name not in CONTEXT_NAMES and node.name not in stored:
                raise TemplateError(f"{file}:{int(line) + node.lineno - 1}: unknown name {node.name!r} "
                                    f"(use card.<field>, game, set or pick)")
        for node in tree.find_all(nodes.Getattr):
            if isinstance(node.node, nodes.Name) and node.node.name == "card" and node.attr not in self.fields:
                raise TemplateError(f"{file}:{int(line) + node.lineno - 1}: unknown field card.{node.attr} "
                                    f"({self.game.id} fields: {', '.join(sorted(self.game.fields))})")
        for node in tree.find_all(nodes.Call):
            if (isinstance(node.node, nodes.Name) and node.node.name == "pick" and node.args
                    and isinstance(node.args[0], nodes.Const) and node.args[0].value not in self.palettes):
                raise TemplateError(f"{file}:{int(line) + node.lineno - 1}: no palette {node.args[0].value!r} "
                                    f"(palettes: {', '.join(self.palettes) or 'none'})")
            if (isinstance(node.node, nodes.Name) and node.node.name == "symbol" and node.args
                    and isinstance(node.args[0], nodes.Const) and node.args[0].value not in self.symbols):
                raise TemplateError(f"{file}:{int(line) + node.lineno - 1}: no symbols table {node.args[0].value!r} "
                                    f"(tables: {', '.join(self.symbols) or 'none'})")


class _LineFinder:
    """Line numbers of keys in TOML text (tomllib keeps none): top-level keys, tables and [[box]] entries."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.box_starts = [i for i, ln in enumerate(self.lines) if ln.strip().startswith("[[box]]")]

    def _key_line(self, key: str, start: int, stop: int) -> int | None:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for i in range(start, stop):
            if pattern.match(self.lines[i]):
                return i + 1
        return None

    def top(self, key: str) -> int:
        stop = next((i for i, ln in enumerate(self.lines) if ln.strip().startswith("[")), len(self.lines))
        return self._key_line(key, 0, stop) or self.table(key)

    def table(self, name: str) -> int:
        for i, ln in enumerate(self.lines):
            if ln.strip().strip("[]").strip() == name:
                return i + 1
        return 1

    def box(self, index: int, key: str | None = None) -> int:
        if index >= len(self.box_starts):
            return 1
        start = self.box_starts[index]
        if key is None:
            return start + 1
        stop = next((i for i in range(start + 1, len(self.lines)) if self.lines[i].strip().startswith("[")),
                    len(self.lines))
        return self._key_line(key, start + 1, stop) or start + 1
