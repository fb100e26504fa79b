"""Deck file readers: the deck list text format, LackeyCCG ``.dek`` and text decks, Apprentice ``.dec``
(Cockatrice ``.cod`` and Tabletop Simulator saved objects: ``cockatrice``, ``tts``).

The format is detected from the content, never trusted from the file name. Every reader returns a ``Deck``
whose unreadable lines are ``parse`` problems with their line numbers; reading always goes on. Zones are
named by the game's zone ids, labels, aliases and LackeyCCG zone names; ``Deck``/``Main`` and
``Sideboard``/``SB:`` work in every game that has such a zone. Pure standard library.

XML is read with expat directly, after refusing any ``<!ENTITY`` or DOCTYPE internal subset: no entity is
ever expanded and nothing external is ever fetched (the classic "billion laughs" and XXE attacks).
"""

from __future__ import annotations

import re
from xml.parsers import expat

from carddb.core.cards.card import normalise_name
from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief, shown
from carddb.core.problems import Problem
from carddb.core.safexml import EntityRefused, entity_line, safe_parser, without_doctype

FORMATS = ("text", "lackey-text", "lackey", "apprentice", "mtgo-dek", "cockatrice", "tts")
MAX_COUNT = 999
MAX_LINE = 400

_CARD_LINE = re.compile(r"^(?P<count>\d+)(?:\s*[xX])?(?:\s+|\t)(?P<rest>\S.*)$")
_QUALIFIER = re.compile(r"^(?P<name>.*?\S)\s*(?:\((?P<q1>[^()\[\]]+)\)|\[(?P<q2>[^()\[\]]+)\])$")
_HEADER = re.compile(r"^(?P<name>[^:]{1,60}?)\s*:$")
_SB = re.compile(r"^sb:\s*", re.IGNORECASE)
_ZONE_COMMENT = re.compile(r"^//\s*zone:\s*(?P<name>.+?)\s*$", re.IGNORECASE)
_NAME_COMMENT = re.compile(r"^//\s*name:\s*(?P<name>.*?)\s*$", re.IGNORECASE)
_LACKEY_TEXT_LINE = re.compile(r"^\d+\t\S")
_GENERIC_MAIN = {"deck", "main", "main deck", "maindeck", "mainboard", "main board", "library"}
_GENERIC_SIDE = {"side", "sideboard", "side board", "side deck", "sb"}
#: A comment after the card part of a line: ``#`` or ``//`` after whitespace (``4 Ember Whelp # my note``).
#: Without whitespace before it, ``#`` stays part of the name (``Card#5``).
_TRAILING_COMMENT = re.compile(r"\s+(?:#|//)")


def detect_format(text: str) -> str:
    """``lackey`` (.dek XML), ``mtgo-dek``, ``cockatrice`` (.cod), ``tts`` (a Tabletop Simulator saved object,
    JSON), ``apprentice`` (.dec), ``lackey-text`` or ``text``."""
    head = text.lstrip("\ufeff \t\n")
    if head.startswith(("{", "[")):
        return "tts"
    if head.startswith("<"):
        if "<cockatrice_deck" in head[:4000]:
            return "cockatrice"
        return "mtgo-dek" if re.search(r"<Deck[\s>]", head[:2000]) and "<superzone" not in head else "lackey"
    lines = [line for line in text.split("\n") if line.strip()]
    if any(_SB.match(line.strip()) for line in lines) or any(_NAME_COMMENT.match(line.strip()) for line in lines):
        return "apprentice"
    cards = [line for line in lines if not line.lstrip().startswith(("#", "//")) and not line.rstrip().endswith(":")]
    if cards and all(_LACKEY_TEXT_LINE.match(line) for line in cards):
        return "lackey-text"
    return "text"


def parse_deck(text: str, game: GameDefinition, filename: str = "") -> Deck:
    """Read a deck of any supported format for ``game``."""
    fmt = detect_format(text)
    if fmt in ("cockatrice", "tts"):
        # These readers build on this module's zone helpers, so they are imported here, not at the top.
        from carddb.core.decks.cockatrice import parse_cockatrice
        from carddb.core.decks.tts import parse_tts

        return parse_cockatrice(text, game) if fmt == "cockatrice" else parse_tts(text, game)
    if fmt == "lackey":
        return parse_lackey_dek(text, game)
    if fmt == "mtgo-dek":
        return parse_mtgo_dek(text, game)
    deck = parse_text(text, game)
    deck.source_format = fmt
    return deck


def zone_for_header(header: str, game: GameDefinition) -> str | None:
    """The zone a header names: id, label or alias, LackeyCCG zone name, or the generic main/side words."""
    zone = game.zone_for(header)
    if zone:
        return zone
    wanted = normalise_name(header.rstrip(":"))
    for zone_def in game.zones.values():
        if zone_def.lackey_name and normalise_name(zone_def.lackey_name) == wanted:
            return zone_def.id
    for zone_id, name in game.lackey.get("deck_zone_names", {}).items():
        if normalise_name(str(name)) == wanted and zone_id in game.zones:
            return zone_id
    if wanted in _GENERIC_MAIN:
        return game.main_zone
    if wanted in _GENERIC_SIDE:
        return side_zone(game)
    return None


def side_zone(game: GameDefinition) -> str | None:
    """The game's sideboard zone, if it has one (the zone called ``Sideboard`` or ``Side``)."""
    return game.zone_for("Sideboard") or game.zone_for("Side")


def sb_zone(game: GameDefinition) -> str | None:
    """Where Apprentice ``SB:`` lines go: the side deck, else the one zone besides the main deck (the ssbm
    character, the website starting base site), which is how a two-zone deck travels through Apprentice."""
    side = side_zone(game)
    if side:
        return side
    others = [z for z in game.zones if z != game.main_zone]
    return others[0] if len(others) == 1 else None


def split_qualifier(text: str) -> tuple[str, str]:
    """``Splash Page (Neutral)`` -> (``Splash Page``, ``Neutral``); a name without one -> (name, "")."""
    match = _QUALIFIER.match(text)
    if not match:
        return text, ""
    return match["name"], (match["q1"] or match["q2"]).strip()


def _zone_names(game: GameDefinition) -> str:
    return ", ".join(f"{z.label}:" for z in game.zones.values())


class _TextReader:
    """The line reader shared by the deck list format, the LackeyCCG text deck and the Apprentice .dec."""

    def __init__(self, game: GameDefinition) -> None:
        self.game = game
        self.deck = Deck(game=game.id)
        self.zone: str | None = game.main_zone
        self.unknown_header: str = ""
        # Where SB: lines go after a ``// ZONE:`` comment: its zone ("" when unknown); None before any.
        self.comment_zone: str | None = None

    def problem(self, number: int, line: str, message: str, code: str = "parse") -> None:
        self.deck.problems.append(Problem(code=code, message=message, zone=self.zone, line=number,
                                          rule=self.game.rule_link(""), card=None))

    def read(self, text: str) -> Deck:
        for number, raw in enumerate(text.split("\n"), start=1):
            self.read_line(number, raw.lstrip("\ufeff").rstrip("\r"))
        return self.deck

    def read_line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return
        if len(line) > MAX_LINE:
            self.problem(number, line, f"This line is {len(line)} characters long, too long to be a card line; "
                                       f"it was skipped.")
            return
        if any(ch < " " and ch != "\t" for ch in line):
            self.problem(number, line, f"This line holds control characters and cannot be read: {line[:60]!r}.")
            return
        if line.startswith("//"):
            self.comment(number, line)
            return
        if line.startswith("#"):
            return
        body = _TRAILING_COMMENT.split(line, maxsplit=1)[0]
        sideboard = _SB.match(body)
        if sideboard:
            if self.comment_zone == "":
                return  # under a ``// ZONE:`` comment naming an unknown zone, already reported once
            zone = self.comment_zone or sb_zone(self.game)
            if zone is None:
                self.problem(number, line, f"A sideboard line (SB:), but {self.game.name} has no side deck: "
                                           f"{line!r}.")
                return
            self.card_line(number, line, body[sideboard.end():].strip(), zone)
            return
        header = _HEADER.match(body)
        if header:
            self.header(number, line, header["name"])
            return
        self.card_line(number, line, body, self.zone)

    def comment(self, number: int, line: str) -> None:
        named = _NAME_COMMENT.match(line)
        if named and not self.deck.name:
            self.deck.name = named["name"]
        zone = _ZONE_COMMENT.match(line)
        if zone:
            self.header(number, line, zone["name"])
            self.comment_zone = self.zone or ""

    def header(self, number: int, line: str, name: str) -> None:
        zone = zone_for_header(name, self.game)
        if zone is None:
            self.zone = None
            self.unknown_header = name
            self.problem(number, line, f"{self.game.name} has no zone called {name!r} "
                                       f"(zones: {_zone_names(self.game)}); the cards under it are not counted.",
                         code="unknown-zone")
            return
        self.zone = zone

    def card_line(self, number: int, line: str, body: str, zone: str | None) -> None:
        match = _CARD_LINE.match(body)
        if match:
            count = int(match["count"])
            rest = match["rest"].strip()
        elif body[:1].isdigit() and body.split(None, 1)[0].isdigit():
            self.problem(number, line, f"A count but no card name: {line!r}.")
            return
        else:
            count, rest = 1, body
        if count < 1 or count > MAX_COUNT:
            self.problem(number, line, f"{count} is not a usable count (1 to {MAX_COUNT}): {line!r}.")
            return
        name, qualifier = split_qualifier(rest)
        if not name or not any(ch.isalnum() for ch in name):
            self.problem(number, line, f"This line names no card: {line!r}.")
            return
        if zone is None:
            return  # under an unknown zone header, already reported once
        self.deck.entries.append(DeckEntry(zone=zone, count=count, name=name, qualifier=qualifier, line=number,
                                           text=line))


def parse_text(text: str, game: GameDefinition) -> Deck:
    """The deck list format (also reads LackeyCCG text decks and Apprentice .dec, which it contains)."""
    return _TextReader(game).read(text)


class XmlDeckReader:
    """What the readers of a client's XML deck file share: the deck being read, the path of open elements with
    their text, the zone open, and a problem told with the game's rules link."""

    def __init__(self, game: GameDefinition, source_format: str) -> None:
        self.game = game
        self.deck = Deck(game=game.id, source_format=source_format)
        self.parser = safe_parser()
        self.path: list[str] = []
        self.text: list[str] = []
        self.zone: str | None = None

    def problem(self, line: int | None, message: str, zone: str | None = None, code: str = "parse") -> None:
        self.deck.problems.append(Problem(code=code, message=message, zone=zone, line=line,
                                          rule=self.game.rule_link("")))


class _DekReader(XmlDeckReader):
    """LackeyCCG ``.dek``: ``<deck><superzone name="Deck"><card><name>..</name><set>..</set></card>``."""

    def __init__(self, game: GameDefinition, source_format: str) -> None:
        super().__init__(game, source_format)
        self.card: dict[str, str] = {}
        self.card_line = 0
        self.counts: dict[tuple[str, str, str, str], list[int]] = {}

    def read(self, text: str) -> Deck:
        refused = entity_line(text)
        if refused is not None:
            self.problem(refused, "The .dek file declares XML entities (<!ENTITY or a DOCTYPE with an internal "
                                  "subset); carddb refuses to expand them, so the deck was not read.")
            return self.deck
        parser = self.parser
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.data
        try:
            parser.Parse(without_doctype(text), True)
        except expat.ExpatError as exc:
            self.problem(exc.lineno, f"The .dek file is not well-formed XML "
                                     f"({expat.ErrorString(exc.code)}); the cards after it were not read.")
        except EntityRefused as exc:
            self.problem(parser.CurrentLineNumber, str(exc))
        for (zone, name, qualifier, set_hint), (line, count) in self.counts.items():
            text_line = f"{count} {name} ({qualifier})" if qualifier else f"{count} {name}"
            if count > MAX_COUNT:
                self.problem(line, f"{count} copies of {brief(name)!r} is not a usable count (1 to {MAX_COUNT}); "
                                   "they were not read.", zone)
                continue
            self.deck.entries.append(DeckEntry(zone=zone, count=count, name=name, qualifier=qualifier, line=line,
                                               text=text_line, set_hint=set_hint))
        return self.deck

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.path.append(tag)
        self.text = []
        line = self.parser.CurrentLineNumber
        if tag == "superzone":
            name = attrs.get("name", "")
            self.zone = zone_for_header(name, self.game)
            if self.zone is None:
                self.problem(line, f"{self.game.name} has no zone called {name!r} (zones: "
                                   f"{_zone_names(self.game)}); its cards are not counted.", code="unknown-zone")
        elif tag == "card":
            self.card = {}
            self.card_line = line
        elif tag == "Cards" and self.deck.source_format == "mtgo-dek":
            self.mtgo_card(line, attrs)

    def data(self, text: str) -> None:
        self.text.append(text)

    def end(self, tag: str) -> None:
        self.path.pop()
        if tag in ("name", "set") and self.path and self.path[-1] == "card":
            self.card[tag] = "".join(self.text).strip()
        elif tag == "title" and "meta" in self.path:
            self.deck.name = "".join(self.text).strip()
        elif tag == "card" and "superzone" in self.path:
            self.add_card()
        self.text = []

    def add_card(self) -> None:
        raw_name = self.card.get("name", "")
        if not raw_name:
            self.problem(self.card_line, "A <card> without a <name>.", self.zone)
            return
        if self.zone is None:
            return
        name, qualifier = split_qualifier(raw_name)
        key = (self.zone, name, qualifier, self.card.get("set", ""))
        self.counts.setdefault(key, [self.card_line, 0])[1] += 1

    def mtgo_card(self, line: int, attrs: dict[str, str]) -> None:
        zone = side_zone(self.game) if attrs.get("Sideboard", "false").lower() == "true" else self.game.main_zone
        quantity = attrs.get("Quantity", "1")
        if zone is None or not (quantity.isascii() and quantity.isdigit()) or len(quantity) > 9 \
                or not attrs.get("Name"):
            self.problem(line, f"A <Cards> element that cannot be read ({shown(attrs)}).")
            return
        name, qualifier = split_qualifier(attrs["Name"])
        self.counts.setdefault((zone, name, qualifier, ""), [line, 0])[1] += int(quantity)


def parse_lackey_dek(text: str, game: GameDefinition) -> Deck:
    return _DekReader(game, "lackey").read(text)


def parse_mtgo_dek(text: str, game: GameDefinition) -> Deck:
    return _DekReader(game, "mtgo-dek").read(text)
