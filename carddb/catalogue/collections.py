"""Players' collections and booster openings, stored in the catalogue (``Collection``, ``CollectionEntry``,
``BoosterOpening`` of ``models.py``). Each change is one transaction. Cards are named as a player types
them and resolved as the deck checker resolves them (exact, normalised, aliases; a shared name needs its
qualifier); a collection stores card keys, so a reloaded catalogue keeps it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select

from carddb.catalogue.api import Catalogue
from carddb.catalogue.models import BoosterOpening, Collection, CollectionEntry
from carddb.core.cards.card import Card
from carddb.core.cards.names import NameIndex
from carddb.core.decks.booster import PackCard, check_limits, open_pack
from carddb.core.decks.parse import parse_deck
from carddb.core.limits import MAX_COPIES, in_int_range, int_range_text
from carddb.errors import InputError, NotFoundError

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    """The catalogue stores UTC; SQLite may hand it back without its zone."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _index(catalogue: Catalogue, game_id: str) -> NameIndex:
    game = catalogue.game(game_id)
    return NameIndex(catalogue.cards(game_id), dict(game.aliases), {s.name: s.code for s in game.sets})


def resolve_card(index: NameIndex, written: str) -> Card:
    """The card a player means by ``Splash Page (Neutral)``; ``InputError`` naming the choices otherwise."""
    from carddb.core.decks.parse import split_qualifier

    name, qualifier = split_qualifier(written.strip())
    found = index.resolve(name, qualifier)
    if found.card is not None:
        return found.card
    if found.status == "ambiguous":
        raise InputError(f"several cards are called {name}: {', '.join(found.choices)}; say which")
    hint = f" (did you mean {', '.join(found.choices)}?)" if found.choices else ""
    raise InputError(f"no card called {written!r}{hint}")


def _collection(session, game_id: str, name: str, create: bool) -> Collection:  # type: ignore[no-untyped-def]
    row = session.execute(select(Collection).where(Collection.game_id == game_id, Collection.name == name)) \
        .scalars().first()
    if row is None:
        if not create:
            raise NotFoundError(f"no collection {name!r} for {game_id}")
        row = Collection(game_id=game_id, name=name)
        session.add(row)
        session.flush()
    return row


def _change(session, collection: Collection, key: str, delta: int) -> int:  # type: ignore[no-untyped-def]
    entry = session.execute(select(CollectionEntry).where(CollectionEntry.collection_id == collection.id,
                                                          CollectionEntry.card_key == key)).scalars().first()
    have = entry.count if entry else 0
    if have + delta > MAX_COPIES:
        raise InputError(f"{collection.name!r} would hold {have + delta:,} {key}; a collection holds at most "
                         f"{MAX_COPIES:,} copies of a card")
    if have + delta < 0:
        raise InputError(f"{collection.name!r} holds {have} {key}; cannot remove {-delta}")
    if entry is None:
        entry = CollectionEntry(collection_id=collection.id, card_key=key, count=0)
        session.add(entry)
    entry.count = have + delta
    if entry.count == 0:
        session.delete(entry)
    return have + delta


def add_cards(catalogue: Catalogue, game_id: str, name: str, counts: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Add (or, with negative counts, remove) cards by the names a player types; all or nothing."""
    index = _index(catalogue, game_id)
    resolved = [(resolve_card(index, written), count) for written, count in counts]
    for _card, count in resolved:
        if not -MAX_COPIES <= count <= MAX_COPIES:
            raise InputError(f"{count:,} copies: a collection holds at most {MAX_COPIES:,} copies of a card")
    out: dict[str, int] = {}
    with catalogue.transaction() as session:
        collection = _collection(session, game_id, name, create=True)
        for card, count in resolved:
            out[card.key] = _change(session, collection, card.key, count)
    return out


def import_collection(catalogue: Catalogue, game_id: str, name: str, text: str) -> dict[str, int]:
    """Add every card of a list in any deck format (zones do not matter); every line must be readable."""
    game = catalogue.game(game_id)
    deck = parse_deck(text, game)
    if deck.problems:
        lines = "; ".join(f"line {p.line}: {p.message}" for p in deck.problems[:5])
        raise InputError(f"the list cannot be read: {lines}")
    counts = [(e.written, e.count) for e in deck.entries]
    return add_cards(catalogue, game_id, name, counts)


def owned_counts(catalogue: Catalogue, name: str, game_id: str) -> dict[str, int]:
    """Card key -> copies owned (``deck check --collection``)."""
    with catalogue.session() as session:
        collection = _collection(session, game_id, name, create=False)
        rows = session.execute(select(CollectionEntry).where(CollectionEntry.collection_id == collection.id))
        return {e.card_key: e.count for e in rows.scalars()}


@dataclass
class BoosterResult:
    game: str
    player: str
    opened_at: datetime
    seed: int
    cards: list[PackCard] = field(default_factory=list)
    preview: bool = False  # opened from a chosen seed: shown, in no collection

    def to_dict(self) -> dict[str, object]:
        return {"game": self.game, "player": self.player, "opened_at": self.opened_at.isoformat(),
                "seed": self.seed, "preview": self.preview,
                "cards": [{"card": p.card.key, "rarity": p.rarity, "upgraded": p.upgraded} for p in self.cards]}


def open_booster(catalogue: Catalogue, game_id: str, player: str, seed: int | None = None,
                 clock: Clock = utc_now) -> BoosterResult:
    """Open one pack into the player's collection, if the game's limits allow it; recorded in one transaction.

    A pack from a chosen ``seed`` is a preview, the same pack for the same seed, that goes into no collection and
    counts against no limit: a seed a player picks would let them try seeds elsewhere (a copy of the catalogue)
    and open only the packs they like into their real collection."""
    game = catalogue.game(game_id)
    if game.booster is None:
        raise InputError(f"{game.name} declares no booster pack (add [booster] to its game.toml)")
    now = _aware(clock())
    if seed is not None and not in_int_range(seed):
        raise InputError(f"seed {seed}: a booster seed is a whole number {int_range_text()}")
    cards = catalogue.cards(game_id)
    if seed is not None:
        return BoosterResult(game_id, player, now, seed, open_pack(game, cards, random.Random(seed)), preview=True)
    seed = random.SystemRandom().randrange(2**31)
    with catalogue.transaction() as session:
        opened = session.execute(select(BoosterOpening.opened_at).where(
            BoosterOpening.game_id == game_id, BoosterOpening.player == player)).scalars().all()
        check_limits(game.booster, [_aware(o) for o in opened], now, player)
        pack = open_pack(game, cards, random.Random(seed))
        collection = _collection(session, game_id, player, create=True)
        for item in pack:
            _change(session, collection, item.card.key, 1)
        session.add(BoosterOpening(game_id=game_id, player=player, opened_at=now, seed=seed,
                                   cards=[p.card.key for p in pack]))
    return BoosterResult(game_id, player, now, seed, pack)
