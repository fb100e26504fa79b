"""The Alembic environment: the connection comes from ``carddb.catalogue.db`` (``config.attributes``).

The caller has already begun a transaction (and, on PostgreSQL, taken the migration lock), so every revision
of one upgrade runs inside that transaction: a failed or killed upgrade leaves the catalogue as it was.
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from carddb.catalogue import models  # noqa: F401  (registers the tables on SQLModel.metadata)

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    # SQLite cannot ALTER most things: batch mode rebuilds the table, inside the same transaction
    render_as_batch=connection.dialect.name == "sqlite",
    # both engines roll DDL back (SQLite too, given the explicit BEGIN that carddb.catalogue.db issues)
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
