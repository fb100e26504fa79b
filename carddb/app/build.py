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
from typing import TYPE_CHECKING, Any

from carddb.errors import CarddbError, TemplateError
from carddb.progress import SILENT, Reporter, Task
from carddb.workspace import Workspace

if TYPE_CHECKING:  # the catalogue pulls in SQLAlchemy; every command imports this module for its help text
    from carddb.catalogue.api import Catalogue
    from carddb.exporters.report import ExportReport
    from carddb.site.build import SiteReport
    from carddb.workers import Pool

Say = Callable[[str], None]
#: What a step did: None when it was up to date, else what it made again ("3 of 14 PDFs"; "" for all of it).
Redone = str | None
#: No print-shop step: an order is one deck for one shop (``carddb export printshop``), and every game for every
#: shop would be about half a gigabyte of images a build.
STEPS = ("decks", "faces", "sheets", "lackey", "apprentice", "tts", "cockatrice", "site")
WARNINGS_FILE = "build-warnings.txt"
#: Reasons that are no change of an input (said as they are by ``--explain``).
_NOT_A_CHANGE = ("no earlier build", "a new part", "its output file is missing", "its output files are missing",
                 "the earlier build's manifest could not be read")
#: The folders of output/ holding one folder per game, each with a manifest or marker carddb wrote there.
GAME_FOLDERS = ("faces", "sheets", "lackey", "apprentice", "tts", "cockatrice")
#: Inside output/: what the build keeps of the steps that write no file of their own (the decks' verdicts).
STATE_DIR = ".carddb"


@dataclass
class BuildReport:
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    #: a card face template failed: the steps drawing faces, and the site, were not run
    template_failed: bool = False
    broken_games: set[str] = field(default_factory=set)  # the games whose template failed
    warnings: list[str] = field(default_factory=list)
    warnings_file: Path | None = None  # every warning, one a line (None when there were none)
    seconds: float = 0.0
    redone: dict[str, str] = field(default_factory=dict)  # "shmod sheets" -> "3 of 14 PDFs" ("" for all of it)
    up_to_date: list[str] = field(default_factory=list)  # the steps that had nothing to do
    #: step -> part -> the sources whose change made it again (``carddb build --explain``)
    reasons: dict[str, dict[str, list[str]]] = field(default_factory=dict)

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

    def explain(self, step: str, reasons: dict[str, list[str]]) -> None:
        if reasons:
            self.reasons[step] = reasons

    def explanation(self, shown: int = 4) -> list[str]:
        """For ``--explain``: per step, the parts made again grouped by what changed (a few named, then a count)."""
        lines = []
        for step, parts in self.reasons.items():
            groups: dict[tuple[str, ...], list[str]] = {}
            for part, why in parts.items():
                groups.setdefault(tuple(why), []).append(part)
            for why, names in groups.items():
                listed = ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
                lines.append(f"{step}: {_count(len(names), 'part')} redone ({listed}): {'; '.join(why)} changed"
                             if why and why[0] not in _NOT_A_CHANGE else
                             f"{step}: {_count(len(names), 'part')} redone ({listed}): {'; '.join(why)}")
        return lines

    @property
    def failed(self) -> bool:
        return bool(self.failures)


def build(workspace: Workspace, catalogue: Catalogue | Callable[[], Catalogue],
          game_ids: Sequence[str] | None = None, *, skip: Sequence[str] = (), say: Say = lambda line: None,
          progress: Reporter = SILENT, take_files: bool = False, site_url: str | None = None,
          db: str | None = None, pages_first: bool = False) -> BuildReport:
    """Build ``game_ids`` (None: every game) of ``workspace`` from ``catalogue`` (or a function opening it, so a
    build with nothing to do never opens it; ``db`` then names where it is) into ``output/``.

    ``pages_first`` (``site serve``): the site is built as soon as the faces are drawn, then again after the
    exports, which it hosts, and the proxy sheets come last; an open page shows an edit a few seconds sooner, and
    what the build leaves is the same."""
    from carddb.app.build_stamp import catalogue_file, forget_stamp, read_stamp, stamp_digest

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
    if "site" not in skip and (workspace.site_dir / "mkdocs.yml").is_file():
        from carddb.site.build import effective_site_url

        effective_site_url(workspace.site_dir / "mkdocs.yml", site_url)  # a bad address changes nothing
    location = db if db is not None else getattr(catalogue, "db", None)
    db_file = catalogue_file(location) if location else None
    options = [games, sorted(skip), take_files, site_url or ""]
    stamp = stamp_digest(workspace.root.resolve(), out, db_file, options) if db_file else None
    kept = read_stamp(out) if stamp else None
    if kept is not None and kept.digest == stamp:  # nothing any step reads changed: say what the last build said
        for line in kept.lines:
            tell(line)
        report.warnings = list(kept.warnings)
        report.up_to_date = list(kept.steps)
        report.warnings_file = out / WARNINGS_FILE if report.warnings else None
        return _finish(report, games, out, started, tell)
    forget_stamp(out)  # from here on the outputs change: an interrupted build leaves no stamp behind
    opened = catalogue() if callable(catalogue) and not hasattr(catalogue, "cards") else catalogue
    _run_steps(workspace, opened, games, skip, out, tell, report, progress, take_files, site_url, pages_first)
    report.warnings_file = _write_warnings(out, report.warnings)
    steps_said = list(report.lines)
    _finish(report, games, out, started, tell)
    if db_file and not report.failures:
        from carddb.app.build_stamp import Stamp, write_stamp

        close = getattr(opened, "close", None)
        if close is not None:
            close()  # its last connection folds the write-ahead log into the file now, not after the stamp
        write_stamp(out, Stamp(stamp_digest(workspace.root.resolve(), out, db_file, options), steps_said,
                               list(report.warnings), [*report.redone, *report.up_to_date]))
    return report


def _finish(report: BuildReport, games: list[str], out: Path, started: float, tell: Say) -> BuildReport:
    report.seconds = time.perf_counter() - started
    tell(report.incremental_summary())
    tell(f"Built {_count(len(games), 'game')} into {out} in {report.seconds:.1f} s"
         + (f" with {_count(len(report.failures), 'failure')}" if report.failures else "")
         + (f", {_count(len(report.warnings), 'warning')}" if report.warnings else ""))
    return report


def _run_steps(workspace: Workspace, catalogue: Catalogue, games: list[str], skip: Sequence[str], out: Path,
               tell: Say, report: BuildReport, progress: Reporter, take_files: bool, site_url: str | None,
               pages_first: bool = False) -> None:
    from carddb.incremental import remember_in
    from carddb.workers import Pool

    pool = Pool()  # the build's one pool of drawing processes, started only when a step has work to share
    whole = set(games) >= set(workspace.game_ids())
    site = _SiteStep(workspace, catalogue, out, tell, report, progress, site_url, wanted="site" not in skip and
                     bool(games))
    try:
        # One cache folder for every step; a build of every game leaves in it only what it used.
        with remember_in(out / STATE_DIR / "cache", prune=whole) as cache:
            late = pages_first and site.wanted
            rendered: dict[str, Any] = {}  # the faces step's reports, for the exporters of a later pass

            def only(steps: Sequence[str]) -> list[str]:
                return [step for step in STEPS if step not in steps or step in skip]

            if late:
                _build_games(workspace, catalogue, games, [*skip, *EXPORT_STEPS, *PRINT_STEPS], out, tell, report,
                             progress, take_files, pool, rendered=rendered)
                site.run()
                _build_games(workspace, catalogue, games, only(EXPORT_STEPS), out, tell, report, progress, take_files,
                             pool, load=False, rendered=rendered)
            else:
                _build_games(workspace, catalogue, games, skip, out, tell, report, progress, take_files, pool)
            if whole:
                _remove_gone_games(workspace, catalogue, out, tell)
            site.run()  # again after the exports (pages_first): its pages host their files
            if site.ran:
                report.done("site", site.redone)
            if late:  # last: the site shows no sheet, so an open page never waits for one
                _build_games(workspace, catalogue, games, only(PRINT_STEPS), out, tell, report, progress, take_files,
                             pool, load=False, rendered=rendered)
            cache.prune = cache.prune and not report.failures  # a failed step may want its entries next time
    finally:
        pool.close()


#: The steps whose files the site hosts (carddb.site.client_files): ``pages_first`` builds the site before them.
EXPORT_STEPS = ("lackey", "apprentice", "tts", "cockatrice")
#: The steps whose files the site neither shows nor hosts: ``pages_first`` runs them after the site's last run.
PRINT_STEPS = ("sheets",)


@dataclass
class _SiteStep:
    """The site step, which a ``pages_first`` build runs twice and reports once."""

    workspace: Workspace
    catalogue: Catalogue
    out: Path
    tell: Say
    report: BuildReport
    progress: Reporter
    site_url: str | None
    wanted: bool
    ran: bool = False
    #: what the runs redid: every page (a site made whole), else ``built`` of the site's ``total`` pages
    whole: bool = False
    built: int = 0
    total: int | None = None

    @property
    def redone(self) -> Redone:
        if self.whole:
            return ""
        return None if self.total is None else f"{self.built} of {_count(self.total, 'page')} built"

    def run(self) -> None:
        if not self.wanted:
            return
        missing = _site_missing(self.workspace)
        if self.report.template_failed:
            self._skip("site: not built, since a template failed above (the site would show faces that are not "
                       "there)", warn=False)
            return
        if missing:
            self._skip(f"site: skipped, {missing}", warn=True)
            return
        try:
            with self.progress.task("site: pages") as task:
                result = _site(self.workspace, self.catalogue, self.out, self.tell if not self.ran else
                               self._second_tell, self.report, self.site_url, task)
        except CarddbError as exc:
            self.report.failures.append(f"site: {exc}")
            self.tell(f"site FAILED: {exc}")
            self.wanted = False
            return
        if not result.kept:  # the pages of both runs count, of the site's pages
            self.report.explain("site", {**self.report.reasons.get("site", {}), **result.reasons})
            if result.pages_built is None:
                self.whole = True
            else:
                self.built += result.pages_built[0]
                self.total = result.pages_built[1]
        self.ran = True

    def _second_tell(self, line: str) -> None:
        """The second run's lines replace the first's (the same count of pages, faces and decks)."""
        if line not in self.report.lines:
            self.tell(line)

    def _skip(self, line: str, *, warn: bool) -> None:
        self.tell(line)
        if warn:
            self.report.warnings.append(line)
        self.wanted = False


def _build_games(workspace: Workspace, catalogue: Catalogue, games: list[str], skip: Sequence[str], out: Path,
                 tell: Say, report: BuildReport, progress: Reporter, take_files: bool, pool: Pool, *,
                 load: bool = True, rendered: dict[str, Any] | None = None) -> None:
    """Each game's steps, less ``skip``; with ``load``, its card files loaded first (a second call does not).
    ``rendered`` keeps the faces step's reports for the exporters of a later call of the same build."""
    rendered = {} if rendered is None else rendered
    for game_id in games:
        if load:
            # Cards from the card files in, cards that left them out; cards from any other source stay (load.py).
            with progress.task(f"{game_id}: load"):
                loaded = catalogue.load_workspace_game(workspace, game_id, take_files=take_files)
            for line in loaded.lines():
                tell(line)
            report.warnings += loaded.warnings()
        game = catalogue.game(game_id)
        broken_template = "a template" if not load and game_id in report.broken_games else None
        for step, run in _GAME_STEPS:
            if step in skip or (step == "decks" and not game.deck_game):
                continue
            if broken_template and step in NEEDS_FACES:
                tell(f"{game_id}: {step} skipped: {broken_template} failed above")  # its error said once
                continue
            try:
                with progress.task(f"{game_id}: {step}") as task:
                    context = StepContext(workspace, catalogue, game_id, out, tell, report, task, pool, rendered)
                    report.done(f"{game_id} {step}", run(context))
            except CarddbError as exc:
                report.failures.append(f"{game_id} {step}: {exc}")
                tell(f"{game_id}: {step} FAILED: {exc}")
                if isinstance(exc, TemplateError):
                    broken_template = "a template"
                    report.template_failed = True
                    report.broken_games.add(game_id)


def _remove_gone_games(workspace: Workspace, catalogue: Catalogue, out: Path, tell: Say) -> None:
    """The outputs of a game whose folder was removed go (a clean build would not have them); its cards stay in
    the catalogue, the source of truth, and the build says so once, when it removes the outputs."""
    import shutil

    from carddb.exporters.output import MARKER
    from carddb.incremental import MANIFEST, plain_name

    games = set(workspace.game_ids())
    gone: dict[str, list[Path]] = {}
    for kind in GAME_FOLDERS:
        try:
            folders = sorted(path for path in (out / kind).iterdir() if path.is_dir() and not path.is_symlink())
        except OSError:
            continue
        for folder in folders:
            made_by_carddb = (folder / MANIFEST).is_file() or (folder / MARKER).is_file()
            if folder.name not in games and plain_name(folder.name) and made_by_carddb:
                gone.setdefault(folder.name, []).append(folder)
    for game_id, folders in sorted(gone.items()):
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        (out / STATE_DIR / f"decks-{game_id}.json").unlink(missing_ok=True)
        held = len(catalogue.cards(game_id)) if game_id in set(catalogue.games()) else 0
        tell(f"{game_id}: rules/{game_id} is gone, so its outputs were removed"
             + (f"; its {_count(held, 'card')} stay in the catalogue" if held else ""))


def _write_warnings(out: Path, warnings: list[str]) -> Path | None:
    """Every warning of the build into ``out/build-warnings.txt``; a stale file of an earlier build goes."""
    path = out / WARNINGS_FILE
    if not warnings:
        path.unlink(missing_ok=True)
        return None
    from carddb.files.replacing import write_file

    write_file(path, "".join(f"{line}\n" for line in warnings))
    return path


@dataclass
class StepContext:
    """What a step of one game is given: where it reads and writes, where it says what it did, its progress
    (n of m parts) and the build's pool of drawing processes."""

    workspace: Workspace
    catalogue: Catalogue
    game_id: str
    out: Path
    tell: Say
    report: BuildReport
    task: Task
    pool: Pool
    rendered: dict[str, Any]  # game -> the faces step's RenderReport: the exporters reuse its keys

    def renderer(self) -> Callable[..., object] | None:
        """For an exporter: the faces this build's faces step brought up to date (nothing drawn again, their
        keys known), instead of keying every face once more; None when the faces step did not run."""
        from dataclasses import replace

        done = self.rendered.get(self.game_id)
        if done is None:
            return None
        return lambda *args, **options: replace(done, drawn=[])  # the exporters ask for the build's PNG faces


def _decks(step: StepContext) -> Redone:
    """The sample decks' verdicts: one part, whose sources are the game, its cards, the deck files and carddb."""
    from carddb.core.checker.check import card_index
    from carddb.core.checker.report import check_deck_text
    from carddb.core.decks.promise import Promise, broken_promise, read_promise
    from carddb.files.reading import read_deck_file
    from carddb.incremental import Manifest, Plan, code_sources, file_digest, game_sources, short

    game_id, catalogue = step.game_id, step.catalogue
    game = catalogue.game(game_id)
    cards = catalogue.cards(game_id)
    paths = step.workspace.deck_files(game_id)
    place = step.out / STATE_DIR / f"decks-{game_id}.json"  # a check writes nothing else: its verdicts are kept here
    plan = Plan(Manifest.read(place), {**code_sources(), **game_sources(game.raw)})
    plan.add("verdicts", {"cards": short([c.to_dict() for c in cards]),
                          "deck files": short([(path.name, file_digest(path)) for path in paths])})
    redone: Redone = None
    verdicts = plan.new.parts["verdicts"]
    if plan.todo:
        index = card_index(game, cards)
        legal, illegal, failures = 0, 0, []
        for path in paths:
            text = read_deck_file(path)
            result = check_deck_text(text, game, index, path.name)
            legal += result.legal
            illegal += not result.legal
            promise = read_promise(text, path.name) or Promise(legal=not path.name.startswith("illegal-"))
            broken = broken_promise(promise, result.legal, [(p.severity, p.code) for p in result.problems])
            if broken:
                failures.append(f"{game_id}: sample deck {path.name} does not keep its promise: {broken}")
        plan.made("verdicts", legal=legal, illegal=illegal, failures=failures)
        plan.new.inputs = verdicts["key"]
        plan.new.write(place)
        step.report.explain(f"{game_id} decks", plan.reasons)
        redone = ""
    legal, illegal = int(verdicts.get("legal", 0)), int(verdicts.get("illegal", 0))
    step.report.failures += [str(f) for f in verdicts.get("failures", [])]
    step.tell(f"{game_id}: checked {_count(legal + illegal, 'sample deck')} ({legal} legal, {illegal} illegal)")
    return redone


def _faces(step: StepContext) -> Redone:
    from carddb.paint.render import render_faces

    game_id, out, report = step.game_id, step.out, step.report
    result = render_faces(step.workspace.root, step.catalogue.game(game_id), step.catalogue.cards(game_id),
                          out / "faces", progress=step.task, complete=True, pool=step.pool)
    step.rendered[game_id] = result
    step.tell(f"{game_id}: faces in {out / 'faces' / game_id}: {len(result.drawn)} drawn, "
              f"{len(result.reused)} reused"
              # Text shrunk within the template's minimum sizes is the layout doing its job, not a problem: counted
              # here (`carddb render` lists each box), never a warning, so the warnings stay the few things to act on.
              + (f", {len(result.shrunk)} with text shrunk to fit" if result.shrunk else "")
              + (f", {len(result.overflowed)} OVERFLOWING" if result.overflowed else "")
              + (f", {len({p.card for p in result.problems})} breaking a legibility rule ('carddb render --game "
                 f"{game_id}' lists them)" if result.problems else ""))
    report.warnings += [f"{game_id}: face of {fit.card}: the {fit.box} text does not fit even at {fit.size:g} pt "
                        "and is cut" for fit in result.overflowed]
    report.warnings += [f"{game_id}: face: {warning}" for warning in result.warnings]
    report.warnings += [f"{game_id}: face of {p.card}: {p.message}" for p in result.problems
                        if p.rule != "overflow"]  # an overflow is already listed just above
    report.explain(f"{game_id} faces", result.reasons)
    total = len(result.drawn) + len(result.reused)
    return f"{len(result.drawn)} of {_count(total, 'face')}" if result.drawn else None


def _sheets(step: StepContext) -> Redone:
    from carddb.paint.print_job import print_game_sheets

    game_id, out = step.game_id, step.out

    def not_printed(line: str) -> None:
        step.tell(line)
        step.report.warnings.append(line)

    results = print_game_sheets(step.workspace, step.catalogue, game_id, out / "sheets", say=not_printed,
                                progress=step.task, pool=step.pool)
    pages = sum(getattr(r, "pages", 0) for r in results)
    step.tell(f"{game_id}: {_count(len(results), 'proxy PDF')} in {out / 'sheets' / game_id}"
              + (f", {_count(pages, 'page')}" if pages else ""))
    step.report.explain(f"{game_id} sheets", {r.report.files[0].name: r.reasons for r in results
                                              if not r.kept and r.report.files})
    written = sum(not r.kept for r in results)
    return f"{written} of {_count(len(results), 'PDF')}" if written else None


def _lackey(step: StepContext) -> Redone:
    from carddb.exporters.lackey.export import export_lackey

    out, game_id = step.out, step.game_id
    result = export_lackey(step.workspace.root, step.catalogue, game_id, out / "lackey" / game_id,
                           faces_dir=out / "faces", zip=True, renderer=step.renderer(), progress=step.task)
    return _exported(step, "LackeyCCG", result, f"LackeyCCG plugin in {result.root} ({_count(result.rows, 'card row')}"
                     f", {_count(result.decks, 'deck')}")


def _apprentice(step: StepContext) -> Redone:
    from carddb.exporters.apprentice.export import export_apprentice

    out, game_id = step.out, step.game_id
    result = export_apprentice(step.workspace.root, step.catalogue, game_id, out / "apprentice" / game_id)
    return _exported(step, "Apprentice", result, f"Apprentice patch in {result.root} ({_count(result.rows, 'record')}"
                     f", {_count(result.decks, 'deck')}")


def _tts(step: StepContext) -> Redone:
    from carddb.exporters.tts import export_tts

    out, game_id = step.out, step.game_id
    result = export_tts(step.workspace.root, step.catalogue, game_id, out / "tts" / game_id, faces_dir=out / "faces",
                        renderer=step.renderer())
    return _exported(step, "Tabletop Simulator", result,
                     f"Tabletop Simulator saved objects in {result.root} ({_count(result.rows, 'saved object')}")


def _cockatrice(step: StepContext) -> Redone:
    from carddb.exporters.cockatrice import export_cockatrice

    out, game_id = step.out, step.game_id
    result = export_cockatrice(step.workspace.root, step.catalogue, game_id, out / "cockatrice" / game_id,
                               faces_dir=out / "faces", renderer=step.renderer(), progress=step.task)
    return _exported(step, "Cockatrice", result, f"Cockatrice card database in {result.root} "
                     f"({_count(result.cards, 'card')}, {_count(result.decks, 'deck')}")


def _exported(step: StepContext, client: str, result: ExportReport, said: str) -> Redone:
    """What every exporter's step says: its line, its warnings, and why it was written again."""
    step.report.warnings += [f"{step.game_id}: {client}: {warning}" for warning in result.warnings]
    step.tell(f"{step.game_id}: {said}" + (f", {_count(len(result.warnings), 'warning')}" if result.warnings else "")
              + ")")
    if not result.kept:
        step.report.explain(f"{step.game_id} {result.client}", {result.root.name: result.reasons})
    return _export_redone(result)


def _export_redone(result: ExportReport) -> Redone:
    """An export is written whole when anything changed; what tells is how many images it converted again."""
    if result.kept:
        return None
    made, total = result.images_made
    return f"{made} of {_count(total, 'image')} converted" if total else ""


def _site(workspace: Workspace, catalogue: Catalogue, out: Path, tell: Say, report: BuildReport,
          site_url: str | None = None, task: Task | None = None) -> SiteReport:
    from carddb.site.build import build_site

    result = build_site(workspace.root, catalogue, out / "site", site_url=site_url, progress=task or Task())
    tell(f"site: {result.pages} pages, {result.cards} cards ({result.faces} faces), {_count(result.decks, 'deck')}, "
         f"Pyodide {result.pyodide_version}, {result.bytes / 1_048_576:.1f} MB in {result.out_dir}")
    for note in result.notes:
        tell(f"site: {note}")
        if f"site: {note}" not in report.warnings:  # a pages_first build runs this twice
            report.warnings.append(f"site: {note}")
    return result


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


#: The steps that draw or copy card faces: not run once a game's template failed (its error is said once).
NEEDS_FACES = frozenset({"faces", "sheets", "lackey", "tts", "cockatrice"})

_GAME_STEPS: tuple[tuple[str, Callable[[StepContext], Redone]], ...] = (
    ("decks", _decks), ("faces", _faces), ("sheets", _sheets), ("lackey", _lackey), ("apprentice", _apprentice),
    ("tts", _tts), ("cockatrice", _cockatrice),
)
