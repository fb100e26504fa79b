"""Reading a Cockatrice card database back into carddb cards (and ``.cod`` decks, through the deck checker).

``read_database`` takes any ``cockatrice_carddatabase`` version 4 file, refusing entity declarations as the
deck readers do, and maps it onto a game the way ``mapping`` wrote it: ``maintype`` is the kind (by label
or id), each ``prop`` named after a field is that field, ``set`` elements are printings (``num`` and
``rarity``), the card's own text is what follows the stat lines. The version a name carries
(``Splash Page (Neutral)``) is taken off again.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from carddb.core.cards.card import Card, Printing
from carddb.core.cards.fields import FieldValueError
from carddb.core.decks.deck import Deck
from carddb.core.decks.parse import parse_deck
from carddb.core.game.definition import GameDefinition
from carddb.core.safexml import entity_line
from carddb.errors import CardDataError, InputError
from carddb.exporters.card_text import stat_lines
from carddb.exporters.cockatrice.mapping import property_names
from carddb.files.reading import read_deck_file, read_user_file

MAX_DATABASE_BYTES = 64 * 1024 * 1024


@dataclass
class Database:
    sets: dict[str, str] = field(default_factory=dict)  # short name -> long name
    cards: list[Card] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # card name in the file -> its <text>


def read_database(path: str | Path, game: GameDefinition) -> Database:
    path = Path(path)
    data = read_user_file(path, what="Cockatrice card database", max_bytes=MAX_DATABASE_BYTES)
    text = data.decode("utf-8", errors="replace")
    if entity_line(text) is not None:
        raise InputError(f"{path} declares XML entities; refusing to read it")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise InputError(f"{path}: not well-formed XML ({exc})") from None
    if root.tag != "cockatrice_carddatabase" or root.get("version") != "4":
        raise InputError(f"{path}: not a cockatrice_carddatabase version 4 file")
    database = Database(sets={(s.findtext("name") or ""): (s.findtext("longname") or "")
                              for s in root.iterfind("sets/set")})
    for element in root.iterfind("cards/card"):
        name = (element.findtext("name") or "").strip()
        card = _card(element, name, game, path)
        database.cards.append(card)
        database.texts[name] = element.findtext("text") or ""
    return database


def _card(element: ET.Element, name: str, game: GameDefinition, path: Path) -> Card:
    where = f"{path}: card {name!r}"
    props = {child.tag: (child.text or "") for child in element.iterfind("prop/*")}
    kinds = {k.label.casefold(): k.id for k in game.kinds.values()} | {k.casefold(): k for k in game.kinds}
    kind = kinds.get(props.get("maintype", "").casefold())
    if kind is None:
        raise CardDataError(f"{where}: maintype {props.get('maintype')!r} is not a kind of {game.name}")
    fields = {}
    for key, prop in property_names(game).items():
        if prop in props:
            try:
                value = game.fields[key].coerce(props[prop])
            except FieldValueError as exc:
                raise CardDataError(f"{where}: {prop}: {exc}") from None
            if value is not None:
                fields[key] = value
    qualifier = str(fields.get(game.qualifier_field, "")) if game.qualifier_field else ""
    if qualifier and name.endswith(f" ({qualifier})"):
        name = name[: -len(qualifier) - 3]
    printings = [Printing(set=(s.text or "").strip(), number=s.get("num", ""), rarity=s.get("rarity", ""))
                 for s in element.iterfind("set")]
    card = Card(game=game.id, name=name, kind=kind, fields=fields, printings=printings, qualifier=qualifier)
    lines = (element.findtext("text") or "").split("\n")
    stats = stat_lines(game, card)
    card.text = "\n".join(lines[len(stats):] if lines[:len(stats)] == stats else lines)
    return card


def read_cod(path: str | Path, game: GameDefinition) -> Deck:
    """A ``.cod`` deck as the deck checker reads it (zones from its sideboard notes: ``core.decks.cockatrice``)."""
    path = Path(path)
    return parse_deck(read_deck_file(path), game, path.name)
