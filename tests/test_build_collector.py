"""The cycle collector runs less often while a build's steps run, and the process's thresholds come back after the
last build running in it (``carddb.app.build._FewerCollections``)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from carddb.app.build import _FewerCollections


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*before)


def test_a_build_raises_the_thresholds_and_puts_them_back(thresholds: tuple[int, int, int]) -> None:
    fewer = _FewerCollections()
    with fewer:
        assert gc.get_threshold() == _FewerCollections.THRESHOLDS
    assert gc.get_threshold() == thresholds


def test_the_thresholds_come_back_when_the_last_of_two_builds_ends(thresholds: tuple[int, int, int]) -> None:
    fewer = _FewerCollections()
    first_in, first_may_end = threading.Event(), threading.Event()
    seen: list[tuple[int, int, int]] = []

    def first() -> None:
        with fewer:
            first_in.set()
            first_may_end.wait(30)
        seen.append(gc.get_threshold())

    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(30)
    with fewer:  # a second build while the first runs (site serve's, beside a command's)
        pass
    assert gc.get_threshold() == _FewerCollections.THRESHOLDS, "the first build is still running"
    first_may_end.set()
    thread.join(30)
    assert seen == [thresholds]


def test_an_error_in_a_build_still_puts_them_back(thresholds: tuple[int, int, int]) -> None:
    fewer = _FewerCollections()
    with pytest.raises(RuntimeError), fewer:
        raise RuntimeError("a step failed")
    assert gc.get_threshold() == thresholds
