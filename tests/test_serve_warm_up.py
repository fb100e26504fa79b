"""``site serve`` loads what a first save's build needs once its first build found nothing to do; doing so
changes no output: every file of ``output/`` but the cache is as the build left it."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.app.serve import serve_build, warm_up
from carddb.catalogue.api import open_catalogue
from carddb.workspace import Workspace
from tests.test_incremental import small_workspace, snapshot

pytestmark = pytest.mark.slow


def test_warming_up_changes_no_output(tmp_path: Path) -> None:
    root = small_workspace(tmp_path)
    catalogue = open_catalogue(str(root / "output" / "catalogue.db"), str(root))
    report = serve_build(Workspace(root), catalogue)
    assert not report.failures, report.failures
    before = snapshot(root / "output")  # all of it but the cache
    warm_up(Workspace(root), catalogue)
    after = snapshot(root / "output")
    assert after == before
    again = serve_build(Workspace(root), catalogue)
    assert not again.redone, again.redone  # and the next build still finds everything up to date
