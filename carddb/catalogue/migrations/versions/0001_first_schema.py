"""The first catalogue schema (carddb 0.1): games, sets, cards, printings, searchable field values,
collections, booster openings and the schema_info row.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("definition_path", sa.String(), nullable=False),
    )
    op.create_table(
        "schema_info",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_table(
        "card_set",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("code", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.UniqueConstraint("game_id", "code"),
    )
    op.create_index("ix_card_set_game_id", "card_set", ["game_id"])
    op.create_table(
        "card",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("norm_name", sa.String(), nullable=False),
        sa.Column("qualifier", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("flavor", sa.Text(), nullable=False),
        sa.Column("fields", sa.JSON(), nullable=False),
        sa.Column("sample", sa.JSON(), nullable=False),
        sa.Column("search_text", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.UniqueConstraint("game_id", "norm_name", "qualifier"),
    )
    op.create_index("ix_card_game_id", "card", ["game_id"])
    op.create_index("ix_card_norm_name", "card", ["norm_name"])
    op.create_index("ix_card_kind", "card", ["kind"])
    op.create_table(
        "collection",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.UniqueConstraint("game_id", "name"),
    )
    op.create_index("ix_collection_game_id", "collection", ["game_id"])
    op.create_table(
        "booster_opening",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("player", sa.String(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),  # SQLModel stores UTC
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("cards", sa.JSON(), nullable=False),
    )
    op.create_index("ix_booster_opening_game_id", "booster_opening", ["game_id"])
    op.create_index("ix_booster_opening_player", "booster_opening", ["player"])
    op.create_table(
        "printing",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("card.id"), nullable=False),
        sa.Column("set_id", sa.Integer(), sa.ForeignKey("card_set.id"), nullable=False),
        sa.Column("number", sa.String(), nullable=False),
        sa.Column("rarity", sa.String(), nullable=False),
        sa.Column("art", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
    )
    op.create_index("ix_printing_set_id", "printing", ["set_id"])
    op.create_index("ix_printing_card_id", "printing", ["card_id"])
    op.create_table(
        "card_field",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("card_id", sa.Integer(), sa.ForeignKey("card.id"), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("num", sa.Integer(), nullable=True),
        sa.Column("txt", sa.String(), nullable=True),
    )
    op.create_index("ix_card_field_card_id", "card_field", ["card_id"])
    op.create_index("ix_card_field_key_num", "card_field", ["key", "num"])
    op.create_index("ix_card_field_key_txt", "card_field", ["key", "txt"])
    op.create_table(
        "collection_entry",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("collection_id", sa.Integer(), sa.ForeignKey("collection.id"), nullable=False),
        sa.Column("card_key", sa.String(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.UniqueConstraint("collection_id", "card_key"),
    )
    op.create_index("ix_collection_entry_collection_id", "collection_entry", ["collection_id"])
    op.execute("INSERT INTO schema_info (id, version) VALUES (1, 1)")


def downgrade() -> None:
    for table in ("collection_entry", "card_field", "printing", "booster_opening", "collection", "card",
                  "card_set", "schema_info", "game"):
        op.drop_table(table)
