"""Reading user files as text safely: size limit, binary detection, encodings, all with clear messages."""

from __future__ import annotations

from pathlib import Path

from carddb.errors import InputError

MAX_BYTES = 32 * 1024 * 1024


def read_text_file(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> str:
    """The text of a UTF-8 file (a UTF-8 or UTF-16 BOM is honoured); refuses folders, binary and huge files."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such {what}")
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a {what}")
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"{path}: {size / 1_048_576:.0f} MB is too big for a {what} "
                         f"(the limit is {max_bytes // 1_048_576} MB)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    if not data.strip():
        raise InputError(f"{path}: the {what} is empty")
    return decode_text(data, str(path), what)


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
