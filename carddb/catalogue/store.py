"""Writing cards into the catalogue and reading them back as ``Card`` objects, in bulk."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlmodel import Session

from carddb.catalogue.models import CardRow, FieldValueRow, GameRow, PrintingRow, SetRow
from carddb.rules.cards import Card, Printing, normalise_name
from carddb.rules.game import GameDefinition


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


def write_cards(session: Session, game: GameDefinition, cards: Sequence[Card], *,
                replace: bool = False) -> dict[str, int]:
    """Insert new cards and update existing ones (same name and qualifier); with ``replace``, cards of the
    game that are not in ``cards`` are removed. Returns counts of added, updated and removed cards."""
    existing = {(row.norm_name, row.qualifier): row.id for row in session.execute(
        select(CardRow.id, CardRow.norm_name, CardRow.qualifier).where(CardRow.game_id == game.id)).all()}
    start = session.execute(select(CardRow.position).where(CardRow.game_id == game.id)
                         .order_by(CardRow.position.desc()).limit(1)).scalar() or 0
    new_rows, updates, keep = [], [], set()
    for offset, card in enumerate(cards, start=1):
        identity = (normalise_name(card.name), card.qualifier)
        row = _card_row(game, card)
        if identity in existing:
            keep.add(existing[identity])
            updates.append((existing[identity], row))
        else:
            row["position"] = start + offset
            new_rows.append((card, row))
    removed = [card_id for card_id in existing.values() if card_id not in keep] if replace else []
    touched = [card_id for card_id, _ in updates] + removed
    for chunk in _chunks(touched, 500):
        session.execute(delete(PrintingRow).where(PrintingRow.card_id.in_(chunk)))
        session.execute(delete(FieldValueRow).where(FieldValueRow.card_id.in_(chunk)))
    for chunk in _chunks(removed, 500):
        session.execute(delete(CardRow).where(CardRow.id.in_(chunk)))
    for card_id, row in updates:
        session.execute(update(CardRow).where(CardRow.id == card_id).values(**row))
    ids_by_card: list[tuple[int, Card]] = []
    if new_rows:
        result = session.execute(insert(CardRow).returning(CardRow.id, sort_by_parameter_order=True),
                                 [row for _, row in new_rows])
        ids_by_card = [(card_id, card) for card_id, (card, _) in zip(result.scalars().all(), new_rows, strict=True)]
    by_identity = {(normalise_name(c.name), c.qualifier): c for c in cards}
    ids_by_card += [(card_id, by_identity[_identity_of(row)]) for card_id, row in updates]
    _write_children(session, game, ids_by_card)
    return {"added": len(new_rows), "updated": len(updates), "removed": len(removed)}


def _identity_of(row: dict[str, Any]) -> tuple[str, str]:
    return row["norm_name"], row["qualifier"]


def _card_row(game: GameDefinition, card: Card) -> dict[str, Any]:
    return {"game_id": game.id, "name": card.name, "norm_name": normalise_name(card.name),
            "qualifier": card.qualifier, "kind": card.kind, "text": card.text, "flavor": card.flavor,
            "fields": card.fields, "sample": list(card.sample),
            "search_text": f"{normalise_name(card.name)}\n{normalise_name(card.text)}"}


def _write_children(session: Session, game: GameDefinition, cards: Iterable[tuple[int, Card]]) -> None:
    set_ids: dict[str, int] = {}
    printings, values = [], []
    for card_id, card in cards:
        for position, printing in enumerate(card.printings):
            printings.append({"card_id": card_id, "set_id": _set_id(session, game, printing.set, set_ids),
                              "number": printing.number, "rarity": printing.rarity, "art": printing.art,
                              "position": position})
        for key, value in card.fields.items():
            values.extend({"card_id": card_id, "key": key, **v} for v in search_values(value))
    # render_nulls: otherwise the ORM splits the batch wherever a row's None columns differ (num or txt),
    # down to one INSERT per row; with it each table is one executemany.
    if printings:
        session.execute(insert(PrintingRow).execution_options(render_nulls=True), printings)
    if values:
        session.execute(insert(FieldValueRow).execution_options(render_nulls=True), values)


def search_values(value: Any) -> list[dict[str, Any]]:
    """The rows a field value is searched by: numbers in ``num``, words casefolded in ``txt``."""
    if isinstance(value, bool):
        return [{"num": int(value), "txt": None}]
    if isinstance(value, int):
        return [{"num": value, "txt": None}]
    if isinstance(value, list):
        return [{"num": None, "txt": normalise_name(str(item))} for item in value]
    if isinstance(value, dict):
        return [{"num": amount, "txt": normalise_name(name)} for name, amount in value.items()]
    return [{"num": None, "txt": normalise_name(str(value))}]


def read_cards(session: Session, game_id: str | None = None, *, set_code: str | None = None,
               ids: Sequence[int] | None = None) -> list[Card]:
    """Cards in catalogue order (game, then the order they were loaded), with their printings."""
    query = select(CardRow)
    if game_id is not None:
        query = query.where(CardRow.game_id == game_id)
    if set_code is not None:
        in_set = (select(PrintingRow.card_id).join(SetRow, SetRow.id == PrintingRow.set_id)
                  .where(SetRow.code == set_code))
        query = query.where(CardRow.id.in_(in_set))
    rows: list[CardRow] = []
    if ids is not None:
        for chunk in _chunks(list(ids), 500):
            rows.extend(session.execute(query.where(CardRow.id.in_(chunk))).scalars().all())
    else:
        rows = list(session.execute(query).scalars().all())
    rows.sort(key=lambda r: (r.game_id, r.position, r.id))
    printings: dict[int, list[Printing]] = defaultdict(list)
    card_ids = [r.id for r in rows]
    for chunk in _chunks(card_ids, 500) if ids is not None or set_code is not None else [None]:
        pq = (select(PrintingRow.card_id, SetRow.code, PrintingRow.number, PrintingRow.rarity, PrintingRow.art)
              .join(SetRow, SetRow.id == PrintingRow.set_id).order_by(PrintingRow.card_id, PrintingRow.position))
        if chunk is not None:
            pq = pq.where(PrintingRow.card_id.in_(chunk))
        elif game_id is not None:
            pq = pq.where(SetRow.game_id == game_id)
        for card_id, code, number, rarity, art in session.execute(pq).all():
            printings[card_id].append(Printing(set=code, number=number, rarity=rarity, art=art))
    return [Card(game=r.game_id, name=r.name, kind=r.kind, text=r.text, flavor=r.flavor, fields=dict(r.fields),
                 printings=printings.get(r.id, []), qualifier=r.qualifier, sample=list(r.sample)) for r in rows]


def _chunks(items: list[Any], size: int) -> Iterable[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
