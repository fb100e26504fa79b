"""``export_cockatrice``: a Cockatrice custom card database, its pictures and the sample decks.

Layout of ``<out_dir>``, mirroring Cockatrice's data folder so its contents are copied over it as they are
(``docs/exports.md`` says where that folder is on each system)::

    customsets/carddb-<game>.xml                       the card database (cockatrice_carddatabase 4)
    pics/CUSTOM/<SET>/<name>_<SET>_<num>.jpg           one picture per printing, found by the local loader
    decks/<deck>.cod                                   the sample decks that pass `carddb deck check`

The folder is built aside and swapped in at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from carddb.core.cards.card import Card, Printing
from carddb.core.decks.write import write_deck
from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief
from carddb.errors import InputError
from carddb.exporters.card_names import client_names
from carddb.exporters.cockatrice import mapping
from carddb.exporters.cockatrice.database import CardEntry, PrintingEntry, SetEntry, write_database
from carddb.exporters.decks import deck_from_text, sample_decks
from carddb.exporters.faces import collect_faces, jpeg_bytes
from carddb.exporters.output import Contents, check_target
from carddb.exporters.previous import PreviousExport, deck_files, export_inputs, image_key
from carddb.exporters.report import ExportReport

PICTURE_HEIGHT = 680  # pixels: the height of the pictures Cockatrice downloads for Magic cards


def export_cockatrice(workspace_root: str | Path, catalogue: Any, game_id: str, out_dir: str | Path, *,
                      faces_dir: str | Path | None = None, renderer: Callable[..., object] | None = None,
                      progress: Callable[[int, int | None], None] | None = None,
                      today: date | None = None) -> ExportReport:
    """Write the game's Cockatrice files into ``out_dir`` (created, or replacing a previous export)."""
    workspace_root, out_dir = Path(workspace_root), Path(out_dir)
    game: GameDefinition = catalogue.game(game_id)
    cards = _sorted(catalogue.cards(game_id))
    if not cards:
        raise InputError(f"the catalogue has no {game_id} cards to export; load them with `carddb build` or "
                         f"`carddb cards import` first")
    check_target(out_dir)  # refuse a busy folder before rendering a single face
    report = ExportReport(game=game_id, client="cockatrice", out_dir=out_dir, root=out_dir, cards=len(cards))
    keys: dict[str, str] = {}
    faces, _back = collect_faces(workspace_root, game, cards, Path(faces_dir or workspace_root / "output" / "faces"),
                                 report.notes, renderer=renderer, keys=keys)
    day = today or date.today()
    previous = PreviousExport(out_dir, progress)  # progress: the pictures converted, n of m
    inputs = export_inputs("cockatrice", game, cards, keys, deck_files(workspace_root, game.id),
                           str(out_dir.resolve()), day.isoformat())
    if (kept := previous.up_to_date(inputs)) is not None:
        return kept
    names = client_names(cards, "Cockatrice", report.warnings)
    default_set = game.sets[0].code if game.sets else game.id
    set_names: dict[str, str] = {}
    longnames = {info.code: info.name for info in game.sets}
    prop_names = mapping.property_names(game)
    entries: list[CardEntry] = []
    pictures: dict[str, str] = {}  # picture file -> the key of its card
    positions: dict[str, int] = {}
    for card in cards:
        printings = card.printings or [Printing(set=default_set)]
        entry = CardEntry(name=names[id(card)], text=mapping.card_text(game, card),
                          props=mapping.properties(game, card, prop_names), tablerow=mapping.table_row(game, card))
        for printing in dict.fromkeys(printings):
            short = set_names.setdefault(printing.set, mapping.set_name(game, printing.set))
            positions[short] = positions.get(short, 0) + 1
            number = mapping.collector_number(printing, positions[short])
            entry.printings.append(PrintingEntry(set=short, num=number, rarity=printing.rarity))
            picture = mapping.picture_path(entry.name, short, number)
            if picture is None:
                report.warn(f"{brief(card.key)}: {brief(entry.name)!r} with number {brief(number)!r} makes no file "
                            "name every system allows, so Cockatrice gets no local picture for it")
            else:
                pictures[picture] = card.key
        entries.append(entry)
    sets = [SetEntry(name=short, longname=f"{game.name}: {longnames.get(code, code)}")
            for code, short in set_names.items()]
    files: dict[str, Contents] = {f"customsets/carddb-{game.id}.xml": write_database(
        sets, entries, author=", ".join(game.authors) or game.name, created=day.isoformat(),
        source=f"carddb export of {game.name}")}
    previous.expect(len(pictures))  # a picture unchanged since the previous export is kept
    wanted = {}
    for relative, key in pictures.items():
        previous.place(relative, image_key(keys[key], PICTURE_HEIGHT))
        wanted[relative] = (image_key(keys[key], PICTURE_HEIGHT),
                            lambda face=faces[key]: jpeg_bytes(face, PICTURE_HEIGHT))
    jpegs = previous.images(wanted)
    files.update(jpegs)
    report.rows = sum(len(e.printings) for e in entries)
    if game.deck_game:
        for deck in sample_decks(workspace_root, game, cards, report.notes):
            files[f"decks/{deck.stem}.cod"] = write_deck(deck.as_deck(game, lambda c: names[id(c)]), game,
                                                         "cockatrice").encode("utf-8")
            report.decks += 1
    marker = {"carddb": "export", "client": "cockatrice", "game": game_id}
    return previous.write_export(out_dir, marker, files, inputs, report)


def cockatrice_deck(text: str, filename: str, game: GameDefinition, cards: Sequence[Card],
                    warnings: list[str]) -> str:
    """One deck (any format the checker reads) as a ``.cod`` naming cards as ``export_cockatrice`` does."""
    ordered = _sorted(cards)
    deck = deck_from_text(text, filename, game, ordered, warnings)
    names = client_names(ordered, "Cockatrice", [])
    return write_deck(deck.as_deck(game, lambda c: names[id(c)]), game, "cockatrice")


def _sorted(cards: Sequence[Card]) -> list[Card]:
    """The order names are given in (a name taken twice gets ``~2`` on the later card)."""
    return sorted(cards, key=lambda c: c.key.casefold())
