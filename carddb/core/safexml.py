"""Reading deck XML (LackeyCCG ``.dek``, Cockatrice ``.cod``) without ever expanding an entity. Pure stdlib.

A file that declares an entity (``<!ENTITY``, or a DOCTYPE with an internal subset) is refused before
parsing: that closes the "billion laughs" expansion and external-entity (XXE) reads. A plain external
DOCTYPE, which older Lackey samples carry, is blanked out (line numbers kept) and never fetched. The
parser itself is expat with parameter entities off and a handler that stops at any entity declaration
that got past the first check.
"""

from __future__ import annotations

import re
from xml.parsers import expat

_ENTITY = re.compile(r"<!ENTITY", re.IGNORECASE)
_SUBSET = re.compile(r"<!DOCTYPE[^>]*\[", re.IGNORECASE)
_DECLARATION = re.compile(r"<!(ENTITY|DOCTYPE)", re.IGNORECASE)
_DOCTYPE = re.compile(r"<!DOCTYPE[^>\[]*>", re.IGNORECASE)


class EntityRefused(Exception):
    """Raised from inside expat when the document declares an entity after all."""


def entity_line(text: str) -> int | None:
    """The line of the first entity declaration or internal DOCTYPE subset, or None when there is none."""
    if not (_ENTITY.search(text) or _SUBSET.search(text)):
        return None
    match = _DECLARATION.search(text)
    return text[:match.start()].count("\n") + 1 if match else 1


def without_doctype(text: str) -> str:
    """``text`` with a plain DOCTYPE replaced by spaces, so line numbers stay what the file says."""
    return _DOCTYPE.sub(lambda m: " " * len(m.group(0)), text).lstrip("\ufeff")


def safe_parser() -> expat.XMLParserType:
    """An expat parser that never reads external or parameter entities and refuses entity declarations."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse(*args: object) -> None:
        raise EntityRefused("The file declares an XML entity; carddb refuses to expand it.")

    parser.EntityDeclHandler = refuse
    return parser
