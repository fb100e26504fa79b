"""Each kind of change in ``tests/test_incremental.py``'s table (``CHANGES``: a card, a template, an icon, a deck, a
rulebook, a guide, an added or removed card, a field's type, an art file, a deck rule, the icon set, a symbol),
made on this module's small workspace in turn, built incrementally and compared byte for byte with a clean build.

A module of its own so that pytest-xdist (``--dist loadscope``) runs it beside the other incremental tests, each
on one worker: together they are the longest module of the suite.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_incremental import CHANGES, assert_same_as_clean, run_build, workspace

pytestmark = pytest.mark.slow
__all__ = ["workspace"]  # the fixture this module shares with test_incremental: a workspace of its own


@pytest.mark.parametrize("change", list(CHANGES))
def test_each_change_gives_what_a_clean_build_gives(workspace: Path, change: str) -> None:
    CHANGES[change](workspace)
    report = run_build(workspace)
    assert report.redone, f"the {change} changed nothing"
    assert_same_as_clean(workspace)
