"""The catalogue schema revision this carddb writes, known without importing SQLAlchemy or alembic (the
read-only path, ``read_only.py``, compares a catalogue file's revision with it)."""

#: the ``schema_info.version`` this carddb writes (the number of the head revision)
SCHEMA_VERSION = 4
#: the first revision: catalogues made before migrations existed have exactly its schema
FIRST_REVISION = "0001"
#: the revision the catalogue's tables are at when nothing needs doing (tests check alembic agrees)
HEAD_REVISION = f"{SCHEMA_VERSION:04d}"
