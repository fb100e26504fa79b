"""The previous export in a folder: skipped whole when nothing it was made from changed, its images reused.

An export folder carries ``.build-inputs.json`` (``carddb.incremental``): the digest of everything the export
was made from, the digest each costly file (a converted face, a deck sheet) was made from, and the export's
report. The manifest is written into the staged folder, so it is swapped in with the files it describes. An
exporter digests its inputs first; when they equal the manifest's it gives back the report kept there and
writes nothing. Otherwise it builds the whole folder again, but takes every image whose digest is unchanged
from the previous folder instead of converting it again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

from carddb.core.cards.card import Card
from carddb.core.game.definition import GameDefinition
from carddb.exporters.output import MARKER, Contents, Kept, listing, staged_folder, write_bytes
from carddb.exporters.report import ExportReport
from carddb.files.listing import plain_files, prune_to
from carddb.incremental import MANIFEST, Manifest, digest, plain_report, sources_key

T = TypeVar("T")


def export_inputs(client: str, game: GameDefinition, cards: list[Card], face_keys: dict[str, str],
                  deck_files: list[Path], *options: Any) -> dict[str, str]:
    """The named sources an export is made from: carddb itself and the libraries, each section of the game, its
    cards, the faces, the sample deck files and the exporter's options (its folder, base URL, the date it stamps).
    An export is one part (its folder, written whole); ``--explain`` names what changed."""
    from carddb.core.cards.card import card_copy
    from carddb.incremental import code_sources, file_digest, game_sources, shared, short

    def made() -> dict[str, str]:
        return {**game_sources(game.raw), "cards": short([card.to_dict() for card in cards])}

    # each exporter of a build digests the same game and cards (5,000 of them, four times): once a build
    read = shared(("export inputs", game.id), (game.raw, list(cards)), made,
                  keep=lambda given: (given[0], [card_copy(card) for card in given[1]]))
    return {"exporter": client, **code_sources(), **read, "faces": short(sorted(face_keys.items())),
            "deck files": short([(path.name, file_digest(path)) for path in deck_files]), "options": short(options)}


def deck_files(workspace_root: str | Path, game_id: str) -> list[Path]:
    """The sample deck files an export reads (none for a game without a folder of its own)."""
    from carddb.errors import InputError
    from carddb.workspace import Workspace

    try:
        return Workspace(Path(workspace_root)).deck_files(game_id)
    except InputError:
        return []


class PreviousExport:
    """The manifest of the export in ``out_dir`` (empty when there is none), and what this export reuses."""

    def __init__(self, out_dir: str | Path, progress: Callable[[int, int | None], None] | None = None) -> None:
        self.out_dir = Path(out_dir)
        self.progress = progress  # told (images made or reused, of how many) as the images are made
        self.expected: int | None = None
        self._lock = threading.Lock()
        marked = (self.out_dir / MARKER).is_file()
        self.manifest = Manifest.read(self.out_dir / MANIFEST) if marked else Manifest()
        self.parts: dict[str, dict[str, Any]] = {}
        self._by_key = {entry["key"]: relative for relative, entry in sorted(self.manifest.parts.items())
                        if isinstance(entry.get("key"), str)}
        self.reused = 0
        self.made = 0
        self.reasons: list[str] = []  # why the export is written again (``up_to_date`` fills it)
        self._listed: dict[str, int] | None = None  # the previous export's files and their inodes (``_files``)

    def up_to_date(self, inputs: dict[str, str]) -> ExportReport | None:
        """The report of the previous export when it was made from ``inputs`` and all its files are there; else
        None, and ``reasons`` says what changed."""
        report = self.manifest.report
        files = report.get("files") or []
        if not self.manifest.current(sources_key(inputs)) or not report \
                or not all(isinstance(f, str) and (self.out_dir / f).is_file() for f in files):
            self.reasons = self.manifest.changes(inputs)
            return None
        from carddb.files.replacing import clean_leftovers

        clean_leftovers(self.out_dir.parent)  # what a killed run left beside it goes, as a run that writes does
        zip_path = report.get("zip_path")
        try:
            return ExportReport(**{**report, "out_dir": Path(report["out_dir"]), "root": Path(report["root"]),
                                   "zip_path": Path(zip_path) if zip_path else None, "kept": True})
        except (KeyError, TypeError):  # a manifest of another shape (edited, or an older carddb's)
            self.reasons = ["the earlier build's manifest could not be read"]
            return None

    def expect(self, images: int) -> None:
        """How many images this export will ask for (its progress shows n of them)."""
        self.expected = images
        if self.progress:
            self.progress(0, images)

    def image(self, key: str, make: Callable[[], bytes]) -> Contents:
        """The image made from ``key``: a previous file made from the same key (``Kept``: linked, not read), else
        ``make()``. Where the image goes is told with ``place``. Safe to call from several threads."""
        data = self.kept(key)
        if data is not None:
            self._count(reused=1)
            return data
        data = make()
        self._count(made=1)
        return data

    def images(self, wanted: dict[T, tuple[str, Callable[[], bytes]]]) -> dict[T, Contents]:
        """``image`` of each entry of ``wanted`` (its key and how to make it), in its order: the kept ones found
        here, the others made on all cores (Pillow decodes, resizes and encodes without holding the GIL). A
        thread's task for every image cost more than finding it kept (5,000 a client at 5,000 cards, one made)."""
        from concurrent.futures import ThreadPoolExecutor

        from carddb.workers import cores

        found: dict[T, Contents | None] = {name: self.kept(key) for name, (key, _) in wanted.items()}
        todo = [name for name, data in found.items() if data is None]
        self._count(reused=len(found) - len(todo))
        if todo:
            with ThreadPoolExecutor(max_workers=min(cores(), len(todo))) as pool:
                found.update(zip(todo, pool.map(lambda name: self.image(*wanted[name]), todo), strict=True))
        return found  # type: ignore[return-value]  (every entry is filled now)

    def kept(self, key: str) -> Kept | None:
        """The previous file made from ``key``, or None (gone, or a hand-edited name: it is made again)."""
        relative = self._by_key.get(key)
        inode = self._files().get(relative) if relative is not None else None
        return Kept(self.out_dir / relative, inode) if relative is not None and inode is not None else None

    def _count(self, *, reused: int = 0, made: int = 0) -> None:
        with self._lock:
            self.reused += reused
            self.made += made
            if self.progress and (reused or made):
                self.progress(self.made + self.reused, self.expected)

    def _files(self) -> dict[str, int]:
        """Every plain file of the previous export (relative POSIX paths), listed once: a file reached through a
        link is never taken (it may lead out of the folder), and asking for each image cost two system calls an
        image (5,000 images a client at 5,000 cards)."""
        with self._lock:
            if self._listed is None:
                self._listed = plain_files(self.out_dir)
            return self._listed

    def place(self, relative: str, key: str) -> None:
        """The file ``relative`` of the new export holds the image made from ``key``."""
        self.parts[relative] = {"key": key}

    def noted(self, relative: str, name: str, make: Callable[[], Any]) -> Any:
        """A value ``name`` kept beside the key of the file ``relative`` (placed already) in the manifest, such as
        its LackeyCCG checksum: the previous export's, when it placed a file made from the same key, else
        ``make()``. Made from the file's bytes, which its key decides, so a clean build keeps the same value."""
        entry = self.parts[relative]
        before = self._by_key.get(entry["key"])
        value = self.manifest.parts[before].get(name) if before is not None else None
        entry[name] = make() if value is None else value
        return entry[name]

    def placed(self, relative: str, key: str, make: Callable[[], bytes]) -> Contents:
        """``image`` and ``place`` at once, for an image written to one file."""
        self.place(relative, key)
        return self.image(key, make)

    def write_export(self, out_dir: Path, marker: dict[str, object], files: dict[str, Contents], inputs: dict[str, str],
                     report: ExportReport, *, under: str = "",
                     finish: Callable[[Path], None] | None = None) -> ExportReport:
        """Every exporter's last step: ``files`` (paths relative to ``under`` in the folder) into a staged folder
        with the manifest that describes them, swapped in whole; ``finish(stage)`` adds what is made from them
        (Lackey's zip) before the listing."""
        with staged_folder(out_dir, marker, refill=True) as stage:
            wanted = {f"{under}/{relative}" if under else relative: data for relative, data in files.items()}
            # an old copy of the export (refilled) keeps the files that are the previous export's images already:
            # one image changed, one written
            there = prune_to(stage, {relative: data.inode for relative, data in wanted.items()
                                     if isinstance(data, Kept) and data.inode is not None})
            plain: set[str] = set()  # the stage's folders, each looked at once
            for relative, data in wanted.items():
                if relative not in there:
                    write_bytes(stage, relative, data, plain)
            if finish is not None:
                finish(stage)
            report.files = listing(stage)
            report.warnings = list(dict.fromkeys(report.warnings))
            self.write(stage, inputs, report)
        return report

    def write(self, stage: Path, inputs: dict[str, str], report: ExportReport) -> None:
        """The new manifest into the staged folder (its files are listed in the report)."""
        report.images_made = (self.made, self.made + self.reused)
        report.reasons = list(self.reasons)
        kept = {**asdict(report), "files": [f for f in report.files if f != MANIFEST]}
        for what_this_run_did in ("kept", "images_made", "reasons"):  # a clean build and an incremental one
            del kept[what_this_run_did]                                # write the same bytes
        manifest = Manifest(sources_key(inputs), self.parts, plain_report(kept), sources=dict(inputs))
        write_bytes(stage, MANIFEST, manifest.to_bytes())


def image_key(face_key: str, *recipe: Any) -> str:
    """The digest an exported image is made from: its face and how it is converted (size, quality, grid)."""
    return digest(face_key, recipe)
