"""The build's cache folder keeps what the pool's processes used: a task run in a worker returns the cache keys it
asked for, the build marks them used, and pruning at the end of a whole build keeps them (else the next build
would make them again: slower, never different)."""

from __future__ import annotations

import threading
from pathlib import Path

from carddb import incremental
from carddb.incremental import cache_folder, keys_used, mark_used, remember_in, remembered
from carddb.workers import Pool, in_worker

KEPT = "a" * 64
UNUSED = "b" * 64


def _ask(key: str) -> tuple[bool, set[str]]:
    """A pool task: one cached entry asked for, in a worker, with the keys it used."""
    with keys_used() as used:
        remembered(key, lambda: b"made in a worker")
    return in_worker(), set(used)


def test_what_a_worker_used_survives_the_builds_pruning(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / UNUSED).write_bytes(b"left by an earlier build")
    pool = Pool(2)
    try:
        with remember_in(cache):  # a whole build: prunes what it did not ask for
            assert cache_folder() == cache
            results = pool.map(_ask, [KEPT, KEPT], shared_from=2)
            assert [ran_in_worker for ran_in_worker, _ in results] == [True, True]  # shared_from=2: on the pool
            for _, used in results:
                mark_used(used)
    finally:
        pool.close()
    assert (cache / KEPT).read_bytes() == b"made in a worker"
    assert not (cache / UNUSED).exists()


def test_without_marking_the_workers_keys_pruning_drops_them(tmp_path: Path) -> None:
    """The counter-check: the entry a worker made is pruned when the build does not mark its keys."""
    cache = tmp_path / "cache"
    cache.mkdir()
    pool = Pool(2)
    try:
        with remember_in(cache):
            pool.map(_ask, ["c" * 64, "c" * 64], shared_from=2)
    finally:
        pool.close()
    assert not (cache / ("c" * 64)).exists()


def test_a_block_closed_in_one_thread_leaves_another_threads_block_open(tmp_path: Path) -> None:
    """The site's cache block (the build's thread) may end while a step beside it (another thread) has a block of
    its own open: each ends its own, whatever the order."""
    opened, close = threading.Event(), threading.Event()
    seen: list[set[str]] = []

    def beside() -> None:
        with keys_used() as used:
            opened.set()
            close.wait(10)
            remembered("d" * 64, lambda: b"beside")
            seen.append(set(used))

    with remember_in(tmp_path / "outer", prune=False):
        thread = threading.Thread(target=beside)
        with remember_in(tmp_path / "site", prune=False):
            thread.start()
            opened.wait(10)
        close.set()  # the site's block ended first, the one beside ends after
        thread.join()
    assert seen == [{"d" * 64}]
    assert incremental._used == []
