"""The search language's parser, and its meaning evaluated over cards in memory. Pure standard library.

    type:fire level<=3 "draw a card" set:base -limited (kind:spell or kind:trap)

Terms are ANDed; ``or`` joins alternatives; parentheses group; ``-`` negates. A term is a quoted phrase or a
word (free text in name and text, or a value of a list or choice field: ``fusion``), a flag (a true/false
field: ``limited``), or ``key OP value`` where OP is
``:`` (equals; contains for text; holds for lists), ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``. Keys are
the games' field keys plus ``name``, ``text``, ``kind``, ``set``, ``rarity`` and ``game``; see docs/search.md.

The catalogue compiles a parsed query to SQL (``carddb.catalogue.search``); ``matches`` gives the same answer
for one card without a database, which is how the site's gallery searches in the browser. The two are tested
against each other on every example of docs/search.md and more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carddb.core.cards.card import Card, normalise_name
from carddb.core.cards.fields import FieldDef
from carddb.core.limits import brief, in_int_range, int_range_text
from carddb.errors import InputError

BUILTIN_KEYS = ("name", "text", "kind", "set", "rarity", "game")
#: Bounds of a query: far beyond any search a person types, well within what parsing and SQL handle quickly
#: (thousands of nested parentheses would exhaust the parser's stack; thousands of ``or`` the database's).
MAX_QUERY_CHARS = 2000
MAX_TERMS = 100
MAX_NESTING = 20
_TOKEN = re.compile(r'\s*(?:(?P<open>\()|(?P<close>\))|(?P<neg>-)(?=[^\s)])|(?P<quoted>"(?:[^"\\]|\\.)*"?)'
                    r'|(?P<word>(?:[^\s()"]|"[^"]*")+))')
_TERM = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_]*)(?P<op><=|>=|!=|<|>|=|:)(?P<value>.*)$", re.S)
TRUE_WORDS = ("true", "yes", "1", "y")
FALSE_WORDS = ("false", "no", "0", "n")


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
    if len(query) > MAX_QUERY_CHARS:
        raise SearchError(f"search of {len(query):,} characters: a search may be at most {MAX_QUERY_CHARS:,}")
    tokens = _tokenise(query)
    terms = sum(1 for kind, text in tokens if kind in ("quoted", "word") and text not in ("or", "OR"))
    if terms > MAX_TERMS:
        raise SearchError(f"search {brief(query)!r}: {terms:,} terms; a search may have at most {MAX_TERMS}")
    parser = _Parser(tokens, query)
    node = parser.or_expr()
    if parser.pos < len(tokens):
        raise SearchError(f"search {brief(query)!r}: unexpected {brief(tokens[parser.pos][1])!r}")
    return node


def _tokenise(query: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(query):
        match = _TOKEN.match(query, pos)
        if not match or match.end() == pos:
            if query[pos:].strip() == "":
                break
            raise SearchError(f"search {brief(query)!r}: cannot read {brief(query[pos:].strip())!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], query: str) -> None:
        self.tokens, self.pos, self.query = tokens, 0, brief(query)
        self.depth = 0

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
        if kind in ("neg", "open"):
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise SearchError(f"search {self.query!r}: nested more than {MAX_NESTING} deep (parentheses and "
                                  "'-'); a search may nest at most that far")
        if kind == "neg":
            node = Not(self.unary())
            self.depth -= 1
            return node
        if kind == "open":
            node = self.or_expr()
            if self.peek() is None or self.peek()[0] != "close":  # type: ignore[index]
                raise SearchError(f"search {self.query!r}: a '(' is not closed")
            self.pos += 1
            self.depth -= 1
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


def unknown_field(term: Term, fields: Mapping[str, FieldDef], query: str) -> SearchError:
    known = ", ".join([*BUILTIN_KEYS, *fields])
    return SearchError(f"search {brief(query)!r}: unknown field {brief(term.key)!r}; fields are {known}")


def not_a_number(term: Term, query: str) -> SearchError:
    return SearchError(f"search {brief(query)!r}: {term.key} is not a number, so {term.op} does not apply")


def whole_number(term: Term, query: str) -> int:
    """The term's number, within what the catalogue stores (``carddb.core.limits``)."""
    try:
        number = int(term.value)
    except ValueError:
        raise SearchError(f"search {brief(query)!r}: {term.key}{term.op} needs a whole number, not "
                          f"{brief(term.value)!r}") from None
    if not in_int_range(number):
        raise SearchError(f"search {brief(query)!r}: {term.key}{term.op}{brief(term.value)} is out of range; card "
                          f"numbers are {int_range_text()}")
    return number


def not_true_or_false(term: Term, query: str) -> SearchError:
    return SearchError(f"search {brief(query)!r}: {term.key} is true or false, not {brief(term.value)!r}")


# ---------------------------------------------------------------------------------------------------- in memory


def searched_values(value: Any) -> list[tuple[int | None, str | None]]:
    """What a field value is searched by, as (number, normalised word) pairs: the rows the catalogue indexes."""
    if isinstance(value, bool):
        return [(int(value), None)]
    if isinstance(value, int):
        return [(value, None)]
    if isinstance(value, list):
        return [(None, normalise_name(str(item))) for item in value]
    if isinstance(value, dict):
        return [(amount, normalise_name(name)) for name, amount in value.items()]
    return [(None, normalise_name(str(value)))]


class CardSearch:
    """A parsed query, checked against the fields of the games searched, to be matched card by card.

    ``set_names`` maps a set code to its name (``set:`` matches either). Raises ``SearchError`` for a query
    the catalogue would refuse, with the catalogue's message.
    """

    def __init__(self, query: str, fields: Mapping[str, FieldDef], set_names: Mapping[str, str] | None = None):
        self.query = query
        self.fields = fields
        self.set_names = {code.casefold(): name.casefold() for code, name in (set_names or {}).items()}
        self.node = parse(query)
        self._validate(self.node)

    def _validate(self, node: Node) -> None:
        if isinstance(node, And | Or):
            for part in node.parts:
                self._validate(part)
        elif isinstance(node, Not):
            self._validate(node.inner)
        else:
            self._check_term(node)

    def _check_term(self, term: Term) -> None:
        if term.key == "":
            return
        if term.key in BUILTIN_KEYS:
            if term.op in ("<", "<=", ">", ">="):
                raise not_a_number(term, self.query)
            return
        definition = self.fields.get(term.key)
        if definition is None:
            raise unknown_field(term, self.fields, self.query)
        if term.op in ("<", "<=", ">", ">="):
            if definition.type not in ("int", "map"):
                raise not_a_number(term, self.query)
            whole_number(term, self.query)
        elif definition.type == "bool" and normalise_name(term.value) not in (*TRUE_WORDS, *FALSE_WORDS):
            raise not_true_or_false(term, self.query)
        elif definition.type == "int" and normalise_name(term.value).lstrip("-").isdigit():
            whole_number(term, self.query)  # out of the catalogue's range: refused as the catalogue does

    def matches(self, card: Card) -> bool:
        return self._matches(self.node, card)

    def select(self, cards: Iterable[Card]) -> list[Card]:
        return [card for card in cards if self._matches(self.node, card)]

    def _matches(self, node: Node, card: Card) -> bool:
        if isinstance(node, And):
            return all(self._matches(part, card) for part in node.parts)
        if isinstance(node, Or):
            return any(self._matches(part, card) for part in node.parts)
        if isinstance(node, Not):
            return not self._matches(node.inner, card)
        return self._term(node, card)

    def _term(self, term: Term, card: Card) -> bool:
        if term.key == "" and term.op == "word" and term.value.lower() in self.fields:
            flag = self.fields[term.value.lower()]
            if flag.type == "bool":
                return any(num == 1 for num, _ in searched_values(card.fields.get(flag.key, [])))
        if term.key == "":
            value = normalise_name(term.value)
            held = (card.fields.get(key) for key in word_fields(self.fields))
            return value in _search_text(card) or any(
                txt == value for raw in held if raw is not None for _, txt in searched_values(raw))
        value = normalise_name(term.value)
        matched = self._builtin(term, value, card) if term.key in BUILTIN_KEYS else self._field(term, value, card)
        return not matched if term.op == "!=" else matched

    def _builtin(self, term: Term, value: str, card: Card) -> bool:
        if term.key == "name":
            name = normalise_name(card.name)
            return name == value if term.op == "=" else normalise_name(value) in name
        if term.key == "text":
            return normalise_name(value) in _search_text(card)
        if term.key == "kind":
            return card.kind.lower() == value
        if term.key == "game":
            return card.game == value
        if term.key == "set":
            return any(value in (p.set.casefold(), self.set_names.get(p.set.casefold(), p.set.casefold()))
                       for p in card.printings)
        return any(p.rarity.lower() == value for p in card.printings)

    def _field(self, term: Term, value: str, card: Card) -> bool:
        definition = self.fields[term.key]
        raw = card.fields.get(definition.key)
        pairs = searched_values(raw) if raw is not None else []
        if term.op in ("<", "<=", ">", ">="):
            number = int(term.value)
            compare = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[term.op]
            return any(num is not None and compare(num, number) for num, _ in pairs)
        if definition.type == "bool":
            held = any(num == 1 for num, _ in pairs)
            return held if value in TRUE_WORDS else not held
        if definition.type == "int" and value.lstrip("-").isdigit():
            return any(num == whole_number(term, self.query) for num, _ in pairs)
        if definition.type == "text" and term.op == ":":
            wanted = normalise_name(value)
            return any(txt is not None and wanted in txt for _, txt in pairs)
        return any(txt == value for _, txt in pairs)


#: The fields a bare word also searches: a card's categories, type or colour ("fusion", "defensive").
WORD_FIELD_TYPES = ("list", "choice")


def word_fields(fields: Mapping[str, FieldDef]) -> list[str]:
    """The keys of the fields a bare word or phrase searches besides the name and the text: a list or choice
    field holding exactly that word (``fusion`` finds a Fusion monster whose text never says it)."""
    return sorted({definition.key for definition in fields.values() if definition.type in WORD_FIELD_TYPES})


def _search_text(card: Card) -> str:
    return f"{normalise_name(card.name)}\n{normalise_name(card.text)}"


def search_cards(query: str, cards: Sequence[Card], fields: Mapping[str, FieldDef],
                 set_names: Mapping[str, str] | None = None) -> list[Card]:
    """The cards ``query`` finds, in the order given (as ``carddb cards search``, without a database)."""
    return CardSearch(query, fields, set_names).select(cards)


def search_index(cards: Iterable[Card], fields: Mapping[str, FieldDef], set_names: Mapping[str, str]
                 ) -> dict[str, Any]:
    """What the site's gallery answers a search with while the rules engine loads (``quicksearch.js``): every
    value a term reads, already normalised as ``CardSearch`` normalises it, for each card. The engine's answer,
    when it is ready, replaces the quick one; the two are tested to agree."""
    return {
        "fields": {name: {"key": d.key, "type": d.type} for name, d in fields.items()},
        "word_fields": word_fields(fields),
        "sets": {code.casefold(): name.casefold() for code, name in set_names.items()},
        "cards": [{"key": card.key, "game": card.game, "name": normalise_name(card.name), "text": _search_text(card),
                   "kind": card.kind.lower(),
                   "printings": [[p.set.casefold(), p.rarity.lower()] for p in card.printings],
                   "values": {key: searched_values(raw) for key, raw in card.fields.items() if raw is not None}}
                  for card in cards],
    }
