"""An index on (game_id, position): every listing and search orders cards this way, and an import reads the
last position of its game; with tens of thousands of cards both were a full scan.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_card_game_position", "card", ["game_id", "position"])
    op.execute("UPDATE schema_info SET version = 2 WHERE id = 1")


def downgrade() -> None:
    op.drop_index("ix_card_game_position", table_name="card")
    op.execute("UPDATE schema_info SET version = 1 WHERE id = 1")
