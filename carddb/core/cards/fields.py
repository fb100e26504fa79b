"""Typed per-game card fields: declaration, coercion of raw values and validation. Pure standard library.

Field types a game may declare:

==========  ==========================================  ===================================
type        value                                       written in a CSV cell as
==========  ==========================================  ===================================
``int``     an integer (``also`` admits words, e.g. X)  ``3`` or ``X``
``str``     a short string                              as is
``text``    a long string (rules text)                  as is, line breaks kept
``bool``    true or false                               ``true``/``false`` (yes/no, 1/0)
``choice``  one of ``choices``                          as is (matched ignoring case)
``list``    list of strings (``choices`` optional)      ``a; b; c``
``map``     string -> integer                           ``Mushroom=1; Fire Flower=1``
==========  ==========================================  ===================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carddb.core.limits import in_int_range, int_range_text, shown

FIELD_TYPES = ("int", "str", "text", "bool", "choice", "list", "map")
LIST_SEPARATOR = ";"

_TRUE = {"true", "yes", "y", "1", "x"}
_FALSE = {"false", "no", "n", "0", ""}


class FieldValueError(ValueError):
    """A value that does not fit its field; the message is written for a person."""


@dataclass(frozen=True, slots=True)
class FieldDef:
    key: str
    type: str
    label: str
    choices: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""
    computed: str = ""

    @property
    def is_numeric(self) -> bool:
        return self.type == "int"

    def coerce(self, value: Any) -> Any:
        """Turn a raw value (from YAML, JSON or a CSV cell) into the field's typed value.

        Empty values become ``None`` (the card does not have the field), except for bool which is False.
        Raises ``FieldValueError`` with a message naming what was expected.
        """
        if value is None or (isinstance(value, str) and value.strip() == "" and self.type != "bool"):
            return None
        handler = getattr(self, f"_coerce_{self.type}")
        return handler(value)

    def _coerce_int(self, value: Any) -> int | str:
        if isinstance(value, bool | list | tuple | dict):
            raise FieldValueError(f"expected a whole number, got {shown(value)}")
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip()
            for word in self.also:
                if text.casefold() == word.casefold():
                    return word
            try:
                number = int(text)
            except ValueError:
                extra = f" or {' / '.join(self.also)}" if self.also else ""
                raise FieldValueError(f"expected a whole number{extra}, got {shown(text)}") from None
        if not in_int_range(number):
            raise FieldValueError(f"{shown(number)} is out of range: a whole number here is {int_range_text()}")
        if self.minimum is not None and number < self.minimum:
            raise FieldValueError(f"{number} is below the minimum {self.minimum}")
        if self.maximum is not None and number > self.maximum:
            raise FieldValueError(f"{number} is above the maximum {self.maximum}")
        return number

    def _coerce_str(self, value: Any) -> str:
        if isinstance(value, list | dict):
            raise FieldValueError(f"expected text, got {shown(value)}")
        return str(value).strip()

    def _coerce_text(self, value: Any) -> str:
        if isinstance(value, list | dict):
            raise FieldValueError(f"expected text, got {shown(value)}")
        return str(value).replace("\r\n", "\n").strip()

    def _coerce_bool(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().casefold()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise FieldValueError(f"expected true or false, got {shown(value)}")

    def _coerce_choice(self, value: Any) -> str:
        return self._one_choice(self._coerce_str(value))

    def _one_choice(self, text: str) -> str:
        if not self.choices:
            return text
        for choice in self.choices:
            if choice.casefold() == text.casefold():
                return choice
        raise FieldValueError(f"{shown(text)} is not one of {', '.join(self.choices)}")

    def _coerce_list(self, value: Any) -> list[str] | None:
        if isinstance(value, str):
            items = [part.strip() for part in value.split(LIST_SEPARATOR)]
        elif isinstance(value, list | tuple):
            nested = next((part for part in value if isinstance(part, list | tuple | dict)), None)
            if nested is not None:
                raise FieldValueError(f"expected a list of words, but an item is itself a "
                                      f"{'mapping' if isinstance(nested, dict) else 'list'}: {shown(nested)}")
            items = [("" if part is None else str(part)).strip() for part in value]
        else:
            raise FieldValueError(f"expected a list, got {shown(value)}")
        items = [self._one_choice(item) for item in items if item]
        return items or None

    def _coerce_map(self, value: Any) -> dict[str, int] | None:
        if isinstance(value, str):
            pairs: dict[str, Any] = {}
            for part in value.split(LIST_SEPARATOR):
                if not part.strip():
                    continue
                name, sep, amount = part.rpartition("=")
                if not sep or not name.strip():
                    raise FieldValueError(f"expected 'Name=number' pairs, got {shown(part.strip())}")
                pairs[name.strip()] = amount.strip()
        elif isinstance(value, dict):
            pairs = dict(value)
        else:
            raise FieldValueError(f"expected Name=number pairs, got {shown(value)}")
        result: dict[str, int] = {}
        for name, amount in pairs.items():
            if isinstance(amount, bool | list | dict | float) or isinstance(name, list | dict | tuple):
                raise FieldValueError(f"{shown(name)}: expected a whole number, got {shown(amount)}")
            try:
                number = int(str(amount).lstrip("+"))
            except ValueError:
                raise FieldValueError(f"{shown(name)}: expected a whole number, got {shown(amount)}") from None
            if not in_int_range(number):
                raise FieldValueError(f"{shown(name)}: {shown(number)} is out of range: a whole number here is "
                                      f"{int_range_text()}")
            result[str(name)] = number
        return result or None

    def to_cell(self, value: Any) -> str:
        """The inverse of ``coerce`` for CSV cells."""
        if value is None:
            return ""
        if self.type == "bool":
            return "true" if value else "false"
        if self.type == "list":
            return f"{LIST_SEPARATOR} ".join(value)
        if self.type == "map":
            return f"{LIST_SEPARATOR} ".join(f"{k}={v}" for k, v in value.items())
        return str(value)
