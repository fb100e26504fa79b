"""Writing cards into the catalogue and reading them back as ``Card`` objects, in bulk."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, Text, bindparam, cast, delete, func, insert, select, update
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session

from carddb.catalogue.models import CardRow, FieldValueRow, GameRow, PrintingRow, SetRow
from carddb.catalogue.provenance import UNKNOWN, WORKSPACE, Source
from carddb.core.cards.card import Card, Printing, normalise_name
from carddb.core.game.definition import GameDefinition
from carddb.core.search.query import searched_values as _search_pairs  # one rule for SQL and memory

# The tables themselves (Core): bulk writes and reads skip the ORM's per-row objects and bookkeeping.
CARD = CardRow.__table__  # type: ignore[attr-defined]
PRINTING = PrintingRow.__table__  # type: ignore[attr-defined]
FIELD_VALUE = FieldValueRow.__table__  # type: ignore[attr-defined]
SET = SetRow.__table__  # type: ignore[attr-defined]
GAME = GameRow.__table__  # type: ignore[attr-defined]
# The JSON columns are read as text and parsed here: psycopg's JSON loader cost several microseconds a value
# (bytes, encoding detection), and ``sample`` is nearly always empty, which needs no parsing at all.
_CARD_COLUMNS = (CARD.c.id, CARD.c.game_id, CARD.c.name, CARD.c.kind, CARD.c.text, CARD.c.flavor,
                 cast(CARD.c.fields, Text).label("fields"), CARD.c.qualifier, cast(CARD.c.sample, Text).label("sample"),
                 CARD.c.position)
#: ids per ``IN (...)`` list: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters
CHUNK = 2000


def register_game(session: Session, game: GameDefinition, definition_text: str) -> str:
    """Record a game's definition unless the catalogue holds exactly this one: "registered" (new to the
    catalogue), "updated" (its game.toml changed) or "" (nothing to do, nothing written)."""
    held = session.execute(select(GAME.c.name, GAME.c.definition, GAME.c.definition_path)
                           .where(GAME.c.id == game.id)).first()
    if held is not None and tuple(held) == (game.name, definition_text, game.path):
        return ""
    save_game(session, game, definition_text)
    return "updated" if held is not None else "registered"


def save_game(session: Session, game: GameDefinition, definition_text: str) -> None:
    """Record (or update) a game's definition and its declared sets."""
    row = session.get(GameRow, game.id)
    if row is None:
        session.add(GameRow(id=game.id, name=game.name, definition=definition_text, definition_path=game.path))
    else:
        row.name, row.definition, row.definition_path = game.name, definition_text, game.path
    session.flush()
    for info in game.sets:
        _set_id(session, game, info.code)


def _set_id(session: Session, game: GameDefinition, code: str, cache: dict[str, int] | None = None) -> int:
    if cache is not None and code in cache:
        return cache[code]
    row = session.execute(select(SetRow).where(SetRow.game_id == game.id, SetRow.code == code)).scalars().first()
    names = {s.code: s.name for s in game.sets}
    if row is None:
        row = SetRow(game_id=game.id, code=code, name=names.get(code, code))
        session.add(row)
        session.flush()
    elif code in names and row.name != names[code]:
        row.name = names[code]
    assert row.id is not None
    if cache is not None:
        cache[code] = row.id
    return row.id


@dataclass(frozen=True)
class StoredCard:
    """What a write needs to know of a card already in the catalogue, without reading the card itself."""

    id: int
    key: str
    source: Source


def stored_cards(session: Session, game_id: str, *, names: Collection[str] | None = None,
                 with_file_cards: bool = False) -> dict[tuple[str, str], StoredCard]:
    """The game's cards by identity (normalised name, qualifier), with their sources: every card, or those
    with one of the normalised ``names`` (and, ``with_file_cards``, every card from a card file or of unknown
    source: what a build needs, however many imported cards the game has)."""
    query = select(CARD.c.id, CARD.c.norm_name, CARD.c.qualifier, CARD.c.name, CARD.c.source_kind,
                   CARD.c.source_name, CARD.c.source_at, CARD.c.source_fingerprint).where(CARD.c.game_id == game_id)
    if names is None:
        rows = list(session.execute(query).all())
    else:
        rows = []
        if with_file_cards:
            rows.extend(session.execute(query.where(CARD.c.source_kind.in_([WORKSPACE, UNKNOWN]))).all())
            query = query.where(CARD.c.source_kind.not_in([WORKSPACE, UNKNOWN]))
        for chunk in _chunks(sorted(names), CHUNK):
            rows.extend(session.execute(query.where(CARD.c.norm_name.in_(chunk))).all())
    return {(norm_name, qualifier): StoredCard(card_id, f"{name} ({qualifier})" if qualifier else name,
                                               Source(kind, source, at, print_))
            for card_id, norm_name, qualifier, name, kind, source, at, print_ in rows}


def other_source_counts(session: Session, game_id: str) -> Counter[str]:
    """How many of the game's cards come from each source kind but the card files."""
    rows = session.execute(select(CARD.c.source_kind, func.count()).where(CARD.c.game_id == game_id,
                                                                          CARD.c.source_kind != WORKSPACE)
                           .group_by(CARD.c.source_kind)).all()
    return Counter({kind: count for kind, count in rows})


@dataclass
class WriteCounts:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    #: cards that came from a workspace card file and now come from this write: (card key, file)
    taken_from_files: list[tuple[str, str]] = field(default_factory=list)


def write_cards(session: Session, game: GameDefinition, cards: Sequence[Card],
                sources: Sequence[Source]) -> WriteCounts:
    """Insert new cards and update existing ones (same name and qualifier), each with its source; a card the
    catalogue already holds exactly as given is left alone, its source kept. Nothing is removed."""
    existing = stored_cards(session, game.id)
    counts = WriteCounts()
    new: list[tuple[Card, Source]] = []
    changed: list[tuple[int, Card, Source]] = []
    for card, source in zip(cards, sources, strict=True):
        stored = existing.get((normalise_name(card.name), card.qualifier))
        if stored is None:
            new.append((card, source))
        elif stored.source.fingerprint == source.fingerprint and stored.source.fingerprint:
            counts.unchanged += 1
        else:
            changed.append((stored.id, card, source))
            if stored.source.kind == WORKSPACE and source.kind != WORKSPACE:
                counts.taken_from_files.append((card.key, stored.source.name))
    update_cards(session, game, changed)
    insert_cards(session, game, new)
    counts.added, counts.updated = len(new), len(changed)
    return counts


def identity(card: Card) -> tuple[str, str]:
    """A card's identity within its game: its normalised name and its qualifier (unique in the catalogue)."""
    return normalise_name(card.name), card.qualifier


def _source_columns(source: Source) -> dict[str, Any]:
    return {"source_kind": source.kind, "source_name": source.name, "source_at": source.at,
            "source_fingerprint": source.fingerprint}


def insert_cards(session: Session, game: GameDefinition, items: Sequence[tuple[Card, Source]]) -> None:
    """Add new cards after the game's last one, with their printings and searchable field values."""
    if not items:
        return
    start = session.execute(select(CARD.c.position).where(CARD.c.game_id == game.id)
                            .order_by(CARD.c.position.desc()).limit(1)).scalar() or 0
    rows = [{**_card_row(game, card), **_source_columns(source), "position": start + offset}
            for offset, (card, source) in enumerate(items, start=1)]
    # A plain executemany (no RETURNING, which made SQLAlchemy send one INSERT per card on SQLite and
    # batches psycopg had to re-parse on PostgreSQL); the new ids are read back in one select: they are
    # the game's cards after the last position, and writers are serialised, so nobody else adds any.
    session.execute(insert(CARD), rows)
    card_of = {(row["norm_name"], row["qualifier"]): card for row, (card, _) in zip(rows, items, strict=True)}
    added = session.execute(select(CARD.c.id, CARD.c.norm_name, CARD.c.qualifier)
                            .where(CARD.c.game_id == game.id, CARD.c.position > start)).all()
    _write_children(session, game, [(card_id, card_of[(norm_name, qualifier)])
                                    for card_id, norm_name, qualifier in added])


def update_cards(session: Session, game: GameDefinition, items: Sequence[tuple[int, Card, Source]]) -> None:
    """Replace what the cards with these ids say (their position stays), and their sources."""
    if not items:
        return
    ids = [card_id for card_id, _, _ in items]
    _delete_children(session, ids)
    rows = [{"card_id": card_id, **_card_row(game, card), **_source_columns(source)}
            for card_id, card, source in items]
    # one executemany, not one statement per card (bound names must differ from the columns)
    columns = [key for key in rows[0] if key != "card_id"]
    session.execute(update(CARD).where(CARD.c.id == bindparam("card_id"))
                    .values({key: bindparam(f"new_{key}") for key in columns}),
                    [{"card_id": row["card_id"], **{f"new_{key}": row[key] for key in columns}} for row in rows])
    _write_children(session, game, [(card_id, card) for card_id, card, _ in items])


def set_sources(session: Session, items: Sequence[tuple[int, Source]]) -> None:
    """Change only where cards come from (a card that moved to another card file, or was written back)."""
    if not items:
        return
    columns = ("source_kind", "source_name", "source_at", "source_fingerprint")
    session.execute(update(CARD).where(CARD.c.id == bindparam("card_id"))
                    .values({key: bindparam(f"new_{key}") for key in columns}),
                    [{"card_id": card_id, **{f"new_{k}": v for k, v in _source_columns(source).items()}}
                     for card_id, source in items])


def delete_cards(session: Session, ids: Sequence[int]) -> None:
    _delete_children(session, ids)
    for chunk in _chunks(list(ids), CHUNK):
        session.execute(delete(CARD).where(CARD.c.id.in_(chunk)))


def _delete_children(session: Session, ids: Sequence[int]) -> None:
    for chunk in _chunks(list(ids), CHUNK):
        session.execute(delete(PRINTING).where(PRINTING.c.card_id.in_(chunk)))
        session.execute(delete(FIELD_VALUE).where(FIELD_VALUE.c.card_id.in_(chunk)))


def _card_row(game: GameDefinition, card: Card) -> dict[str, Any]:
    norm_name = normalise_name(card.name)
    return {"game_id": game.id, "name": card.name, "norm_name": norm_name,
            "qualifier": card.qualifier, "kind": card.kind, "text": card.text, "flavor": card.flavor,
            "fields": card.fields, "sample": list(card.sample),
            "search_text": f"{norm_name}\n{normalise_name(card.text)}"}


def _write_children(session: Session, game: GameDefinition, cards: Iterable[tuple[int, Card]]) -> None:
    set_ids: dict[str, int] = {}
    printings, values = [], []
    searchable = _SearchValues()
    for card_id, card in cards:
        for position, printing in enumerate(card.printings):
            printings.append({"card_id": card_id, "set_id": _set_id(session, game, printing.set, set_ids),
                              "number": printing.number, "rarity": printing.rarity, "art": printing.art,
                              "position": position})
        for key, value in card.fields.items():
            values.extend({"card_id": card_id, "key": key, "num": num, "txt": txt} for num, txt in searchable(value))
    # Core inserts of whole lists: one executemany per table (psycopg 3 pipelines it), no ORM bookkeeping.
    if printings:
        session.execute(insert(PRINTING), printings)
    if values:
        session.execute(insert(FIELD_VALUE), values)


def search_values(value: Any) -> list[dict[str, Any]]:
    """The rows a field value is searched by: numbers in ``num``, words casefolded in ``txt``."""
    return [{"num": num, "txt": txt} for num, txt in _search_pairs(value)]


class _SearchValues:
    """``_search_pairs`` remembering the text values of one import: a game's cards share a few types and
    words, and normalising each of them every time was a large part of an import."""

    def __init__(self) -> None:
        self.texts: dict[str, list[tuple[int | None, str | None]]] = {}

    def __call__(self, value: Any) -> list[tuple[int | None, str | None]]:
        if type(value) is not str:
            return _search_pairs(value)
        pairs = self.texts.get(value)
        if pairs is None:
            pairs = self.texts[value] = _search_pairs(value)
        return pairs


def read_cards(session: Session, game_id: str | None = None, *, set_code: str | None = None,
               ids: Sequence[int] | None = None, where: ColumnElement[bool] | None = None,
               limit: int | None = None) -> list[Card]:
    """Cards in catalogue order (game, then the order they were loaded), with their printings: the game's
    cards, those of a set, those with the given ids, or the first ``limit`` matching a search condition."""
    query = select(*_CARD_COLUMNS)
    if game_id is not None:
        query = query.where(CARD.c.game_id == game_id)
    if set_code is not None:
        in_set = (select(PRINTING.c.card_id).join(SET, SET.c.id == PRINTING.c.set_id)
                  .where(SET.c.code == set_code))
        query = query.where(CARD.c.id.in_(in_set))
    if where is not None:
        query = query.where(where)
    query = query.order_by(CARD.c.game_id, CARD.c.position, CARD.c.id)
    if limit:
        query = query.limit(limit)
    if where is not None:
        return _cards_with_printings(session, query)
    if ids is not None:
        rows = [row for chunk in _chunks(list(ids), CHUNK) for row in session.execute(query.where(
            CARD.c.id.in_(chunk))).all()]
        rows.sort(key=lambda r: (r[1], r[-1], r[0]))  # game, position, id
    else:
        rows = list(session.execute(query).all())
    whole_game = ids is None and set_code is None and where is None
    printings = _printings(session, game_id if whole_game else None, [r[0] for r in rows])
    return [Card(game=game, name=name, kind=kind, text=text, flavor=flavor, fields=json.loads(fields),
                 printings=printings.get(card_id, []), qualifier=qualifier, sample=_json_list(sample))
            for card_id, game, name, kind, text, flavor, fields, qualifier, sample, _position in rows]


def _cards_with_printings(session: Session, query: Select[Any]) -> list[Card]:
    """The cards ``query`` selects, each row joined to its printings: one query, where a search's ids sent
    back as an ``IN`` list cost more than the search itself (psycopg parses every long statement anew)."""
    found = query.subquery()
    joined = (select(found, SET.c.code, PRINTING.c.number, PRINTING.c.rarity, PRINTING.c.art)
              .select_from(found.outerjoin(PRINTING, PRINTING.c.card_id == found.c.id)
                           .outerjoin(SET, SET.c.id == PRINTING.c.set_id))
              .order_by(found.c.game_id, found.c.position, found.c.id, PRINTING.c.position))
    cards: list[Card] = []
    last_id = None
    for card_id, game, name, kind, text, flavor, fields, qualifier, sample, _position, code, number, rarity, art \
            in session.execute(joined).all():
        if card_id != last_id:
            last_id = card_id
            cards.append(Card(game=game, name=name, kind=kind, text=text, flavor=flavor, fields=json.loads(fields),
                              printings=[], qualifier=qualifier, sample=_json_list(sample)))
        if code is not None:
            cards[-1].printings.append(Printing(set=code, number=number, rarity=rarity, art=art))
    return cards


def _json_list(text: str) -> list[Any]:
    return [] if text == "[]" else json.loads(text)


def _printings(session: Session, game_id: str | None, card_ids: list[int]) -> dict[int, list[Printing]]:
    """The printings of these cards (of the whole game when ``game_id`` is given: one query, no id list)."""
    printings: dict[int, list[Printing]] = defaultdict(list)
    query = (select(PRINTING.c.card_id, SET.c.code, PRINTING.c.number, PRINTING.c.rarity, PRINTING.c.art)
             .join(SET, SET.c.id == PRINTING.c.set_id).order_by(PRINTING.c.card_id, PRINTING.c.position))
    if game_id is not None:
        chunks: Iterable[Any] = [query.where(SET.c.game_id == game_id)]
    else:
        chunks = (query.where(PRINTING.c.card_id.in_(chunk)) for chunk in _chunks(card_ids, CHUNK))
    for chunk_query in chunks:
        for card_id, code, number, rarity, art in session.execute(chunk_query).all():
            printings[card_id].append(Printing(set=code, number=number, rarity=rarity, art=art))
    return printings


def _chunks(items: list[Any], size: int) -> Iterable[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
