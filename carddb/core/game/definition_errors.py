"""Errors of game definitions, kept apart so every rules module can raise them without import cycles."""

from __future__ import annotations

from carddb.errors import DefinitionError


def definition_error(where: str, message: str) -> DefinitionError:
    """``where`` is ``file: key.path`` (the loader prefixes the file); the message says what is wrong."""
    return DefinitionError(f"{where}: {message}")
