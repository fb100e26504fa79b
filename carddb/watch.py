"""Watching a workspace and building again what a saved file changed (``carddb build --watch``, ``site serve``).

The folders a build reads (``rules/``, ``templates/``, ``docs/``, ``site/``) are watched with watchdog; the
workspace folder itself too, so a watched folder that is renamed, removed or made is noticed. Events are
gathered until the files have been quiet for a moment (an editor saves in several writes: a temporary file,
a rename), then one incremental build runs (``carddb.build``: only what the change touches is done again).
A build that fails (a card file saved half-written, a template with a Jinja error) changes no output: its
message, naming the file and line, is said and written to ``output/.carddb/watch.json``, which the site's live
reload shows on the open page; the watcher keeps going, and the next save builds again.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from carddb.workspace import Workspace

#: The folders of a workspace whose files a build reads.
WATCHED = ("rules", "templates", "docs", "site")
#: Never a reason to build: generated or installed files, version control, editors' scratch files.
IGNORED_PARTS = {"output", "node_modules", "__pycache__", ".git", ".venv", ".pytest_cache"}
QUIET_SECONDS = 0.08  # how long the files must be quiet before a build starts
STATUS_FILE = Path(".carddb") / "watch.json"  # inside output/


def ignored(path: Path, root: Path) -> bool:
    """Whether a change of ``path`` cannot change any output (generated files, an editor's swap file)."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return True
    if len(parts) < 2 or parts[0] not in WATCHED:
        return True
    name = parts[-1]
    return bool(IGNORED_PARTS.intersection(parts)) or name.endswith(("~", ".swp", ".swx", ".tmp")) \
        or name.startswith((".#", "#")) or name == "4913"  # vim's test of whether it may write the folder


def games_touched(paths: Iterable[Path], workspace: Workspace) -> list[str] | None:
    """The games whose own folders (``rules/<game>``, ``templates/<game>``) hold every changed path; None when
    a change can touch every game (a shared template, the site, the docs, a new or renamed game)."""
    games: set[str] = set()
    known = set(workspace.game_ids())
    for path in paths:
        parts = path.relative_to(workspace.root).parts
        if len(parts) < 3 or parts[0] not in ("rules", "templates") or parts[1] not in known:
            return None
        games.add(parts[1])
    return sorted(games)


@dataclass
class WatchStatus:
    """What the last build of a watcher said: written for the site's live reload to show."""

    builds: int = 0
    error: str | None = None
    changed: list[str] = field(default_factory=list)

    def write(self, output_dir: Path) -> None:
        from carddb.files.replacing import write_file

        write_file(output_dir / STATUS_FILE, json.dumps({"builds": self.builds, "error": self.error,
                                                         "changed": self.changed}))


def read_status(output_dir: Path) -> dict[str, object]:
    try:
        data = json.loads((output_dir / STATUS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class Watcher:
    """Calls ``build(changed paths)`` after each burst of changes, one build at a time, until ``stop()``."""

    def __init__(self, workspace: Workspace, build: Callable[[list[Path]], None], *,
                 say: Callable[[str], None] = lambda line: None, quiet: float = QUIET_SECONDS) -> None:
        self.root = workspace.root.resolve()
        self.build = build
        self.say = say
        self.quiet = quiet
        self._pending: set[Path] = set()
        self._last_event = 0.0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._observer = None
        self._watched: dict[str, object] = {}

    # -- watchdog --------------------------------------------------------------------------------------------
    def start(self) -> None:
        from watchdog.observers import Observer

        self._observer = Observer()
        self._observer.schedule(_Forward(self), str(self.root), recursive=False)
        self._observer.start()
        self._watch_folders()

    def _watch_folders(self) -> None:
        """A recursive watch on each watched folder that exists (again after one is made or renamed back)."""
        assert self._observer is not None
        for name in WATCHED:
            folder = self.root / name
            if name in self._watched and not folder.is_dir():
                self._observer.unschedule(self._watched.pop(name))  # type: ignore[arg-type]
                self.say(f"watch: {folder} is gone; still watching {self.root} for it")
            elif name not in self._watched and folder.is_dir():
                self._watched[name] = self._observer.schedule(_Forward(self), str(folder), recursive=True)

    def changed(self, path: str) -> None:
        target = Path(os.fsdecode(path))
        a_watched_folder = target.parent == self.root and target.name in WATCHED  # made, renamed or removed
        if not a_watched_folder and ignored(target, self.root):
            return
        with self._lock:
            self._pending.add(target)
            self._last_event = time.monotonic()
        self._wake.set()

    # -- the loop --------------------------------------------------------------------------------------------
    def run(self) -> None:
        """Build after each quiet burst of changes until ``stop()`` (or Ctrl-C in the calling thread)."""
        while not self._stopped.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            with self._lock:
                if not self._pending or time.monotonic() - self._last_event < self.quiet:
                    if self._pending:
                        self._wake.set()
                        time.sleep(self.quiet / 4)
                    continue
                batch = sorted(self._pending)
                self._pending.clear()
            if any(path.parent == self.root for path in batch):
                self._watch_folders()
            self.build(batch)

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)


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


def watch_build(workspace: Workspace, build_once: Callable[[list[str] | None], object], *,
                say: Callable[[str], None], error: Callable[[str], None],
                stop: threading.Event | None = None) -> None:
    """Build once, then again after every change until Ctrl-C (or ``stop``). ``build_once(games)`` runs one
    incremental build of ``games`` (None: all) and returns its ``BuildReport``; a ``CarddbError`` it raises is
    said through ``error`` and kept in the status file, and the outputs stay as the last good build left them."""
    from carddb.errors import CarddbError

    status = WatchStatus()

    def once(games: list[str] | None, changed: list[Path]) -> None:
        status.builds += 1
        status.changed = [str(path.relative_to(workspace.root)) for path in changed if path.is_relative_to(
            workspace.root)]
        try:
            report = build_once(games)
        except CarddbError as exc:
            status.error = str(exc)
            error(f"Error: {exc}")
            say("watch: the outputs stay as the last good build left them; fix the file and save it again")
        else:
            failures = list(getattr(report, "failures", []))
            status.error = "\n".join(failures) or None
            for failure in failures:
                error(f"Error: {failure}")
        status.write(workspace.output_dir)

    watcher = Watcher(workspace, lambda changed: once(games_touched(changed, workspace), changed), say=say)
    watcher.start()  # before the first build: a file saved while it runs (it can take a while) is built after it
    once(None, [])
    say(f"Watching {', '.join(name + '/' for name in WATCHED)} of {workspace.root} (Ctrl-C to stop).")
    waiter = threading.Thread(target=lambda: (stop.wait(), watcher.stop()), daemon=True) if stop else None
    if waiter is not None:
        waiter.start()
    try:
        watcher.run()
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()
