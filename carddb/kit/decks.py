"""The decks a kit prints (``sample_decks``, ``deck_of_file``): apart from ``carddb.kit.make`` so that the build's
kit step knows which cards a kit prints, to key it, without importing the typesetter and the checks (ReportLab's
platypus and more: a second of a build that makes no kit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition


@dataclass(frozen=True)
class Deck:
    """Cards to print as one deck: a sample deck, the ``--deck`` file, or every card of a game without decks."""

    title: str
    cards: tuple[Card, ...]
    text: str = ""
    filename: str = ""


def sample_decks(workspace_deck_files: Sequence[Path], game: GameDefinition, cards: Sequence[Card]) -> list[Deck]:
    """The decks a kit prints when none is given: the legal sample decks (not those kept to show a warning), a
    deck given in several formats once; a game without sample decks prints one of every card."""
    decks, seen = [], set()
    for path in sorted(workspace_deck_files, key=lambda p: (p.stem, p.suffix.lower() != ".txt")):
        if path.stem in seen or not path.stem.startswith("legal-") or path.stem.startswith("legal-warn-"):
            continue
        seen.add(path.stem)
        decks.append(deck_of_file(path, game, cards, title=path.stem.removeprefix("legal-").replace("-", " ")))
    return decks or [Deck("every card", tuple(cards))]


def deck_of_file(path: Path, game: GameDefinition, cards: Sequence[Card], *, title: str = "") -> Deck:
    """The cards of a deck file (any format ``carddb deck check`` reads), each as many times as its count."""
    from carddb.files.reading import read_deck_file
    from carddb.paint.print_job import cards_of_deck

    text = read_deck_file(path)
    chosen, _not_printed = cards_of_deck(game, cards, text, path.name)  # the print job lists them again
    return Deck(title or path.stem, tuple(chosen), text, path.name)
