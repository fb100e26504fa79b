"""A tiny fail-closed reader for TOML tables: every key known, every value of the right type.

The game definition loader describes each table as a mapping of key -> (type, required); anything else in
the file is an error naming the file and the key path. Pure standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carddb.core.game.definition_errors import definition_error

Spec = Mapping[str, tuple[Any, bool]]

_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "a table",
               float: "a number"}


def read_table(raw: Any, spec: Spec, where: str) -> dict[str, Any]:
    """Check ``raw`` against ``spec`` and return it as a plain dict (missing optional keys absent)."""
    if not isinstance(raw, Mapping):
        raise definition_error(where, "must be a table")
    for key in raw:
        if key not in spec:
            raise definition_error(f"{where}.{key}" if where else key,
                                   f"unknown key; expected one of {', '.join(sorted(spec))}")
    out: dict[str, Any] = {}
    for key, (kind, required) in spec.items():
        path = f"{where}.{key}" if where else key
        if key not in raw:
            if required:
                raise definition_error(path, "is required")
            continue
        value = raw[key]
        if not _is(value, kind):
            raise definition_error(path, f"must be {_describe(kind)}, not {value!r}")
        out[key] = value
    return out


def _is(value: Any, kind: Any) -> bool:
    if isinstance(kind, tuple):
        return any(_is(value, k) for k in kind)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "ints":
        return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if kind == "any":
        return True
    return isinstance(value, kind)


def _describe(kind: Any) -> str:
    if isinstance(kind, tuple):
        return " or ".join(_describe(k) for k in kind)
    if kind == "strings":
        return "a list of strings"
    if kind == "ints":
        return "a list of integers"
    return _TYPE_NAMES.get(kind, str(kind))
