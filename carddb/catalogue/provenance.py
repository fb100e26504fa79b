"""Where a catalogue card came from: its source, stored with the card (docs/catalogue.md, "Sources").

A card came from a card file of the workspace (``rules/<game>/cards/...``, loaded by ``carddb build``), from a
file given to ``carddb cards import``, or from a change made in the catalogue itself; cards of a catalogue
made before carddb recorded sources have an unknown source. With the source the card keeps when that source
gave it and a fingerprint of the card as it gave it, so a build tells "the file changed" (load it) from "the
catalogue changed since" (keep it, name the conflict) without comparing whole cards.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from carddb.core.cards.card import Card

WORKSPACE = "workspace"  # a card file of the workspace; the name is its path from the workspace root
IMPORT = "import"  # a file given to `carddb cards import`; the name is the file's (its workspace path if inside)
EDIT = "edit"  # changed in the catalogue itself, by the library's write() (no command edits cards yet)
UNKNOWN = "unknown"  # a card of a catalogue made before sources were recorded (migration 0004)
KINDS = (WORKSPACE, IMPORT, EDIT, UNKNOWN)

_WHAT = {WORKSPACE: "card file", IMPORT: "imported file", EDIT: "catalogue edit", UNKNOWN: "unknown"}


@dataclass(frozen=True)
class Source:
    kind: str
    name: str = ""
    at: datetime | None = None
    fingerprint: str = ""

    def describe(self) -> str:
        """``card file rules/shmod/cards/base.yaml (loaded on 2025-03-01 10:02 UTC)``, as a user reads it."""
        when = f" on {_moment(self.at)}" if self.at else ""
        if self.kind == WORKSPACE:
            return f"card file {self.name} (loaded{when})" if when else f"card file {self.name}"
        if self.kind == IMPORT:
            return f"imported from {self.name}{when}"
        if self.kind == EDIT:
            return f"edited in the catalogue{f' ({self.name})' if self.name else ''}{when}"
        return "unknown (the catalogue was made before carddb recorded where cards come from)"

    def to_dict(self) -> dict[str, Any]:
        """The ``source`` object of ``cards show --json``."""
        return {"kind": self.kind, "what": _WHAT.get(self.kind, self.kind), "name": self.name,
                "at": _utc(self.at).isoformat() if self.at else None, "fingerprint": self.fingerprint}


def _utc(moment: datetime) -> datetime:
    """The catalogue stores UTC; SQLite hands it back without its zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _moment(moment: datetime) -> str:
    return _utc(moment).strftime("%Y-%m-%d %H:%M UTC")


def now() -> datetime:
    return datetime.now(UTC)


_canonical = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode


def fingerprint(card: Card) -> str:
    """A short digest of everything a card says (not its game, not its source): equal cards, equal digests."""
    text = _canonical([card.name, card.qualifier, card.kind, card.text, card.flavor, card.fields,
                       [[p.set, p.number, p.rarity, p.art] for p in card.printings], card.sample])
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def source_name(path: str | Path, root: Path | None) -> str:
    """How a file is named in a source: its path from the workspace root when inside it, else its file name."""
    resolved = Path(path).resolve()
    if root is not None:
        try:
            return resolved.relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return resolved.name
