"""What a sample deck promises the checker finds (docs/deck-files.md, "Sample decks and their expectation line").

Its first lines hold ``# expect: illegal; errors: copy-limit`` (a ``.dec`` after ``//NAME:``); a file that
cannot keep a comment (a LackeyCCG ``.dek``) promises by its name: ``legal-...``, ``legal-warn-<code>-...``,
``illegal-<code>-...``. ``carddb build`` compares every sample deck's problems with its promise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from carddb.core.game.definition import SEVERITIES

_EXPECT = re.compile(r"expect:\s*(?P<verdict>legal|illegal)(?P<rest>.*)")
#: How many first lines may hold the ``expect:`` line.
_LOOKED_AT = 5


@dataclass(frozen=True)
class Promise:
    legal: bool
    errors: frozenset[str] = field(default_factory=frozenset)
    warnings: frozenset[str] = field(default_factory=frozenset)


def read_promise(text: str, filename: str) -> Promise | None:
    """The deck's promise: its ``expect:`` line, else its name; None when neither promises anything."""
    for line in text.splitlines()[:_LOOKED_AT]:
        match = _EXPECT.search(line)
        if match:
            return Promise(match["verdict"] == "legal", _codes("errors", match["rest"]),
                           _codes("warnings", match["rest"]))
    return _from_name(filename.rsplit("/", 1)[-1].rsplit(".", 1)[0])


def _codes(label: str, rest: str) -> frozenset[str]:
    found = re.search(rf"{label}:\s*([a-z\-, ]+)", rest)
    return frozenset(c.strip() for c in found.group(1).split(",") if c.strip()) if found else frozenset()


def _from_name(stem: str) -> Promise | None:
    codes = sorted(SEVERITIES, key=len, reverse=True)
    for prefix, legal, warn in (("legal-warn-", True, True), ("illegal-", False, False), ("legal-", True, False)):
        if stem.startswith(prefix):
            code = next((c for c in codes if stem[len(prefix):].startswith(c)), None)
            if prefix == "legal-" or code is None:
                return Promise(legal)
            one = frozenset({code})
            return Promise(legal, frozenset() if warn else one, one if warn else frozenset())
    return None


def broken_promise(promise: Promise, legal: bool, problems: Iterable[tuple[str, str]]) -> str | None:
    """How the checker's verdict and ``problems`` ((severity, code) pairs) differ from the promise, in words;
    None when they keep it: the same verdict and exactly the promised codes."""
    problems = list(problems)
    errors = {code for severity, code in problems if severity == "error"}
    warnings = {code for severity, code in problems if severity == "warning"}
    differences = []
    if legal != promise.legal:
        differences.append(f"it is {'legal' if legal else 'illegal'}, not {'legal' if promise.legal else 'illegal'}")
    for what, wanted, found in (("errors", promise.errors, errors), ("warnings", promise.warnings, warnings)):
        missing = sorted(wanted - found)
        extra = sorted(found - wanted)
        if missing:
            differences.append(f"{what} promised but not found: {', '.join(missing)}")
        if extra:
            differences.append(f"{what} found but not promised: {', '.join(extra)}")
    return "; ".join(differences) or None
