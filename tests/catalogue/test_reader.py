"""The quick sqlite3 reader gives exactly what the full catalogue gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.catalogue.reader import SqliteReader, open_reader
from carddb.errors import InputError, UnknownGameError


def test_reader_matches_the_catalogue(loaded_db: str, catalogue) -> None:
    reader = open_reader(loaded_db)
    assert isinstance(reader, SqliteReader) or "://" in loaded_db  # a database URL reads through the Catalogue
    for game_id in catalogue.games():
        assert reader.cards(game_id) == catalogue.cards(game_id)
        assert reader.game(game_id).zones == catalogue.game(game_id).zones
    assert reader.cards("website", "apsn") == catalogue.cards("website", "apsn")


def test_reader_errors(loaded_db: str, tmp_path: Path) -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'zelda'"):
        open_reader(loaded_db).game("zelda")
    with pytest.raises(InputError, match=r"no catalogue at .*run 'carddb build'"):
        open_reader(str(tmp_path / "missing.db"))
