"""A failed write says what really failed: another writer, a full disk, or, for anything else, carddb's own bug
(which goes to the crash report as the driver raised it, never disguised as a busy catalogue)."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.exc import OperationalError

from carddb.catalogue.api import write_failure
from carddb.errors import ConflictError, OutputError


def _failed(message: str) -> OperationalError:
    return OperationalError("INSERT INTO card ...", {}, sqlite3.OperationalError(message))


def test_a_lock_is_another_writer() -> None:
    error = write_failure(_failed("database is locked"), "output/catalogue.db")
    assert isinstance(error, ConflictError)
    assert str(error).startswith("another writer kept the catalogue output/catalogue.db busy")


def test_a_full_disk_is_an_output_error() -> None:
    error = write_failure(_failed("database or disk is full"), "output/catalogue.db")
    assert isinstance(error, OutputError) and error.exit_code == 3
    assert "could not be written (database or disk is full)" in str(error)


@pytest.mark.parametrize("message", ["no such table: card", "no such column: card.luck"])
def test_anything_else_is_raised_as_it_is(message: str) -> None:
    original = _failed(message)
    assert write_failure(original, "output/catalogue.db") is original


def test_postgresql_says_it_with_a_sqlstate() -> None:
    class LockNotAvailable(Exception):
        sqlstate = "55P03"

    error = write_failure(OperationalError("UPDATE", {}, LockNotAvailable("canceling statement due to lock "
                                                                          "timeout")), "postgresql://h/db")
    assert isinstance(error, ConflictError) and "lock timeout" in str(error)
