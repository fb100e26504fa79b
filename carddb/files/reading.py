"""Reading the files users hand carddb: bounded, type-checked, every failure one clear ``InputError``.

A shared card file may be broken or made to hurt. So a file is opened without blocking (a named pipe or a
device opens at once instead of hanging), the opened descriptor is checked to be a regular file (a symlink
to ``/dev/zero`` is a device, whatever ``stat`` of the link said), and its size is counted as it streams,
so a file that grows or lies about its size still stops at the limit. Text is UTF-8 unless a byte order
mark says UTF-16 or UTF-32, strictly decoded. YAML and JSON are parsed with depth limits, and YAML with a
bound on what its aliases expand to (an alias bomb fails at once, in bounded memory).
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
from functools import cache
from pathlib import Path
from typing import Any

from carddb.core.limits import MAX_DEPTH
from carddb.errors import InputError

#: The largest user file read (card files, dumps, game definitions); deck files have their own, smaller limit.
MAX_BYTES = 32 * 1024 * 1024
_BLOCK = 1 << 20
#: YAML aliases may add at most this many nodes to a file (more than any card file sharing values needs),
#: or ten times the file's own nodes when that is more.
MAX_ALIAS_NODES = 100_000

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"))
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.1f} MB" if size >= 104_858 else f"{size:,} bytes"


def _whole_megabytes(size: int) -> str:
    return f"{size // 1_048_576} MB" if size % 1_048_576 == 0 else _megabytes(size)


def read_user_file(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file a user named; anything else (missing, a folder, a pipe, a device, over
    ``max_bytes``, unreadable) is an ``InputError`` naming the file."""
    path = Path(path)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise InputError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a {what}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise InputError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        info = os.fstat(fd)  # of what was opened: a symlink's target, not the link
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{path}: is a folder, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: is {_kind_of(info.st_mode)}, not a {what}; carddb reads only ordinary "
                             "files")
        limit = f"the limit is {_whole_megabytes(max_bytes)}"
        if info.st_size > max_bytes:
            raise InputError(f"{path}: {_megabytes(info.st_size)} is too big for a {what} ({limit})")
        blocks, total = [], 0
        while True:
            block = os.read(fd, min(_BLOCK, max_bytes + 1 - total))
            if not block:
                break
            total += len(block)
            if total > max_bytes:
                raise InputError(f"{path}: more than {_whole_megabytes(max_bytes)} is too big for a {what} ({limit})")
            blocks.append(block)
        return b"".join(blocks)
    except BlockingIOError:
        raise InputError(f"{path}: cannot be read without waiting; not a {what}") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def read_text_file(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> str:
    """The text of a UTF-8 file (a UTF-8, UTF-16 or UTF-32 byte order mark is honoured); refuses folders,
    binary, empty and huge files."""
    data = read_user_file(path, what=what, max_bytes=max_bytes)
    text = decode_text(data, str(path), what)
    if not text.strip():
        raise InputError(f"{path}: the {what} is empty")
    return text


def read_deck_file(path: str | Path) -> str:
    """The text of a deck file in whatever encoding players save them (UTF-8, UTF-16, cp1252, Latin-1)."""
    from carddb.core.decks.file import MAX_DECK_BYTES, decode_deck_bytes

    return decode_deck_bytes(read_user_file(path, what="deck file", max_bytes=MAX_DECK_BYTES), str(path))


def decode_text(data: bytes, name: str, what: str = "file") -> str:
    """Strict decoding: a byte order mark decides (an odd byte count after a UTF-16 one is an error), else UTF-8."""
    for bom, encoding, label in _BOMS:
        if data.startswith(bom):
            body = data[len(bom):]
            width = 4 if label == "UTF-32" else 2 if label == "UTF-16" else 1
            if len(body) % width:
                raise InputError(f"{name}: starts with a {label} byte order mark but its length is not a whole "
                                 f"number of {label} characters (a cut-off file?); save the {what} again")
            try:
                text = body.decode(encoding)
            except UnicodeDecodeError as exc:
                raise InputError(f"{name}: starts with a {label} byte order mark but is not {label} text "
                                 f"(byte {exc.start + len(bom)} cannot be decoded)") from None
            break
    else:
        if b"\x00" in data[:8192]:
            raise InputError(f"{name}: looks like a binary file, not a {what}")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{name}: is not UTF-8 text (byte {exc.start} cannot be decoded); "
                             f"save the {what} as UTF-8") from None
    if "\x00" in text:
        raise InputError(f"{name}: holds NUL characters; looks like a binary file, not a {what}")
    return text


# --- structured text ------------------------------------------------------------------------------------

@cache
def _bounded_loader() -> type:
    """PyYAML's safe loader with a nesting limit and a bound on what aliases expand to (built on first use:
    importing PyYAML costs more than the whole of a plain ``deck check``, which never reads YAML).

    Aliases share one node, so a "billion laughs" file is small to compose but enormous to walk; every node
    is counted with what it expands to, and the file is refused as soon as aliases add too much.
    """
    import yaml
    from yaml.events import AliasEvent

    class BoundedLoader(yaml.SafeLoader):
        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self._depth = 0
            self._nodes = 0  # nodes written in the file
            self._aliased = 0  # nodes added by aliases
            self._sizes: dict[int, int] = {}

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(AliasEvent):
                mark = self.peek_event().start_mark
                node = super().compose_node(parent, index)
                if id(node) not in self._sizes:  # still being composed: the value would hold itself
                    raise _YamlLimit(f"line {mark.line + 1}: an alias refers to the value that holds it")
                self._aliased += self._sizes[id(node)]
                bound = max(MAX_ALIAS_NODES, 10 * self._nodes)
                if self._aliased > bound:
                    raise _YamlLimit(f"line {mark.line + 1}: its aliases expand to more than {bound:,} values "
                                     "(an alias bomb?)")
                return node
            self._depth += 1
            if self._depth > MAX_DEPTH:
                line = self.peek_event().start_mark.line + 1
                raise _YamlLimit(f"line {line}: nested more than {MAX_DEPTH} levels deep")
            before = self._nodes + self._aliased
            node = super().compose_node(parent, index)
            self._depth -= 1
            self._nodes += 1
            self._sizes[id(node)] = self._nodes + self._aliased - before
            return node

    return BoundedLoader


class _YamlLimit(Exception):
    pass


#: Where a YAML text may hold an anchor or an alias (``&name``, ``*name``) as a token: such a text is read by the
#: bounded loader; one without (nearly every card file) by libyaml, ten times faster, whose own nesting limit
#: is 1,000 levels. A false alarm (``*bold*`` in a plain scalar) only costs the slower reader.
_MAY_ALIAS = re.compile(r"(?:^|[\s\[\]{},:?-])[&*][^\s\[\]{},]", re.M)


def yaml_loader(text: str) -> Any:
    """A PyYAML safe loader for ``text``: libyaml's when the text can hold no alias, else the bounded one."""
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None and not _MAY_ALIAS.search(text):
        return fast(text)
    return _bounded_loader()(text)


def yaml_document(text: str, name: str, what: str = "file") -> tuple[Any, Any]:
    """The YAML document's root node and its data (safe: no Python objects), within the depth and alias
    limits; an ``InputError`` naming the file and line otherwise."""
    import yaml

    loader = None
    try:
        loader = yaml_loader(text)  # the reader refuses control characters already here
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    except _YamlLimit as exc:
        raise InputError(f"{name} {exc}; not read as a {what}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        hint = _yaml_hint(f"{getattr(exc, 'context', '')} {problem}", text, mark)
        raise InputError(f"{name}{where}: not valid YAML ({problem})", hint=hint) from None
    except (RecursionError, ValueError) as exc:  # ValueError: a number with more digits than Python reads
        raise InputError(f"{name}: cannot be read as YAML ({type(exc).__name__}: {str(exc)[:80]})") from None
    finally:
        if loader is not None:
            loader.dispose()


def _yaml_hint(problem: str, text: str, mark: Any) -> str | None:
    """What to do about the YAML mistakes people make in card text: a colon followed by a space inside a value
    (``text: Draw 2: then discard``) starts a mapping, and a value that opens with a quote must close with it."""
    line = text.splitlines()[mark.line] if mark is not None and mark.line < len(text.splitlines()) else ""
    key, colon, value = line.strip().removeprefix("- ").partition(": ")
    if "mapping values are not allowed" in problem:
        shown = (f'{key}: "{value.strip()}"' if colon and len(line) < 200 and '"' not in value
                 else 'text: "Draw 2: then ..."')
        return f"a colon followed by a space inside a value starts a new key: put the value in quotes ({shown})"
    if "quoted scalar" in problem:
        return "a value that starts with a quote must end with the same quote"
    return None


def load_yaml(text: str, name: str, what: str = "file") -> Any:
    """The data of a YAML text (``yaml_document``)."""
    return yaml_document(text, name, what)[1]


def load_json(text: str, name: str) -> Any:
    """Parse JSON; nesting beyond the interpreter's reach or an absurdly long number is an ``InputError``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise InputError(f"{name}: nested too deeply to be read as JSON") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise InputError(f"{name}: cannot be read as JSON ({str(exc)[:80]})") from None
    if _depth(data) > MAX_DEPTH:
        raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep")
    return data


def read_json_file(path: str | Path, *, what: str = "file", max_bytes: int = MAX_BYTES) -> Any:
    return load_json(read_text_file(path, what=what, max_bytes=max_bytes), str(path))


def load_toml(text: str, name: str) -> dict[str, Any]:
    """Parse TOML (``tomllib``); an error, deep nesting or a giant number is an ``InputError`` naming the file."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{name}: not valid TOML ({exc})") from None
    except (RecursionError, ValueError) as exc:
        raise InputError(f"{name}: cannot be read as TOML ({type(exc).__name__})") from None


def _depth(data: Any) -> int:
    """How deeply lists and mappings nest (at most ``MAX_DEPTH + 1``), a level at a time and only through lists and
    mappings (iteratively: a deep value must not exhaust the stack here either; a build's manifests hold millions
    of strings, which are looked at once each)."""
    deepest, level = 0, [data] if isinstance(data, dict | list) else []
    while level:
        deepest += 1
        if deepest > MAX_DEPTH:
            break
        level = [child for value in level for child in (value.values() if isinstance(value, dict) else value)
                 if isinstance(child, dict | list)]
    return deepest
