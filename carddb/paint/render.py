"""Rendering a game's faces to image files: every core, and only what changed.

A face is redrawn only when its card, its template (or what it extends, or the icons), a font file, an art
file, the DPI or the format changed: ``<out_dir>/<game>/.manifest.json`` keeps a content hash of all of
these per face (``face_key``, found without compiling a template, so an up-to-date game costs a few
milliseconds), with what the layout reported (shrunk or overflowing text, warnings) so a reused face is
reported like a drawn one. The templates are loaded (and so checked) whenever a face is drawn or any template
file of the game changed. Faces are ``<out_dir>/<game>/<stem>.<fmt>`` plus ``back.<fmt>``, the stem from
``carddb.core.cards.slugs.card_stems`` (readable, bounded, unique in the game); no card name can put a file
anywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import card_stems, slugify
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError, OutputError
from carddb.incremental import MANIFEST as INPUTS_FILE
from carddb.incremental import Memo, file_digest, files_digest
from carddb.layout.fonts import FontBook, game_styles
from carddb.layout.icon_set import icon_set_file
from carddb.layout.sources import template_files, template_sources
from carddb.paint import IMAGE_FORMATS as FORMATS
from carddb.workers import Pool

if TYPE_CHECKING:
    from carddb.layout import TemplateSet

MANIFEST = INPUTS_FILE
_OLD_MANIFEST = ".manifest.json"
BACK = "back"
#: Fewer faces than this are drawn in the build's own process: a worker loads the templates again (0.3 s).
POOL_MIN_FACES = 16
#: Faces a render that starts its own workers draws first in its own process: the workers, forked after, start
#: with the frames, symbols, textures and words of those faces drawn (each worker drew them all again).
WARM_FACES = 24
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
    reasons: dict[str, list[str]] = field(default_factory=dict)  # face file stem drawn -> what changed


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
    """Card key -> the stem of its face file (``carddb.core.cards.slugs.card_stems``; never ``back``)."""
    return card_stems(card.key for card in cards)


def _extension(fmt: str) -> str:
    key = fmt.lower()
    if key not in FORMATS:
        raise InputError(f"unknown image format {fmt!r} (use png or jpg)")
    return "jpg" if key in ("jpg", "jpeg") else "png"


def render_faces(workspace_root: str | Path, game: GameDefinition, cards: Sequence[Card], out_dir: str | Path, *,
                 dpi: int = 300, fmt: str = "png", progress: Progress | None = None,
                 game_cards: Sequence[Card] | None = None, complete: bool = False,
                 pool: Pool | None = None) -> RenderReport:
    """Draw the faces of ``cards`` and the game's back into ``out_dir``, reusing every face that is current.

    Face file names are unique within the game: when ``cards`` are some of its cards (one set), pass all of
    them as ``game_cards`` so each face gets the name a whole-game render gives it. ``complete``: ``cards`` are
    all the game's cards, so the faces this function drew before for cards that are gone are removed (as a
    build from nothing would not have them); otherwise they are kept. ``pool`` draws on the build's processes."""
    from carddb.incremental import Manifest, Plan

    if not 10 <= dpi <= 2400:
        raise InputError(f"DPI must be between 10 and 2400, not {dpi}")
    ext = _extension(fmt)
    root = Path(workspace_root).resolve()
    out = Path(out_dir).resolve()
    folder = face_path(out, game.id, None, ext).parent
    stems = face_stems([*(game_cards or ()), *cards])
    report = RenderReport(game.id, out)
    previous = Manifest.read(folder / MANIFEST)
    keys = FaceKeys(root, game, dpi, ext)
    plan = Plan(previous, keys.common_sources())

    jobs: list[tuple[str, Card | None, Path]] = []  # (part name: the file stem, card, path)
    for card in {card.key: card for card in cards}.values():
        jobs.append((stems[card.key], card, face_path(out, game.id, stems[card.key], ext)))
    jobs.append((BACK, None, face_path(out, game.id, None, ext)))
    for stem, card, path in jobs:
        report.files[stem] = path
        report.keys[stem] = plan.add(stem, keys.card_sources(card), exists=path.is_file())
    if not complete:  # faces of cards not asked for now stay, as they were
        for stem, entry in previous.parts.items():
            plan.new.parts.setdefault(stem, entry)
    todo = [(stem, card, path) for stem, card, path in jobs if stem in plan.todo]
    report.reasons = {stem: plan.reasons[stem] for stem, *_ in todo}
    sources = f"{keys.all_templates()}|{keys.common['icon set']}"  # the notes say whether the icon set is there
    kept = previous.report
    if todo or kept.get("templates") != sources:  # a template changed: load them all, so a broken one is said
        from carddb.layout.template import loaded_templates  # only now: a current game needs no Jinja or fonts

        templates = loaded_templates(root, game)
        kept = {"templates": sources, "notes": list(templates.notes)}
    plan.new.report = kept
    report.notes = list(kept.get("notes", []))
    total = len(todo)
    if progress:
        progress(0, total)
    if todo:
        results = _draw_all(root, game, todo, dpi, ext, progress, total, pool)
        for stem, *_ in todo:
            plan.made(stem, **results[stem])
    for stem, card, _ in jobs:  # in the cards' order, drawn or not: a build reports the same either way
        _record(report, card, plan.new.parts[stem], reused=stem not in plan.todo)
    for stem in plan.gone() if complete else ():  # the faces of cards gone are removed, and forgotten
        (folder / f"{stem}.{ext}").unlink(missing_ok=True)
    (folder / _OLD_MANIFEST).unlink(missing_ok=True)  # what carddb 0.1 kept there
    plan.new.inputs = digest_parts(plan.new)
    if plan.changed or kept != previous.report:
        plan.new.write(folder / MANIFEST)
    else:  # nothing written: what a killed run left goes all the same
        from carddb.files.replacing import clean_leftovers

        clean_leftovers(folder)
    return report


def digest_parts(manifest: Any) -> str:
    """The digest of a whole step: every part's key."""
    from carddb.incremental import digest

    return digest(sorted((name, entry.get("key")) for name, entry in manifest.parts.items()))


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
def _draw_all(root: Path, game: GameDefinition, todo: list, dpi: int, ext: str, progress: Progress | None,
              total: int, pool: Pool | None) -> dict[str, dict[str, Any]]:
    from carddb.workers import batches, worker_pool

    tasks = [(stem, card, str(path)) for stem, card, path in todo]
    results: dict[str, dict[str, Any]] = {}
    here = tasks if len(tasks) < POOL_MIN_FACES else tasks[:WARM_FACES] if pool is None else []
    if here:
        from carddb.layout.template import loaded_templates

        templates = loaded_templates(root, game)
        for task in here:
            stem, entry = _draw_one(templates, task, dpi, ext)
            results[stem] = entry
            if progress:
                progress(len(results), total)
    rest = tasks[len(here):]
    if not rest:
        return results
    with worker_pool(pool) as workers:
        work = [(str(root), game, batch, dpi, ext) for batch in batches(rest, workers.size)]
        ends = [len(here) + sum(len(job[2]) for job in work[:n + 1]) for n in range(len(work))]
        done = (lambda n: progress(ends[n - 1], total)) if progress else None
        drawn = workers.map(_draw_batch, work, done=done)
    return results | {stem: entry for batch in drawn for stem, entry in batch}


def _draw_batch(job: tuple[str, GameDefinition, list, int, str]) -> list[tuple[str, dict[str, Any]]]:
    from carddb.layout.template import loaded_templates  # once a process while the templates are unchanged

    root, game, batch, dpi, ext = job
    templates = loaded_templates(root, game)
    return [_draw_one(templates, task, dpi, ext) for task in batch]


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
#: The sections of a game definition that the layout engine never reads (the template sees a card's fields,
#: its kind and set, and the game's id and name): a change to a deck rule redraws no face. Any other section,
#: a new one included, is part of every face's key.
NOT_ON_FACES = ("zones", "copies", "modifiers", "sum_caps", "checks", "compatibility", "readings", "aliases",
                "booster", "lackey", "apprentice", "dice", "turn", "play", "playtest")
_TEMPLATE_KEYS: Memo[tuple[str, str, str | None, str], str] = Memo(512)


class FaceKeys:
    """The key of each face of a game, from its named sources: carddb's layout and painting code and the
    libraries, the fonts, the DPI and format, every section of the game definition a face can show, and per face
    the card, the files of its kind's template (what it extends, the icons) and its art file. Found without
    compiling any template; every writer that shows a face (sheets, exports, the site) keys its own work on it."""

    def __init__(self, workspace_root: str | Path, game: GameDefinition, dpi: int = 300, ext: str = "png") -> None:
        from carddb.incremental import FACE_LAYERS, code_sources, game_sources, short

        self.root = Path(workspace_root).resolve()
        self.game = game
        fonts = FontBook(game_styles(self.root, game.id)).files()  # the game's own display fonts too
        self.common = {**code_sources(FACE_LAYERS), "fonts": short(files_digest(fonts)),
                       "icon set": short(file_digest(icon_set_file(self.root))),  # "missing" when not installed
                       "resolution": f"{dpi} dpi {ext}", **game_sources(game.raw, NOT_ON_FACES)}
        self._templates: dict[str | None, str] = {}
        self._cards: dict[str, dict[str, str]] = {}  # card key -> its sources: one instance, one catalogue read
        self._keys: dict[str | None, str] = {}  # card key (None: the back) -> its face's key

    def common_sources(self) -> dict[str, str]:
        return dict(self.common)

    def template(self, kind: str | None) -> str:
        if kind not in self._templates:
            from carddb.incremental import short

            # which files a kind's template extends is read from them: known again while none of them changed
            known = (str(self.root), self.game.id, kind, self.all_templates())
            self._templates[kind] = _TEMPLATE_KEYS.get(known, lambda: short(files_digest(
                template_sources(self.root, self.game.id, kind))))
        return self._templates[kind]

    def all_templates(self) -> str:
        """Every template file of the game (any of them can break loading them all)."""
        return files_digest(template_files(self.root, self.game.id), self.root)

    def card_sources(self, card: Card | None) -> dict[str, str]:
        """What one face is drawn from beyond the common sources (None: the back)."""
        from carddb.incremental import short

        if card is None:
            return {"template files": self.template(None)}
        known = self._cards.get(card.key)
        if known is None:
            known = {"card": short(card.to_dict()), "template files": self.template(card.kind)}
            art = card.get("art", "") or ""
            if art:
                known["art"] = _art_digest(self.root, card.game, art)[:32]
            self._cards[card.key] = known
        return dict(known)

    def face(self, card: Card | None) -> str:
        from carddb.incremental import sources_key

        name = None if card is None else card.key
        if name not in self._keys:
            self._keys[name] = sources_key(self.common, self.card_sources(card))
        return self._keys[name]


def _art_digest(root: Path, game_id: str, art: str) -> str:
    for candidate in (root / "rules" / game_id / art, root / art):
        if candidate.is_file():
            return file_digest(candidate.resolve())
    return "missing"


__all__ = ["FaceKeys", "FaceProblem", "RenderReport", "face_path", "face_stems", "pick_card", "preview_face",
           "render_faces"]
