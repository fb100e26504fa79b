"""``carddb build``, the main job: from the workspace's files to everything in ``output/``.

For each game: load it into the catalogue, check its sample decks (each must get the verdict its file name
promises), render its faces, print its sample decks and a sheet of every card, and export it for LackeyCCG,
Apprentice, Tabletop Simulator and Cockatrice; then build the site of all the games. Each step is a library
function; the build only runs them in order and gathers what they say into one report: its lines, its failures
and every warning (the exporters' warnings and each face whose text overflowed or breaks a legibility rule), all of
which are also written to ``output/build-warnings.txt``. Each step is a task of ``progress`` (``carddb.progress``).

The build is incremental (``carddb.incremental``): every step digests its inputs and does again only the part of
its work whose inputs changed (a face, a PDF, an exported image, a site page), or nothing at all; the report
says, step by step, what was redone and what was up to date. The steps are an ordered list (``STAGES``) run by
``carddb.app.engine`` on one build context: each game's decks and faces, then each game's exports and the site,
which hosts the exports, with the proxy sheets and the print-and-play kits made beside them; the site offers the
kits and gets them once both are done.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.app.engine import BuildContext, BuildReport, Redone, Say, Stage, Step, count, run_stages
from carddb.errors import CarddbError
from carddb.progress import SILENT, Reporter
from carddb.workspace import Workspace

if TYPE_CHECKING:  # the catalogue pulls in SQLAlchemy; every command imports this module for its help text
    from carddb.catalogue.api import Catalogue
    from carddb.exporters.report import ExportReport
    from carddb.workers import Pool

#: The steps' names, as ``--skip`` takes them (``STAGES`` below runs them).
STEPS = ("decks", "faces", "sheets", "lackey", "apprentice", "tts", "cockatrice", "kit", "site")
WARNINGS_FILE = "build-warnings.txt"
#: The folders of output/ holding one folder per game, each with a manifest or marker carddb wrote there.
GAME_FOLDERS = ("faces", "sheets", "lackey", "apprentice", "tts", "cockatrice", "kit")
#: Inside output/: what the build keeps of the steps that write no file of their own (the decks' verdicts).
STATE_DIR = ".carddb"


def build(workspace: Workspace, catalogue: Catalogue | Callable[[], Catalogue],
          game_ids: Sequence[str] | None = None, *, skip: Sequence[str] = (), say: Say = lambda line: None,
          progress: Reporter = SILENT, take_files: bool = False, site_url: str | None = None,
          db: str | None = None, served_here: bool = False) -> BuildReport:
    """Build ``game_ids`` (None: every game) of ``workspace`` from ``catalogue`` (or a function opening it, so a
    build with nothing to do never opens it; ``db`` then names where it is) into ``output/``: ``carddb build``,
    ``--watch`` and ``site serve`` alike."""
    from carddb.app.build_stamp import catalogue_file, forget_stamp, inputs_digest, read_stamp, stamp_digest

    started = time.perf_counter()
    report = BuildReport()

    def tell(line: str) -> None:
        report.lines.append(line)
        say(line)

    check_steps(skip)
    games = list(game_ids or workspace.game_ids())
    out = workspace.output_dir
    address_warnings: list[str] = []
    if "site" not in skip and (workspace.site_dir / "mkdocs.yml").is_file():
        from carddb.site.build import effective_site_url, local_address_warning

        address = effective_site_url(workspace.site_dir / "mkdocs.yml", site_url)  # a bad address changes nothing
        # said by every build but site serve's (which serves this computer on purpose), the last one's stamp or not
        local = None if served_here else local_address_warning(address)
        address_warnings = [f"site: {local}"] if local else []
    location = db if db is not None else getattr(catalogue, "db", None)
    db_file = catalogue_file(location) if location else None
    options = [games, sorted(skip), take_files, site_url or ""]
    inputs = inputs_digest(workspace.root.resolve(), db_file, options) if db_file else None
    kept = read_stamp(out) if inputs else None
    if kept is not None and inputs is not None and kept.inputs == inputs and kept.digest == stamp_digest(out, inputs):
        # nothing any step reads changed, and the outputs are as it left them: say what the last build said
        for line in kept.lines:
            tell(line)
        report.warnings = [*kept.warnings, *address_warnings]
        report.up_to_date = list(kept.steps)
        report.warnings_file = out / WARNINGS_FILE if report.warnings else None
        return _finish(report, games, out, started, tell)
    forget_stamp(out)  # from here on the outputs change: an interrupted build leaves no stamp behind
    opened = catalogue() if callable(catalogue) and not hasattr(catalogue, "cards") else catalogue
    skipped = (*skip, *(["site"] if not games else []))
    _forget_changed_fonts()
    from carddb.files.replacing import removing_in_background

    # The old copies of the folders the steps replace are deleted while the later steps run, and while the stamp
    # is made (it leaves them out): all gone when the build returns.
    with removing_in_background():
        _run_steps(BuildContext(workspace, opened, games, tell, report, progress, _pool(), take_files, site_url,
                                served_here=served_here, skip=skipped), skipped)
        from carddb.core.play.registry import broken_plugins

        report.warnings.extend(broken_plugins())
        kept_warnings = list(report.warnings)  # the stamp's: what a build with nothing to do says again
        if "site" in report.redone or "site" in report.up_to_date:  # a build stopped before the site made none
            report.warnings.extend(address_warnings)
        report.warnings_file = _write_warnings(out, report.warnings)
        steps_said = list(report.lines)
        _finish(report, games, out, started, tell)
        if db_file and not report.failures:
            from carddb.app.build_stamp import Stamp, write_stamp

            close = getattr(opened, "close", None)
            if close is not None:
                close()  # its last connection folds the write-ahead log into the file now, not after the stamp
            now = inputs_digest(workspace.root.resolve(), db_file, options)  # the catalogue is the build's now
            write_stamp(out, Stamp(stamp_digest(out, now), now, steps_said, kept_warnings,
                                   [*report.redone, *report.up_to_date]))
    return report


def _finish(report: BuildReport, games: list[str], out: Path, started: float, tell: Say) -> BuildReport:
    report.seconds = time.perf_counter() - started
    tell(report.incremental_summary())
    tell(f"Built {count(len(games), 'game')} into {out} in {report.seconds:.1f} s"
         + (f" with {count(len(report.failures), 'failure')}" if report.failures else "")
         + (f", {count(len(report.warnings), 'warning')}" if report.warnings else ""))
    return report


def _forget_changed_fonts() -> None:
    """A font file saved over since this process read it (a long ``--watch`` or ``site serve``) is read again,
    before any face is laid out or drawn, here or in the drawing processes forked after. A process that has read
    no font yet has nothing to forget (and is spared importing the fonts)."""
    import sys

    fonts = sys.modules.get("carddb.layout.fonts")
    if fonts is not None:
        fonts.forget_changed_fonts()


#: What the build's drawing processes import (the proxy sheets, pypdf to read each one back, the kits' pages): imported
#: in this process before they are forked (``Pool(preload=...)``), so that each does not import them again. Measured
#: on two cores: one edited card's build of the five games spends 0.2 s less in the processes and 0.1 s more here
#: (pypdf and the kits' pages: the proxy sheets' planning imports the rest here anyway), in about the same time, and a
#: build that starts the processes to draw nothing pays that 0.1 s; ``site serve`` imports them once,
#: and every save's build after the first ends sooner (``bench_studio.py``, eight saves: 1.68 s, then 1.57 s).
DRAWING_MODULES = ("carddb.paint.print_job", "carddb.paint.sheets", "carddb.paint.sheet_check", "pypdf",
                   "carddb.kit.make")


def _pool() -> Pool:
    from carddb.workers import Pool

    # the build's one pool of drawing processes, started only when a step has work to share
    return Pool(preload=DRAWING_MODULES)


def check_steps(skip: Sequence[str]) -> None:
    """Refuse a step name that is none of ``STEPS`` (``--skip``)."""
    unknown = set(skip) - set(STEPS)
    if unknown:
        raise CarddbError(f"unknown build step {sorted(unknown)[0]!r}; steps are {', '.join(STEPS)}")


class _FewerCollections:
    """Python's cycle collector run less often while a build's steps run (``with _fewer_collections:``).

    A build makes hundreds of thousands of objects that live until it ends (cards, the faces' keys, MkDocs' files
    and pages), and with Python's thresholds (700, 10, 10) a full collection walked them all again and again: a
    fifth of the CPU of one card's edit in a game of 5,000 cards (``py-spy --native``: ``gc_collect_main``). A young
    collection still runs every 100,000 allocations, so cycles that die young go as before. The thresholds are the
    process's: put back when the last build running in it ends (``site serve`` builds in a thread of its own)."""

    THRESHOLDS = (100_000, 50, 100)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._builds = 0
        self._saved: tuple[int, int, int] | None = None

    def __enter__(self) -> None:
        import gc

        with self._lock:
            if self._builds == 0:
                self._saved = gc.get_threshold()
                gc.set_threshold(*self.THRESHOLDS)
            self._builds += 1

    def __exit__(self, *exc: object) -> None:
        import gc

        with self._lock:
            self._builds -= 1
            if self._builds == 0 and self._saved is not None:
                gc.set_threshold(*self._saved)


_fewer_collections = _FewerCollections()


def _run_steps(context: BuildContext, skip: Sequence[str]) -> None:
    from carddb.app.build_stamp import OLD_COPIES
    from carddb.files.replacing import keeping_old_copies
    from carddb.incremental import remember_in, sharing_answers

    whole = set(context.games) >= set(context.workspace.game_ids())
    try:
        # One cache folder for every step; a build of every game leaves in it only what it used. The exports' old
        # copies are kept for the next build to refill (``carddb.files.replacing``).
        cache_dir = context.out / STATE_DIR / "cache"
        with remember_in(cache_dir, prune=whole, digests=cache_dir / "file-digests.json") as cache, \
                _fewer_collections, sharing_answers(), \
                keeping_old_copies(context.out / STATE_DIR / OLD_COPIES, prune=whole):
            run_stages(context, STAGES, skip)
            if whole:
                _remove_gone_games(context.workspace, context.catalogue, context.out, context.tell)
            cache.prune = cache.prune and not context.report.failures  # a failed step may want its entries next
    finally:
        context.pool.close()


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
             + (f"; its {count(held, 'card')} stay in the catalogue" if held else ""))


def _write_warnings(out: Path, warnings: list[str]) -> Path | None:
    """Every warning of the build into ``out/build-warnings.txt``; a stale file of an earlier build goes."""
    path = out / WARNINGS_FILE
    if not warnings:
        path.unlink(missing_ok=True)
        return None
    from carddb.files.replacing import write_file

    write_file(path, "".join(f"{line}\n" for line in warnings))
    return path


def _decks(step: BuildContext) -> Redone:
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
    step.tell(f"{game_id}: checked {count(legal + illegal, 'sample deck')} ({legal} legal, {illegal} illegal)")
    return redone


def _faces(step: BuildContext) -> Redone:
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
    return f"{len(result.drawn)} of {count(total, 'face')}" if result.drawn else None


def _sheets(step: BuildContext) -> Redone:
    from carddb.paint.print_job import print_game_sheets

    game_id, out = step.game_id, step.out

    def not_printed(line: str) -> None:
        step.tell(line)
        step.report.warnings.append(line)

    # the kit step, run after this one beside the site, prints the sample decks on these papers too: they are
    # printed here, on the pool (A4, the proxy sheets' own paper, is shared as it is)
    from carddb.site.kit_files import KIT_PAPERS

    results = print_game_sheets(step.workspace, step.catalogue, game_id, out / "sheets", say=not_printed,
                                progress=step.task, pool=step.pool,
                                kit_papers=() if "kit" in step.skip else KIT_PAPERS)
    pages = sum(getattr(r, "pages", 0) for r in results)
    step.tell(f"{game_id}: {count(len(results), 'proxy PDF')} in {out / 'sheets' / game_id}"
              + (f", {count(pages, 'page')}" if pages else ""))
    step.report.explain(f"{game_id} sheets", {r.report.files[0].name: r.reasons for r in results
                                              if not r.kept and r.report.files})
    written = sum(not r.kept for r in results)
    return f"{written} of {count(len(results), 'PDF')}" if written else None


def _lackey(step: BuildContext) -> Redone:
    from carddb.exporters.lackey.export import export_lackey

    out, game_id = step.out, step.game_id
    result = export_lackey(step.workspace.root, step.catalogue, game_id, out / "lackey" / game_id,
                           faces_dir=out / "faces", zip=True, renderer=step.renderer(), progress=step.task)
    return _exported(step, "LackeyCCG", result, f"LackeyCCG plugin in {result.root} ({count(result.rows, 'card row')}"
                     f", {count(result.decks, 'deck')}")


def _apprentice(step: BuildContext) -> Redone:
    from carddb.exporters.apprentice.export import export_apprentice

    out, game_id = step.out, step.game_id
    result = export_apprentice(step.workspace.root, step.catalogue, game_id, out / "apprentice" / game_id)
    return _exported(step, "Apprentice", result, f"Apprentice patch in {result.root} ({count(result.rows, 'record')}"
                     f", {count(result.decks, 'deck')}")


def _tts(step: BuildContext) -> Redone:
    from carddb.exporters.tts import export_tts

    out, game_id = step.out, step.game_id
    result = export_tts(step.workspace.root, step.catalogue, game_id, out / "tts" / game_id, faces_dir=out / "faces",
                        renderer=step.renderer())
    return _exported(step, "Tabletop Simulator", result,
                     f"Tabletop Simulator saved objects in {result.root} ({count(result.rows, 'saved object')}")


def _cockatrice(step: BuildContext) -> Redone:
    from carddb.exporters.cockatrice import export_cockatrice

    out, game_id = step.out, step.game_id
    result = export_cockatrice(step.workspace.root, step.catalogue, game_id, out / "cockatrice" / game_id,
                               faces_dir=out / "faces", renderer=step.renderer(), progress=step.task)
    return _exported(step, "Cockatrice", result, f"Cockatrice card database in {result.root} "
                     f"({count(result.cards, 'card')}, {count(result.decks, 'deck')}")


def _kit(step: BuildContext) -> Redone:
    from carddb.kit.build_part import build_game_kits

    game_id = step.game_id
    done = build_game_kits(step.workspace, step.catalogue, game_id, step.out / "kit", pool=step.pool)
    step.tell(f"{game_id}: print-and-play kits in {step.out / 'kit' / game_id} ({', '.join(done.kits)})")
    step.report.explain(f"{game_id} kit", done.reasons)
    return f"{len(done.made)} of {count(len(done.kits), 'kit')}" if done.made else None


def _publish_kits(context: BuildContext) -> None:
    """Each game's kits linked into the site, once the site is in place (the kits are made beside it)."""
    from carddb.site.kit_files import publish_kits

    for game_id in context.games:
        publish_kits(context.out / "site", context.out / "kit", game_id)


def _exported(step: BuildContext, client: str, result: ExportReport, said: str) -> Redone:
    """What every exporter's step says: its line, its warnings, and why it was written again."""
    step.report.warnings += [f"{step.game_id}: {client}: {warning}" for warning in result.warnings]
    step.tell(f"{step.game_id}: {said}" + (f", {count(len(result.warnings), 'warning')}" if result.warnings else "")
              + ")")
    if not result.kept:
        step.report.explain(f"{step.game_id} {result.client}", {result.root.name: result.reasons})
    return _export_redone(result)


def _export_redone(result: ExportReport) -> Redone:
    """An export is written whole when anything changed; what tells is how many images it converted again."""
    if result.kept:
        return None
    made, total = result.images_made
    return f"{made} of {count(total, 'image')} converted" if total else ""


def _site(step: BuildContext) -> Redone:
    """The site of every game built (``carddb.site.build``): only the pages whose key changed are built, and the
    folder is swapped in whole."""
    from carddb.site.build import build_site

    out = step.out / "site"
    # the kit step, run beside the site, makes each game's kits (a saved card's page does not wait for them)
    promised = () if "kit" in step.skip else step.games
    result = build_site(step.workspace.root, step.catalogue, out, site_url=step.site_url, kits_promised=promised,
                        progress=step.task)
    step.tell(f"site: {result.pages} pages, {result.cards} cards ({result.faces} faces), "
              f"{count(result.decks, 'deck')}, Pyodide {result.pyodide_version}, {result.bytes / 1_048_576:.1f} MB "
              f"in {result.out_dir}")
    for note in result.notes:  # said once, with the build's other warnings (the address's: ``build``)
        step.report.warnings.append(f"site: {note}")
    if result.kept:
        return None
    step.report.explain("site", result.reasons)
    if result.pages_built is None:
        return ""
    built, total = result.pages_built
    return f"{built} of {count(total, 'page')} built"


def _site_missing(workspace: Workspace) -> str | None:
    """Why the workspace cannot have a site yet (a build skips the site then, saying how to get one), or None."""
    site = workspace.site_dir
    if not (site / "mkdocs.yml").is_file():
        return f"{site} holds no mkdocs.yml (`carddb init {workspace.root}` adds the site's files)"
    if not (site / "node_modules" / "pyodide" / "package.json").is_file():
        return f"the site's Pyodide is not installed (run `npm ci --prefix {site}` once)"
    return None


#: The build's steps in order (``carddb.app.engine``): each game's decks and faces (a template that fails is found
#: here, once); then each game's exports and the site, which hosts their files, with the proxy sheets and then the
#: print-and-play kits made beside them on the pool (no other step reads them; the kits print their decks from the
#: sheets' cache). The PDFs are drawn while this process writes the exports and runs MkDocs, not after the exports
#: (docs/designer-loop.md). The site offers the kits without waiting for them, and each is linked into the site once
#: both are done (``carddb.site.kit_files``), so that a saved card reaches its page however long its kits take. No
#: print-shop step: an order is one deck for one shop (``carddb export printshop``), and every game for every shop
#: would be about half a gigabyte of images a build.
STAGES = (
    Stage((Step("decks", _decks, decks_only=True), Step("faces", _faces, needs_faces=True))),
    Stage((Step("lackey", _lackey, needs_faces=True), Step("apprentice", _apprentice),
           Step("tts", _tts, needs_faces=True), Step("cockatrice", _cockatrice, needs_faces=True),
           Step("site", _site, per_game=False, needs_faces=True, missing=_site_missing)),
          beside=(Step("sheets", _sheets, needs_faces=True),
                  Step("kit", _kit, needs_faces=True, after=_publish_kits))),
)
