"""The search language, in the style of Scryfall, built from the games' declared fields.

    type:fire level<=3 "draw a card" set:base -limited (kind:spell or kind:trap)

Terms are ANDed; ``or`` joins alternatives; parentheses group; ``-`` negates. A term is a quoted phrase or a
word (free text in name and text, or a value of a list or choice field), a flag (a true/false field:
``limited``), or ``key OP value`` where OP is
``:`` (equals; contains for text; holds for lists), ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``. Keys are
the games' field keys plus ``name``, ``text``, ``kind``, ``set``, ``rarity`` and ``game``. Parsing knows the
fields (from the game definitions) and compiles to portable SQL; see docs/search.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import and_, func, not_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from carddb.catalogue.models import CardRow, FieldValueRow, PrintingRow, SetRow
from carddb.core.cards.card import normalise_name
from carddb.core.cards.fields import FieldDef
from carddb.core.search.query import (  # the parser is pure (the browser runs it too); the SQL is here
    BUILTIN_KEYS,
    TRUE_WORDS,
    And,
    Node,
    Not,
    Or,
    SearchError,
    Term,
    not_a_number,
    not_true_or_false,
    parse,
    unknown_field,
    whole_number,
    word_fields,
)

__all__ = ["BUILTIN_KEYS", "And", "Node", "Not", "Or", "SearchError", "Term", "compile_query", "parse"]


def compile_query(node: Node, fields: Mapping[str, FieldDef], query: str) -> ColumnElement[bool]:
    """SQL for a parsed query; ``fields`` are the declared fields of the games searched."""
    if isinstance(node, And):
        return and_(*(compile_query(p, fields, query) for p in node.parts))
    if isinstance(node, Or):
        return or_(*(compile_query(p, fields, query) for p in node.parts))
    if isinstance(node, Not):
        return not_(compile_query(node.inner, fields, query))
    return _term(node, fields, query)


def _term(term: Term, fields: Mapping[str, FieldDef], query: str) -> ColumnElement[bool]:
    if term.key == "" and term.op == "word" and term.value.lower() in fields:
        flag = fields[term.value.lower()]
        if flag.type == "bool":
            return _field_in(FieldValueRow.key == flag.key, FieldValueRow.num == 1)
    if term.key == "":
        keys = word_fields(fields)
        in_text = CardRow.search_text.like(_contains(term.value), escape="\\")
        if not keys:
            return in_text
        return or_(in_text, _field_in(FieldValueRow.key.in_(keys), FieldValueRow.txt == normalise_name(term.value)))
    value = normalise_name(term.value)
    if term.key in BUILTIN_KEYS:
        return _builtin(term, value, query)
    if term.key not in fields:
        raise unknown_field(term, fields, query)
    definition = fields[term.key]
    key_is = FieldValueRow.key == definition.key
    if term.op in ("<", "<=", ">", ">="):
        if definition.type not in ("int", "map"):
            raise not_a_number(term, query)
        number = whole_number(term, query)
        compare = {"<": FieldValueRow.num < number, "<=": FieldValueRow.num <= number,
                   ">": FieldValueRow.num > number, ">=": FieldValueRow.num >= number}[term.op]
        return _field_in(key_is, compare)
    if definition.type == "bool":
        wanted = value in TRUE_WORDS
        if value not in (*TRUE_WORDS, "false", "no", "0", "n"):
            raise not_true_or_false(term, query)
        held = _field_in(key_is, FieldValueRow.num == 1)
        matched = held if wanted else not_(held)
    elif definition.type == "int":
        if value.lstrip("-").isdigit():
            matched = _field_in(key_is, FieldValueRow.num == whole_number(term, query))
        else:
            matched = _field_in(key_is, FieldValueRow.txt == value)
    elif definition.type == "text" and term.op == ":":
        matched = _field_in(key_is, FieldValueRow.txt.like(_contains(value), escape="\\"))
    else:
        matched = _field_in(key_is, FieldValueRow.txt == value)
    return not_(matched) if term.op == "!=" else matched


def _builtin(term: Term, value: str, query: str) -> ColumnElement[bool]:
    if term.op in ("<", "<=", ">", ">="):
        raise not_a_number(term, query)
    if term.key == "name":
        matched = CardRow.norm_name == value if term.op == "=" else CardRow.norm_name.like(_contains(value),
                                                                                          escape="\\")
    elif term.key == "text":
        matched = CardRow.search_text.like(_contains(value), escape="\\")
    elif term.key == "kind":
        matched = func.lower(CardRow.kind) == value
    elif term.key == "game":
        matched = CardRow.game_id == value
    elif term.key == "set":
        in_set = (select(PrintingRow.card_id).join(SetRow, SetRow.id == PrintingRow.set_id)
                  .where(or_(func.lower(SetRow.code) == value, func.lower(SetRow.name) == value)))
        matched = CardRow.id.in_(in_set)
    else:
        matched = CardRow.id.in_(select(PrintingRow.card_id).where(func.lower(PrintingRow.rarity) == value))
    return not_(matched) if term.op == "!=" else matched


def _field_in(*conditions: ColumnElement[bool]) -> ColumnElement[bool]:
    return CardRow.id.in_(select(FieldValueRow.card_id).where(*conditions))


def _contains(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{normalise_name(escaped)}%"

