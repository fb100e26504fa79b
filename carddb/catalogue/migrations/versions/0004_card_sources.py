"""Where each card came from: the kind of source (a workspace card file, an imported file, an edit in the
catalogue), its name, when, and a fingerprint of the card as that source gave it (docs/catalogue.md).

Cards of an older catalogue get the kind 'unknown': the next ``carddb build`` adopts those that are in a
workspace card file as that file's cards, and keeps the others as they are.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs (batch mode adds them in place on SQLite too: no table rebuild), with defaults that
    # fill the rows already there.
    with op.batch_alter_table("card") as batch:
        batch.add_column(sa.Column("source_kind", sa.String(), nullable=False, server_default="unknown"))
        batch.add_column(sa.Column("source_name", sa.String(), nullable=False, server_default=""))
        batch.add_column(sa.Column("source_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("source_fingerprint", sa.String(), nullable=False, server_default=""))
    op.execute("UPDATE schema_info SET version = 4 WHERE id = 1")


def downgrade() -> None:
    with op.batch_alter_table("card") as batch:
        for column in ("source_fingerprint", "source_at", "source_name", "source_kind"):
            batch.drop_column(column)
    op.execute("UPDATE schema_info SET version = 3 WHERE id = 1")
