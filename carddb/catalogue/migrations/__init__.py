"""Alembic migrations of the catalogue schema, run by ``carddb.catalogue.db`` (no alembic.ini needed).

A developer adds a revision with the schema change in ``versions/`` (the next number, ``down_revision`` the
previous one) and the matching change in ``models.py``; ``tests/catalogue/test_migrations.py`` checks that the
migrated schema equals the models on every engine.
"""
