"""``carddb build``, the main job: from the workspace's files to everything in ``output/``.

For each game: load it into the catalogue, check its sample decks (each must get the verdict its file name
promises), render its faces, print its sample decks and a sheet of every card, and export it for LackeyCCG,
Apprentice, Tabletop Simulator and Cockatrice; then build the site of all the games. Each step is a library
function; the build only runs them in order and gathers what they say into one report: its lines, its failures
and every warning (the exporters' warnings and each face whose text overflowed or breaks a legibility rule), all of
which are also written to ``output/build-warnings.txt``. Each step is a task of ``progress`` (``carddb.progress``).

The build is incremental (``carddb.incremental``): every step digests its inputs and does again only the part of
its work whose inputs changed (a face, a PDF, an exported image, a site page), or nothing at all; the report
says, step by step, what was redone and what was up to date.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.errors import CarddbError
from carddb.progress import SILENT, Reporter, Task
from carddb.workspace import Workspace

if TYPE_CHECKING:  # the catalogue pulls in SQLAlchemy; every command imports this module for its help text
    from carddb.catalogue.api import Catalogue
    from carddb.exporters.report import ExportReport

Say = Callable[[str], None]
#: What a step did: None when it was up to date, else what it made again ("3 of 14 PDFs"; "" for all of it).
Redone = str | None
STEPS = ("decks", "faces", "sheets", "lackey", "apprentice", "tts", "cockatrice", "site")
WARNINGS_FILE = "build-warnings.txt"
#: Inside output/: what the build keeps of the steps that write no file of their own (the decks' verdicts).
STATE_DIR = ".carddb"


@dataclass
class BuildReport:
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warnings_file: Path | None = None  # every warning, one a line (None when there were none)
    seconds: float = 0.0
    redone: dict[str, str] = field(default_factory=dict)  # "shmod sheets" -> "3 of 14 PDFs" ("" for all of it)
    up_to_date: list[str] = field(default_factory=list)  # the steps that had nothing to do

    def done(self, step: str, redone: Redone) -> None:
        if redone is None:
            self.up_to_date.append(step)
        else:
            self.redone[step] = redone

    def incremental_summary(self) -> str:
        """One line: which steps did work again (and how much of it), and how many were up to date."""
        if not self.redone:
            return f"Everything was up to date ({_count(len(self.up_to_date), 'step')})"
        done = ", ".join(f"{step} ({what})" if what else step for step, what in self.redone.items())
        return f"Redone: {done}; up to date: {_count(len(self.up_to_date), 'other step')}"

    @property
    def failed(self) -> bool:
        return bool(self.failures)


def build(workspace: Workspace, catalogue: Catalogue, game_ids: Sequence[str] | None = None, *,
          skip: Sequence[str] = (), say: Say = lambda line: None, progress: Reporter = SILENT,
          take_files: bool = False, site_url: str | None = None) -> BuildReport:
    started = time.perf_counter()
    report = BuildReport()

    def tell(line: str) -> None:
        report.lines.append(line)
        say(line)

    unknown = set(skip) - set(STEPS)
    if unknown:
        raise CarddbError(f"unknown build step {sorted(unknown)[0]!r}; steps are {', '.join(STEPS)}")
    games = list(game_ids or workspace.game_ids())
    out = workspace.output_dir
    for game_id in games:
        # Cards from the card files in, cards that left them out; cards from any other source stay (load.py).
        with progress.task(f"{game_id}: load"):
            loaded = catalogue.load_workspace_game(workspace, game_id, take_files=take_files)
        for line in loaded.lines():
            tell(line)
        report.warnings += loaded.warnings()
        game = catalogue.game(game_id)
        for step, run in _GAME_STEPS:
            if step in skip or (step == "decks" and not game.deck_game):
                continue
            try:
                with progress.task(f"{game_id}: {step}") as task:
                    report.done(f"{game_id} {step}", run(workspace, catalogue, game_id, out, tell, report, task))
            except CarddbError as exc:
                report.failures.append(f"{game_id} {step}: {exc}")
                tell(f"{game_id}: {step} FAILED: {exc}")
    missing = _site_missing(workspace) if "site" not in skip and games else None
    if missing:
        tell(f"site: skipped, {missing}")
        report.warnings.append(f"site: skipped, {missing}")
    elif "site" not in skip and games:
        try:
            with progress.task("site: pages") as task:
                report.done("site", _site(workspace, catalogue, out, tell, report, site_url, task))
        except CarddbError as exc:
            report.failures.append(f"site: {exc}")
            tell(f"site FAILED: {exc}")
    report.warnings_file = _write_warnings(out, report.warnings)
    report.seconds = time.perf_counter() - started
    tell(report.incremental_summary())
    tell(f"Built {_count(len(games), 'game')} into {out} in {report.seconds:.1f} s"
         + (f" with {len(report.failures)} failure(s)" if report.failures else "")
         + (f", {_count(len(report.warnings), 'warning')}" if report.warnings else ""))
    return report


def _write_warnings(out: Path, warnings: list[str]) -> Path | None:
    """Every warning of the build into ``out/build-warnings.txt``; a stale file of an earlier build goes."""
    path = out / WARNINGS_FILE
    if not warnings:
        path.unlink(missing_ok=True)
        return None
    from carddb.files.replacing import write_file

    write_file(path, "".join(f"{line}\n" for line in warnings))
    return path


def _decks(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say,
           report: BuildReport, task: Task) -> Redone:
    from carddb.files.reading import read_deck_file
    from carddb.incremental import Manifest, code_digest, digest, file_digest
    from carddb.rules.checker import card_index
    from carddb.rules.report import check_deck_text

    game = catalogue.game(game_id)
    cards = catalogue.cards(game_id)
    paths = workspace.deck_files(game_id)
    inputs = digest("decks", code_digest(), game.id, game.raw, [c.to_dict() for c in cards],
                    [(path.name, file_digest(path)) for path in paths])
    place = out / STATE_DIR / f"decks-{game_id}.json"  # a check writes nothing else: its verdicts are kept here
    kept = Manifest.read(place)
    redone: Redone = None
    if not kept.current(inputs):
        index = card_index(game, cards)
        legal, illegal, failures = 0, 0, []
        for path in paths:
            result = check_deck_text(read_deck_file(path), game, index, path.name)
            promised = not path.name.startswith("illegal-")
            legal += result.legal
            illegal += not result.legal
            if result.legal != promised:
                codes = ", ".join(sorted({p.code for p in result.problems})) or "no problems"
                failures.append(f"{game_id}: sample deck {path.name} is {'legal' if result.legal else 'illegal'} "
                                f"({codes}), unlike its name")
        kept = Manifest(inputs, report={"legal": legal, "illegal": illegal, "failures": failures})
        kept.write(place)
        redone = ""
    legal, illegal = kept.report["legal"], kept.report["illegal"]
    report.failures += kept.report["failures"]
    tell(f"{game_id}: checked {_count(legal + illegal, 'sample deck')} ({legal} legal, {illegal} illegal)")
    return redone


def _faces(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say,
           report: BuildReport, task: Task) -> Redone:
    from carddb.paint.render import render_faces

    result = render_faces(workspace.root, catalogue.game(game_id), catalogue.cards(game_id), out / "faces",
                          progress=task, complete=True)
    tell(f"{game_id}: faces in {out / 'faces' / game_id}: {len(result.drawn)} drawn, {len(result.reused)} reused"
         # Text shrunk within the template's minimum sizes is the layout doing its job, not a problem: counted here
         # (`carddb render` lists each box), never a warning, so the warnings stay the few things to act on.
         + (f", {len(result.shrunk)} with text shrunk to fit" if result.shrunk else "")
         + (f", {len(result.overflowed)} OVERFLOWING" if result.overflowed else "")
         + (f", {len({p.card for p in result.problems})} breaking a legibility rule ('carddb render --game "
            f"{game_id}' lists them)" if result.problems else ""))
    report.warnings += [f"{game_id}: face of {fit.card}: the {fit.box} text does not fit even at {fit.size:g} pt "
                        "and is cut" for fit in result.overflowed]
    report.warnings += [f"{game_id}: face: {warning}" for warning in result.warnings]
    report.warnings += [f"{game_id}: face of {p.card}: {p.message}" for p in result.problems
                        if p.rule != "overflow"]  # an overflow is already listed just above
    total = len(result.drawn) + len(result.reused)
    return f"{len(result.drawn)} of {_count(total, 'face')}" if result.drawn else None


def _sheets(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say,
            report: BuildReport, task: Task) -> Redone:
    from carddb.paint.print_job import print_game_sheets

    def not_printed(line: str) -> None:
        tell(line)
        report.warnings.append(line)

    results = print_game_sheets(workspace, catalogue, game_id, out / "sheets", say=not_printed)
    pages = sum(getattr(r, "pages", 0) for r in results)
    tell(f"{game_id}: {_count(len(results), 'proxy PDF')} in {out / 'sheets' / game_id}"
         + (f", {_count(pages, 'page')}" if pages else ""))
    written = sum(not r.kept for r in results)
    return f"{written} of {_count(len(results), 'PDF')}" if written else None


def _lackey(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say,
            report: BuildReport, task: Task) -> Redone:
    from carddb.exporters.lackey.export import export_lackey

    result = export_lackey(workspace.root, catalogue, game_id, out / "lackey" / game_id,
                           faces_dir=out / "faces", zip=True)
    report.warnings += [f"{game_id}: LackeyCCG: {warning}" for warning in result.warnings]
    tell(f"{game_id}: LackeyCCG plugin in {result.root} ({_count(result.rows, 'card row')}, "
         f"{_count(result.decks, 'deck')}" + (f", {_count(len(result.warnings), 'warning')}" if result.warnings else "")
         + ")")
    return _export_redone(result)


def _apprentice(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say,
                report: BuildReport, task: Task) -> Redone:
    from carddb.exporters.apprentice.export import export_apprentice

    result = export_apprentice(workspace.root, catalogue, game_id, out / "apprentice" / game_id)
    report.warnings += [f"{game_id}: Apprentice: {warning}" for warning in result.warnings]
    tell(f"{game_id}: Apprentice patch in {result.root} ({_count(result.rows, 'record')}, "
         f"{_count(result.decks, 'deck')}" + (f", {_count(len(result.warnings), 'warning')}" if result.warnings else "")
         + ")")
    return _export_redone(result)


def _tts(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say, report: BuildReport,
         task: Task) -> Redone:
    from carddb.exporters.tts import export_tts

    result = export_tts(workspace.root, catalogue, game_id, out / "tts" / game_id, faces_dir=out / "faces")
    report.warnings += [f"{game_id}: Tabletop Simulator: {warning}" for warning in result.warnings]
    tell(f"{game_id}: Tabletop Simulator saved objects in {result.root} ({_count(result.rows, 'saved object')}"
         + (f", {_count(len(result.warnings), 'warning')}" if result.warnings else "") + ")")
    return _export_redone(result)


def _cockatrice(workspace: Workspace, catalogue: Catalogue, game_id: str, out: Path, tell: Say,
                report: BuildReport, task: Task) -> Redone:
    from carddb.exporters.cockatrice import export_cockatrice

    result = export_cockatrice(workspace.root, catalogue, game_id, out / "cockatrice" / game_id,
                               faces_dir=out / "faces")
    report.warnings += [f"{game_id}: Cockatrice: {warning}" for warning in result.warnings]
    tell(f"{game_id}: Cockatrice card database in {result.root} ({_count(result.cards, 'card')}, "
         f"{_count(result.decks, 'deck')}" + (f", {_count(len(result.warnings), 'warning')}" if result.warnings else "")
         + ")")
    return _export_redone(result)


def _export_redone(result: ExportReport) -> Redone:
    """An export is written whole when anything changed; what tells is how many images it converted again."""
    if result.kept:
        return None
    made, total = result.images_made
    return f"{made} of {_count(total, 'image')} converted" if total else ""


def _site(workspace: Workspace, catalogue: Catalogue, out: Path, tell: Say, report: BuildReport,
          site_url: str | None = None, task: Task | None = None) -> Redone:
    from carddb.site.build import build_site

    result = build_site(workspace.root, catalogue, out / "site", site_url=site_url, progress=task or Task())
    tell(f"site: {result.pages} pages, {result.cards} cards ({result.faces} faces), {result.decks} decks, "
         f"Pyodide {result.pyodide_version}, {result.bytes / 1_048_576:.1f} MB in {result.out_dir}")
    for note in result.notes:
        tell(f"site: {note}")
        report.warnings.append(f"site: {note}")
    if result.kept:
        return None
    if result.pages_built is None:
        return ""
    built, total = result.pages_built
    return f"{built} of {_count(total, 'page')} built"


def _site_missing(workspace: Workspace) -> str | None:
    """Why the workspace cannot have a site yet (a build skips the site then, saying how to get one), or None."""
    site = workspace.site_dir
    if not (site / "mkdocs.yml").is_file():
        return f"{site} holds no mkdocs.yml (`carddb init {workspace.root}` adds the site's files)"
    if not (site / "node_modules" / "pyodide" / "package.json").is_file():
        return f"the site's Pyodide is not installed (run `npm ci --prefix {site}` once)"
    return None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


_GAME_STEPS: tuple[tuple[str, Callable[[Workspace, Catalogue, str, Path, Say, BuildReport, Task], Redone]], ...] = (
    ("decks", _decks), ("faces", _faces), ("sheets", _sheets), ("lackey", _lackey), ("apprentice", _apprentice),
    ("tts", _tts), ("cockatrice", _cockatrice),
)
