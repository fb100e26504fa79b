"""Printing proxies of a game's cards: from a deck list, a set or a whole game to checked PDF sheets.

This is what ``carddb print`` and ``carddb build`` call. It turns options into an imposition spec, resolves a
deck's lines to cards (a 4-of prints four times; what cannot be printed is listed, the rest still prints),
lays out each distinct face once with the card-face engine, and hands faces and plan to ``sheets``: vector
faces by default, or JPEG faces rendered once into ``output/sheets/.faces`` with ``raster``.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.errors import CarddbError, InputError
from carddb.files.reading import read_deck_file
from carddb.incremental import plain_name
from carddb.layout.impose import (
    CARD_SIZES,
    DEFAULT_MARGIN_MM,
    Margins,
    SheetSpec,
    auto_bleed,
    card_size,
    paper_size,
    plan_sheets,
)
from carddb.layout.printer_profile import PrinterProfile, read_profile
from carddb.paint.art_resolution import CoarseArt, coarse_art
from carddb.paint.print_options import PrintOptions
from carddb.paint.sheet_report import SheetReport

if TYPE_CHECKING:  # the drawing modules are loaded when something is drawn: a build whose PDFs are current
    from reportlab.pdfgen.canvas import Canvas  # loads neither ReportLab nor the layout engine

    from carddb.core.decks.deck import DeckEntry
    from carddb.layout import FaceLayout, TemplateSet
    from carddb.paint.sheets import SheetFace
    from carddb.workers import Pool

@dataclass
class PrintResult:
    """A written job: the sheets' report, and the lines or cards that could not be printed (and why)."""

    report: SheetReport
    not_printed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kept: bool = False  # True: the PDF of an earlier build, made from the same inputs (nothing was written)
    reasons: list[str] = field(default_factory=list)  # why a build wrote it again (``carddb build --explain``)

    def summary(self) -> str:
        lines = [self.report.summary()]
        if self.not_printed:
            lines.append(f"not printed ({len(self.not_printed)}):")
            lines.extend(f"  {item}" for item in self.not_printed)
        lines.extend(f"warning: {w}" for w in self.warnings)
        return "\n".join(lines)


def _grid(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InputError(f"grid {text!r} must be COLUMNSxROWS, like 3x3")
    return int(parts[0]), int(parts[1])


def build_spec(options: PrintOptions, game: GameDefinition | None) -> tuple[SheetSpec, PrinterProfile | None]:
    """The imposition spec for ``options`` (the game gives the default card size)."""
    profile = read_profile(options.profile) if options.profile else None
    if options.card:
        card = card_size(options.card)
    elif game is not None:
        width, height = game.card_size_mm
        preset = next((name for name, size in CARD_SIZES.items() if size == (width, height)), None)
        card = card_size(preset or f"{width}x{height}")
    else:
        card = card_size("poker")
    if options.margins is not None:
        margins = Margins.parse(options.margins)
    elif profile is not None and profile.margins is not None:
        margins = profile.margins
    else:
        margins = Margins.uniform(DEFAULT_MARGIN_MM)
    offset, rotation = (0.0, 0.0), 0.0
    if profile is not None and options.layout in ("duplex-long", "duplex-short"):
        offset, rotation = profile.back_offset, profile.back_rotation
    if options.max_mb is not None and options.max_mb <= 0:
        raise InputError(f"--max-mb must be more than 0, not {options.max_mb:g}")
    if not 72 <= options.dpi <= 1200:
        raise InputError(f"--dpi must be between 72 and 1200, not {options.dpi}")
    spec = SheetSpec(paper=paper_size(options.paper), card=card, orientation=options.orientation, margins=margins,
                     gutter=options.gutter, bleed=options.bleed or 0.0, marks=options.marks, layout=options.layout,
                     back_offset=offset, back_rotation=rotation, grid=_grid(options.grid),
                     fold_margin=options.fold_margin, header=options.header, deck_list=options.deck_list)
    if options.bleed is None:
        spec = replace(spec, bleed=auto_bleed(spec))
    return spec, profile


# ---------------------------------------------------------------------------------------------------- faces


def _vector_face(key: str, label: str, face: FaceLayout, width: float, height: float) -> SheetFace:
    from reportlab.lib.units import mm

    from carddb.paint.sheets import SheetFace
    from carddb.paint.vector import draw_face

    def draw(canvas: Canvas, x_mm: float, y_mm: float) -> None:
        if abs(face.width - width) < 1e-6 and abs(face.height - height) < 1e-6:
            draw_face(canvas, face, x_mm, y_mm)
            return
        # A card size other than the template's: the face is scaled to fill the asked size.
        canvas.saveState()
        canvas.translate(x_mm * mm, y_mm * mm)
        canvas.scale(width / face.width, height / face.height)
        draw_face(canvas, face, 0.0, 0.0)
        canvas.restoreState()

    return SheetFace(key, label, draw=draw)


def _raster_face(key: str, label: str, face: FaceLayout, folder: Path, dpi: int) -> SheetFace:
    from carddb.incremental import FACE_LAYERS, cached_file, code_digest, digest, files_digest
    from carddb.paint.raster import render_image, write_image
    from carddb.paint.sheets import SheetFace

    # The laid-out face (every operation, text already fitted), its image files' contents and the painter's code.
    made_from = digest(code_digest(FACE_LAYERS), dpi, repr(face), files_digest(sorted(set(face.images))))
    path = cached_file(made_from, lambda: _jpeg(face, dpi), ".jpg")  # inside a build: its one cache folder
    if path is None:
        path = folder / f"{slugify(key)}-{made_from[:16]}.jpg"
        if not path.is_file():
            write_image(render_image(face, dpi), path, "jpg", dpi)
    return SheetFace(key, label, image=path)


def _jpeg(face: FaceLayout, dpi: int) -> bytes:
    from carddb.paint.raster import image_bytes, render_image

    return image_bytes(render_image(face, dpi), "JPEG", dpi)


class FaceMaker:
    """Lays out (and for raster, renders) each distinct face once."""

    def __init__(self, workspace_root: str | Path, game: GameDefinition, spec: SheetSpec, *, raster: bool,
                 dpi: int, faces_dir: str | Path | None = None) -> None:
        self.root = Path(workspace_root)
        self.game = game
        self.spec = spec
        self.raster = raster
        self.dpi = dpi
        from carddb.layout.template import loaded_templates

        self.templates: TemplateSet = loaded_templates(self.root, game)
        self.folder = Path(faces_dir or self.root / "output" / "sheets" / ".faces") / slugify(game.id)
        self.faces: dict[str, SheetFace] = {}
        self.warnings: list[str] = []
        self.coarse: list[CoarseArt] = []  # art boxes under the print's resolution, one entry a box

    def _make(self, key: str, label: str, face: FaceLayout) -> SheetFace:
        if self.raster:
            return _raster_face(key, label, face, self.folder, self.dpi)
        w, h = self.spec.footprint
        return _vector_face(key, label, face, w, h)

    def front(self, card: Card) -> SheetFace:
        key = f"card:{card.key}"
        if key not in self.faces:
            face = _laid_out(self.templates, card, self.spec.bleed)
            for fit in face.overflowed:
                self.warnings.append(f"{card.key}: the text of {fit.box} does not fit even at {fit.size:g} pt")
            self.coarse += coarse_art(card.key, face, self.dpi, self._scale(face))
            self.faces[key] = self._make(key, card.key, face)
        return self.faces[key]

    def _scale(self, face: FaceLayout) -> tuple[float, float]:
        """How much the print stretches a face: its footprint on the sheet over the face's own size."""
        w, h = self.spec.footprint
        return w / face.width, h / face.height

    def back(self) -> SheetFace:
        key = "back"
        if key not in self.faces:
            from carddb.layout import layout_back

            face = layout_back(self.templates, bleed_mm=self.spec.bleed)
            self.faces[key] = replace(self._make(key, f"{self.game.name} card back", face),
                                      background=background_of(face))
        return self.faces[key]


def _laid_out(templates: TemplateSet, card: Card, bleed: float) -> FaceLayout:
    """``layout_face``, once per card, bleed and art files for as long as the templates are loaded (a card a
    build changes is in a dozen PDFs; laying it out was a third of each)."""
    from carddb.layout import layout_face

    key = f"{bleed!r}|{json.dumps(card.to_dict(), sort_keys=True, ensure_ascii=False, default=str)}"
    face, stamps = templates.layouts.get(key, lambda: _with_stamps(layout_face(templates, card, bleed_mm=bleed)))
    if stamps != _file_stamps(face.images):  # an art file changed since: laid out again
        face, stamps = _with_stamps(layout_face(templates, card, bleed_mm=bleed))
        templates.layouts.put(key, (face, stamps))
    return face


def _with_stamps(face: FaceLayout) -> tuple[FaceLayout, list[str]]:
    return face, _file_stamps(face.images)


def _file_stamps(paths: Sequence[str]) -> list[str]:
    stamps = []
    for image in sorted(set(paths)):
        try:
            stat = Path(image).stat()
            stamps.append(f"{image}:{stat.st_mtime_ns}:{stat.st_size}")
        except OSError:
            stamps.append(f"{image}:missing")
    return stamps


def background_of(face: FaceLayout) -> str | None:
    """The colour filling the whole face (bleed included), if its first operation is such a rectangle: the
    sheet draws it once under a page of backs so that abutting backs show no seam."""
    from carddb.layout import Rect as LayoutRect

    first = face.ops[0] if face.ops else None
    if isinstance(first, LayoutRect) and first.fill and first.x <= 0 and first.y <= 0 \
            and first.w >= face.width and first.h >= face.height:
        return first.fill
    return None


# ---------------------------------------------------------------------------------------------------- jobs


def print_cards(workspace_root: str | Path, game: GameDefinition, cards: Sequence[Card], out: str | Path,
                options: PrintOptions, *, title: str = "", not_printed: list[str] | None = None,
                deck_list: Sequence[str] = ()) -> PrintResult:
    """Print ``cards`` (one entry per copy, in order) to ``out``. Cards whose face cannot be laid out are
    listed as not printed; when nothing is left, nothing is written. ``deck_list`` is the text of the deck
    list page (printed when the options ask for it)."""
    with _raster_cache(workspace_root, options):
        return _print_cards(workspace_root, game, cards, out, options, title, not_printed, deck_list)


def _raster_cache(workspace_root: str | Path, options: PrintOptions) -> Any:
    """Raster faces go to the build's one cache folder (``output/.carddb/cache``, pruned by the next whole build)
    unless ``faces_dir`` names another place. A vector sheet's deflated streams are kept in the cache of the build that
    prints it (``carddb.paint.pdf_streams``), not in a cache of its own."""
    import contextlib

    from carddb.incremental import remember_in

    if not options.raster or options.faces_dir:
        return contextlib.nullcontext()
    return remember_in(Path(workspace_root) / "output" / ".carddb" / "cache", prune=False)


def _print_cards(workspace_root: str | Path, game: GameDefinition, cards: Sequence[Card], out: str | Path,
                 options: PrintOptions, title: str, not_printed: list[str] | None,
                 deck_list: Sequence[str]) -> PrintResult:
    from carddb.paint.sheets import PrintJob, write_sheets

    spec, _profile = build_spec(options, game)
    skipped = list(not_printed or [])
    maker = FaceMaker(workspace_root, game, spec, raster=options.raster, dpi=options.dpi,
                      faces_dir=options.faces_dir)
    fronts: list[SheetFace] = []
    failed: dict[str, str] = {}
    for card in cards:
        if card.key in failed:
            continue
        try:
            fronts.append(maker.front(card))
        except CarddbError as error:
            failed[card.key] = str(error).splitlines()[0]
    skipped.extend(f"{name}: {reason}" for name, reason in failed.items())
    if maker.coarse and options.strict:
        first = maker.coarse[0]
        more = f" (and {len(maker.coarse) - 1} more art under {first.target} dpi)" if len(maker.coarse) > 1 else ""
        raise InputError(f"{first.message()}{more}; --strict prints no art under the target")
    maker.warnings.extend(art.message() for art in maker.coarse)
    if not fronts:
        raise InputError("nothing to print" + (f"; {skipped[0]}" if skipped else ""))
    backs = None
    if spec.layout in ("duplex-long", "duplex-short", "fold") or (
            spec.layout == "single" and maker.templates.back is not None):
        backs = [maker.back()] * len(fronts)
    plan = plan_sheets(spec, len(fronts), backs=backs is not None)
    listing = list(deck_list) or _card_list(cards)
    if skipped:
        listing += ["", f"Not printed ({len(skipped)}):", *(f"  {item}" for item in skipped)]
    job = PrintJob(plan, fronts, backs, title=title or f"{game.name} proxies", game=game.name,
                   deck_list=tuple(listing))
    report = write_sheets(job, out, max_mb=options.max_mb)
    return PrintResult(report, skipped, maker.warnings)


def _card_list(cards: Sequence[Card]) -> list[str]:
    """The job's cards as lines of a list: ``4  Power Block``, in the order they first appear."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.key] = counts.get(card.key, 0) + 1
    return [f"{count}  {key}" for key, count in counts.items()]


def deck_lines(game: GameDefinition, text: str, filename: str = "", all_cards: Sequence[Card] = ()) -> list[str]:
    """The deck list page: each zone's cards with their counts, as the deck file lists them; with ``all_cards``, a
    line naming no card of them says it is not printed (listed with the reason under "Not printed")."""
    from carddb.core.cards.names import NameIndex
    from carddb.core.decks.parse import parse_deck

    deck = parse_deck(text, game, filename)
    index = NameIndex(all_cards, dict(game.aliases), {s.name: s.code for s in game.sets}) if all_cards else None

    def printed(entry: DeckEntry) -> bool:
        return index is None or index.resolve(entry.name, entry.qualifier, entry.set_hint).card is not None

    lines: list[str] = []
    for zone_id, total in deck.zone_counts(tuple(game.zones)).items():
        entries = [e for e in deck.entries if e.zone == zone_id]
        if not entries:
            continue
        label = game.zones[zone_id].label if zone_id in game.zones else zone_id
        if lines:
            lines.append("")
        lines.append(f"{label} ({total})")
        lines.extend(f"{entry.count}  {entry.written}" + ("" if printed(entry) else "  (not printed)")
                     for entry in entries)
    return lines


def cards_of_deck(game: GameDefinition, all_cards: Sequence[Card], text: str,
                  filename: str = "") -> tuple[list[Card], list[str]]:
    """The cards a deck list names, each as many times as its count, and the lines that cannot be printed."""
    from carddb.core.cards.names import NameIndex
    from carddb.core.decks.parse import parse_deck

    deck = parse_deck(text, game, filename)
    index = NameIndex(all_cards, dict(game.aliases), {s.name: s.code for s in game.sets})
    cards: list[Card] = []
    problems: list[str] = []
    for problem in deck.problems:
        where = f"line {problem.line}: " if problem.line else ""
        problems.append(f"{where}{problem.message}")
    for entry in deck.entries:
        found = index.resolve(entry.name, entry.qualifier, entry.set_hint)
        where = f"line {entry.line}: " if entry.line else ""
        if found.card is None:
            reason = {"unknown": "no such card", "ambiguous": "several cards have this name; add (version)",
                      "no-version": "no card of this name has that version"}.get(found.status, found.status)
            extra = f" (did you mean {', '.join(found.choices)}?)" if found.choices and found.status == "unknown" \
                else (f" ({', '.join(found.choices)})" if found.choices else "")
            problems.append(f"{where}{entry.count} {entry.written}: {reason}{extra}")
            continue
        cards.extend([found.card] * entry.count)
    return cards, problems


def print_deck(workspace_root: str | Path, game: GameDefinition, all_cards: Sequence[Card], text: str,
               out: str | Path, options: PrintOptions, *, filename: str = "") -> PrintResult:
    """Print the deck list ``text`` with its counts; lines that cannot be printed are listed, the rest prints."""
    cards, problems = cards_of_deck(game, all_cards, text, filename)
    title = Path(filename).stem if filename else f"{game.name} deck"
    return print_cards(workspace_root, game, cards, out, options, title=title, not_printed=problems,
                       deck_list=deck_lines(game, text, filename, all_cards))


def cards_of_set(game: GameDefinition, all_cards: Sequence[Card], set_code: str | None) -> list[Card]:
    """One of each card of the game, or of the set ``set_code`` (by code or name)."""
    if not set_code:
        return list(all_cards)
    wanted = set_code.casefold()
    codes = {s.code.casefold() for s in game.sets if wanted in (s.code.casefold(), s.name.casefold())}
    if not codes:
        known = ", ".join(s.code for s in game.sets) or "none"
        raise InputError(f"{game.name} has no set {set_code!r} (sets: {known})")
    return [c for c in all_cards if any(p.set.casefold() in codes for p in c.printings)]


#: What ``carddb build`` prints for every deck: (file name suffix, layout). Fronts alone for any printer (and
#: for cutting without backs), and front and back pages in turn for a printer that prints both sides.
BUILD_LAYOUTS = (("fronts", "fronts"), ("duplex-long", "duplex-long"))
#: A game of more cards than this gets its sheet of every card in numbered volumes of about half as many (15 pages of
#: nine), so one changed card prints one of them again, not a PDF of thousands of cards (``volumes``).
ALL_CARDS_VOLUME = 270


def print_game_sheets(workspace: Any, catalogue: Any, game_id: str, out_dir: str | Path,
                      options: PrintOptions | None = None, say: Callable[[str], None] | None = None, *,
                      progress: Callable[[int, int], None] | None = None,
                      pool: Pool | None = None, kit_papers: Sequence[str] = ()) -> list[PrintResult]:
    """For ``carddb build``: each sample deck of the game and one sheet of every card, into ``out_dir/<game>/``.

    Every deck prints twice, the layout in the file name: ``<deck>-fronts.pdf`` (fronts only, for any
    printer) and, when the game has a card back, ``<deck>-duplex-long.pdf`` (each front page followed by its
    backs, for a printer that turns the sheet over its long edge). The sheets have the automatic bleed, crop
    marks on fronts and backs, a header on every page and, for a deck, its list on the first page. Decks given
    in several formats (``x.txt``, ``x.dek``) print once; the decks kept to test the checker (``illegal-*``)
    are not printed. A deck that cannot be printed at all is reported through ``say`` and skipped; an error in
    the whole-game sheet is raised. ``options`` replaces the defaults (its layout is then the only one).

    ``kit_papers``: the papers the build's kit step prints each sample deck on. A deck printed again here is printed
    on those papers too, on the same processes, and kept in the build's cache only (``deck_print_key``): the kit
    step, run after this one beside the site, then finds its decks printed. The proxy sheets' own A4
    print is kept for the kit the same way.

    Incremental (``carddb.incremental``): each PDF is a part whose sources are carddb, the game, its options,
    its deck file and the face key of every card it holds; a PDF whose key is unchanged is kept, and a PDF this
    function made before but no longer makes (its deck gone) is removed. ``progress(n, m)``: PDFs written of
    those to write, on the processes of ``pool`` (the build's) when there are several.
    """
    from carddb.incremental import FACE_LAYERS, MANIFEST, Manifest, Plan, cached_path, code_sources, game_sources, short
    from carddb.paint.render import FaceKeys, digest_parts

    game = catalogue.game(game_id)
    cards = catalogue.cards(game_id)
    folder = Path(out_dir) / slugify(game_id)
    folder.mkdir(parents=True, exist_ok=True)
    has_back = (Path(workspace.root) / "templates" / game_id / "back.toml").is_file()
    if options is None:
        layouts = [(suffix, PrintOptions(layout=layout, deck_list=True)) for suffix, layout in BUILD_LAYOUTS
                   if has_back or layout == "fronts"]
    else:
        layouts = [(options.layout, options)]
    kit_deck = kit_deck_options("A4", has_back)  # a sample deck the kit prints on A4: kept in the cache for it
    kit_only = [chosen for chosen in (kit_deck_options(paper, has_back) for paper in kit_papers)
                if chosen not in [option for _, option in layouts]]  # a paper the sheets print already is shared
    kit_jobs: list[tuple[list[str], SheetJob]] = []  # the kit's prints of a deck, with the deck's own PDFs
    previous = Manifest.read(folder / MANIFEST)
    plan = Plan(previous, {**code_sources(FACE_LAYERS), **game_sources(game.raw)})
    face_keys = FaceKeys(workspace.root, game, 0, "pdf")
    back_key = face_keys.face(None)
    sheets: list[tuple[str, SheetJob]] = []

    def sheet(out: Path, chosen: PrintOptions, job_cards: Sequence[Card], recipe: Any, make: SheetJob) -> None:
        faces = short([face_keys.face(card) for card in job_cards], back_key)
        kept = previous.parts.get(out.name, {})
        files = [name for name in kept.get("files", []) if plain_name(name)]
        plan.add(out.name, {"options": short(chosen), "deck": short(recipe), "faces": faces},
                 exists=bool(files) and all((folder / name).is_file() for name in files))
        sheets.append((out.name, make))

    seen: set[str] = set()
    decks = sorted(workspace.deck_files(game_id), key=lambda p: (p.stem, p.suffix.lower() != ".txt"))
    for path in decks:
        if path.stem in seen or path.stem.startswith("illegal-"):
            continue
        seen.add(path.stem)
        try:
            text = read_deck_file(path)
            deck_cards, problems = cards_of_deck(game, cards, text, path.name)
            held = [face_keys.face(card) for card in deck_cards]
            for suffix, chosen in layouts:
                out = folder / f"{path.stem}-{suffix}.pdf"
                shared = "" if chosen != kit_deck else deck_print_key(
                    game, chosen, text, path.name, problems, held, back_key)
                sheet(out, chosen, deck_cards, ["deck", path.name, text, problems],
                      SheetJob(str(workspace.root), game, cards, out, chosen, text=text, filename=path.name,
                               shared_as=shared))
            kit_jobs += [([f"{path.stem}-{suffix}.pdf" for suffix, _ in layouts],
                          SheetJob(str(workspace.root), game, cards, folder / f"{path.stem}-kit.pdf", chosen,
                                   text=text, filename=path.name, cache_only=True, shared_as=deck_print_key(
                                       game, chosen, text, path.name, problems, held, back_key)))
                         for chosen in kit_only]
        except InputError as error:
            if say:
                say(f"{game_id}: {path.name} not printed: {str(error).splitlines()[0]}")
    volumes = card_volumes(cards)
    for number, volume in enumerate(volumes, 1):
        part = f"-{number:02d}" if len(volumes) > 1 else ""
        title = f"every card ({number} of {len(volumes)})" if part else "every card"
        for suffix, chosen in layouts:
            out = folder / f"{slugify(game_id)}-all-cards{part}-{suffix}.pdf"
            every = replace(chosen, deck_list=False)
            sheet(out, every, volume, ["every card", title], SheetJob(str(workspace.root), game, volume, out, every,
                                                                      title=title))
    if progress:
        progress(0, len(plan.todo))
    from carddb.incremental import map_with_cache_keys
    from carddb.workers import worker_pool

    todo = [job for name, job in sheets if name in plan.todo]
    for_kit = [job for names, job in kit_jobs if any(name in plan.todo for name in names)
               and cached_path(job.shared_as) is None]  # a deck whose sheets change: the kit's print changes too
    done = (lambda n: progress(min(n, len(todo)), len(todo))) if progress else None
    with worker_pool(pool) as workers:
        printed = map_with_cache_keys(workers, _print_sheet, [*todo, *for_kit], done=done)
    made = dict(zip(plan.todo, printed, strict=False))  # the kit's prints, after the sheets, are in the cache only
    results: list[PrintResult] = []
    for name, _job in sheets:
        if name not in made:
            results.append(_kept_result(folder, plan.new.parts[name]))
            continue
        result, cache_keys = made[name]
        plan.made(name, files=[path.name for path in result.report.files], pages=result.report.pages,
                  cards=result.report.cards, backs=result.report.backs, bytes=result.report.bytes,
                  not_printed=result.not_printed, warnings=result.warnings, cache_keys=cache_keys)
        result.reasons = plan.reasons[name]
        results.append(result)
    written = {name for part in plan.new.parts.values() for name in part.get("files", [])}
    gone = {name for part in previous.parts.values() for name in part.get("files", [])
            if plain_name(name) and name.endswith(".pdf")} - written
    for name in sorted(gone):  # only PDFs this function wrote itself: a user's own file is never removed
        (folder / name).unlink(missing_ok=True)
    plan.new.inputs = digest_parts(plan.new)
    if plan.changed:
        plan.new.write(folder / MANIFEST)
    else:  # nothing written: what a killed run left goes all the same
        from carddb.files.replacing import clean_leftovers

        clean_leftovers(folder)
    if progress:
        progress(len(plan.todo), len(plan.todo))
    return results


def card_volumes(cards: Sequence[Card], most: int = ALL_CARDS_VOLUME) -> list[list[Card]]:
    """``cards`` in one volume, or past ``most`` in volumes of about ``most / 2``, each ending after a card whose key's
    digest says so (one card in ``most / 2``), not after a count: an added or removed card changes the volume it is
    in, not every volume after it. A volume is cut at ``2 * most`` cards all the same (rarely: e^-4 of them)."""
    import hashlib

    if len(cards) <= most:
        return [list(cards)] if cards else []
    every = max(1, most // 2)
    volumes: list[list[Card]] = []
    current: list[Card] = []
    for card in cards:
        current.append(card)
        ends = int(hashlib.sha256(card.key.encode("utf-8")).hexdigest()[:8], 16) % every == 0
        if ends or len(current) >= 2 * most:
            volumes.append(current)
            current = []
    if current:
        volumes.append(current)
    return volumes


@dataclass
class SheetJob:
    """One PDF of ``print_game_sheets``, as data a worker process can be sent: a deck (``text``) or every card."""

    workspace_root: str
    game: GameDefinition
    cards: Sequence[Card]
    out: Path
    options: PrintOptions
    text: str | None = None
    filename: str = ""
    title: str = "every card"
    shared_as: str = ""  # a deck the kit prints too: its ``deck_print_key``, to keep the PDF in the build's cache
    cache_only: bool = False  # printed for the kit only: kept in the build's cache, no file of the sheets


def _print_sheet(job: SheetJob) -> PrintResult | None:
    if job.cache_only:  # printed beside the build's other PDFs, into a folder of its own, for the cache
        # a deck the kit cannot print on this paper is the kit step's failure to say, when it prints it itself
        with tempfile.TemporaryDirectory(prefix="carddb-kit-deck-") as folder, contextlib.suppress(CarddbError):
            _print_sheet(replace(job, out=Path(folder) / job.out.name, cache_only=False))
        return None
    if job.text is None:
        return print_cards(job.workspace_root, job.game, job.cards, job.out, job.options, title=job.title)
    result = print_deck(job.workspace_root, job.game, job.cards, job.text, job.out, job.options, filename=job.filename)
    if job.shared_as and len(result.report.files) == 1:
        from carddb.incremental import remembered

        remembered(job.shared_as, lambda: packed_print(result, result.report.files[0].read_bytes()))
    return result


def kit_deck_options(paper: str, has_back: bool) -> PrintOptions:
    """How the print-and-play kit prints a sample deck: with its deck list, both sides when the game has a back
    (the build's proxy sheets print the same on A4, and keep it for the kit: ``deck_print_key``)."""
    return PrintOptions(paper=paper, layout="duplex-long" if has_back else "fronts", deck_list=True)


def deck_print_key(game: GameDefinition, options: PrintOptions, text: str, filename: str, problems: Sequence[str],
                   faces: Sequence[str], back: str) -> str:
    """The key under which the build's cache keeps one deck file's sheets as ``print_deck`` prints them
    (``packed_print``), from what the proxy sheets key theirs by: the sheets step keeps each deck the kit prints as
    well, and the kit takes it from there instead of printing it again. ``faces``: the face key of each card the deck
    holds (``FaceKeys``), ``back`` the back's."""
    from carddb.incremental import FACE_LAYERS, code_digest, digest

    return digest("deck print", code_digest(FACE_LAYERS), game.raw, options, text, filename, list(problems),
                  list(faces), back)


def packed_print(result: PrintResult, pdf: bytes) -> bytes:
    """A printed deck as the cache keeps it: a line of what could not be printed (JSON), then its PDF."""
    import json

    said = {"not_printed": list(result.not_printed), "warnings": list(result.warnings)}
    return json.dumps(said).encode() + b"\n" + pdf


def _kept_result(folder: Path, kept: dict[str, Any]) -> PrintResult:
    """What a PDF kept from the previous build reports: the figures it had when it was written."""
    report = SheetReport(files=[folder / name for name in kept.get("files", [])], pages=int(kept.get("pages", 0)),
                         cards=int(kept.get("cards", 0)), backs=int(kept.get("backs", 0)),
                         bytes=int(kept.get("bytes", 0)))
    return PrintResult(report, list(kept.get("not_printed", [])), list(kept.get("warnings", [])), kept=True)
