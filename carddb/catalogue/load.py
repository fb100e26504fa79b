"""Loading a workspace game's card files into the catalogue: the load step of ``carddb build``.

The catalogue is the source of truth; the card files are one of its sources. Loading adds the cards the files
have and the catalogue does not, updates the cards that came from the files and changed there, and removes
the cards that came from the files and are no longer in any of them. A card from any other source is never
deleted or silently overwritten:

- the same card (same name and qualifier) from an import or an edit, saying something else than the file:
  the catalogue's version is kept and the card named as a conflict (``take_files`` takes the file's instead);
- the same card saying exactly what the file says: left as it is, with its source;
- a card of unknown source (a catalogue older than sources) that a card file holds: adopted, the file's card.

Everything is decided and written in one transaction under the write lock, so two builds at once queue and
the second sees what the first wrote. A card the files give exactly as the catalogue holds it is not written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sqlmodel import Session

from carddb.catalogue.provenance import EDIT, IMPORT, UNKNOWN, WORKSPACE, Source, fingerprint, now
from carddb.catalogue.store import (
    StoredCard,
    delete_cards,
    identity,
    insert_cards,
    other_source_counts,
    read_cards,
    register_game,
    set_sources,
    stored_cards,
    update_cards,
)
from carddb.catalogue.workspace_cards import WorkspaceGame
from carddb.core.cards.card import Card

#: names listed in one report line before "and N more"
SHOWN_NAMES = 10
_OTHER_KINDS = {IMPORT: ("imported card", ""), EDIT: ("card", " edited in the catalogue"),
                UNKNOWN: ("card", " of unknown source")}


@dataclass(frozen=True)
class Conflict:
    """A card of the card files that the catalogue holds from another source, saying something else."""

    key: str
    file: str
    source: Source  # the catalogue's card's source (before a --take-files load replaced it)

    def describe(self) -> str:
        return f"{self.key} ({self.source.describe()})"


@dataclass
class LoadReport:
    game: str
    files: list[str] = field(default_factory=list)
    sets: list[str] = field(default_factory=list)
    cards: int = 0  # cards in the card files
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    moved: int = 0  # cards now in another card file, unchanged
    unchanged: int = 0
    adopted: int = 0  # cards of unknown source found in a card file: now that file's
    adopted_changed: int = 0  # ... of which the file's version differed
    kept: list[Conflict] = field(default_factory=list)  # the catalogue's version kept
    taken: list[Conflict] = field(default_factory=list)  # --take-files: the file's version taken
    unknown_kept: list[str] = field(default_factory=list)  # unknown source, in no card file: kept
    others: Counter[str] = field(default_factory=Counter)  # cards from other sources after the load, by kind
    definition: str = ""  # "registered", "updated" (game.toml changed) or ""

    @property
    def total(self) -> int:
        return self.cards

    @property
    def written(self) -> int:
        return len(self.added) + len(self.updated) + len(self.taken) + self.adopted_changed

    def summary(self) -> str:
        """``2 new, 1 updated, 1 removed, 3 adopted`` or ``nothing changed``."""
        changes = [f"{len(self.added)} new" if self.added else "",
                   f"{len(self.updated)} updated" if self.updated else "",
                   f"{len(self.removed)} removed" if self.removed else "",
                   f"{self.adopted} adopted" if self.adopted else ""]
        return ", ".join(part for part in changes if part) or "nothing changed"

    def warnings(self) -> list[str]:
        """The lines of ``lines()`` that ask for a decision: conflicts kept, cards of unknown source kept."""
        return [line for line in self.lines()[1:] if line.startswith((f"{self.game}: kept ",))]

    def lines(self) -> list[str]:
        """What a build says about the load, one line per kind of news; the first line always."""
        g = self.game
        said = self.summary()
        others = ", ".join(_count(count, _OTHER_KINDS[kind][0]) + _OTHER_KINDS[kind][1]
                           for kind, count in sorted(self.others.items()))
        lines = [f"{g}: loaded {_count(self.cards, 'card')} in {_count(len(self.sets), 'set')} "
                 f"({', '.join(self.sets)}): {said}" + (f"; the catalogue also holds {others}" if others else "")]
        if self.definition == "updated":
            lines.append(f"{g}: game definition updated from its game.toml")
        if self.removed:
            lines.append(f"{g}: removed, as no card file holds them any more: {_names(self.removed)}")
        if self.kept:
            lines.append(f"{g}: kept the catalogue's version of {_count(len(self.kept), 'card')} that the card "
                         f"files give differently: {_names([c.describe() for c in self.kept])}. "
                         f"'carddb cards write-back --game {g}' writes the catalogue's into the card files; "
                         "'carddb build --take-files' takes the files' versions instead")
        if self.taken:
            lines.append(f"{g}: took the card files' version of {_count(len(self.taken), 'card')} (--take-files): "
                         f"{_names([c.describe() for c in self.taken])}")
        if self.adopted:
            changed = f", {self.adopted_changed} of them updated from the files" if self.adopted_changed else ""
            lines.append(f"{g}: {_count(self.adopted, 'card')} of unknown source (recorded before carddb kept "
                         f"where cards come from) {'is' if self.adopted == 1 else 'are'} in the card files, so "
                         f"{'it comes' if self.adopted == 1 else 'they come'} from them now{changed}")
        if self.unknown_kept:
            lines.append(f"{g}: kept {_count(len(self.unknown_kept), 'card')} of unknown source that no card file "
                         f"holds: {_names(self.unknown_kept)} ('carddb cards write-back --game {g}' writes them "
                         "into a card file)")
        return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:SHOWN_NAMES])
    return shown + (f" and {len(names) - SHOWN_NAMES} more" if len(names) > SHOWN_NAMES else "")


@dataclass
class _Plan:
    add: list[tuple[Card, Source]] = field(default_factory=list)
    update: list[tuple[int, Card, Source]] = field(default_factory=list)
    resource: list[tuple[int, Source]] = field(default_factory=list)
    delete: list[int] = field(default_factory=list)


def plan_load(found: WorkspaceGame, stored: dict[tuple[str, str], StoredCard],
              unknown_fingerprints: dict[tuple[str, str], str], other_sources: Counter[str] | None = None, *,
              take_files: bool = False) -> tuple[LoadReport, _Plan]:
    """What loading ``found`` changes in a catalogue holding ``stored`` (at least every card from a card file or
    of unknown source, and every card the files name) and ``other_sources`` (the game's cards of other
    sources, by kind: how many the catalogue "also holds"). A pure function of them."""
    at = now()
    report = LoadReport(game=found.game.id, files=list(found.files), sets=found.sets, cards=len(found.cards))
    report.others.update(other_sources or {})
    plan = _Plan()
    in_files = set()
    for card, origin in found.cards:
        key = identity(card)
        in_files.add(key)
        source = Source(WORKSPACE, origin, at, fingerprint(card))
        held = stored.get(key)
        if held is None:
            plan.add.append((card, source))
            report.added.append(card.key)
        elif held.source.kind == WORKSPACE:
            if held.source.fingerprint != source.fingerprint:
                plan.update.append((held.id, card, source))
                report.updated.append(card.key)
            elif held.source.name != origin:
                plan.resource.append((held.id, source))
                report.moved += 1
            else:
                report.unchanged += 1
        elif held.source.kind == UNKNOWN:
            report.adopted += 1
            report.others[UNKNOWN] -= 1
            if unknown_fingerprints.get(key) != source.fingerprint:
                plan.update.append((held.id, card, source))
                report.adopted_changed += 1
            else:
                plan.resource.append((held.id, source))
        elif held.source.fingerprint == source.fingerprint:
            report.unchanged += 1  # another source says just what the file says: nothing to decide
        elif take_files:
            plan.update.append((held.id, card, source))
            report.taken.append(Conflict(card.key, origin, held.source))
            report.others[held.source.kind] -= 1
        else:
            report.kept.append(Conflict(card.key, origin, held.source))
    for key, held in stored.items():
        if key in in_files:
            continue
        if held.source.kind == WORKSPACE:
            plan.delete.append(held.id)
            report.removed.append(held.key)
        elif held.source.kind == UNKNOWN:
            report.unknown_kept.append(held.key)
    report.others = +report.others  # drop the kinds counted down to nothing
    return report, plan


def load_into(session: Session, found: WorkspaceGame, *, take_files: bool = False,
              write: bool = True) -> LoadReport:
    """Plan the load inside ``session`` and, with ``write``, apply it (the caller's transaction commits it)."""
    game = found.game
    # Only the cards the load can concern: those from card files, of unknown source, or named by the files
    # (a game with 50,000 imported cards loads as fast as one without); the others are only counted.
    stored = stored_cards(session, game.id, names={identity(card)[0] for card, _ in found.cards},
                          with_file_cards=True)
    others = other_source_counts(session, game.id)
    unknown = [held.id for held in stored.values() if held.source.kind == UNKNOWN]
    # Cards of unknown source have no fingerprint yet: read them once (only the first build after an upgrade).
    unknown_fingerprints = {identity(card): fingerprint(card)
                            for card in (read_cards(session, game.id, ids=unknown) if unknown else [])}
    report, plan = plan_load(found, stored, unknown_fingerprints, others, take_files=take_files)
    if write:
        report.definition = register_game(session, game, found.definition_text)
        delete_cards(session, plan.delete)
        update_cards(session, game, plan.update)
        set_sources(session, plan.resource)
        insert_cards(session, game, plan.add)
    return report
