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


CHILD = """
import os, sys
from carddb.workers import Pool
pool = Pool(2)
pool.start()
print(" ".join(str(pid) for pid in pool._executor._processes), flush=True)
sys.stdin.read()  # until killed
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the processes' state from /proc")
def test_the_workers_of_a_build_killed_alone_end_too() -> None:
    """``kill -9`` of a build's process alone (not its group): its workers, waiting for work that never comes,
    end by themselves instead of staying for good."""
    import signal
    import subprocess
    import sys
    import time

    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(Path(workers.__file__).parents[1])})
    assert child.stdout is not None
    pids = [int(pid) for pid in child.stdout.readline().split()]
    assert len(pids) == 2 and all(_alive(pid) for pid in pids)
    child.send_signal(signal.SIGKILL)
    child.wait()
    deadline = time.monotonic() + 30  # a guard against a hang, not what the test waits for
    try:
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in pids)
    finally:
        for pid in pids:  # a failing run leaves none behind
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _niceness(_: int) -> int:
    return os.nice(0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities here")
def test_the_workers_yield_the_cores_to_the_builds_own_thread() -> None:
    """The drawing processes run at a lower priority than the process that started them (whose thread writes the
    exports and the site, which a saved card's page waits for)."""
    pool = workers.Pool(2)
    try:
        levels = pool.map(_niceness, list(range(8)), shared_from=1)
    finally:
        pool.close()
    assert min(levels) == min(19, os.nice(0) + workers.WORKER_NICENESS)


def _import_the_noted_module(_: int) -> None:
    import carddb_test_preloaded  # noqa: F401  (made by the test below: it notes the process importing it)


@pytest.mark.parametrize("preloaded", [True, False])
def test_the_modules_a_pool_preloads_are_imported_once_before_its_processes_are_forked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preloaded: bool) -> None:
    """A build's pool imports the drawing's modules in the build's process before forking (``Pool(preload=...)``):
    each process then has them, instead of importing them again (a tenth of a second each of every build that
    draws). The module here writes the process that imports it; without the preload, each worker does."""
    import sys

    noted = tmp_path / "imported-by.txt"
    noted.write_text("", encoding="ascii")
    (tmp_path / "carddb_test_preloaded.py").write_text(
        "import os\n"
        f"with open({str(noted)!r}, 'a', encoding='ascii') as file:\n"
        "    file.write(f'{os.getpid()} ')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "carddb_test_preloaded", raising=False)
    pool = workers.Pool(2, preload=("carddb_test_preloaded",) if preloaded else ())
    try:
        pool.map(_import_the_noted_module, list(range(8)), shared_from=1)
    finally:
        pool.close()
        sys.modules.pop("carddb_test_preloaded", None)
    importers = noted.read_text(encoding="ascii").split()
    if preloaded:
        assert importers == [str(os.getpid())]
    else:
        assert importers and str(os.getpid()) not in importers
