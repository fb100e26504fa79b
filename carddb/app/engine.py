"""The build's engine: an ordered list of steps, run on one build context, one pool and one cache.

A step (``Step``) is a name, a function of the build's context that says what it redid, and where it applies: once
a game or once a build, only where the game's faces could be drawn, only for a game with decks. Each step keys its
own parts with ``carddb.incremental`` (a face, a PDF, an export, a site page) and makes again only those whose key
changed; the engine only runs the steps in the order of the build's ``Stage`` list, loads the games' card files
before the first step of a game, turns a step's typed error into a failure of that step, and runs the steps a stage
marks ``beside`` at the same time as its others (the proxy sheets, whose PDFs are drawn on the pool's processes,
beside the site, which MkDocs builds in this one).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carddb.errors import CarddbError, TemplateError
from carddb.progress import Reporter, Task
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue
    from carddb.core.cards.card import Card
    from carddb.core.game.definition import GameDefinition
    from carddb.workers import Pool

Say = Callable[[str], None]
#: What a step did: None when it was up to date, else what it made again ("3 of 14 PDFs"; "" for all of it).
Redone = str | None


#: Reasons that are no change of an input (said as they are by ``--explain``).
_NOT_A_CHANGE = ("no earlier build", "a new part", "its output file is missing", "its output files are missing",
                 "the earlier build's manifest could not be read")


@dataclass
class BuildReport:
    """What one build said and did: its lines, failures and warnings, and per step what it redid and why."""

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
            return f"Everything was up to date ({count(len(self.up_to_date), 'step')})"
        done = ", ".join(f"{step} ({what})" if what else step for step, what in self.redone.items())
        return f"Redone: {done}; up to date: {count(len(self.up_to_date), 'other step')}"

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
                lines.append(f"{step}: {count(len(names), 'part')} redone ({listed}): {'; '.join(why)} changed"
                             if why and why[0] not in _NOT_A_CHANGE else
                             f"{step}: {count(len(names), 'part')} redone ({listed}): {'; '.join(why)}")
        return lines

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    def merge(self, other: BuildReport) -> None:
        """What steps run beside the others said (their lines are told by the engine)."""
        self.failures += other.failures
        self.warnings += other.warnings
        self.template_failed = self.template_failed or other.template_failed
        self.broken_games |= other.broken_games
        self.redone.update(other.redone)
        self.up_to_date += other.up_to_date
        self.reasons.update(other.reasons)


@dataclass
class BuildContext:
    """What every step of one build is given: the workspace, the catalogue and the games built, where a step says
    what it did (``tell``, ``report``) and shows its progress (``task``: n of m parts), the build's one pool of
    drawing processes, and for a step of one game, that game (``game_id``). Made once a build; a game's step gets a
    copy naming its game."""

    workspace: Workspace
    catalogue: Catalogue
    games: list[str]
    tell: Say
    report: BuildReport
    progress: Reporter
    pool: Pool
    take_files: bool = False
    site_url: str | None = None
    served_here: bool = False  # site serve's build: a site built for this computer is then no mistake
    skip: tuple[str, ...] = ()  # the steps this build does not run (``--skip``)
    rendered: dict[str, Any] = field(default_factory=dict)  # game -> the faces step's RenderReport
    game_id: str = ""
    task: Task = field(default_factory=Task)

    @property
    def out(self) -> Path:
        return self.workspace.output_dir

    def renderer(self) -> Callable[..., object] | None:
        """For an exporter: the faces this build's faces step brought up to date (nothing drawn again, their
        keys known), instead of keying every face once more; None when the faces step did not run."""
        done = self.rendered.get(self.game_id)
        if done is None:
            return None
        return lambda *args, **options: replace(done, drawn=[])  # the exporters ask for the build's PNG faces


@dataclass(frozen=True)
class Step:
    """One step of the build: its name (``--skip`` names it) and what it runs; whether it runs once a game
    (``per_game``) or once a build; whether it draws or shows card faces (``needs_faces``: not run where a
    template failed); whether it is for games with decks only (``decks_only``); and ``missing``, why the workspace
    cannot have it yet (the site without its configuration: said as a warning, and the step skipped), or None."""

    name: str
    run: Callable[[BuildContext], Redone]
    per_game: bool = True
    needs_faces: bool = False
    decks_only: bool = False
    missing: Callable[[Workspace], str | None] = lambda workspace: None
    #: run once in the build's thread when the stage is done (a step beside the site links its files into the site
    #: the stage built)
    after: Callable[[BuildContext], None] | None = None


@dataclass(frozen=True)
class Stage:
    """``steps`` run one after another (consecutive steps of a game game by game); ``beside`` run at the same time,
    in a thread of their own, and are said after them (steps whose work is on the pool's processes and that no step
    of the stage reads)."""

    steps: tuple[Step, ...]
    beside: tuple[Step, ...] = ()


def run_stages(context: BuildContext, stages: Sequence[Stage], skip: Sequence[str] = ()) -> None:
    """Every stage in order, less the steps named in ``skip``, after the games' card files are loaded into the
    catalogue (always, every step skipped or not: ``build --skip ...`` of every step is how a card file is loaded
    alone, and the site reads the cards too)."""
    if context.games:
        _load_games(context)
    context = replace(context, catalogue=_ReadOnce(context.catalogue))  # the steps read the catalogue, never write
    for stage in stages:
        steps = [step for step in stage.steps if step.name not in skip]
        beside = [step for step in stage.beside if step.name not in skip]
        with _beside(context, beside):
            _run_in_order(context, steps)
        for step in (*steps, *beside):
            if step.after is not None:
                step.after(context)


def _run_in_order(context: BuildContext, steps: Sequence[Step]) -> None:
    index = 0
    while index < len(steps):
        if not steps[index].per_game:
            _run_step(context, steps[index])
            index += 1
            continue
        end = index
        while end < len(steps) and steps[end].per_game:
            end += 1
        for game_id in context.games:
            deck_game = context.catalogue.game(game_id).deck_game
            for step in steps[index:end]:
                if deck_game or not step.decks_only:
                    _run_step(context, step, game_id)
        index = end


def _run_step(context: BuildContext, step: Step, game_id: str = "") -> None:
    report, tell = context.report, context.tell
    name = f"{game_id} {step.name}" if game_id else step.name
    said = f"{game_id}: {step.name}" if game_id else step.name
    if step.needs_faces and (game_id in report.broken_games if game_id else report.template_failed):
        tell(f"{said} skipped: a template failed above" if game_id else  # its error is said once
             f"{said}: not built, since a template failed above (the {step.name} would show faces that are not "
             "there)")
        return
    missing = step.missing(context.workspace)
    if missing:
        tell(f"{said}: skipped, {missing}")
        report.warnings.append(f"{said}: skipped, {missing}")
        return
    try:
        with context.progress.task(said if game_id else f"{said}: pages") as task:
            report.done(name, step.run(replace(context, game_id=game_id, task=task)))
    except CarddbError as exc:
        report.failures.append(f"{name}: {exc}")
        tell(f"{said} FAILED: {exc}")
        if isinstance(exc, TemplateError) and game_id:
            report.template_failed = True
            report.broken_games.add(game_id)


def _load_games(context: BuildContext) -> None:
    """Each game's card files into the catalogue: cards from the card files in, cards that left them out; cards
    from any other source stay (``catalogue/load.py``)."""
    for game_id in context.games:
        with context.progress.task(f"{game_id}: load"):
            loaded = context.catalogue.load_workspace_game(context.workspace, game_id,
                                                           take_files=context.take_files)
        for line in loaded.lines():
            context.tell(line)
        context.report.warnings += loaded.warnings()


@contextmanager
def _beside(context: BuildContext, steps: Sequence[Step]) -> Iterator[None]:
    """``steps`` run in a thread while the block runs; what they said is said after what the block said, as if they
    had run after it (the report is the same whichever ends first).

    The thread reads the catalogue as it was when the block began (the catalogue's session belongs to the build's
    thread) and keeps a report of its own; the pool's processes are started first, while no other thread of the
    build runs, so that none is forked while a thread holds a lock."""
    if not steps:
        yield
        return
    said: list[str] = []
    report = BuildReport(template_failed=context.report.template_failed,
                         broken_games=set(context.report.broken_games))
    side = replace(context, catalogue=_Snapshot(context.catalogue, context.games), tell=said.append, report=report)
    context.pool.start()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            _run_in_order(side, steps)
        except BaseException as exc:  # raised again in the build's thread, once the block is done
            errors.append(exc)

    thread = threading.Thread(target=run, name="carddb-build-beside", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()
    if errors:
        raise errors[0]
    for line in said:
        context.tell(line)
    context.report.merge(report)


class _ReadOnce:
    """The catalogue as the steps of one build see it, once its card files are loaded: each game's cards read from
    the database once, not once a step (seven reads of 5,000 cards were most of a second of a build that changed
    one), every step given copies of its own (a step that changed a card it was given would change another's)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._catalogue = catalogue
        self._cards: dict[str, list[Card]] = {}

    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        if set_code is not None:
            return self._catalogue.cards(game_id, set_code)
        if game_id not in self._cards:
            self._cards[game_id] = self._catalogue.cards(game_id)
        from carddb.core.cards.card import card_copy

        return [card_copy(card) for card in self._cards[game_id]]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._catalogue, name)


class _Snapshot:
    """The catalogue's games and cards as read in the build's thread, for the steps run beside it."""

    def __init__(self, catalogue: Catalogue, games: Sequence[str]) -> None:
        self._games = {game_id: catalogue.game(game_id) for game_id in games}
        self._cards = {game_id: catalogue.cards(game_id) for game_id in games}

    def game(self, game_id: str) -> GameDefinition:
        return self._games[game_id]

    def cards(self, game_id: str) -> list[Card]:
        return list(self._cards[game_id])


def count(number: int, noun: str) -> str:
    """``3 pages``, ``1 page``: a number with its noun."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
