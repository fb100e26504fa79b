"""Rendering a game's faces to image files: every core, and only what changed.

A face is redrawn only when its card, its template (or what it extends, or the icons), a font file, an art
file, the DPI or the format changed: ``<out_dir>/<game>/.manifest.json`` keeps a content hash of all of
these per face, with what the layout reported (shrunk or overflowing text, warnings) so a reused face is
reported like a drawn one. Faces are ``<out_dir>/<game>/<stem>.<fmt>`` plus ``back.<fmt>``, the stem from
``carddb.rules.slugs.card_stems`` (readable, bounded, unique in the game); no card name can put a file
anywhere else.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from carddb.errors import InputError, OutputError
from carddb.files.replacing import write_file
from carddb.layout import FaceLayout, TemplateSet, layout_back, layout_face, load_templates
from carddb.paint.raster import FORMATS, render_image, write_image
from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition
from carddb.rules.slugs import card_stems, slugify

RENDER_VERSION = "2"  # bump when the layout engine or the painters change how the same card looks
MANIFEST = ".manifest.json"
BACK = "back"
IN_PROCESS_MAX = 4  # fewer faces than this are drawn without starting worker processes
Progress = Callable[[int, int], None]


@dataclass
class Fitting:
    card: str
    box: str
    size: float
    wanted: float


@dataclass
class FaceProblem:
    """A legibility rule a face breaks (``carddb.layout.ops.Problem``), with the card it is on."""

    card: str
    box: str
    rule: str
    message: str


@dataclass
class RenderReport:
    game: str
    out_dir: Path
    drawn: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    shrunk: list[Fitting] = field(default_factory=list)
    overflowed: list[Fitting] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)
    problems: list[FaceProblem] = field(default_factory=list)  # the layout report: what --strict fails on
    notes: list[str] = field(default_factory=list)  # template sizes raised to their role's floor


def face_path(out_dir: str | Path, game_id: str, stem: str | None, fmt: str = "png") -> Path:
    """Where a face is written: ``stem`` from ``card_stems`` (None: the game's back); always inside ``out_dir``."""
    ext = _extension(fmt)
    base = Path(out_dir).resolve()
    path = (base / slugify(game_id) / f"{stem or BACK}.{ext}").resolve()
    if not path.is_relative_to(base):  # stems are [a-z0-9-] so this cannot happen; keep the promise checkable
        raise OutputError(f"refusing to write {path}: outside {base}")
    return path


def face_stems(cards: Sequence[Card]) -> dict[str, str]:
    """Card key -> the stem of its face file (``carddb.rules.slugs.card_stems``; never ``back``)."""
    return card_stems(card.key for card in cards)


def _extension(fmt: str) -> str:
    key = fmt.lower()
    if key not in FORMATS:
        raise InputError(f"unknown image format {fmt!r} (use png or jpg)")
    return "jpg" if key in ("jpg", "jpeg") else "png"


def render_faces(workspace_root: str | Path, game: GameDefinition, cards: Sequence[Card], out_dir: str | Path, *,
                 dpi: int = 300, fmt: str = "png", progress: Progress | None = None,
                 game_cards: Sequence[Card] | None = None) -> RenderReport:
    """Draw the faces of ``cards`` and the game's back into ``out_dir``, reusing every face that is current.

    Face file names are unique within the game: when ``cards`` are some of its cards (one set), pass all of
    them as ``game_cards`` so each face gets the name a whole-game render gives it.
    """
    if not 10 <= dpi <= 2400:
        raise InputError(f"DPI must be between 10 and 2400, not {dpi}")
    ext = _extension(fmt)
    root = Path(workspace_root).resolve()
    templates = load_templates(root, game)
    out = Path(out_dir).resolve()
    folder = face_path(out, game.id, None, ext).parent
    stems = face_stems([*(game_cards or ()), *cards])
    report = RenderReport(game.id, out, notes=list(templates.notes))
    manifest = _read_manifest(folder / MANIFEST)
    common = _common_key(game, templates, dpi, ext)

    jobs: list[tuple[str, Card | None, str, Path]] = []  # (manifest key, card, content hash, path)
    for card in {card.key: card for card in cards}.values():
        path = face_path(out, game.id, stems[card.key], ext)
        jobs.append((path.stem, card, _card_key(common, templates, card, root), path))
    jobs.append((BACK, None, hashlib.sha256(f"{common}|{templates.digest(None)}".encode()).hexdigest(),
                 face_path(out, game.id, None, ext)))

    todo = []
    for stem, card, key, path in jobs:
        report.files[stem] = path
        entry = manifest.get(stem)
        if entry and entry.get("key") == key and path.is_file():
            _record(report, card, entry, reused=True)
        else:
            todo.append((stem, card, key, path))
    total = len(todo)
    if progress:
        progress(0, total)
    results = _draw_all(root, game, templates, todo, dpi, ext, progress, total)
    for stem, card, key, _ in todo:
        entry = results[stem] | {"key": key}
        manifest[stem] = entry
        _record(report, card, entry, reused=False)
    _write_manifest(folder / MANIFEST, manifest)
    return report


def _record(report: RenderReport, card: Card | None, entry: dict[str, Any], *, reused: bool) -> None:
    label = card.key if card is not None else "(card back)"
    (report.reused if reused else report.drawn).append(label)
    for box, size, wanted, overflow in entry.get("fits", []):
        target = report.overflowed if overflow else report.shrunk
        target.append(Fitting(label, box, size, wanted))
    report.warnings.extend(entry.get("warnings", []))
    report.problems.extend(FaceProblem(label, box, rule, message) for box, rule, message in entry.get("problems", []))


# -- drawing ----------------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _draw_all(root: Path, game: GameDefinition, templates: TemplateSet, todo: list, dpi: int, ext: str,
              progress: Progress | None, total: int) -> dict[str, dict[str, Any]]:
    tasks = [(stem, card, str(path)) for stem, card, _, path in todo]
    results: dict[str, dict[str, Any]] = {}
    workers = min(os.cpu_count() or 1, max(1, len(tasks) // 8))
    if len(tasks) < IN_PROCESS_MAX or workers == 1:
        for task in tasks:
            stem, entry = _draw_one(templates, task, dpi, ext)
            results[stem] = entry
            if progress:
                progress(len(results), total)
        return results
    chunk = max(1, min(16, len(tasks) // (workers * 4)))
    batches = [tasks[i:i + chunk] for i in range(0, len(tasks), chunk)]
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(str(root), game)) as pool:
        futures = [pool.submit(_draw_batch, batch, dpi, ext) for batch in batches]
        for future in as_completed(futures):
            for stem, entry in future.result():
                results[stem] = entry
            if progress:
                progress(len(results), total)
    return results


def _init_worker(root: str, game: GameDefinition) -> None:
    _WORKER["templates"] = load_templates(root, game)


def _draw_batch(batch: list, dpi: int, ext: str) -> list[tuple[str, dict[str, Any]]]:
    return [_draw_one(_WORKER["templates"], task, dpi, ext) for task in batch]


def _draw_one(templates: TemplateSet, task: tuple[str, Card | None, str], dpi: int,
              ext: str) -> tuple[str, dict[str, Any]]:
    stem, card, path = task
    face: FaceLayout = layout_back(templates) if card is None else layout_face(templates, card)
    image = render_image(face, dpi)
    write_image(image, Path(path), FORMATS[ext], dpi)
    fits = [[f.box, f.size, f.wanted, f.overflow] for f in face.fits if f.size < f.wanted or f.overflow]
    problems = [[p.box, p.rule, p.message] for p in face.problems]
    return stem, {"fits": fits, "warnings": list(face.warnings), "problems": problems}


# -- cache keys -------------------------------------------------------------------------------------------
def _common_key(game: GameDefinition, templates: TemplateSet, dpi: int, ext: str) -> str:
    game_part = [game.id, game.name, [[s.code, s.name, s.mark] for s in game.sets],
                 {k: v.label for k, v in game.kinds.items()}]
    return hashlib.sha256(json.dumps([RENDER_VERSION, dpi, ext, _fonts_digest(tuple(templates.fonts.files())),
                                      game_part], sort_keys=True).encode()).hexdigest()


def _card_key(common: str, templates: TemplateSet, card: Card, root: Path) -> str:
    art = card.get("art", "") or ""
    art_hash = _art_digest(root, card.game, art) if art else ""
    data = json.dumps(card.to_dict(), sort_keys=True, ensure_ascii=False, default=str)
    tpl = templates.digest(card.kind) if card.kind in templates.faces else f"missing:{card.kind}"
    return hashlib.sha256(f"{common}|{tpl}|{art_hash}|{data}".encode()).hexdigest()


@cache
def _fonts_digest(files: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in files:
        digest.update(_file_digest(name, *_stat(name)).encode())
    return digest.hexdigest()


def _art_digest(root: Path, game_id: str, art: str) -> str:
    for candidate in (root / "rules" / game_id / art, root / art):
        if candidate.is_file():
            return _file_digest(str(candidate.resolve()), *_stat(str(candidate)))
    return "missing"


def _stat(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


@cache
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_manifest(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # no manifest or a damaged one: everything is drawn again
    faces = data.get("faces") if isinstance(data, dict) else None
    return faces if isinstance(faces, dict) else {}


def _write_manifest(path: Path, faces: dict[str, dict[str, Any]]) -> None:
    write_file(path, json.dumps({"version": RENDER_VERSION, "faces": faces}, indent=1, sort_keys=True))


__all__ = ["FaceProblem", "RenderReport", "face_path", "face_stems", "render_faces"]
