"""A deck check as one report: the ``deck check --json`` object and the text the command prints. Pure stdlib."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from carddb.core.cards.card import Card
from carddb.core.cards.names import NameIndex
from carddb.core.checker.check import CardIndex, check_deck
from carddb.core.decks.deck import Deck
from carddb.core.decks.parse import parse_deck
from carddb.core.game.definition import GameDefinition
from carddb.core.problems import Problem, is_legal


@dataclass(frozen=True)
class DeckReport:
    game: GameDefinition
    deck: Deck
    problems: list[Problem]
    hint: str = ""  # said after the problems: the deck looks like another game's (``with_other_game_hint``)

    @property
    def legal(self) -> bool:
        return is_legal(self.problems)

    @property
    def zones(self) -> dict[str, int]:
        return self.deck.zone_counts(tuple(self.game.zones))

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``design.md``."""
        return {"game": self.game.id, "format": self.game.format, "legal": self.legal, "zones": self.zones,
                "problems": [p.to_dict() for p in self.problems]}

    def text(self, filename: str = "") -> str:
        """A verdict line, then one line per problem: ``error copy-limit  line 12  Power Block: 6 copies ...``,
        each followed by the rulebook section it breaks (``rule: rules/ssbm/rulebook.md#deck-limit``), said once for
        problems in a row under the same section (a deck of 20,000 unknown cards is not 20,000 more lines)."""
        errors = sum(1 for p in self.problems if p.is_error)
        warnings = len(self.problems) - errors
        counts = ", ".join(f"{self.game.zones[z].label} {n}" for z, n in self.zones.items() if z in self.game.zones)
        what = f"{filename}: " if filename else ""
        fmt = f", {self.game.formats[self.game.format].label} format" if self.game.format in self.game.formats else ""
        if errors:
            verdict = (f"{what}ILLEGAL {self.game.name} deck{fmt}: {_n(errors, 'error')}"
                       f"{', ' + _n(warnings, 'warning') if warnings else ''} ({counts})")
        else:
            verdict = (f"{what}LEGAL {self.game.name} deck{fmt}"
                       f"{' with ' + _n(warnings, 'warning') if warnings else ''} ({counts})")
        lines = [verdict]
        said_rule = ""
        for p in self.problems:
            zone = self.game.zones[p.zone].label if p.zone in self.game.zones else p.zone  # as the deck says it
            where = f"line {p.line}" if p.line is not None else (zone if p.zone else "deck")
            subject = f"{p.card}: " if p.card and p.card not in p.message else ""
            lines.append(f"{p.severity:<7} {p.code:<15} {where:<10} {subject}{p.message}")
            if p.rule and p.rule != said_rule:  # the rulebook's section, under a problem (once for a run of them)
                lines.append(f"{'':<34} rule: {p.rule}")
            said_rule = p.rule
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines) + "\n"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def check_deck_text(text: str, game: GameDefinition, cards: Sequence[Card] | CardIndex, filename: str = "",
                    collection: Mapping[str, int] | None = None, collection_name: str = "") -> DeckReport:
    """Read a deck file's text in any supported format and check it."""
    deck = parse_deck(text, game, filename)
    return DeckReport(game, deck, check_deck(deck, game, cards, collection, collection_name))


#: A deck whose unknown cards are at least this share of its names is compared with the other games.
_MOSTLY_UNKNOWN = 0.5


def with_other_game_hint(report: DeckReport, others: Iterable[tuple[GameDefinition, Sequence[Card]]]) -> DeckReport:
    """The report, with a hint when most of the deck's cards are unknown to its game but known to another:
    an ssbm deck checked with ``--game shmod`` gets 23 errors and ``hint: ... looks like a Super Smash Bros. Melee
    CCG deck ... --game ssbm``. ``others`` (the workspace's other games) is read only for such a deck."""
    names = {entry.name for entry in report.deck.entries if entry.name}
    unknown = {p.card for p in report.problems if p.code == "unknown-card" and p.card}
    if len(names) < 3 or len(unknown) < _MOSTLY_UNKNOWN * len(names):
        return report
    best: tuple[int, GameDefinition] | None = None
    for game, cards in others:
        if game.id == report.game.id or not game.deck_game:
            continue
        index = NameIndex(cards)
        known = sum(1 for name in names if index.resolve(name).status != "unknown")
        if known > len(names) - len(unknown) and (best is None or known > best[0]):
            best = (known, game)
    if best is None or best[0] < _MOSTLY_UNKNOWN * len(names):
        return report
    known, game = best
    return replace(report, hint=f"this looks like a {game.name} deck ({known} of its {len(names)} card names are "
                                f"{game.id} cards): check it with --game {game.id}")
