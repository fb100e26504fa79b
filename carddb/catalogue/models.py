"""The catalogue's tables (SQLModel). Portable SQL only: the same models run on SQLite and PostgreSQL.

A card is its rules identity within a game (unique by normalised name and qualifier); its printings place it
in sets; its ``source_*`` columns say where it came from (``provenance.py``). Per-game field values live in
``CardRow.fields`` (JSON, the source of truth) and are mirrored one value per row in ``card_field`` so the
search language compiles to indexed SQL on any engine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, Index, String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class GameRow(SQLModel, table=True):
    __tablename__ = "game"

    id: str = Field(primary_key=True, max_length=64)
    name: str
    definition: str = Field(sa_column=Column(Text, nullable=False))
    definition_path: str = ""


class SetRow(SQLModel, table=True):
    __tablename__ = "card_set"
    __table_args__ = (UniqueConstraint("game_id", "code"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    code: str
    name: str = ""


class CardRow(SQLModel, table=True):
    __tablename__ = "card"
    # the index orders listings and searches (added by migration 0002)
    __table_args__ = (UniqueConstraint("game_id", "norm_name", "qualifier"),
                      Index("ix_card_game_position", "game_id", "position"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    name: str
    norm_name: str = Field(index=True)
    qualifier: str = ""
    kind: str = Field(index=True)
    text: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    flavor: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    fields: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    sample: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    #: casefolded name and text, for free-text search with a portable LIKE
    search_text: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    position: int = 0
    #: where the card came from (migration 0004): workspace, import, edit or unknown (``provenance.py``)
    source_kind: str = Field(default="unknown", sa_column=Column(String, nullable=False, server_default="unknown"))
    #: the card file's path from the workspace root, or the imported file's name
    source_name: str = Field(default="", sa_column=Column(String, nullable=False, server_default=""))
    #: when that source gave the card (UTC); none for an unknown source
    source_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    #: the card as that source gave it (``provenance.fingerprint``); empty for an unknown source
    source_fingerprint: str = Field(default="", sa_column=Column(String, nullable=False, server_default=""))


class PrintingRow(SQLModel, table=True):
    __tablename__ = "printing"

    id: int | None = Field(default=None, primary_key=True)
    card_id: int = Field(foreign_key="card.id", index=True)
    set_id: int = Field(foreign_key="card_set.id", index=True)
    number: str = ""
    rarity: str = ""
    art: str = ""
    position: int = 0


class FieldValueRow(SQLModel, table=True):
    """One searchable value of a card's field: numbers in ``num``, text casefolded in ``txt``."""

    __tablename__ = "card_field"
    __table_args__ = (
        Index("ix_card_field_key_num", "key", "num", "card_id"),
        Index("ix_card_field_key_txt", "key", "txt", "card_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    card_id: int = Field(foreign_key="card.id", index=True)
    key: str
    num: int | None = None
    txt: str | None = None


class Collection(SQLModel, table=True):
    """A player's collection of one game's cards."""

    __tablename__ = "collection"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    name: str


class CollectionEntry(SQLModel, table=True):
    """Copies of a card owned; the card is named by its key (name, plus qualifier) so reloads keep it."""

    __tablename__ = "collection_entry"
    __table_args__ = (UniqueConstraint("collection_id", "card_key"),)

    id: int | None = Field(default=None, primary_key=True)
    collection_id: int = Field(foreign_key="collection.id", index=True)
    card_key: str
    count: int = 0


class BoosterOpening(SQLModel, table=True):
    """A booster a player opened: when, with which seed, and what it held (card keys, JSON list)."""

    __tablename__ = "booster_opening"

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    player: str = Field(index=True)
    opened_at: datetime
    seed: int | None = None
    cards: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))


class SchemaInfo(SQLModel, table=True):
    """The catalogue's schema version (one row), so an older catalogue can be recognised and upgraded."""

    __tablename__ = "schema_info"

    id: int = Field(default=1, primary_key=True)
    version: int
