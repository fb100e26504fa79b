"""What an export did: the files it wrote and everything it had to change to fit the client's format."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ExportReport:
    """Returned by ``export_lackey``, ``export_apprentice``, ``export_tts`` and ``export_cockatrice``.

    ``warnings`` lists every lossy change (a transliterated name, a shortened name, a set code made up), so
    nothing is silently different from the catalogue; ``notes`` are facts worth telling (faces rendered).
    """

    game: str
    client: str  # "lackey" | "apprentice" | "tts" | "cockatrice" | "printshop"
    out_dir: Path
    root: Path  # the folder a player copies into the client (plugin folder or Apprentice folder)
    files: list[str] = field(default_factory=list)  # paths relative to out_dir, sorted
    cards: int = 0
    rows: int = 0  # card-data rows (Lackey), cardinfo.dat records (Apprentice), saved objects (TTS), printings
    decks: int = 0
    zip_path: Path | None = None
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Incremental exports (``carddb.exporters.previous``): True when the previous export was made from the same
    #: inputs and nothing was written; else how many of its costly images were made again, of how many.
    kept: bool = False
    images_made: tuple[int, int] = (0, 0)
    reasons: list[str] = field(default_factory=list)  # why it was written again (``carddb build --explain``)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def summary(self) -> str:
        what = _ROWS.get(self.client, "rows")
        lines = [f"{self.client}: {_n(self.cards, 'card')}, {_n(self.rows, what[:-1])}, {_n(self.decks, 'deck')}, "
                 f"{_n(len(self.files), 'file')} in {self.root}"]
        if self.zip_path is not None:
            lines.append(f"zip: {self.zip_path}")
        lines += self.notes
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)


_ROWS = {"lackey": "card-data rows", "apprentice": "cardinfo.dat records", "tts": "saved objects",
         "printshop": "card images",
         "cockatrice": "printings"}


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
