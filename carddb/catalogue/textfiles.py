"""Reading user files as text safely: size limit, binary detection, encodings, all with clear messages."""

from __future__ import annotations

from pathlib import Path

from carddb.errors import InputError

MAX_BYTES = 32 * 1024 * 1024


def read_user_file(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a file a user named; a missing file, a folder or one over ``max_bytes`` is an InputError."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such {what}")
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a {what}")
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(f"{path}: {size / 1_048_576:.1f} MB is too big for a {what} "
                             f"(the limit is {max_bytes // 1_048_576} MB)")
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def read_text_file(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> str:
    """The text of a UTF-8 file (a UTF-8 or UTF-16 BOM is honoured); refuses folders, binary and huge files."""
    data = read_user_file(path, what=what, max_bytes=max_bytes)
    if not data.strip():
        raise InputError(f"{path}: the {what} is empty")
    return decode_text(data, str(path), what)


def read_deck_file(path: str | Path) -> str:
    """The text of a deck file in whatever encoding players save them (UTF-8, UTF-16, cp1252, Latin-1)."""
    from carddb.rules.deckfile import MAX_DECK_BYTES, decode_deck_bytes

    return decode_deck_bytes(read_user_file(path, what="deck file", max_bytes=MAX_DECK_BYTES), str(path))


def decode_text(data: bytes, name: str, what: str = "file") -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data[:8192]:
        raise InputError(f"{name}: looks like a binary file, not a {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: is not UTF-8 text (byte {exc.start} cannot be decoded); "
                         f"save the {what} as UTF-8") from None
