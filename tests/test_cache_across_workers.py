"""The build's cache folder keeps what the pool's processes used: a task run in a worker returns the cache keys it
asked for, the build marks them used, and pruning at the end of a whole build keeps them (else the next build
would make them again: slower, never different)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from carddb import incremental
from carddb.incremental import Manifest, Plan, cache_folder, keys_used, map_with_cache_keys, remember_in, remembered
from carddb.workers import Pool, in_worker

KEPT = "a" * 64
UNUSED = "b" * 64
OTHER = "e" * 64


def _ask(key: str) -> tuple[bool, set[str]]:
    """A pool task: one cached entry asked for, in a worker, with the keys it used."""
    with keys_used() as used:
        remembered(key, lambda: b"made in a worker")
    return in_worker(), set(used)


def _make(key: str) -> tuple[bool, Path | None]:
    """A pool task that knows nothing of the cache: it asks for one entry (``map_with_cache_keys`` does the rest)."""
    remembered(key, lambda: f"made in a worker for {key[:1]}".encode())
    return in_worker(), cache_folder()


@pytest.mark.parametrize("started", ["in the build", "before the build"])
def test_what_a_worker_used_survives_the_builds_pruning(tmp_path: Path, started: str) -> None:
    """Whether the workers were forked inside the build's cache block (they inherit it) or before it (they open
    it): what they keep is in the build's cache folder, and pruning keeps it."""
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / UNUSED).write_bytes(b"left by an earlier build")
    pool = Pool(2)
    if started == "before the build":
        pool.start()
    try:
        with remember_in(cache):  # a whole build: prunes what it did not ask for
            assert cache_folder() == cache
            results = map_with_cache_keys(pool, _make, [KEPT, OTHER], shared_from=2)
    finally:
        pool.close()
    # on the pool (shared_from=2), each in the build's cache, each with the key it asked for
    assert results == [((True, cache), {KEPT}), ((True, cache), {OTHER})]
    assert (cache / KEPT).read_bytes() == b"made in a worker for a"
    assert (cache / OTHER).read_bytes() == b"made in a worker for e"
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


def test_a_kept_part_keeps_the_cache_entries_it_was_made_with(tmp_path: Path) -> None:
    """Pruning keeps what the parts a build kept were made with (a PDF's deflated faces), not only what the build
    asked for: the next change to such a part finds them. A part made again without them lets them go."""
    cache = tmp_path / "cache"
    with remember_in(cache):  # a build that makes the part, asking for one entry
        first = Plan(Manifest(), {"code": "1"})
        first.add("deck.pdf", {"card": "a"})
        remembered(KEPT, lambda: b"a face, deflated")
        first.made("deck.pdf", cache_keys={KEPT})
    with remember_in(cache):  # nothing changed: the part is kept, nothing is asked for
        kept = Plan(first.new, {"code": "1"})
        kept.add("deck.pdf", {"card": "a"})
        assert kept.todo == []
    assert (cache / KEPT).read_bytes() == b"a face, deflated"
    with remember_in(cache):  # the part changed, and was made without the entry
        again = Plan(kept.new, {"code": "1"})
        again.add("deck.pdf", {"card": "b"})
        again.made("deck.pdf")
    assert not (cache / KEPT).exists()


def test_an_entry_this_process_remembers_is_put_back_when_a_build_pruned_it(tmp_path: Path) -> None:
    """A long-lived process (``site serve``) remembers an entry a build in between pruned from the folder: asked
    for again in a build, it is in the folder again, as the parts that note it expect."""
    cache = tmp_path / "cache"
    with remember_in(cache):
        remembered(OTHER, lambda: b"made once")
    (cache / OTHER).unlink()  # as a build that did not ask for it prunes it
    with remember_in(cache):
        assert remembered(OTHER, lambda: b"made again") == b"made once"  # from this process's memo
    assert (cache / OTHER).read_bytes() == b"made once"
