"""The search language, in the style of Scryfall, built from the games' declared fields.

    type:fire level<=3 "draw a card" set:base -limited (kind:spell or kind:trap)

Terms are ANDed; ``or`` joins alternatives; parentheses group; ``-`` negates. A term is a quoted phrase or a
word (free text in name and text), a flag (a true/false field: ``limited``), or ``key OP value`` where OP is
``:`` (equals; contains for text; holds for lists), ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``. Keys are
the games' field keys plus ``name``, ``text``, ``kind``, ``set``, ``rarity`` and ``game``. Parsing knows the
fields (from the game definitions) and compiles to portable SQL; see docs/search.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import and_, func, not_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from carddb.catalogue.models import CardRow, FieldValueRow, PrintingRow, SetRow
from carddb.errors import InputError
from carddb.rules.cards import normalise_name
from carddb.rules.fields import FieldDef

BUILTIN_KEYS = ("name", "text", "kind", "set", "rarity", "game")
_OPS = ("<=", ">=", "!=", "<", ">", "=", ":")
_TOKEN = re.compile(r'\s*(?:(?P<open>\()|(?P<close>\))|(?P<neg>-)(?=[^\s)])|(?P<quoted>"(?:[^"\\]|\\.)*"?)'
                    r'|(?P<word>(?:[^\s()"]|"[^"]*")+))')
_TERM = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_]*)(?P<op><=|>=|!=|<|>|=|:)(?P<value>.*)$", re.S)


class SearchError(InputError):
    """A query that cannot be understood; the message says which part and why."""


@dataclass(frozen=True)
class Term:
    key: str  # "" for free text
    op: str
    value: str


@dataclass(frozen=True)
class Not:
    inner: Node


@dataclass(frozen=True)
class And:
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    parts: tuple[Node, ...]


Node = Term | Not | And | Or


def parse(query: str) -> Node:
    tokens = _tokenise(query)
    parser = _Parser(tokens, query)
    node = parser.or_expr()
    if parser.pos < len(tokens):
        raise SearchError(f"search {query!r}: unexpected {tokens[parser.pos][1]!r}")
    return node


def _tokenise(query: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(query):
        match = _TOKEN.match(query, pos)
        if not match or match.end() == pos:
            if query[pos:].strip() == "":
                break
            raise SearchError(f"search {query!r}: cannot read {query[pos:].strip()!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], query: str) -> None:
        self.tokens, self.pos, self.query = tokens, 0, query

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def or_expr(self) -> Node:
        parts = [self.and_expr()]
        while ((tok := self.peek()) and tok == ("word", "or")) or tok == ("word", "OR"):
            self.pos += 1
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def and_expr(self) -> Node:
        parts = []
        while (tok := self.peek()) and tok[0] != "close" and tok[1] not in ("or", "OR"):
            parts.append(self.unary())
        if not parts:
            raise SearchError(f"search {self.query!r}: expected a term")
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary(self) -> Node:
        kind, text = self.tokens[self.pos]
        self.pos += 1
        if kind == "neg":
            return Not(self.unary())
        if kind == "open":
            node = self.or_expr()
            if self.peek() is None or self.peek()[0] != "close":  # type: ignore[index]
                raise SearchError(f"search {self.query!r}: a '(' is not closed")
            self.pos += 1
            return node
        if kind == "quoted":
            return Term("", ":", _unquote(text))
        match = _TERM.match(text)
        if match:
            return Term(match["key"].lower(), match["op"], _unquote(match["value"]))
        return Term("", "word", text)


def _unquote(text: str) -> str:
    if text.startswith('"'):
        text = text[1:-1] if text.endswith('"') and len(text) > 1 else text[1:]
    return text.replace('\\"', '"')


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
        return CardRow.search_text.like(_contains(term.value), escape="\\")
    value = normalise_name(term.value)
    if term.key in BUILTIN_KEYS:
        return _builtin(term, value, query)
    if term.key not in fields:
        known = ", ".join([*BUILTIN_KEYS, *fields])
        raise SearchError(f"search {query!r}: unknown field {term.key!r}; fields are {known}")
    definition = fields[term.key]
    key_is = FieldValueRow.key == definition.key
    if term.op in ("<", "<=", ">", ">="):
        if definition.type not in ("int", "map"):
            raise SearchError(f"search {query!r}: {term.key} is not a number, so {term.op} does not apply")
        number = _number(term, query)
        compare = {"<": FieldValueRow.num < number, "<=": FieldValueRow.num <= number,
                   ">": FieldValueRow.num > number, ">=": FieldValueRow.num >= number}[term.op]
        return _field_in(key_is, compare)
    if definition.type == "bool":
        wanted = value in ("true", "yes", "1", "y")
        if value not in ("true", "yes", "1", "y", "false", "no", "0", "n"):
            raise SearchError(f"search {query!r}: {term.key} is true or false, not {term.value!r}")
        held = _field_in(key_is, FieldValueRow.num == 1)
        matched = held if wanted else not_(held)
    elif definition.type == "int":
        if value.lstrip("-").isdigit():
            matched = _field_in(key_is, FieldValueRow.num == int(value))
        else:
            matched = _field_in(key_is, FieldValueRow.txt == value)
    elif definition.type == "text" and term.op == ":":
        matched = _field_in(key_is, FieldValueRow.txt.like(_contains(value), escape="\\"))
    else:
        matched = _field_in(key_is, FieldValueRow.txt == value)
    return not_(matched) if term.op == "!=" else matched


def _builtin(term: Term, value: str, query: str) -> ColumnElement[bool]:
    if term.op in ("<", "<=", ">", ">="):
        raise SearchError(f"search {query!r}: {term.key} is not a number, so {term.op} does not apply")
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


def _number(term: Term, query: str) -> int:
    try:
        return int(term.value)
    except ValueError:
        raise SearchError(f"search {query!r}: {term.key}{term.op} needs a whole number, not {term.value!r}") from None


def _contains(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{normalise_name(escaped)}%"

