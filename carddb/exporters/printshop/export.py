"""``export_printshop``: a deck (or every card once) as the files a print shop's uploader takes.

Layout of ``<out_dir>`` (built aside and swapped in whole)::

    fronts/001-<card>.png     each card's front at the shop's pixel size with its bleed, sRGB profile embedded;
                              one file a copy, in the deck's order (The Game Crafter: one a card, its count
                              in order.csv); DriveThruCards gets JPEGs, as it takes no PNG
    back.png                  the game's back, the same for every card
    cards.pdf                 one card a page, the page its bleed box, with TrimBox and BleedBox; each copy's
                              front then its back (DriveThruCards: back then front, in CMYK)
    order.csv                 position, front file, back file, copies, card: what the uploader is given, in order

``services`` says what each shop asks for and where each figure comes from.
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import card_stems
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError
from carddb.exporters.decks import deck_from_text
from carddb.exporters.faces import BACK_KEY
from carddb.exporters.output import check_target
from carddb.exporters.previous import PreviousExport, deck_files, export_inputs
from carddb.exporters.printshop import images
from carddb.exporters.printshop.services import Product, Service, service_named
from carddb.exporters.report import ExportReport
from carddb.workers import cores

if TYPE_CHECKING:
    from PIL import Image

ORDER_FILE = "order.csv"
PDF_FILE = "cards.pdf"
ORDER_COLUMNS = ("position", "front", "back", "copies", "card")


@dataclass(frozen=True)
class Row:
    """One line of order.csv: an image the uploader is given and how many cards it makes."""

    position: int
    front: str
    back: str
    copies: int
    card: str


def export_printshop(workspace_root: str | Path, catalogue: Any, game_id: str, out_dir: str | Path, *,
                     service: str | None, deck_text: tuple[str, str] | None = None, card: str | None = None,
                     progress: Callable[[int, int | None], None] | None = None) -> ExportReport:
    """Write the print shop's files for ``deck_text`` (``(text, file name)``; None: every card once).

    ``card`` is a card size (``poker``, ``63x88``) other than the game's own; a shop without a product of that
    size is an ``InputError`` naming the sizes it prints, raised before anything is drawn or written.
    Each image is drawn from the card's layout at the shop's pixel size (``images.shop_image``).
    ``progress(n, m)``: n of the m distinct images (the cards' and the back) made.
    """
    shop = service_named(service)
    workspace_root, out_dir = Path(workspace_root), Path(out_dir)
    game: GameDefinition = catalogue.game(game_id)
    card_name, card_mm = _card_size(game, card)
    product = shop.product_for(card_name, card_mm)
    cards = sorted(catalogue.cards(game_id), key=lambda c: c.key.casefold())
    if not cards:
        raise InputError(f"the catalogue has no {game_id} cards to export; load them with `carddb build` or "
                         f"`carddb cards import` first")
    check_target(out_dir)  # refuse a busy folder before drawing a single face
    report = ExportReport(game=game_id, client="printshop", out_dir=out_dir, root=out_dir, cards=len(cards))
    if deck_text is not None:
        deck = deck_from_text(deck_text[0], deck_text[1], game, cards, report.warnings)
        entries = _merged([(c, n) for _zone, c, n in deck.entries])
        title = deck.name
        report.decks = 1
    else:
        entries, title = [(c, 1) for c in cards], "every card"
    report.cards = sum(count for _card, count in entries)
    keys = _face_keys(workspace_root, game, [card for card, _ in entries])
    previous = PreviousExport(out_dir)
    inputs = export_inputs("printshop", game, cards, keys, deck_files(workspace_root, game.id),
                           str(out_dir.resolve()), shop.id, product, deck_text)
    if (kept := previous.up_to_date(inputs)) is not None:
        return kept
    from carddb.layout.template import loaded_templates

    templates = loaded_templates(workspace_root, game)
    _say_placing(templates, [card for card, _ in entries], product, report)
    rows = plan_rows(shop, entries, card_stems(c.key for c in cards))
    files = _Writer(shop, product, templates, progress).write(rows, entries, f"{game.name}: {title} for {shop.name}",
                                                            game.name)
    report.rows = len(rows)
    width, height = product.pixels(shop.dpi)
    report.notes.append(f"{shop.name}, {product.name} card ({product.label}): {width} x {height} pixels at {shop.dpi} "
                        f"dpi with {product.bleed_mm:.2f} mm bleed, {sum(r.copies for r in rows)} cards")
    marker = {"carddb": "export", "client": "printshop", "game": game_id, "service": shop.id,
              "product": product.name, "pixels": [width, height], "dpi": shop.dpi}
    return previous.write_export(out_dir, marker, files, inputs, report)


def _card_size(game: GameDefinition, card: str | None) -> tuple[str, tuple[float, float]]:
    from carddb.layout.paper import CARD_SIZES, card_size

    if card is not None:
        size = card_size(card)
        return size.name, (size.width, size.height)
    width, height = game.card_size_mm
    name = next((n for n, s in CARD_SIZES.items() if s == (width, height)), f"{width:g} x {height:g} mm card")
    return name, (width, height)


def _face_keys(workspace_root: Path, game: GameDefinition, cards: list[Card]) -> dict[str, str]:
    """Each face's key (all it is drawn from: the card, its template, fonts, art, carddb's code), found without
    drawing it: the export is made again exactly when one of them changed."""
    from carddb.paint.render import FaceKeys

    faces = FaceKeys(workspace_root, game)
    return {card.key: faces.face(card) for card in cards} | {BACK_KEY: faces.face(None)}


#: A card whose trim differs from the shop's by more than this (mm, per side length) is said to be placed on it.
PLACED_MM = 1.0


def _say_placing(templates: Any, cards: list[Card], product: Product, report: ExportReport) -> None:
    """One warning for each face size far from the shop's card: it is printed in the middle of the shop's card,
    its own background carried out to the shop's edge (or its edge cut off)."""
    sizes = {images.card_size(templates, card) for card in [*cards, None]}
    for width, height in sorted(sizes):
        grown = [(product.trim_mm[0] - width) / 2, (product.trim_mm[1] - height) / 2]
        if max(abs(v) for v in grown) <= PLACED_MM / 2:
            continue
        said = " and ".join(f"{'carried' if v >= 0 else 'cut'} {abs(v):.1f} mm {where}"
                            for v, where in zip(grown, ("left and right", "top and bottom"), strict=True)
                            if abs(v) >= 0.05)
        report.warn(f"the {width:g} x {height:g} mm faces are printed in the middle of the {product.name} card "
                    f"({product.label}): their edges are {said}")


def _merged(entries: list[tuple[Card, int]]) -> list[tuple[Card, int]]:
    """A card listed in several zones (or twice) counted once, at its first place."""
    counts: dict[str, list[Any]] = {}
    for card, count in entries:
        counts.setdefault(card.key, [card, 0])[1] += count
    return [(card, count) for card, count in counts.values()]


def plan_rows(shop: Service, entries: list[tuple[Card, int]], stems: dict[str, str]) -> list[Row]:
    """The images in the order the uploader takes them: one a copy, or one a card with its count."""
    ext = shop.image_format
    back = f"back.{ext}"
    one_a_copy = [(card, 1) for card, count in entries for _ in range(count)]
    expanded = one_a_copy if shop.file_per_copy else list(entries)
    digits = max(3, len(str(len(expanded))))
    return [Row(n, f"fronts/{n:0{digits}d}-{stems[card.key]}.{ext}", back, copies, card.key)
            for n, (card, copies) in enumerate(expanded, 1)]


class _Writer:
    def __init__(self, shop: Service, product: Product, templates: Any,
                 progress: Callable[[int, int | None], None] | None) -> None:
        self.shop, self.product, self.templates = shop, product, templates
        self.size = product.pixels(shop.dpi)
        self.progress = progress

    def _encoded(self, picture: Image.Image) -> tuple[bytes, bytes]:
        return (images.encoded(picture, self.shop.image_format, self.shop.dpi),
                images.pdf_jpeg(picture, self.shop.pdf_colour, self.shop.dpi))

    def write(self, rows: list[Row], entries: list[tuple[Card, int]], title: str, game: str) -> dict[str, bytes]:
        wanted: list[Card | None] = [*(card for card, _ in entries), None]
        made: dict[str | None, tuple[bytes, bytes]] = {}
        pending: deque[tuple[Card | None, Future[tuple[bytes, bytes]]]] = deque()

        def collect(wait: bool) -> None:
            while pending and (wait or pending[0][1].done()):
                card, future = pending.popleft()
                made[None if card is None else card.key] = future.result()
                if self.progress:
                    self.progress(len(made), len(wanted))

        # Each face is drawn here, one after the other (the layout is pure Python: threads would only queue), and
        # encoded beside the next one's drawing (Pillow lets go of the GIL to encode); at most a few are held.
        with ThreadPoolExecutor(max_workers=cores()) as pool:
            for card in wanted:
                picture = images.shop_image(self.templates, card, self.size, self.shop.dpi)
                pending.append((card, pool.submit(self._encoded, picture)))
                collect(wait=len(pending) > 2 * cores())
            collect(wait=True)
        files = {row.front: made[row.card][0] for row in rows}
        files[rows[0].back] = made[None][0]
        files[ORDER_FILE] = _order_csv(rows)
        files[PDF_FILE] = self._pdf(made, [card for card, count in entries for _ in range(count)], title, game)
        return files

    def _pdf(self, made: dict[str | None, tuple[bytes, bytes]], copies: list[Card], title: str, game: str) -> bytes:
        """One card a page through the proxy-sheet writer's ``single`` layout (its check after writing
        included): the page is the bleed box, the TrimBox the card."""
        from carddb.layout.impose import SheetSpec, plan_sheets
        from carddb.layout.paper import Size
        from carddb.paint.sheets import PrintJob, SheetFace, write_sheets

        spec = SheetSpec(card=Size(self.product.name, *self.product.trim_mm), bleed=self.product.bleed_mm,
                         marks=False, layout="single", header=False)
        with tempfile.TemporaryDirectory(prefix="carddb-printshop-") as folder:
            paths: dict[str | None, Path] = {}
            for n, (key, (_image, jpeg)) in enumerate(made.items()):
                paths[key] = Path(folder) / f"{n}.jpg"
                paths[key].write_bytes(jpeg)
            fronts = [SheetFace(f"card:{card.key}", card.key, image=paths[card.key]) for card in copies]
            backs = [SheetFace("back", "card back", image=paths[None])] * len(copies)
            if self.shop.back_first:
                fronts, backs = backs, fronts
            job = PrintJob(plan_sheets(spec, len(copies), backs=True), fronts, backs, title=title, game=game)
            out = Path(folder) / PDF_FILE
            write_sheets(job, out)
            return out.read_bytes()


def _order_csv(rows: list[Row]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ORDER_COLUMNS)
    for row in rows:
        writer.writerow([row.position, row.front, row.back, row.copies, row.card])
    return buffer.getvalue().encode("utf-8")
