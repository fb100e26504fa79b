"""``export_apprentice``: an Apprentice patch a player copies over their Apprentice folder.

Layout of ``<out_dir>`` (``research/apprentice.md`` §1.1)::

    Sets/cardinfo.dat   Expan.dat   decks/<deck>.dec   spoilers/<CODE>.txt

``cardinfo.dat`` holds one record per card (names unique, at most 27 characters), its printings listed in
the ``sets`` field as ``XX-R`` items. The folder is built aside and swapped in at once.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from carddb.core.cards.card import Card, Printing
from carddb.core.decks.write import write_apprentice
from carddb.errors import InputError
from carddb.exporters.apprentice.cardinfo import write_cardinfo
from carddb.exporters.apprentice.mapping import RARITY_LETTERS, Mapper, apprentice_names
from carddb.exporters.apprentice.setcodes import assign_set_codes
from carddb.exporters.apprentice.text_files import build_expan, build_spoiler
from carddb.exporters.decks import sample_decks
from carddb.exporters.previous import PreviousExport, deck_files, export_inputs
from carddb.exporters.report import ExportReport
from carddb.exporters.text import to_cp1252


def export_apprentice(workspace_root: str | Path, catalogue: Any, game_id: str, out_dir: str | Path, *,
                      today: date | None = None) -> ExportReport:
    """Write the game's Apprentice patch into ``out_dir`` (created, or replacing a previous export)."""
    out_dir = Path(out_dir)
    game = catalogue.game(game_id)
    default_set = game.sets[0].code if game.sets else game.id
    cards: list[Card] = []
    report = ExportReport(game=game_id, client="apprentice", out_dir=out_dir, root=out_dir)
    for card in sorted(catalogue.cards(game_id), key=lambda c: c.key.casefold()):
        if not card.printings:
            report.warn(f"{card.key}: no printing; listed in set {default_set!r}")
            card = dataclasses.replace(card, printings=[Printing(set=default_set)])
        cards.append(card)
    if not cards:
        raise InputError(f"the catalogue has no {game_id} cards to export; load them with `carddb build` or "
                         f"`carddb cards import` first")
    report.cards = len(cards)
    day = today or date.today()
    previous = PreviousExport(out_dir)
    inputs = export_inputs("apprentice", game, cards, {}, deck_files(workspace_root, game.id), str(out_dir.resolve()),
                           day.isoformat())
    if (kept := previous.up_to_date(inputs)) is not None:
        return kept
    codes = assign_set_codes(game, cards, report.warnings, report.notes)
    names = apprentice_names(cards, report.warnings)
    mapper = Mapper(game, codes.code_of, report.warnings)
    records = {id(card): mapper.record(card, names[id(card)], mapper.sets(card)) for card in cards}
    ordered = sorted(cards, key=lambda c: names[id(c)].casefold())
    files: dict[str, bytes] = {"Sets/cardinfo.dat": write_cardinfo([records[id(c)] for c in ordered])}
    report.rows = len(ordered)
    # The sets field carries no rarity (mapping.Mapper.sets); Expan.dat keeps its rarity lines, which readers
    # stop at, so the file has the shape Apprentice's own has.
    used = sorted({RARITY_LETTERS[p.rarity.casefold()] for c in cards for p in c.printings
                   if p.rarity.casefold() in RARITY_LETTERS}, key=lambda letter: "CURM".find(letter) % 5)
    files["Expan.dat"] = build_expan(codes.lines, used).encode("cp1252")
    created = datetime.combine(day, time(0, 0))
    for code, full_name in codes.lines:
        members = [c for c in cards for p in c.printings if codes.by_card.get((id(c), p.set)) == code]
        members = list({id(c): c for c in members}.values())
        entries = []
        for number, card in enumerate(members, start=1):
            printing = next(p for p in card.printings if codes.code_of(card, p.set) == code)
            rarity = printing.rarity.casefold()
            entries.append((records[id(card)], RARITY_LETTERS.get(rarity, rarity[:1].upper()),
                            f"{number}/{len(members)}", printing.art))
        title = to_cp1252(f"{game.name} - {full_name}")[0]
        files[f"spoilers/{code}.txt"] = build_spoiler(title, entries, created).encode("cp1252")
    for deck in sample_decks(workspace_root, game, cards, report.notes):
        text = write_apprentice(deck.as_deck(game, lambda c: names[id(c)]), game)
        deck_name = to_cp1252(deck.name)[0]
        files[f"decks/{deck.stem}.dec"] = text.replace(f"//NAME: {deck.name}", f"//NAME: {deck_name}", 1) \
            .encode("cp1252")
        report.decks += 1
    marker = {"carddb": "export", "client": "apprentice", "game": game_id}
    return previous.write_export(out_dir, marker, files, inputs, report)
