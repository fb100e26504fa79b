"""The bounds every reader of user input shares: how deep, how big, how long a value may be shown. Pure stdlib.

Shared by the readers of every layer (``carddb.files.reading`` for files, the search language, the deck
parsers, the card fields) so that a hostile input meets the same limits wherever it enters, and so that an
error message never echoes a huge or endlessly nested value in full.
"""

from __future__ import annotations

import reprlib
from typing import Any

from carddb.errors import InputError

#: The catalogue's INTEGER columns (card field values, collection counts, booster seeds) hold 32 bits on
#: PostgreSQL and 64 on SQLite; every whole number that can reach one is checked against the smaller range.
#: It is also well inside the integers JSON readers (JavaScript in the browser) keep exact.
SMALLEST_INT = -(2**31)
LARGEST_INT = 2**31 - 1

#: The most copies of one card a collection holds: more than any player owns, far inside the range above.
MAX_COPIES = 1_000_000

#: How deeply lists and mappings may nest in a YAML or JSON file (card files need 5 levels).
MAX_DEPTH = 50

#: How many characters of a user's value an error message shows.
SHOWN_CHARS = 60

_SHOW = reprlib.Repr()
_SHOW.maxstring = SHOWN_CHARS
_SHOW.maxother = SHOWN_CHARS
_SHOW.maxlong = 24
_SHOW.maxlist = _SHOW.maxtuple = _SHOW.maxdict = _SHOW.maxset = 3
_SHOW.maxlevel = 2


def shown(value: Any) -> str:
    """``repr(value)`` cut short: 3 items a list, 2 levels of nesting, at most ~80 characters in all.

    An alias bomb or a megabyte-long cell costs nothing to show this way (``repr`` of the whole value would
    build it all first).
    """
    text = _SHOW.repr(value)
    return text if len(text) <= SHOWN_CHARS + 20 else text[:SHOWN_CHARS + 17] + "..."


def in_int_range(number: int) -> bool:
    return SMALLEST_INT <= number <= LARGEST_INT


def int_range_text() -> str:
    return f"between {SMALLEST_INT:,} and {LARGEST_INT:,}"


def brief(value: Any) -> str:
    """Text as it is, cut to ~60 characters; anything else as ``shown`` gives it (for names inside messages)."""
    if isinstance(value, str):
        return value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS - 3] + "..."
    return shown(value)


#: More digits than any whole number carddb keeps (``LARGEST_INT`` has 10).
MAX_DIGITS = 20


def json_whole_number(text: str) -> int:
    """``json.loads``'s ``parse_int``: a number too long to be a value refused by name, the way an out-of-range
    value is (Python refuses more than 4,300 digits with a bare ``ValueError`` that no caller expects)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise InputError(f"a number of {len(text.lstrip('-')):,} digits is out of range: a whole number here is "
                         f"{int_range_text()}")
    return int(text)
