"""Reading a deck file from disk for the deck commands: every way it can fail is a clear ``InputError``."""

from __future__ import annotations

from pathlib import Path

from carddb.errors import InputError
from carddb.rules.deckfile import MAX_DECK_BYTES, decode_deck_bytes


def read_deck_file(path: str | Path) -> str:
    """The text of a deck file (exit code 2 when it is missing, a folder, too big, or not text)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a deck file")
    try:
        size = path.stat().st_size
        if size > MAX_DECK_BYTES:
            raise InputError(f"{path} is {size / 1048576:.1f} MB; a deck file may be at most "
                             f"{MAX_DECK_BYTES // 1048576} MB")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path} cannot be read ({exc.strerror or exc})") from None
    return decode_deck_bytes(data, str(path))
