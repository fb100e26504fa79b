"""How many drawing processes a build starts: one a core this process may use, a container's quota included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from carddb import workers


@pytest.mark.parametrize(("written", "quota"), [("200000 100000\n", 2), ("150000 100000\n", 1),
                                                 ("50000 100000\n", 1), ("max 100000\n", None), ("", None),
                                                 ("many cores\n", None)])
def test_a_cgroup_quota_is_read_as_whole_cores(tmp_path: Path, written: str, quota: int | None) -> None:
    (tmp_path / "cpu.max").write_text(written, encoding="ascii")
    assert workers._cgroup_quota(str(tmp_path / "cpu.max")) == quota


def test_no_quota_file_means_no_quota(tmp_path: Path) -> None:
    assert workers._cgroup_quota(str(tmp_path / "absent")) is None


def test_a_quota_below_the_affinity_caps_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)))
    monkeypatch.setattr(workers, "_cgroup_quota", lambda: 2)
    assert workers.cores() == 2
    assert workers.Pool().size == 2
    monkeypatch.setattr(workers, "_cgroup_quota", lambda: None)
    assert workers.cores() == 64
