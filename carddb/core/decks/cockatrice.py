"""Cockatrice decks (``.cod``): reading and writing, pure standard library.

The file (Cockatrice's ``doc/deck.xsd``)::

    <cockatrice_deck version="1"><deckname/><comments/>
      <zone name="main"><card number="4" name="..."/></zone><zone name="side">...</zone></cockatrice_deck>

A Cockatrice game deals only ``main`` (the library) and ``side`` (the sideboard) and drops any other zone,
so every zone besides the main deck travels in ``side``; the comments say which sideboard cards belong to
which of the game's zones, one ``Zone: N Name`` line each (``Character: 1 Bowser``). The reader moves those
copies out of the sideboard into their zones; what is left is the game's side deck, or, for a game with one
zone besides the main deck, that zone. Only the minimal form the schema allows is written (no
``setShortName``, which the schema rejects).
"""

from __future__ import annotations

import re
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.decks.parse import (
    MAX_COUNT,
    XmlDeckReader,
    sb_zone,
    side_zone,
    split_qualifier,
    zone_for_header,
)
from carddb.core.game.definition import GameDefinition
from carddb.core.safexml import EntityRefused, entity_line, without_doctype

MAIN, SIDE, TOKENS = "main", "side", "tokens"
_ZONE_LINE = re.compile(r"^(?P<zone>[^:]{1,60}?):\s+(?P<count>\d+)\s+(?P<name>\S.*?)\s*$")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
COMMENT_INTRO = "Cockatrice deals only the main deck and the sideboard, so the sideboard also holds:"


def xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold at all (control characters)."""
    return _NOT_XML.sub("", text)


def write_cockatrice(deck: Deck, game: GameDefinition, zones: dict[str, list[DeckEntry]]) -> str:
    """The ``.cod`` of ``zones`` (zone id -> merged entries, as ``write.merged`` gives them)."""
    side_deck = side_zone(game)
    main = zones.get(game.main_zone, [])
    side = [(zone, entry) for zone, entries in zones.items() if zone != game.main_zone for entry in entries]
    moved = [(zone, entry) for zone, entry in side if zone != side_deck]
    comments = [f"{game.name} deck, written by carddb."]
    if moved:
        comments.append(COMMENT_INTRO)
        comments += [f"{_label(game, zone)}: {entry.count} {entry.written}" for zone, entry in moved]
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<cockatrice_deck version="1">',
           f"    <deckname>{escape(xml_safe(deck.name or game.name + ' deck'))}</deckname>",
           f"    <comments>{escape(xml_safe(chr(10).join(comments)))}</comments>"]
    for name, entries in ((MAIN, main), (SIDE, [e for _, e in side])):
        if not entries:
            continue
        out.append(f"    <zone name={quoteattr(name)}>")
        out += [f"        <card number=\"{e.count}\" name={quoteattr(xml_safe(e.written))}/>" for e in entries]
        out.append("    </zone>")
    out.append("</cockatrice_deck>")
    return "\n".join(out) + "\n"


def _label(game: GameDefinition, zone: str) -> str:
    return game.zones[zone].label if zone in game.zones else zone


class _CodReader(XmlDeckReader):
    def __init__(self, game: GameDefinition) -> None:
        super().__init__(game, "cockatrice")
        self.comments = ""
        self.cards: list[tuple[str, str, int, int]] = []  # (zone or "side", name as written, count, line)

    def read(self, text: str) -> Deck:
        refused = entity_line(text)
        if refused is not None:
            self.problem(refused, "The .cod file declares XML entities (<!ENTITY or a DOCTYPE with an internal "
                                  "subset); carddb refuses to expand them, so the deck was not read.")
            return self.deck
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.text.append
        try:
            self.parser.Parse(without_doctype(text), True)
        except expat.ExpatError as exc:
            self.problem(exc.lineno, f"The .cod file is not well-formed XML ({expat.ErrorString(exc.code)}); "
                                     f"the cards after it were not read.")
        except EntityRefused as exc:
            self.problem(self.parser.CurrentLineNumber, str(exc))
        self.place_cards()
        return self.deck

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.path.append(tag)
        self.text.clear()
        line = self.parser.CurrentLineNumber
        if tag == "zone":
            self.zone = self.zone_of(attrs.get("name", ""), line)
        elif tag == "card" and "zone" in self.path:
            self.card(attrs, line)

    def end(self, tag: str) -> None:
        self.path.pop()
        if tag == "deckname" and self.path == ["cockatrice_deck"]:
            self.deck.name = "".join(self.text).strip()
        elif tag == "comments" and self.path == ["cockatrice_deck"]:
            self.comments = "".join(self.text)
        elif tag == "zone":
            self.zone = None
        self.text.clear()

    def zone_of(self, name: str, line: int) -> str | None:
        if name == MAIN:
            return self.game.main_zone
        if name == SIDE:
            return SIDE
        if name == TOKENS:
            return None  # tokens are made during a game, not part of the deck
        zone = zone_for_header(name, self.game)
        if zone is None:
            self.problem(line, f"{self.game.name} has no zone called {name!r}; its cards are not counted.",
                         code="unknown-zone")
        return zone

    def card(self, attrs: dict[str, str], line: int) -> None:
        if self.zone is None:
            return
        name, number = attrs.get("name", "").strip(), attrs.get("number", "1").strip()
        if not name:
            self.problem(line, "A <card> without a name.")
        elif not number.isdigit() or not 1 <= int(number) <= MAX_COUNT:
            self.problem(line, f"{number!r} is not a usable count (1 to {MAX_COUNT}) for {name!r}.")
        else:
            self.cards.append((self.zone, name, int(number), line))

    def place_cards(self) -> None:
        """Side cards to their zones: first the copies the comments name, then the rest to the side deck."""
        wanted: list[tuple[str, str, int]] = []
        for raw in self.comments.splitlines():
            match = _ZONE_LINE.match(raw.strip())
            zone = zone_for_header(match["zone"], self.game) if match else None
            if match and zone and zone != self.game.main_zone:
                wanted.append((zone, match["name"], int(match["count"])))
        rest = sb_zone(self.game)
        counts: dict[tuple[str, str], list[int]] = {}
        for zone, written, count, line in self.cards:
            if zone == SIDE:
                for i, (target, name, left) in enumerate(wanted):
                    if name == written and left:
                        moved = min(left, count)
                        wanted[i] = (target, name, left - moved)
                        counts.setdefault((target, written), [line, 0])[1] += moved
                        count -= moved
                if not count:
                    continue
                if rest is None:
                    self.problem(line, f"{written!r} is in the sideboard, but {self.game.name} has no side deck "
                                       f"and the deck's comments do not say which zone it belongs to.")
                    continue
                zone = rest
            counts.setdefault((zone, written), [line, 0])[1] += count
        for target, name, left in wanted:
            if left:
                self.problem(None, f"The comments put {left} more {name!r} in {_label(self.game, target)} "
                                   f"than the sideboard holds.", target)
        for (zone, written), (line, count) in counts.items():
            name, qualifier = split_qualifier(written)
            self.deck.entries.append(DeckEntry(zone=zone, count=count, name=name, qualifier=qualifier, line=line,
                                               text=f"{count} {written}"))


def parse_cockatrice(text: str, game: GameDefinition) -> Deck:
    return _CodReader(game).read(text)
