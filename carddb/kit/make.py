"""``make_kit``: the whole print-and-play kit of a game, as ``<game>-kit.pdf`` and its parts, checked, then
written together (all the files or none).

The parts, in the kit's order: the cover, the checklist, the rulebook (or its booklet), the quick-reference
cards, the cards (each deck fronts and backs, as ``carddb print`` makes them), the tuck box and the pieces.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.units import mm

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import slugify
from carddb.core.game.components import Components, parse_components
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError, TemplateError
from carddb.kit import style
from carddb.kit.check import check_area, check_book, check_tuck_box, raise_if
from carddb.kit.decks import Deck, deck_of_file, sample_decks
from carddb.kit.pages import (
    PaintBack,
    PartLine,
    checklist,
    cover,
    pieces_sheets,
    reference_sheet,
    tuck_box_sheet,
)
from carddb.kit.pieces import piece_blocks, reference_lines
from carddb.kit.rulebook import Rulebook, credits_line, typeset_rulebook
from carddb.kit.tuckbox import DEFAULT_SLEEVES, DEFAULT_STOCK, STOCKS, TuckBox, tuck_box

if TYPE_CHECKING:
    from carddb.paint.print_options import PrintOptions
    from carddb.paint.render import FaceKeys

#: The steps ``progress`` is told of as each begins, in order ("pieces" when the game declares some).
KIT_STEPS = ("rulebook", "quick reference", "cards", "tuck box", "pieces", "checking")


@dataclass(frozen=True)
class KitOptions:
    paper: str = "A4"
    booklet: bool = False
    stock: str = DEFAULT_STOCK
    sleeves: str = DEFAULT_SLEEVES


@dataclass
class KitResult:
    """What ``make_kit`` wrote: the kit's file, each part's file and page count, and what could not be printed."""

    kit: Path
    parts: list[tuple[str, Path, int]] = field(default_factory=list)  # title, file, pages
    pages: int = 0
    not_printed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"{self.kit}: {self.pages} pages, checked"]
        lines += [f"  {title}: {path.name} ({pages} page{'s' if pages != 1 else ''})" for title, path, pages in
                  self.parts]
        return "\n".join(lines)


@dataclass
class _Part:
    key: str
    title: str
    pdf: bytes
    paper: str
    sides: str
    copies: str
    then: str
    pages: int = 0


def _pages(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def _back_painter(root: Path, game: GameDefinition) -> PaintBack | None:
    """Paints the game's card back, as the proxy sheets draw it, into a rectangle (keeping its proportions)."""
    from carddb.layout.impose import SheetSpec
    from carddb.paint.print_job import FaceMaker, build_spec
    from carddb.paint.print_options import PrintOptions

    spec: SheetSpec
    spec, _ = build_spec(PrintOptions(bleed=0.0), game)
    maker = FaceMaker(root, game, spec, raster=False, dpi=300)
    if maker.templates.back is None:
        return None
    face = maker.back()
    face_w, face_h = spec.footprint
    assert face.draw is not None

    def paint(c: object, x: float, y: float, w: float, h: float) -> None:
        scale = min(w / (face_w * mm), h / (face_h * mm))
        c.saveState()
        c.translate(x + (w - face_w * mm * scale) / 2, y + (h - face_h * mm * scale) / 2)
        c.scale(scale, scale)
        face.draw(c, 0.0, 0.0)
        c.restoreState()

    return paint


def _print_decks(root: Path, game: GameDefinition, cards: Sequence[Card], decks: Sequence[Deck], paper: str,
                 has_back: bool) -> tuple[bytes, int, list[str], list[str]]:
    """Every deck's sheets as ``carddb print`` makes them (checked by the print job itself), one after another;
    and their number of pages."""
    from pypdf import PdfReader, PdfWriter

    from carddb.paint.print_job import kit_deck_options
    from carddb.paint.render import FaceKeys

    options = kit_deck_options(paper, has_back)
    faces = FaceKeys(root, game, 0, "pdf")
    writer = PdfWriter()
    not_printed: list[str] = []
    warnings: list[str] = []
    for deck in decks:
        pdf, said = _printed_deck(root, game, cards, deck, options, faces)
        not_printed += [f"{deck.title}: {item}" for item in said["not_printed"]]
        warnings += said["warnings"]
        writer.append(PdfReader(io.BytesIO(pdf)), import_outline=False)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue(), len(writer.pages), not_printed, warnings


def _printed_deck(root: Path, game: GameDefinition, cards: Sequence[Card], deck: Deck, options: PrintOptions,
                  faces: FaceKeys) -> tuple[bytes, dict[str, list[str]]]:
    """One deck's sheets, printed once for the same deck, options and faces (``carddb.incremental.remembered``): a
    card's edit prints again only the decks that hold it, and a sample deck the build's proxy sheets printed on A4
    is taken from them (``deck_print_key``)."""
    import json

    from carddb.incremental import FACE_LAYERS, code_digest, digest, remembered
    from carddb.paint.print_job import cards_of_deck, deck_print_key

    held = [faces.face(card) for card in deck.cards]
    if deck.text:
        problems = cards_of_deck(game, cards, deck.text, deck.filename)[1]
        key = deck_print_key(game, options, deck.text, deck.filename, problems, held, faces.face(None))
    else:
        key = digest("kit cards", code_digest(FACE_LAYERS), game.raw, options, deck.title, held, faces.face(None))
    header, _, pdf = remembered(key, lambda: _print_deck(root, game, cards, deck, options)).partition(b"\n")
    return pdf, json.loads(header)


def _print_deck(root: Path, game: GameDefinition, cards: Sequence[Card], deck: Deck, options: PrintOptions) -> bytes:
    """One deck's sheets, as the cache keeps them (``packed_print``)."""
    from pypdf import PdfReader, PdfWriter

    from carddb.paint.print_job import packed_print, print_cards, print_deck

    with tempfile.TemporaryDirectory(prefix="carddb-kit-") as folder:
        out = Path(folder) / "deck.pdf"
        if deck.text:
            result = print_deck(root, game, cards, deck.text, out, options, filename=deck.filename)
        else:
            result = print_cards(root, game, deck.cards, out, replace(options, deck_list=False), title=deck.title)
        if len(result.report.files) == 1:
            return packed_print(result, result.report.files[0].read_bytes())
        writer = PdfWriter()
        for path in result.report.files:
            writer.append(PdfReader(path), import_outline=False)
        buffer = io.BytesIO()
        writer.write(buffer)
    return packed_print(result, buffer.getvalue())


def make_kit(root: str | Path, game: GameDefinition, cards: Sequence[Card], out_dir: str | Path,
             options: KitOptions = KitOptions(), *, decks: Sequence[Deck] | None = None,
             deck_files: Sequence[Path] = (), progress: Callable[[str], None] | None = None) -> KitResult:
    """Make, check and write the kit of ``game`` into ``out_dir``. ``decks`` (default: the sample decks among
    ``deck_files``, else every card) are printed and boxed."""
    root = Path(root)
    paper = style.paper(options.paper)
    pagesize = style.PAPERS[paper]
    say = progress or (lambda _step: None)
    components: Components = game.components or parse_components(None, game.raw, game.name)
    chosen = [deck for deck in (decks if decks is not None else sample_decks(deck_files, game, cards)) if deck.cards]
    if not chosen:
        raise InputError(f"{game.id}: no card to print in the kit")
    box = tuck_box(max(len(deck.cards) for deck in chosen), game.card_size_mm, stock=options.stock,
                   sleeves=options.sleeves)
    paint_back = _back_painter(root, game)

    say("rulebook")
    book, parts, reading = _rulebook_parts(root, game, cards, components, paper, options.booklet)
    say("quick reference")
    if reference_lines(components.reference):  # a game that declares no turn and no numbers gets no blank cards
        parts.append(_Part("reference", "Quick-reference cards",
                           reference_sheet(game, components.reference, pagesize, game.card_size_mm),
                           "plain paper or cardstock", "single-sided", "1", "cut out; sleeve each in front of a "
                           "backer card"))
    say("cards")
    card_pdf, card_pages, not_printed, warnings = _print_decks(root, game, cards, chosen, paper,
                                                               paint_back is not None)
    parts.append(_Part("cards", "Cards", card_pdf, "plain paper (80-120 g/m2)",
                       "double-sided, flip on long edge" if paint_back is not None else "single-sided", "1",
                       ", ".join(f"{deck.title} ({len(deck.cards)})" for deck in chosen)
                       + "; cut on the crop marks and sleeve with a backer card", pages=card_pages))
    say("tuck box")
    parts.append(_tuck_box_part(game, box, pagesize, options, paint_back, len(chosen)))
    if components.pieces:
        say("pieces")
        sections = {heading.key: heading.text for heading in book.headings}
        blocks = piece_blocks(components.pieces, pagesize[0] / mm - 2 * style.MARGIN_MM - 4, sections)
        parts.append(_Part("pieces", "Pieces", pieces_sheets(game, blocks, pagesize), "cardstock (160-250 g/m2)",
                           "single-sided", "1", ", ".join(piece.name for piece in components.pieces) + "; cut out"))
    say("checking")
    everything = _with_cover_and_checklist(game, parts, pagesize, paper, components, chosen, options, paint_back,
                                           _credits(root, game))
    kit_pdf = _merge(game, everything, book if not options.booklet else None)
    problems = [problem for part in everything if part.key in _DRAWN_HERE
                for problem in check_area(part.pdf, style.MARGIN_MM, what=part.title, fold_rgb=_FOLD)]
    if not options.booklet:
        first = sum(part.pages for part in everything[:[part.key for part in everything].index("rulebook")])
        problems += check_book(kit_pdf, book.headings, toc=False, fold_rgb=_FOLD, copied_from=(book.pdf, first))
    raise_if(problems, f"the kit of {game.id}")
    return _write(Path(out_dir), game, everything, kit_pdf, reading, not_printed, warnings)


#: The parts the kit draws itself (the card sheets are checked by the print job that makes them).
_DRAWN_HERE = frozenset({"cover", "checklist", "booklet", "reference", "tuckbox", "pieces"})
_FOLD = style.FOLD.rgb()


def _rulebook_parts(root: Path, game: GameDefinition, cards: Sequence[Card], components: Components, paper: str,
                    booklet: bool) -> tuple[Rulebook, list[_Part], _Part | None]:
    """The rulebook typeset and checked; its part (or the booklet's), and with a booklet the reading PDF kept
    beside the kit."""
    pagesize = style.PAPERS[paper]
    book = typeset_rulebook(root, game, cards, style.BOOKLET_PAGES[paper] if booklet else pagesize,
                            margins=(12 if booklet else 18) * mm, base_size=9 if booklet else 10)
    problems = check_book(book.pdf, book.headings, toc=True, fold_rgb=_FOLD)
    problems += check_area(book.pdf, style.MARGIN_MM, what="rulebook", fold_rgb=_FOLD)
    raise_if(problems, f"the rulebook of {game.id}")
    sections = {heading.key for heading in book.headings}
    for name, rule in [(piece.name, piece.rule) for piece in components.pieces] + [
            ("reference", components.reference.rule)]:
        if rule and rule not in sections:
            raise InputError(f"{game.path}: components: {name!r} names the rule {rule!r}, which is no section of "
                             f"rules/{game.id}/{game.rulebook}")
    if not booklet:
        return book, [_Part("rulebook", "Rulebook", book.pdf, "plain paper", "single- or double-sided", "1",
                            "read it, or staple it in the corner", pages=book.pages)], None
    from carddb.kit.booklet import impose_booklet

    imposed = _Part("booklet", "Rulebook booklet", impose_booklet(book.pdf, pagesize), "plain paper",
                    "double-sided, flip on short edge", "1",
                    "fold the pile in half, staple twice on the fold (saddle stitch)")
    # The booklet's pages to read on screen, with their links and bookmarks: a file beside the kit, not in it.
    reading = _Part("rulebook", "Rulebook to read on screen", book.pdf, "-", "-", "-", "not for printing",
                    pages=book.pages)
    return book, [imposed], reading


def _tuck_box_part(game: GameDefinition, box: TuckBox, pagesize: tuple[float, float], options: KitOptions,
                   paint_back: PaintBack | None, decks: int) -> _Part:
    """The tuck box drawn, then checked: the model holds the deck, and the PDF's folds are where it puts them."""
    stock = options.stock if options.stock in STOCKS else f"{options.stock} mm a card"
    note = (f"Holds {box.cards} cards of {box.card_w:g} x {box.card_h:g} mm in {options.sleeves} sleeves "
            f"({box.held_w:g} x {box.held_h:g} mm) at {stock}: a deck {box.deck_mm:.1f} mm thick. Cut solid "
            "lines, fold dashed ones, glue the tinted flap.")
    pdf = tuck_box_sheet(game, box, pagesize, f"{box.cards} cards", note, paint_back)
    raise_if(box.problems() + check_tuck_box(pdf, box, _FOLD), f"the tuck box of {game.id}")
    return _Part("tuckbox", "Tuck box", pdf, "cardstock (160-250 g/m2)", "single-sided",
                 f"{decks} (one per deck)" if decks > 1 else "1", "cut, fold, glue the flap inside the far side")


def _credits(root: Path, game: GameDefinition) -> str:
    """The cover's credits: the game's authors, and game-icons.net's when the cards show its symbols."""
    from carddb.layout.icon_set import CREDIT
    from carddb.layout.template import loaded_templates

    try:
        symbols = loaded_templates(root, game).draws_symbols
    except TemplateError:
        symbols = False  # the cards part says what is wrong with the templates
    return credits_line(game) + (f" {CREDIT}." if symbols else "")


def _with_cover_and_checklist(game: GameDefinition, parts: list[_Part], pagesize: tuple[float, float], paper: str,
                              components: Components, decks: Sequence[Deck], options: KitOptions,
                              paint_back: PaintBack | None, credits: str) -> list[_Part]:
    """Every part in the kit's order, the cover and checklist (one page each) first, listing the others' pages."""
    for part in parts:
        part.pages = part.pages or _pages(part.pdf)  # the rulebook and the cards say theirs: no PDF read again
    lines = _lines(game, parts, first=3)
    front = [_Part("cover", "Cover", cover(game, pagesize, credits, lines, paint_back, game.card_size_mm),
                   "plain paper", "single-sided", "1", "the kit's first page", pages=1),
             _Part("checklist", "Checklist", checklist(game, pagesize, lines, _extras(components, decks, options),
                                                       _steps(options), paper),
                   "plain paper", "single-sided", "1", "tick each part as it is printed", pages=1)]
    return [*front, *parts]


def _lines(game: GameDefinition, parts: Sequence[_Part], first: int) -> list[PartLine]:
    lines, page = [], first
    for part in parts:
        lines.append(PartLine(part.title, _filename(game, part.key), page, part.pages, part.paper, part.sides,
                              part.copies, part.then))
        page += part.pages
    return lines


def _filename(game: GameDefinition, key: str) -> str:
    return f"{slugify(game.id)}-{key}.pdf"


def _extras(components: Components, decks: Sequence[Deck], options: KitOptions) -> list[str]:
    cards = sum(len(deck.cards) for deck in decks)
    extras = []
    if options.sleeves != "none":
        extras.append(f"{cards} card sleeves ({options.sleeves}) and as many backer cards (any old cards), one a card")
    for piece in components.pieces:
        if piece.template == "track":
            extras.append(f"{piece.name}: a paper clip or a bead per player to mark the value")
        elif piece.template == "mat":
            extras.append(f"{piece.name}: up to {2 * piece.params['dice']} {piece.params['die']} dice")
    extras.append("scissors or a craft knife and a metal ruler, a glue stick")
    return extras


def _steps(options: KitOptions) -> list[str]:
    steps = ["Print the parts listed above, at Actual size; check the 100 mm bar with a ruler.",
             "Cut the cards on the crop marks; sleeve each in front of a backer card.",
             "Cut out the tuck box, crease the dashed folds against a ruler, glue the tinted flap, and box the deck.",
             "Cut out the pieces and the quick-reference cards."]
    if options.booklet:
        steps.insert(1, "Fold the booklet's sheets in half together, in order, and staple them twice on the fold.")
    return steps


def _merge(game: GameDefinition, parts: Sequence[_Part], book: Rulebook | None) -> bytes:
    """The parts as one PDF, a bookmark for each part; the rulebook's own bookmarks nested under its own."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in parts:
        start = len(writer.pages)
        reader = PdfReader(io.BytesIO(part.pdf))
        if part.key == "rulebook" and book is not None:
            writer.append(reader, outline_item=part.title, import_outline=True)
            writer.set_page_label(start, start + part.pages - 1, style="/D", start=1, prefix="R")
        else:
            writer.append(reader, import_outline=False)
            writer.add_outline_item(title=part.title, page_number=start)
    writer.add_metadata({"/Title": f"{game.name}: print-and-play kit", "/Creator": "carddb",
                         "/Author": ", ".join(game.authors) or "carddb"})
    writer.create_viewer_preferences()
    writer.viewer_preferences.print_scaling = "/None"
    writer.page_mode = "/UseOutlines"
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _write(out_dir: Path, game: GameDefinition, parts: Sequence[_Part], kit_pdf: bytes, reading: _Part | None,
           not_printed: list[str], warnings: list[str]) -> KitResult:
    """Every file at once, each replaced whole: the kit, its parts, and (with a booklet) the reading rulebook."""
    from carddb.files.replacing import staged_files

    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"{out_dir} is a file, not a folder")
    kit_path = out_dir / f"{slugify(game.id)}-kit.pdf"
    kit_pages = sum(part.pages for part in parts)  # the kit is its parts, merged
    parts = [*parts, reading] if reading is not None else list(parts)
    files = [(kit_path, kit_pdf)] + [(out_dir / _filename(game, part.key), part.pdf) for part in parts]
    with staged_files([path for path, _ in files]) as staged:
        for stage, (_path, data) in zip(staged, files, strict=True):
            stage.write_bytes(data)
    return KitResult(kit_path, [(part.title, out_dir / _filename(game, part.key), part.pages) for part in parts],
                     kit_pages, not_printed, warnings)


def kit_of_game(root: str | Path | None, game_id: str, out_dir: str | Path, options: KitOptions = KitOptions(), *,
                deck: str | Path | None = None, db: str | None = None,
                progress: Callable[[str], None] | None = None) -> KitResult:
    """``carddb kit``: the kit of the game ``game_id`` of the workspace at ``root``, its cards from the catalogue
    (``db``) or the workspace's card files, the deck file ``deck`` printed instead of the sample decks."""
    from carddb.catalogue.game_cards import game_and_cards
    from carddb.workspace import Workspace

    workspace = Workspace.find(root)
    game, cards = game_and_cards(game_id, None, db, str(workspace.root))
    decks = [deck_of_file(Path(deck), game, cards)] if deck is not None else None
    deck_files = workspace.deck_files(game.id) if (workspace.root / "rules" / game.id).is_dir() else []
    return make_kit(workspace.root, game, cards, out_dir, options, decks=decks, deck_files=deck_files,
                    progress=progress)
