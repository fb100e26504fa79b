"""The workspace's sample decks, ready to be written in a client's deck format.

Deck files are read and checked with the deck checker's own parser (``carddb.core``); only decks without
errors are shipped (the illegal samples exist to test the checker, and are left out without a word; a deck
promised legal that fails is left out with a note). Each entry is resolved to its card once,
then rewritten with the exact name the client's card list uses, so every deck line finds its card.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carddb.core.cards.card import Card, card_copy
from carddb.core.cards.slugs import slugify
from carddb.core.checker.check import card_index, check_deck
from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.decks.parse import parse_deck
from carddb.core.decks.promise import read_promise
from carddb.core.game.definition import GameDefinition
from carddb.core.wording import plural
from carddb.errors import InputError
from carddb.files.reading import read_deck_file
from carddb.incremental import shared
from carddb.workspace import Workspace


@dataclass
class SampleDeck:
    stem: str  # a safe file stem, unique among the game's sample decks
    name: str
    entries: list[tuple[str, Card, int]]  # (zone id, card, count) in file order

    def as_deck(self, game: GameDefinition, name_of: Callable[[Card], str],
                set_of: Callable[[Card], str] = lambda card: "") -> Deck:
        """A ``carddb.core`` deck whose entries carry the client's card names (no qualifier needed)."""
        entries = [DeckEntry(zone=zone, count=count, name=name_of(card), set_hint=set_of(card))
                   for zone, card, count in self.entries]
        return Deck(game=game.id, entries=entries, source_format="carddb", name=self.name)


def sample_decks(workspace_root: str | Path, game: GameDefinition, cards: Sequence[Card],
                 notes: list[str]) -> list[SampleDeck]:
    """The game's legal sample decks, each entry resolved to one of ``cards``; a note in ``notes`` names the decks
    promised legal that are not. The four exporters of a build ask the same question of equal cards: the answer
    is found once a build (``carddb.incremental.shared``; parsing and checking every deck was a tenth of a second
    an exporter for Shmod's twelve) and given again while the deck files, the game and the cards are equal."""
    try:
        files = Workspace(Path(workspace_root)).deck_files(game.id)
    except InputError:
        return []
    status = [_status(path) for path in files]
    found, skipped = shared(("sample decks", os.path.abspath(workspace_root), game.id), (status, game, list(cards)),
                            lambda: _find(files, game, cards), keep=_keep)
    if skipped:
        notes.append(f"left out {plural(len(skipped), 'sample deck')} that should pass `carddb deck check` but "
                     f"do not: {', '.join(skipped)}")
    return [SampleDeck(stem, name, [(zone, cards[at], count) for zone, at, count in entries])
            for stem, name, entries in found]


def _find(files: list[Path], game: GameDefinition, cards: Sequence[Card]) \
        -> tuple[list[tuple[str, str, list[tuple[str, int, int]]]], list[str]]:
    """The legal sample decks of ``files`` (stem, name, entries as (zone, the card's place in ``cards``, count)),
    and the names of the files promised legal that are not."""
    index = card_index(game, cards)
    place = {id(card): at for at, card in enumerate(cards)}
    decks: list[tuple[str, str, list[tuple[str, int, int]]]] = []
    stems: set[str] = set()
    skipped: list[str] = []
    for path in files:
        stem = slugify(path.stem)
        if stem in stems:  # the same deck in another format (x.txt beside x.dek)
            continue
        text = read_deck_file(path)
        deck = parse_deck(text, game, path.name)
        if any(p.severity == "error" for p in check_deck(deck, game, index)):
            promise = read_promise(text, path.name)
            if promise is None or promise.legal:  # one meant to be illegal (to test the checker) goes unsaid
                skipped.append(path.name)
            continue
        entries, unresolved = _resolved(deck, index)
        assert not unresolved  # check_deck reported no unknown card
        stems.add(stem)
        decks.append((stem, deck.name or path.stem.replace("-", " "),
                      [(zone, place[id(card)], count) for zone, card, count in entries]))
    return decks, skipped


def _keep(given: tuple[Any, GameDefinition, list[Card]]) -> tuple[Any, GameDefinition, list[Card]]:
    """What ``sample_decks`` compares the next question with: its own copy of the cards (the caller may change its
    own once it has its decks)."""
    status, game, cards = given
    return status, game, [card_copy(card) for card in cards]


def _status(path: Path) -> tuple[Any, ...]:
    """A deck file's status: any write changes its change time (``st_ctime_ns``), whatever its content."""
    try:
        st = os.stat(path)
    except OSError:
        return (str(path), None)
    return (str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def deck_from_text(text: str, filename: str, game: GameDefinition, cards: Sequence[Card],
                   warnings: list[str]) -> SampleDeck:
    """One deck a player gives (any format the checker reads), every entry resolved to its card.

    A card that cannot be found is an ``InputError`` naming it (no face could be shown for it); a deck that
    breaks a construction rule is exported as it is, with a warning: converting is not checking.
    """
    deck = parse_deck(text, game, filename)
    index = card_index(game, cards)
    entries, unresolved = _resolved(deck, index)
    if unresolved:
        raise InputError(f"{filename}: no single {game.name} card is called {', '.join(map(repr, unresolved[:5]))}"
                         + (f" and {len(unresolved) - 5} more" if len(unresolved) > 5 else ""),
                         hint=f"run `carddb deck check {filename} --game {game.id}` to see the suggestions")
    if not entries:
        raise InputError(f"{filename}: holds no card of {game.name} to export")
    # a game without decks (ssq) has no construction rules: its "deck" is a list of cards to print, with counts
    errors = [p for p in check_deck(deck, game, index) if p.severity == "error"] if game.deck_game else []
    if errors:
        warnings.append(f"{filename} does not pass `carddb deck check` ({len(errors)} errors, e.g. "
                        f"{errors[0].message}); exported as it is")
    stem = slugify(Path(filename).stem)
    return SampleDeck(stem=stem, name=deck.name or Path(filename).stem.replace("-", " "), entries=entries)


def _resolved(deck: Deck, index) -> tuple[list[tuple[str, Card, int]], list[str]]:  # type: ignore[no-untyped-def]
    entries, unresolved = [], []
    for entry in deck.entries:
        card = index.names.resolve(entry.name, entry.qualifier, entry.set_hint).card
        if card is None:
            unresolved.append(entry.written)
        else:
            entries.append((entry.zone, card, entry.count))
    return entries, unresolved
