"""What the build's summary says of the site step when ``site serve`` runs it twice (pages first, then again
after the exports): the pages both runs built, of the site's pages, said once."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.app import build
from carddb.site.build import SiteReport


def site_run(kept: bool, pages_built: tuple[int, int] | None) -> SiteReport:
    return SiteReport(out_dir=Path("site"), games=["shmod"], pages=40, cards=10, faces=10, decks=2,
                      pyodide_version="0", bytes=0, seconds=0.0, kept=kept, pages_built=pages_built)


@pytest.mark.parametrize(("runs", "said"), [
    ([site_run(False, (3, 40)), site_run(True, None)], "3 of 40 pages built"),
    ([site_run(False, (3, 40)), site_run(False, (1, 40))], "4 of 40 pages built"),
    ([site_run(False, None), site_run(False, (1, 40))], ""),  # a site made whole once was made whole
    ([site_run(True, None), site_run(True, None)], None),
    ([site_run(False, (1, 1))], "1 of 1 page built"),
])
def test_two_runs_of_the_site_step_are_reported_as_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       runs: list[SiteReport], said: str | None) -> None:
    answers = iter(runs)
    monkeypatch.setattr(build, "_site_missing", lambda workspace: None)
    monkeypatch.setattr(build, "_site", lambda *args, **kwargs: next(answers))
    report = build.BuildReport()
    step = build._SiteStep(workspace=None, catalogue=None, out=tmp_path, tell=report.lines.append,  # type: ignore[arg-type]
                           report=report, progress=build.SILENT, site_url=None, wanted=True)
    for _ in runs:
        step.run()
    assert step.ran
    assert step.redone == said
    report.done("site", step.redone)
    assert report.incremental_summary() == ("Everything was up to date (1 step)" if said is None else
                                            f"Redone: site{f' ({said})' if said else ''}; up to date: 0 other steps")
