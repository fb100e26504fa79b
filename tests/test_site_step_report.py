"""What the build's summary says of the site step: the pages it built, of the site's pages; nothing when the site
was up to date; the site made whole when it was not counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.app import build
from carddb.app.engine import BuildContext
from carddb.progress import Task
from carddb.site.build import SiteReport
from carddb.workspace import Workspace


def site_run(kept: bool, pages_built: tuple[int, int] | None) -> SiteReport:
    return SiteReport(out_dir=Path("site"), games=["shmod"], pages=40, cards=10, faces=10, decks=2,
                      pyodide_version="0", bytes=0, seconds=0.0, kept=kept, pages_built=pages_built,
                      reasons={"games/shmod/cards/a/index.html": ["its Markdown"]} if pages_built else {})


@pytest.mark.parametrize(("run", "said"), [
    (site_run(False, (3, 40)), "3 of 40 pages built"),
    (site_run(False, None), ""),  # a site made whole
    (site_run(True, None), None),
    (site_run(False, (1, 1)), "1 of 1 page built"),
])
def test_the_site_step_says_how_many_pages_it_built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   run: SiteReport, said: str | None) -> None:
    import carddb.site.build as site_build

    monkeypatch.setattr(site_build, "build_site", lambda *args, **kwargs: run)
    report = build.BuildReport()
    context = BuildContext(Workspace(tmp_path), None, ["shmod"], report.lines.append, report,  # type: ignore[arg-type]
                           build.SILENT, None, task=Task())  # type: ignore[arg-type]
    report.done("site", build._site(context))
    assert report.incremental_summary() == ("Everything was up to date (1 step)" if said is None else
                                            f"Redone: site{f' ({said})' if said else ''}; up to date: 0 other steps")
    assert bool(report.reasons.get("site")) == bool(run.pages_built)
