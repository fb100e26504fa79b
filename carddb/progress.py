"""Progress of long work, told to whoever shows it.

A library function that can take more than a second takes a ``progress: Reporter`` (by default ``SILENT``,
which shows nothing) and opens one task per piece of its work::

    with progress.task("shmod: faces", total=52) as task:
        for card in cards:
            ...
            task.advance()

A task is also a ``(done, total)`` callback, the form ``carddb.paint.render.render_faces`` takes. The command
line passes a live display on a terminal (``carddb.cli.progress_display``) and ``SILENT`` everywhere else, so
what a library says never depends on where its output goes.
"""

from __future__ import annotations

from types import TracebackType


class Task:
    """One piece of work under way; this base class shows nothing."""

    def __call__(self, done: int, total: int | None = None) -> None:
        """``done`` of ``total`` steps are finished (a total of None: not known yet)."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more are finished."""

    def close(self) -> None:
        """The work is over (a display removes the task)."""

    def __enter__(self) -> Task:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class Reporter:
    """Where tasks are shown; this base class shows nothing."""

    def task(self, label: str, total: int | None = None) -> Task:
        return Task()


#: The reporter of work nobody watches: the default of every library function.
SILENT = Reporter()
