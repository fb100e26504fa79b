"""How a YAML card file writes its cards, read from the file itself, so that a card the studio or ``carddb cards
write-back`` writes into it looks like its neighbours (``docs/studio.md``):

- its keys in the order the file's cards of the same kind give them (then the order of its other cards);
- a list in flow style (``[Dragon]``) or block style as the file writes that key's lists (else as it writes lists);
- a text quoted as the file quotes that key's texts (``number: "M01"``), and a text that must be quoted (``"*"``)
  in the quotes the file uses most;
- a block list indented under its key as the file's lists are;
- no ``set`` line where the file's own ``set`` says it already, as the file's other cards do;
- its line endings (CRLF or LF).

Only the lines written are styled; every other line of the file is kept as it is (``carddb.catalogue.studio_text``).
This is a few dozen lines over PyYAML's nodes, where a round-trip library (ruamel.yaml) would rewrite the whole file
and change bytes of lines nothing changed (indentation of folded texts and nested lists, ``~``, spacing after
a colon, ``---``, CRLF): see the report of issue 38.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import yaml

from carddb.catalogue import cardfiles
from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition

#: Values are written on one line, however long (a card file's text lines are long already).
ONE_LINE = 1 << 20
_STR = "tag:yaml.org,2002:str"


def parse(text: str) -> tuple[yaml.Node | None, yaml.SequenceNode | None]:
    """The file's root node and the node of its list of cards (None when it has none)."""
    loader = cardfiles._Loader(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    return root, cardfiles.card_list_node(root)


def last_line(node: yaml.Node) -> int:
    """The last line (from 0) holding any of the node's text."""
    if isinstance(node, yaml.ScalarNode):
        end = node.end_mark
        if node.style in ("|", ">"):
            return end.line - 1 if end.column == 0 else end.line  # a block scalar ends at the next line's start
        return end.line
    if getattr(node, "flow_style", False) or not node.value:
        return node.end_mark.line
    last = node.value[-1]
    return last_line(last[1] if isinstance(node, yaml.MappingNode) else last)


@dataclass
class FileStyle:
    """What the file's cards show of how it writes a card; ``FileStyle()`` is carddb's own style."""

    orders: dict[str, list[str]] = field(default_factory=dict)  # kind ("" for every card): its keys in order
    flow: dict[str, bool] = field(default_factory=dict)  # key: its lists in flow style
    flow_lists: bool = False  # lists of keys the file has none of
    quotes: dict[str, str | None] = field(default_factory=dict)  # key: how its texts are quoted (None: plain)
    quote: str = "'"  # the quotes of a text that must be quoted
    indented_lists: bool = True  # a block list's "- " indented under its key
    item_offset: int = 2  # from a card's "-" to its first key ("- name:" 2, "-   name:" 4)
    default_set: str = ""  # the file's own ``set``
    newline: str = "\n"  # the file's line ending

    @staticmethod
    def ending(text: str) -> str:
        return "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"

    @classmethod
    def of(cls, text: str, parsed: tuple[yaml.Node | None, yaml.SequenceNode | None] | None = None) -> FileStyle:
        """The style of the file ``text`` (``parsed``: its nodes, when read already)."""
        root, entries = parsed or parse(text)
        style = cls(newline=cls.ending(text))
        if isinstance(root, yaml.MappingNode):
            for key, value in root.value:
                if isinstance(key, yaml.ScalarNode) and key.value == "set" and isinstance(value, yaml.ScalarNode):
                    style.default_set = value.value
                if value is entries and entries is not None and not entries.flow_style and entries.value:
                    # "cards:" then "  - name:": the file's lists are indented under their key
                    first = entries.value[0].start_mark
                    dash = text.splitlines()[first.line][:first.column].rfind("-")
                    style.indented_lists = dash > key.start_mark.column
                    style.item_offset = first.column - dash if dash >= 0 else 2
        if entries is None:
            return style
        quoted: dict[str, Counter[str | None]] = {}
        marks: Counter[str] = Counter()
        flows: dict[str, Counter[bool]] = {}
        nested: Counter[bool] = Counter()
        by_kind: dict[str, list[list[str]]] = {}
        for entry in entries.value:
            if not isinstance(entry, yaml.MappingNode):
                continue
            keys = [key.value for key, _ in entry.value if isinstance(key, yaml.ScalarNode)]
            kind = next((v.value for k, v in entry.value if isinstance(k, yaml.ScalarNode) and k.value == "kind"
                         and isinstance(v, yaml.ScalarNode)), "")
            by_kind.setdefault(kind, []).append(keys)
            for key, value in entry.value:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                if isinstance(value, yaml.ScalarNode) and value.tag == _STR:
                    quoted.setdefault(key.value, Counter())[value.style or None] += 1
                    if value.style in ('"', "'"):
                        marks[value.style] += 1
                if isinstance(value, yaml.SequenceNode):
                    flows.setdefault(key.value, Counter())[bool(value.flow_style)] += 1
                    for item in value.value:
                        if isinstance(item, yaml.ScalarNode) and item.style in ('"', "'"):
                            marks[item.style] += 1
                    if not value.flow_style and value.value:
                        nested[value.value[0].start_mark.column - 2 > key.start_mark.column] += 1
        style.orders = {kind: _merged(orders) for kind, orders in by_kind.items()}
        style.orders[""] = _merged([keys for orders in by_kind.values() for keys in orders])
        style.quotes = {key: counts.most_common(1)[0][0] for key, counts in quoted.items()}
        style.flow = {key: counts.most_common(1)[0][0] for key, counts in flows.items()}
        every = sum(flows.values(), Counter())
        style.flow_lists = bool(every) and every.most_common(1)[0][0]
        if marks:
            style.quote = marks.most_common(1)[0][0]
        if nested:
            style.indented_lists = nested.most_common(1)[0][0]
        return style

    # -- writing ---------------------------------------------------------------------------------------------
    def entry(self, game: GameDefinition, card: Card) -> dict[str, Any]:
        """The card's entry as the file would write it: its keys in the file's order, no ``set`` the file's
        own ``set`` already gives."""
        entry = cardfiles.card_entry(game, card)
        if self.default_set and entry.get("set") == self.default_set and "printings" not in entry:
            del entry["set"]
        return self.ordered(entry, card.kind)

    def ordered(self, entry: dict[str, Any], kind: str) -> dict[str, Any]:
        order = _merged([self.orders.get(kind, []), self.orders.get("", []), list(entry)])
        return {key: entry[key] for key in sorted(entry, key=order.index)}

    def items(self, game: GameDefinition, cards: list[Card], indent: int) -> str:
        """Cards as items of the file's block list of cards, each line indented by ``indent`` spaces."""
        lines = []
        for card in cards:
            dumped = self.dump(self.entry(game, card)).splitlines(keepends=True)
            lines += ["-".ljust(self.item_offset) + dumped[0], *(" " * self.item_offset + line for line in dumped[1:])]
        return "".join(" " * indent + line if line.strip() else line for line in lines)

    def dump(self, mapping: dict[str, Any], kept: dict[str, yaml.Node] | None = None) -> str:
        """``mapping`` as YAML lines in the file's style; a key of ``kept`` in the style of that old value."""
        stream = io.StringIO()
        dumper = _StyledDumper(stream, allow_unicode=True, sort_keys=False, width=ONE_LINE,
                               default_flow_style=False)
        dumper.quote = self.quote
        dumper.indented_lists = self.indented_lists
        node = dumper.represent_data(mapping)
        for key, value in node.value:
            self._restyle(key.value, value, (kept or {}).get(key.value))
        dumper.open()
        dumper.serialize(node)
        dumper.close()
        return stream.getvalue().replace("\n", self.newline)

    def _restyle(self, key: str, value: yaml.Node, old: yaml.Node | None) -> None:
        if isinstance(value, yaml.ScalarNode) and value.tag == _STR and value.style is None:
            wanted = old.style if isinstance(old, yaml.ScalarNode) else self.quotes.get(key)
            value.style = wanted if wanted in ('"', "'", "|", ">") else None  # a text the file wrote as a block too
        elif isinstance(value, yaml.SequenceNode):
            records = any(isinstance(item, yaml.MappingNode) for item in value.value)
            if isinstance(old, yaml.SequenceNode):
                value.flow_style = bool(old.flow_style)
            else:  # a list of printings is written as the file writes one, else in block style
                value.flow_style = self.flow.get(key, self.flow_lists and not records)
            for item in value.value:
                if isinstance(item, yaml.MappingNode):
                    for inner_key, inner in item.value:
                        self._restyle(inner_key.value, inner, None)


def _merged(orders: list[list[str]]) -> list[str]:
    """One order of keys agreeing with each of ``orders`` as far as they agree: each key met first is placed
    right after the key before it in the order it was met in."""
    merged: list[str] = []
    for order in orders:
        before = None
        for key in order:
            if key not in merged:
                merged.insert(merged.index(before) + 1 if before is not None else 0, key)
            before = key
    return merged


class _StyledDumper(cardfiles._CardDumper):
    """The card dumper, quoting a text that must be quoted in the file's quotes, and never writing an alias
    (two cards may share a list: each is written out)."""

    quote = "'"
    indented_lists = True

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def choose_scalar_style(self) -> str:
        style = super().choose_scalar_style()
        if style == "'" and self.quote == '"' and self.event.style != "'":
            return '"'
        return style

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, indentless and not self.indented_lists)
