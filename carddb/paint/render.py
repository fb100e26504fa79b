"""Rendering a game's faces to image files: every core, and only what changed.

A face is redrawn only when its card, its template (or what it extends, or the icons), a font file, an art
file, the DPI or the format changed: ``<out_dir>/<game>/.manifest.json`` keeps a content hash of all of
these per face (``face_key``, found without compiling a template, so an up-to-date game costs a few
milliseconds), with what the layout reported (shrunk or overflowing text, warnings) so a reused face is
reported like a drawn one. The templates are loaded (and so checked) whenever a face is drawn or any template
file of the game changed. Faces are ``<out_dir>/<game>/<stem>.<fmt>`` plus ``back.<fmt>``, the stem from
``carddb.rules.slugs.card_stems`` (readable, bounded, unique in the game); no card name can put a file
anywhere else.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carddb.errors import InputError, OutputError
from carddb.files.replacing import write_file
from carddb.incremental import file_digest, files_digest
from carddb.layout.fonts import FontBook
from carddb.layout.sources import template_files, template_sources
from carddb.paint import IMAGE_FORMATS as FORMATS
from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition
from carddb.rules.slugs import card_stems, slugify

if TYPE_CHECKING:
    from carddb.layout import TemplateSet

RENDER_VERSION = "3"  # bump when the layout engine or the painters change how the same card looks
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
    keys: dict[str, str] = field(default_factory=dict)  # face file stem -> digest of all it is drawn from


def face_path(out_dir: str | Path, game_id: str, stem: str | None, fmt: str = "png") -> Path:
    """Where a face is written: ``stem`` from ``card_stems`` (None: the game's back); always inside ``out_dir``."""
    ext = _extension(fmt)
    base, folder = _face_folder(str(out_dir), game_id)
    name = stem or BACK
    if _PLAIN_STEM.fullmatch(name):  # what card_stems makes: a plain file name, nothing to resolve
        return folder / f"{name}.{ext}"
    path = (folder / f"{name}.{ext}").resolve()
    if not path.is_relative_to(base):  # a stem from anywhere else is checked the long way
        raise OutputError(f"refusing to write {path}: outside {base}")
    return path


_PLAIN_STEM = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")


@lru_cache(maxsize=64)
def _face_folder(out_dir: str, game_id: str) -> tuple[Path, Path]:
    """The resolved output folder and the game's folder in it (resolved once: a build asks a thousand times)."""
    base = Path(out_dir).resolve()
    folder = (base / slugify(game_id)).resolve()
    if not folder.is_relative_to(base):  # the game's folder a link to elsewhere: never written through
        raise OutputError(f"refusing to write faces into {folder}: outside {base}")
    return base, folder


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
                 game_cards: Sequence[Card] | None = None, complete: bool = False) -> RenderReport:
    """Draw the faces of ``cards`` and the game's back into ``out_dir``, reusing every face that is current.

    Face file names are unique within the game: when ``cards`` are some of its cards (one set), pass all of
    them as ``game_cards`` so each face gets the name a whole-game render gives it. ``complete``: ``cards`` are
    all the game's cards, so the faces this function drew before for cards that are gone are removed (as a
    build from nothing would not have them); otherwise they are kept."""
    if not 10 <= dpi <= 2400:
        raise InputError(f"DPI must be between 10 and 2400, not {dpi}")
    ext = _extension(fmt)
    root = Path(workspace_root).resolve()
    out = Path(out_dir).resolve()
    folder = face_path(out, game.id, None, ext).parent
    stems = face_stems([*(game_cards or ()), *cards])
    report = RenderReport(game.id, out)
    manifest, kept = _read_manifest(folder / MANIFEST)
    keys = FaceKeys(root, game, dpi, ext)

    jobs: list[tuple[str, Card | None, str, Path]] = []  # (manifest key, card, content hash, path)
    for card in {card.key: card for card in cards}.values():
        path = face_path(out, game.id, stems[card.key], ext)
        jobs.append((path.stem, card, keys.face(card), path))
    jobs.append((BACK, None, keys.face(None), face_path(out, game.id, None, ext)))

    todo = []
    for stem, card, key, path in jobs:
        report.files[stem] = path
        report.keys[stem] = key
        entry = manifest.get(stem)
        if not (entry and entry.get("key") == key and path.is_file()):
            todo.append((stem, card, key, path))
    sources = keys.all_templates()
    previous = kept
    if todo or kept.get("templates") != sources:  # a template changed: load them all, so a broken one is said
        from carddb.layout.template import loaded_templates  # only now: a current game needs no Jinja or fonts

        templates = loaded_templates(root, game)
        kept = {"templates": sources, "notes": list(templates.notes)}
    report.notes = list(kept.get("notes", []))
    total = len(todo)
    if progress:
        progress(0, total)
    if todo:
        results = _draw_all(root, game, templates, todo, dpi, ext, progress, total)
    for stem, _card, key, _ in todo:
        manifest[stem] = results[stem] | {"key": key}
    drawn = {stem for stem, *_ in todo}
    for stem, card, _key, _ in jobs:  # in the cards' order, drawn or not: a build reports the same either way
        _record(report, card, manifest[stem], reused=stem not in drawn)
    faces = dict(manifest)
    if complete:  # the faces of cards gone are removed, and forgotten
        faces = {stem: manifest[stem] for stem, *_ in jobs}
        for stem in sorted(set(manifest) - set(faces)):
            (folder / f"{stem}.{ext}").unlink(missing_ok=True)
    if faces != manifest or kept != previous or todo:
        _write_manifest(folder / MANIFEST, faces, kept)
    else:  # nothing written: what a killed run left goes all the same
        from carddb.files.replacing import clean_leftovers

        clean_leftovers(folder)
    return report


def pick_card(game: GameDefinition, cards: Sequence[Card], name: str) -> Card:
    """The card called ``name`` (its name, or its key with the version: ``Splash Page (Neutral)``), ignoring case;
    an ``InputError`` naming the candidates when there is none or several."""
    import difflib

    wanted = " ".join(name.split()).casefold()
    exact = [card for card in cards if card.key.casefold() == wanted]
    found = exact or [card for card in cards if card.name.casefold() == wanted]
    if len(found) == 1:
        return found[0]
    if found:
        raise InputError(f"{game.id} has {len(found)} cards named {name!r}: "
                         f"{', '.join(card.key for card in found)}; name one of them")
    close = difflib.get_close_matches(name, [card.key for card in cards], n=3, cutoff=0.6)
    raise InputError(f"{game.id} has no card {name!r}" + (f" (did you mean {', '.join(close)}?)" if close else ""))


def preview_face(workspace_root: str | Path, game: GameDefinition, cards: Sequence[Card], name: str,
                 out_dir: str | Path, *, dpi: int = 300, fmt: str = "png") -> tuple[RenderReport, Path]:
    """``carddb render --card``: the face of one card drawn at once (if it changed), and where it is."""
    card = pick_card(game, cards, name)
    report = render_faces(workspace_root, game, [card], out_dir, dpi=dpi, fmt=fmt, game_cards=cards)
    return report, face_path(out_dir, game.id, face_stems(cards)[card.key], fmt)


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
    from carddb.layout import load_templates

    _WORKER["templates"] = load_templates(root, game)


def _draw_batch(batch: list, dpi: int, ext: str) -> list[tuple[str, dict[str, Any]]]:
    return [_draw_one(_WORKER["templates"], task, dpi, ext) for task in batch]


def _draw_one(templates: TemplateSet, task: tuple[str, Card | None, str], dpi: int,
              ext: str) -> tuple[str, dict[str, Any]]:
    from carddb.layout import layout_back, layout_face
    from carddb.paint.raster import render_image, write_image

    stem, card, path = task
    face = layout_back(templates) if card is None else layout_face(templates, card)
    image = render_image(face, dpi)
    write_image(image, Path(path), FORMATS[ext], dpi)
    fits = [[f.box, f.size, f.wanted, f.overflow] for f in face.fits if f.size < f.wanted or f.overflow]
    problems = [[p.box, p.rule, p.message] for p in face.problems]
    return stem, {"fits": fits, "warnings": list(face.warnings), "problems": problems}


# -- cache keys -------------------------------------------------------------------------------------------
_TEMPLATE_KEYS: dict[tuple[str, str, str | None, str], str] = {}


class FaceKeys:
    """The key of each face of a game: a digest of the card, the files of its kind's template, the fonts, its
    art file, the game's names, the DPI and the format. Found without compiling any template; every writer that
    shows a face (sheets, exports, the site) keys its own work on it."""

    def __init__(self, workspace_root: str | Path, game: GameDefinition, dpi: int = 300, ext: str = "png") -> None:
        self.root = Path(workspace_root).resolve()
        self.game = game
        game_part = [game.id, game.name, [[s.code, s.name, s.mark] for s in game.sets],
                     {k: v.label for k, v in game.kinds.items()}]
        self.common = hashlib.sha256(json.dumps([RENDER_VERSION, dpi, ext, files_digest(FontBook().files()),
                                                 game_part], sort_keys=True).encode()).hexdigest()
        self._templates: dict[str | None, str] = {}

    def template(self, kind: str | None) -> str:
        if kind not in self._templates:
            # which files a kind's template extends is read from them: known again while none of them changed
            known = (str(self.root), self.game.id, kind, self.all_templates())
            if known not in _TEMPLATE_KEYS:
                if len(_TEMPLATE_KEYS) > 512:
                    _TEMPLATE_KEYS.clear()
                _TEMPLATE_KEYS[known] = files_digest(template_sources(self.root, self.game.id, kind))
            self._templates[kind] = _TEMPLATE_KEYS[known]
        return self._templates[kind]

    def all_templates(self) -> str:
        """Every template file of the game (any of them can break loading them all)."""
        return files_digest(template_files(self.root, self.game.id), self.root)

    def face(self, card: Card | None) -> str:
        if card is None:
            return hashlib.sha256(f"{self.common}|back|{self.template(None)}".encode()).hexdigest()
        art = card.get("art", "") or ""
        art_hash = _art_digest(self.root, card.game, art) if art else ""
        data = json.dumps(card.to_dict(), sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(f"{self.common}|{self.template(card.kind)}|{art_hash}|{data}".encode()).hexdigest()


def _art_digest(root: Path, game_id: str, art: str) -> str:
    for candidate in (root / "rules" / game_id / art, root / art):
        if candidate.is_file():
            return file_digest(candidate.resolve())
    return "missing"


def _read_manifest(path: Path) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The faces of the manifest at ``path`` and what it keeps of the templates (their digest, their notes)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, {}  # no manifest or a damaged one: everything is drawn again
    if not isinstance(data, dict) or data.get("version") != RENDER_VERSION:
        return {}, {}
    faces = data.get("faces")
    kept = data.get("templates")
    return (faces if isinstance(faces, dict) else {}), (kept if isinstance(kept, dict) else {})


def _write_manifest(path: Path, faces: dict[str, dict[str, Any]], kept: dict[str, Any]) -> None:
    write_file(path, json.dumps({"version": RENDER_VERSION, "faces": faces, "templates": kept}, indent=1,
                                sort_keys=True))


__all__ = ["FaceKeys", "FaceProblem", "RenderReport", "face_path", "face_stems", "pick_card", "preview_face",
           "render_faces"]
