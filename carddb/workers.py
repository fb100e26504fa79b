"""The build's one pool of worker processes, for drawing (faces, sheets' raster faces, Tabletop Simulator sheets).

Drawing is CPU-bound Python (layout, Pillow), so it runs on processes, one a core. A build opens one ``Pool`` and
hands it to every step, so steps never start pools of their own, and work sent from inside a worker runs there,
in line: pools are never nested. The processes start only when a step has enough work to share (a build with one
changed card starts none). Standard library only.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
#: Fewer tasks than this run in the calling process: starting workers costs more than they save.
IN_PROCESS_MAX = 4
_IN_WORKER = False


def cores() -> int:
    """The cores this process may use: its affinity, not the machine's count, and no more than a container's
    CPU quota allows (a container on a big host sees every core of the host but may use two of them)."""
    try:
        allowed = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = os.cpu_count() or 1
    quota = _cgroup_quota()
    return max(1, min(allowed, quota) if quota else allowed)


def _cgroup_quota(path: str = "/sys/fs/cgroup/cpu.max") -> int | None:
    """The whole cores of a cgroup v2 CPU quota (``200000 100000`` is 2), or None where none is set."""
    try:
        with open(path, encoding="ascii") as file:
            limit, period = file.read().split()[:2]
        return max(1, int(limit) // int(period)) if limit != "max" else None
    except (OSError, ValueError):
        return None


def in_worker() -> bool:
    """Whether this process is one of a pool's workers."""
    return _IN_WORKER


#: How much lower a worker's priority is than the build's own thread (``nice``): the exports and the site, which a
#: saved card's page waits for, go first, and the drawing beside them takes the rest of the cores. Measured on two
#: cores (``bench_studio.py``, four saves each): a save reached its page in 1.90 s at 0, 1.54 s at 5, 1.34 s at 10
#: and 1.30 s at 19, its build ending at 1.9 to 2.1 s each time; one edited card of the five games built as fast at
#: 5 as at 10, and quicker than at 0 (``carddb build``, alternating runs). Not 19: on a busy computer the PDFs would
#: wait for every other program. A worker alone on the cores (the faces) runs as fast as before.
WORKER_NICENESS = 10


def _mark_worker(parent: int | None = None) -> None:
    global _IN_WORKER
    _IN_WORKER = True
    if hasattr(os, "nice"):  # not on Windows
        with suppress(OSError):
            os.nice(WORKER_NICENESS)
    if parent is not None:
        _end_with(parent)


def _end_with(parent: int) -> None:
    """End this worker once the process that started it is gone: a build killed alone (``kill -9`` of its process,
    not of its group) left its workers waiting for work that never comes, for good. A thread looks once a second
    (the kernel's parent-death signal follows the thread that forked, which may end before the build does)."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="carddb-worker-watch", daemon=True).start()


class Pool:
    """Up to ``size`` worker processes (default: one a core), started at the first task worth sharing.

    ``preload``: modules the processes' work imports, imported in this process just before they are forked, so that
    each has them already instead of importing them again (whichever step starts the processes)."""

    def __init__(self, size: int | None = None, preload: Sequence[str] = ()) -> None:
        self.size = size or cores()
        self.preload = tuple(preload)
        self._executor: Executor | None = None

    def _started(self) -> Executor:
        """The processes' executor, made at the first call, after ``preload`` is imported (the processes fork from
        this one at its first task)."""
        if self._executor is None:
            for module in self.preload:
                importlib.import_module(module)
            self._executor = ProcessPoolExecutor(max_workers=self.size, initializer=_mark_worker,
                                                 initargs=(os.getpid(),))
        return self._executor

    def map(self, function: Callable[[T], R], tasks: Sequence[T], *,
            done: Callable[[int], None] | None = None, shared_from: int = IN_PROCESS_MAX) -> list[R]:
        """``function`` of each task, in the tasks' order; ``done(n)`` after each n finished (for progress).
        ``function`` must be a module-level function (it is sent to the workers by name). Fewer than
        ``shared_from`` tasks run in the calling process (a caller whose few tasks each take a second or more
        shares them from 2)."""
        if _IN_WORKER or self.size == 1 or len(tasks) < max(2, shared_from):
            results = []
            for task in tasks:
                results.append(function(task))
                if done:
                    done(len(results))
            return results
        executor = self._started()
        futures = {executor.submit(function, task): number for number, task in enumerate(tasks)}
        results_by_number: dict[int, R] = {}
        for future in as_completed(futures):
            results_by_number[futures[future]] = future.result()
            if done:
                done(len(results_by_number))
        return [results_by_number[number] for number in range(len(tasks))]

    def start(self) -> None:
        """Start the processes now, before a step runs beside another in a thread of its own: a process forked
        later, while the other thread holds a lock, would inherit it held."""
        if _IN_WORKER or self.size == 1 or self._executor is not None:
            return
        self._started().submit(os.getpid).result()  # forking processes start them all at the first task

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


@contextmanager
def worker_pool(pool: Pool | None = None) -> Iterator[Pool]:
    """``pool`` when a caller has one (the build's), else a pool of this block's own, closed at its end."""
    if pool is not None:
        yield pool
        return
    own = Pool()
    try:
        yield own
    finally:
        own.close()


def batches(items: Sequence[Any], workers: int, most: int = 16) -> list[list[Any]]:
    """``items`` cut into batches: several a worker (so a slow one is shared out), at most ``most`` each."""
    size = max(1, min(most, len(items) // max(1, workers * 4)))
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
