"""Watching a workspace and building again what a saved file changed (``carddb build --watch``, ``site serve``).

A build's inputs are watched with watchdog: the folders a build reads (``rules/``, ``templates/``, ``docs/``,
``site/``, never an installed ``node_modules``), the workspace folder itself (a watched folder renamed, removed
or made), the folder of every other file a build reads (root-relative art, a rulebook out of its game's folder,
the fonts: ``carddb.app.watch_inputs``), and the catalogue, which another process may write
(``carddb.app.watch_catalogue``). Events are gathered until the files have been quiet for a moment (an editor saves
in several writes: a temporary file, a rename), then one incremental build runs of the games the change touches
(``carddb.app.build``: only what it touches is done again), never of a game left out with ``--game``. A build that
fails (a card file saved half-written, a template with a Jinja error) changes no output: its message, naming the
file and line, is said and written to ``output/.carddb/watch.json``, which the site's live reload shows on the
open page; the watcher keeps going, and the next save builds again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.app.watch_inputs import WATCHED, ReadFiles, games_touched, ignored, scratch, watch_plan
from carddb.site.live import STATUS_FILE, WatchStatus, read_status
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.app.watch_catalogue import CatalogueFollower
    from carddb.catalogue.api import Catalogue

__all__ = ["STATUS_FILE", "Changes", "WatchStatus", "Watcher", "games_touched", "ignored", "read_status",
           "watch_build"]

QUIET_SECONDS = 0.08  # how long the files must be quiet before a build starts
#: After ``Watcher.hurry`` (a burst carddb wrote itself and says is whole): how long its changes must be quiet, for
#: watchdog's thread to have read every event the writes left queued, and for how long after it the hurry holds.
HURRIED_QUIET_SECONDS = 0.01
HURRY_SECONDS = 1.0
#: Set to a file's path: while that file is there, each build the watcher starts waits, said as building, so that a
#: test sees what an open page shows during a build however quick the build is (``tests/site/test_live_reload.py``).
HOLD_BUILDS_ENV = "CARDDB_TEST_HOLD_BUILDS"
@dataclass(frozen=True)
class Changes:
    """One quiet burst of changes: the files and folders changed, and whether the catalogue was written."""

    paths: list[Path]
    catalogue: bool = False


class Watcher:
    """Calls ``build(changes)`` after each burst of changes, one build at a time, until ``stop()``.

    ``catalogue_files`` are the catalogue's files (a write there is a change of the catalogue, whichever folder
    they are in); with ``poll_seconds``, the catalogue counts as changed that often (it has no file to watch).
    ``follow(inputs)`` names the files a build reads outside the watched folders once a build has said which."""

    def __init__(self, workspace: Workspace, build: Callable[[Changes], None], *,
                 say: Callable[[str], None] = lambda line: None, quiet: float = QUIET_SECONDS,
                 catalogue_files: Iterable[Path] = (), poll_seconds: float | None = None,
                 seen: Callable[[], None] = lambda: None) -> None:
        self.root = workspace.root.resolve()
        self.build = build
        self.say = say
        self.quiet = quiet
        self.inputs = ReadFiles(self.root)
        self.catalogue_files = {Path(path) for path in catalogue_files}
        self.poll_seconds = poll_seconds
        self.seen = seen  # told when a change arrives while none waited: a build is owed
        self._pending: set[Path] = set()
        self._catalogue_written = False
        self._last_event = 0.0
        self._hurry_until = 0.0
        self._last_poll = time.monotonic()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._observer = None
        self._watches: dict[Path, tuple[bool, object]] = {}  # folder -> (recursive, watchdog's watch)

    # -- watchdog --------------------------------------------------------------------------------------------
    def start(self) -> None:
        from watchdog.observers import Observer

        with self._lock:
            if self._stopped.is_set():
                return
            self._observer = Observer()
            self._observer.start()
        self.refresh()

    def follow(self, inputs: ReadFiles, since: float | None = None) -> None:
        """Watch the files a build reads outside the watched folders (as a build left them: they follow cards).
        ``since``: when that build began (``time.time()``, the clock of the files' times). A file it reads in a
        folder watched only from now on, saved since then, was heard by no one: it is taken as a change (art a card
        names for the first time, saved again while the build that found it ran)."""
        before = set(self._watches)
        self.inputs = inputs
        self.refresh()
        if since is None:
            return
        new = [folder for folder in self._watches if folder not in before]
        for path in inputs.readers:
            if any(path.is_relative_to(folder) for folder in new):
                try:
                    saved = path.stat().st_mtime
                except OSError:
                    continue  # not there (yet): its making is an event in the folder now watched
                if saved >= since:
                    self.changed(str(path))

    def refresh(self) -> None:
        """Watch what the plan says now (again after a watched folder is made or renamed back, a folder of art
        made, a card naming art elsewhere): ``carddb.app.watch_inputs.watch_plan``."""
        observer = self._observer
        if observer is None:
            return  # stopped (a build that ran on after Ctrl-C ends by following its inputs)
        plan = watch_plan(self.root, self.inputs, self.catalogue_files)
        for folder, (recursive, watch) in list(self._watches.items()):
            if plan.get(folder) != recursive:
                with contextlib.suppress(KeyError):  # unscheduled already by a stop in another thread
                    observer.unschedule(watch)  # type: ignore[arg-type]
                del self._watches[folder]
                if folder.parent == self.root and folder.name in WATCHED and folder not in plan:
                    self.say(f"watch: {folder} is gone; still watching {self.root} for it")
        for folder, recursive in plan.items():
            if folder not in self._watches:
                try:
                    watch = observer.schedule(_Forward(self), str(folder), recursive=recursive)
                except OSError:  # gone since the plan was made: the event of its removal refreshes the plan
                    continue
                self._watches[folder] = (recursive, watch)

    def wanted(self, path: Path) -> bool:
        """Whether a change of ``path`` can change an output: a file (or a folder of files) a build reads."""
        if scratch(path):
            return False
        if path in self.catalogue_files or self.inputs.reads(path):
            return True
        a_watched_folder = path.parent == self.root and path.name in WATCHED  # made, renamed or removed
        return a_watched_folder or not ignored(path, self.root)

    def changed(self, path: str) -> None:
        target = Path(os.fsdecode(path))
        if not self.wanted(target):
            return
        with self._lock:
            first = not self.pending()
            if target in self.catalogue_files:
                self._catalogue_written = True
            else:
                self._pending.add(target)
            self._last_event = time.monotonic()
        if first:
            self.seen()
        self._wake.set()

    def hurry(self) -> None:
        """The next burst is whole once written (a studio save says so after writing its card file and the
        catalogue): it is built as soon as it is heard, without the quiet wait an editor's save needs (a burst of
        a scratch file, a rename, a backup). For ``HURRY_SECONDS``: a save that changed nothing hurries nothing
        after it."""
        with self._lock:
            self._hurry_until = time.monotonic() + HURRY_SECONDS
        self._wake.set()

    def pending(self) -> bool:
        """Whether a change was seen that no build has taken yet (the catalogue's timed look is no change)."""
        return bool(self._pending) or self._catalogue_written

    # -- the loop --------------------------------------------------------------------------------------------
    def run(self) -> None:
        """Build after each quiet burst of changes until ``stop()`` (or Ctrl-C in the calling thread)."""
        while not self._stopped.is_set():
            changes, wait = self._take()
            if changes is None:
                self._wake.wait(wait)
                self._wake.clear()
                continue
            if any(path.parent == self.root or path.is_dir() for path in changes.paths):
                self.refresh()  # a folder made, renamed or removed: what to watch may have changed
            self.build(changes)

    def _take(self) -> tuple[Changes | None, float]:
        """The burst of changes to build now, or None and how long to wait for one."""
        now = time.monotonic()
        with self._lock:
            if self.poll_seconds is not None and now - self._last_poll >= self.poll_seconds:
                self._last_poll = now
                self._catalogue_written = True
            if not self._pending and not self._catalogue_written:
                return None, 0.5 if self.poll_seconds is None else min(0.5, self.poll_seconds)
            quiet_for = now - self._last_event
            quiet = min(self.quiet, HURRIED_QUIET_SECONDS) if now < self._hurry_until else self.quiet
            if quiet_for < quiet:
                return None, quiet - quiet_for
            changes = Changes(sorted(self._pending), self._catalogue_written)
            self._pending.clear()
            self._catalogue_written = False
            self._hurry_until = 0.0
        return changes, 0.0

    def stop(self) -> None:
        """Stop the loop and watchdog's threads (from any thread, as often as asked: the first call stops them)."""
        with self._lock:
            observer, self._observer = self._observer, None
        self._stopped.set()
        self._wake.set()
        if observer is not None:
            observer.stop()
            observer.join(timeout=2)


class _Forward:
    """A watchdog event handler handing every changed path (both ends of a move) to the watcher."""

    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def dispatch(self, event) -> None:  # type: ignore[no-untyped-def]
        if event.event_type in ("opened", "closed_no_write"):
            return  # reading a file changes nothing (and the build itself reads every file)
        if event.is_directory and event.event_type == "modified":
            return
        self.watcher.changed(event.src_path)
        dest = getattr(event, "dest_path", "")
        if dest:
            self.watcher.changed(dest)


def chosen_games(touched: list[str] | None, chosen: Sequence[str] | None) -> list[str] | None:
    """The games to build for a change touching ``touched`` (None: every game) when only ``chosen`` are built
    (``--game``; None: every game); an empty list builds nothing."""
    if not chosen:
        return touched
    if touched is None:
        return list(chosen)
    return [game for game in touched if game in chosen]


def watch_build(workspace: Workspace, catalogue: Catalogue,
                build_once: Callable[[list[str] | None, Catalogue], object], *,
                games: Sequence[str] | None = None, say: Callable[[str], None], error: Callable[[str], None],
                stop: threading.Event | None = None, hurried: Callable[[Callable[[], None]], None] | None = None
                ) -> None:
    """Build once, then again after every change until Ctrl-C (or ``stop``). ``build_once(games, catalogue)`` runs
    one incremental build of ``games`` (None: all) with ``catalogue`` (the watcher's view of ``catalogue``, which
    notes the build's own writes) and returns its ``BuildReport``; a ``CarddbError`` it raises is said through
    ``error`` and kept in the status file, and the outputs stay as the last good build left them. With ``games``,
    only those are ever built: a change to another game's files builds nothing. ``stop`` is set when the watching
    ends, however it ended. ``hurried(hurry)`` is given the watcher's ``hurry`` once it exists (``site serve``'s
    studio calls it after each save)."""
    from carddb.app.watch_catalogue import CatalogueFollower
    from carddb.errors import CarddbError

    workspace = Workspace(workspace.root.resolve())  # watchdog names files under the resolved folder
    chosen = list(games) if games else None
    follower = CatalogueFollower(catalogue, workspace)
    status = WatchStatus()

    write_lock = threading.Lock()

    def said() -> None:
        """The status written, with whether a change waits for a build (from the watcher's thread or the
        build's)."""
        with write_lock:
            status.pending = watcher.pending()
            status.write(workspace.output_dir)

    def once(built: list[str] | None, changed: list[str]) -> None:
        status.building = True  # said before the build: a page (or a test) can wait for the build to end
        said()  # in one write with the changes it took, no longer pending: never neither pending nor building
        _wait_while_held()
        status.builds += 1
        status.changed = changed
        status.games = built if built is not None else chosen
        began = time.time()
        try:
            report = build_once(status.games, follower.catalogue)
        except CarddbError as exc:
            status.error = str(exc)
            error(f"Error: {exc}")
            say("watch: the outputs stay as the last good build left them; fix the file and save it again")
        else:
            failures = list(getattr(report, "failures", []))
            status.error = "\n".join(failures) or None
            for failure in failures:
                error(f"Error: {failure}")
        finally:
            status.building = False
        said()
        watcher.follow(_read_files(workspace, follower), since=began)

    def on_changes(changes: Changes) -> None:
        touched = games_touched(changes.paths, workspace, watcher.inputs) if changes.paths else []
        changed = [_shown(path, workspace.root) for path in changes.paths]
        if changes.catalogue:
            try:
                written = follower.changed_games()
            except CarddbError as exc:  # a catalogue that cannot be read now: said, and looked at again later
                error(f"Error: {exc}")
                written = []
            touched = None if touched is None else sorted({*touched, *written})
            if written:
                changed.append(f"the catalogue {catalogue.db}")
        built = chosen_games(touched, chosen)
        if built == []:
            if touched:  # a change, but to a game left out: said, or a designer waits for a build
                say(f"watch: {_listing(changed)} changed {', '.join(touched)}, which is not built "
                    f"(--game {' --game '.join(chosen or [])})")
            said()  # nothing is owed for it
            return
        say(f"watch: {_listing(changed)} changed: building {', '.join(built) if built else 'every game'}")
        once(built, changed)

    watcher = Watcher(workspace, on_changes, say=say, catalogue_files=follower.files,
                      poll_seconds=follower.poll_seconds, seen=said)
    if hurried is not None:
        hurried(watcher.hurry)
    stop = stop or threading.Event()
    threading.Thread(target=lambda: (stop.wait(), watcher.stop()), name="carddb-watch-stop", daemon=True).start()
    try:
        with _ctrl_c_sets(stop):
            watcher.start()  # before the first build: a file saved while it runs (it can take a while) is built after
            watcher.follow(_read_files(workspace, follower))  # the art the catalogue's cards name already
            once(None, [])
            say(f"Watching {', '.join(name + '/' for name in WATCHED)} of {workspace.root}, the files its cards and "
                f"rulebooks name and the catalogue (Ctrl-C to stop).")
            # Ctrl-C is how a user stops watching (during the first build, it interrupts it, as without --watch)
            with contextlib.suppress(KeyboardInterrupt):
                watcher.run()
    finally:
        stop.set()
        watcher.stop()


@contextlib.contextmanager
def _ctrl_c_sets(stop: threading.Event) -> Iterator[None]:
    """Ctrl-C sets ``stop`` as well as raising KeyboardInterrupt, while the block runs (in the main thread only:
    elsewhere, which is a caller's own loop, the caller stops it).

    Python raises KeyboardInterrupt wherever the main thread is, and one raised inside a finalizer (``__del__``, a
    weakref callback: a build's SQLAlchemy connections and sessions end so, when the collector finds them) is
    printed as "Exception ignored" and lost: ``build --watch``, Ctrl-C pressed as a build ended, went on watching.
    Kept as state, the Ctrl-C stops the watcher at its next look, whatever swallowed the exception."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def interrupted(number: int, frame: object) -> None:
        stop.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _read_files(workspace: Workspace, follower: CatalogueFollower) -> ReadFiles:
    """What the builds read outside the watched folders' own rules, from the games and the catalogue's cards."""
    from carddb.app.watch_inputs import read_files
    from carddb.errors import CarddbError
    from carddb.layout.fonts import FontBook

    catalogue = follower.catalogue
    rulebooks = {}
    for game_id in workspace.game_ids():
        try:
            rulebooks[game_id] = catalogue.game(game_id).rulebook
        except CarddbError:
            continue  # a game.toml saved half-written: its folder is watched, the next save says more
    return read_files(workspace.root, follower.arts(), rulebooks, FontBook().files())


def _wait_while_held() -> None:
    """Wait while the file ``HOLD_BUILDS_ENV`` names is there (a test's; unset, nothing waits)."""
    hold = os.environ.get(HOLD_BUILDS_ENV)
    while hold and os.path.lexists(hold):
        time.sleep(0.02)


def _shown(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _listing(changed: list[str], shown: int = 3) -> str:
    """The first few changes (a checkout changes hundreds of files at once)."""
    more = len(changed) - shown
    return ", ".join(changed[:shown]) + (f" and {more} more" if more > 0 else "")
