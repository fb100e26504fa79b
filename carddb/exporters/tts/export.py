"""``export_tts``: Tabletop Simulator saved objects for a game's decks and sets.

Layout of ``<out_dir>/<folder>/`` (the folder a player copies into TTS's ``Saves/Saved Objects/``; it is
named as the game's LackeyCCG plugin, ``SSBMCCG``)::

    <deck>.json  <deck>.png            one saved object per deck and its 256 x 256 thumbnail
    every-card-<set>.json  .png        one saved object per set: each of its cards once
    sheets/<object>-<n>.jpg            the deck sheets (10 x 7 cells at most, 4096 px at most)
    sheets/back.jpg                    the card back

Image URLs are ``<base_url>/sheets/...`` when that folder is published, else ``file:///`` paths of the
exported folder itself (so it must stay where it was exported). The folder is built aside and swapped
in at once.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import slugify
from carddb.core.game.definition import GameDefinition
from carddb.errors import InputError, OutputError
from carddb.exporters.card_names import client_names
from carddb.exporters.decks import SampleDeck, deck_from_text, sample_decks
from carddb.exporters.faces import BACK_KEY, collect_faces
from carddb.exporters.output import Contents, check_target
from carddb.exporters.previous import PreviousExport, deck_files, export_inputs, image_key
from carddb.exporters.published import check_base_url, plugin_name, url_for
from carddb.exporters.report import ExportReport
from carddb.exporters.tts import mapping, sheets
from carddb.exporters.tts.saved_object import CardFace, Pile, Sheet, saved_object
from carddb.incremental import digest

MAX_SHEETS = 99  # a key holds its sheet number in two digits


@dataclass
class TableDeck:
    """What becomes one saved object: piles of (card, copies), by zone (None: the cards of a set)."""

    stem: str
    name: str
    piles: list[tuple[str | None, list[tuple[Card, int]]]] = field(default_factory=list)

    def distinct(self) -> list[Card]:
        seen: dict[int, Card] = {}
        for _, cards in self.piles:
            for card, _count in cards:
                seen.setdefault(id(card), card)
        return list(seen.values())


def export_tts(workspace_root: str | Path, catalogue: Any, game_id: str, out_dir: str | Path, *,
               base_url: str | None = None, deck_text: tuple[str, str] | None = None, sets: bool = True,
               faces_dir: str | Path | None = None,
               renderer: Callable[..., object] | None = None) -> ExportReport:
    """Write the saved objects into ``out_dir`` (created, or replacing a previous export).

    ``deck_text`` is ``(text, file name)`` of one deck to export instead of the sample decks; ``sets``
    adds one saved object per set.
    """
    workspace_root, out_dir = Path(workspace_root), Path(out_dir)
    game: GameDefinition = catalogue.game(game_id)
    cards: list[Card] = sorted(catalogue.cards(game_id), key=lambda c: c.key.casefold())
    if not cards:
        raise InputError(f"the catalogue has no {game_id} cards to export; load them with `carddb build` or "
                         f"`carddb cards import` first")
    check_target(out_dir)  # refuse a busy folder before rendering a single face
    base = check_base_url(base_url) if base_url else None
    report = ExportReport(game=game_id, client="tts", out_dir=out_dir, root=out_dir, cards=len(cards))
    # The saved objects go in a folder of their own: TTS lists every .json of Saved Objects, and the export's
    # marker file must not be one of them. The folder is named as the LackeyCCG plugin is (ASCII, no spaces).
    folder = plugin_name(game, report.warnings)
    report.root = out_dir / folder
    if deck_text is not None:
        decks = [deck_from_text(deck_text[0], deck_text[1], game, cards, report.warnings)]
    else:
        decks = sample_decks(workspace_root, game, cards, report.notes) if game.deck_game else []
    tables = [_deck_table(deck) for deck in decks] + (_set_tables(game, cards) if sets else [])
    used = {id(c): c for table in tables for c in table.distinct()}
    keys: dict[str, str] = {}
    faces, back = collect_faces(workspace_root, game, list(used.values()),
                                Path(faces_dir or workspace_root / "output" / "faces"), report.notes,
                                renderer=renderer, keys=keys)
    previous = PreviousExport(out_dir)
    inputs = export_inputs("tts", game, cards, keys, deck_files(workspace_root, game.id), str(out_dir.resolve()),
                           base, deck_text, sets)
    from carddb.incremental import keep_cache_of, keys_used, note_cache_of, sources_key

    if (kept := previous.up_to_date(inputs)) is not None:
        keep_cache_of(sources_key(inputs))  # its sheets' resized cells, for the next change
        return kept

    def url(relative: str) -> str:
        return url_for(base, relative) if base else (out_dir.resolve() / folder / relative).as_uri()

    names = client_names(cards, "Tabletop Simulator", report.warnings)
    with keys_used() as cells:
        files = _Writer(game, faces, back, names, url, report, _Reuse(previous, keys, folder)).write(tables)
    note_cache_of(sources_key(inputs), cells)
    marker = {"carddb": "export", "client": "tts", "game": game_id}
    return previous.write_export(out_dir, marker, files, inputs, report, under=folder)


def _deck_table(deck: SampleDeck) -> TableDeck:
    by_zone: dict[str, dict[int, list[Any]]] = {}
    for zone, card, count in deck.entries:
        entry = by_zone.setdefault(zone, {}).setdefault(id(card), [card, 0])
        entry[1] += count
    return TableDeck(stem=deck.stem, name=deck.name,
                     piles=[(zone, [(c, n) for c, n in entries.values()]) for zone, entries in by_zone.items()])


def _set_tables(game: GameDefinition, cards: Sequence[Card]) -> list[TableDeck]:
    tables = []
    codes = [info.code for info in game.sets] + sorted({p.set for c in cards for p in c.printings})
    for code in dict.fromkeys(codes):
        members = [c for c in cards if any(p.set == code for p in c.printings)]
        if members:
            label = next((info.name for info in game.sets if info.code == code), code)
            tables.append(TableDeck(stem=f"every-card-{slugify(code)}", name=f"{game.name}: {label}",
                                    piles=[(None, [(card, 1) for card in members])]))
    return tables


@dataclass
class _Reuse:
    """The sheets, back and thumbnails of the previous export, kept when made from the same faces."""

    previous: PreviousExport
    keys: dict[str, str]  # card key (and BACK_KEY) -> face key
    folder: str

    def __call__(self, relative: str, recipe: tuple[Any, ...], cards: Sequence[str],
                 make: Callable[[], bytes]) -> Contents:
        key = image_key(digest([self.keys[card] for card in cards]), *recipe)
        return self.previous.placed(f"{self.folder}/{relative}", key, make)


class _Writer:
    def __init__(self, game: GameDefinition, faces: dict[str, Path], back: Path, names: dict[int, str],
                 url: Callable[[str], str], report: ExportReport, reuse: _Reuse) -> None:
        self.game, self.faces, self.back, self.names, self.url, self.report = game, faces, back, names, url, report
        self.reuse = reuse
        self.key_of = {path: key for key, path in faces.items()}
        self.face = sheets.face_size(back)
        self.files: dict[str, Contents] = {}

    def write(self, tables: list[TableDeck]) -> dict[str, Contents]:
        self._check_sizes()
        self.files["sheets/back.jpg"] = self.reuse("sheets/back.jpg", ("back", self.face), [BACK_KEY],
                                                   lambda: sheets.back_image(self.back, self.face))
        stems: set[str] = set()
        jobs: list[tuple[str, sheets.Grid, list[Path]]] = []
        for table in tables:
            stem, n = table.stem, 1
            while stem in stems:
                n += 1
                stem = f"{table.stem}-{n}"
            stems.add(stem)
            jobs += self._table(table, stem)
        # Each sheet of the previous export made from the same faces is taken as it is; the others are drawn
        # together, on one pool (sheets.compose_all), in the order of the jobs.
        drawn: set[str] = set()
        for relative, grid, faces in jobs:
            self.files[relative] = self.reuse(relative, ("sheet", grid.columns, grid.rows, grid.cell),
                                              [self.key_of[p] for p in faces], lambda r=relative: _later(drawn, r))
        for relative, grid, faces in jobs:
            if relative not in drawn:
                sheets.keep_cells(faces, grid.cell)
        wanted = {relative: (grid, faces) for relative, grid, faces in jobs if relative in drawn}
        for relative, data in zip(wanted, sheets.compose_all(list(wanted.values())), strict=True):
            self.files[relative] = data
        largest = max((grid.size for _, grid, _ in jobs), default=(0, 0), key=lambda size: size[0] * size[1])
        self.report.notes.append(f"{len(jobs)} deck sheets, the largest {largest[0]} x {largest[1]} pixels")
        return self.files

    def _check_sizes(self) -> None:
        ratio = self.face[0] / self.face[1]
        for key, path in self.faces.items():
            width, height = sheets.face_size(path)
            if abs(width / height - ratio) > 0.02 * ratio:
                self.report.warn(f"{key}: its face is {width} x {height} pixels, another shape than the back "
                                 f"({self.face[0]} x {self.face[1]}); it is stretched to fit a sheet cell")

    def _table(self, table: TableDeck, stem: str) -> list[tuple[str, sheets.Grid, list[Path]]]:
        distinct = table.distinct()
        chunks = sheets.split(distinct, key=lambda card: card.key, most=MAX_SHEETS)
        if len(chunks) > MAX_SHEETS:
            raise OutputError(f"{table.name} needs {len(chunks)} deck sheets; a saved object holds at most "
                              f"{MAX_SHEETS}")
        base = 1000 + zlib.crc32(f"{self.game.id}/{stem}".encode()) % 9000  # stable, and rarely shared
        faces: dict[int, CardFace] = {}
        jobs = []
        for number, chunk in enumerate(chunks):
            grid = sheets.plan_grid(len(chunk), self.face)
            relative = f"sheets/{stem}-{number + 1}.jpg"
            sheet = Sheet(key=base * 100 + number, face_url=self.url(relative),
                          back_url=self.url("sheets/back.jpg"), grid=grid)
            for slot, card in enumerate(chunk):
                faces[id(card)] = CardFace(card_id=sheet.key * 100 + slot, sheet=sheet, nickname=self.names[id(card)],
                                           description=mapping.description(self.game, card),
                                           notes=mapping.card_notes(self.game, card))
            jobs.append((relative, grid, [self.faces[card.key] for card in chunk]))
        sizes = [(zone, sum(n for _, n in cards)) for zone, cards in table.piles]
        piles = []
        for (zone, cards), (_, size), placement in zip(table.piles, sizes, mapping.placements(self.game, sizes),
                                                       strict=True):
            pile = Pile(nickname=mapping.pile_name(table.name, self.game, zone), description=f"{size} cards",
                        notes=mapping.deck_notes(self.game, table.name, zone), placement=placement,
                        single_notes=mapping.card_notes(self.game, cards[0][0], zone) if zone else "")
            for card, count in cards:
                pile.cards += [faces[id(card)]] * count
            piles.append(pile)
        self.files[f"{stem}.json"] = _json(saved_object(piles, f"{self.game.id}/{stem}"))
        # The icon: the card that tells the deck, the character or base site, else the deck's first card.
        first = next((cards[0][0] for zone, cards in table.piles if zone not in (None, self.game.main_zone)
                      and sum(n for _, n in cards) == 1), table.piles[0][1][0][0])
        self.files[f"{stem}.png"] = self.reuse(f"{stem}.png", ("thumbnail",), [first.key],
                                               lambda: sheets.thumbnail(self.faces[first.key]))
        self.report.rows += 1
        self.report.decks += 1 if table.piles and table.piles[0][0] is not None else 0
        return jobs


def _later(drawn: set[str], relative: str) -> bytes:
    """What ``_Reuse`` makes for a sheet the previous export does not have: nothing yet, the sheet to draw noted."""
    drawn.add(relative)
    return b""


def _json(data: Any) -> bytes:
    import json

    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
