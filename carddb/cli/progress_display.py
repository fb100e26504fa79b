"""The live progress display of long commands: Rich's progress bars on standard error, one line per task
under way, gone when the task ends (``carddb.progress`` says what a task is)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console, RenderableType
from rich.progress import BarColumn, Progress, ProgressColumn, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.progress import Task as RichTask
from rich.text import Text

from carddb.progress import Reporter, Task


class _Bar(BarColumn):
    """A bar only for a task whose total is known; a spinner and the time say enough for the others."""

    def render(self, task: RichTask) -> RenderableType:
        return super().render(task) if task.total is not None else Text("")


class _Count(ProgressColumn):
    def render(self, task: RichTask) -> RenderableType:
        return Text(f"{task.completed:.0f}/{task.total:.0f}" if task.total is not None else "", style="green")


class RichReporter(Reporter):
    """Shows each task as a spinner, its label, a bar and ``done/total`` once its total is known, and the time
    it has taken. The display is drawn on standard output (shown only when that is a terminal), so the
    command's own lines, printed through ``print``, appear above it in order."""

    def __init__(self) -> None:
        self.display = Progress(SpinnerColumn(), TextColumn("{task.description}"), _Bar(), _Count(),
                                TimeElapsedColumn(), console=Console(), transient=True)

    def print(self, line: str) -> None:
        self.display.console.print(line, markup=False, highlight=False, emoji=False, soft_wrap=True)

    def __enter__(self) -> RichReporter:
        self.display.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.display.stop()

    def task(self, label: str, total: int | None = None) -> Task:
        return _RichTask(self.display, self.display.add_task(label, total=total))


class _RichTask(Task):
    def __init__(self, display: Progress, task_id: TaskID) -> None:
        self.display = display
        self.task_id = task_id

    def __call__(self, done: int, total: int | None = None) -> None:
        self.display.update(self.task_id, completed=done, total=total)

    def advance(self, steps: int = 1) -> None:
        self.display.advance(self.task_id, steps)

    def close(self) -> None:
        self.display.remove_task(self.task_id)
