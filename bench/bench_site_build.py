"""What building the site costs, in CPU seconds and wall seconds, in a copy of a workspace (the five games by
default), each run a fresh ``carddb`` process as a user runs it:

- ``carddb build`` from nothing (its site step measured apart);
- ``carddb build`` with nothing changed;
- ``carddb build`` after one card's text changed (the site step apart), and the pages it built;
- ``carddb site build --out DIR`` into a new folder (the workspace's cache shared, as a user's second site);
- the same with no cache at all (``output/.carddb/cache`` removed first);
- ``carddb site serve``'s build right after ``carddb build`` (it must build nothing).

    .venv/bin/python bench/bench_site_build.py [--repeat 3] [--game shmod ...]

The site step is timed inside the process (``carddb.site.build.build_site`` wrapped); CPU is user + system time of
the process (``resource``), since the machine may be shared. It passes or fails nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = r"""
import json, resource, sys, time
import carddb.site.build as site_build
spent = {"site_cpu": 0.0, "site_wall": 0.0, "pages_built": None}
original = site_build.build_site
def timed(*args, **kwargs):
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        report = original(*args, **kwargs)
        spent["pages_built"] = None if report.kept else report.pages_built
        return report
    finally:
        spent["site_cpu"] += time.process_time() - cpu
        spent["site_wall"] += time.perf_counter() - wall
site_build.build_site = timed
import carddb.app.build  # noqa: the build step imports build_site lazily, from the module patched above
started = time.perf_counter()
mode, *argv = sys.argv[1:]
code = 0
if mode == "serve-build":
    from carddb.catalogue.api import open_catalogue
    from carddb.site.serve import serve_build
    from carddb.workspace import Workspace
    from pathlib import Path
    root = Path(argv[argv.index("--root") + 1])
    serve_build(Workspace(root), open_catalogue(root=root))
else:
    from carddb.cli.main import main
    sys.argv = ["carddb", *argv]
    try:
        main()
    except SystemExit as exit:
        code = exit.code or 0
usage = resource.getrusage(resource.RUSAGE_SELF)
spent.update(cpu=usage.ru_utime + usage.ru_stime, wall=time.perf_counter() - started, code=code)
print("BENCH " + json.dumps(spent), file=sys.stderr)
"""
GAMES = ("minibattle", "shmod", "ssbm", "ssq", "website")


def workspace_copy(games: list[str], into: Path) -> Path:
    root = into / "workspace"
    for game in games:
        shutil.copytree(ROOT / "rules" / game, root / "rules" / game)
        if (ROOT / "templates" / game).is_dir():
            shutil.copytree(ROOT / "templates" / game, root / "templates" / game)
    for shared in (ROOT / "templates").iterdir():
        if shared.is_file():
            shutil.copy(shared, root / "templates" / shared.name)
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copytree(ROOT / "site", root / "site", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    (root / "site" / "node_modules").symlink_to((ROOT / "site" / "node_modules").resolve(), target_is_directory=True)
    return root


def run(mode: str, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, mode, *args], capture_output=True, text=True, env=env)
    line = next((line for line in done.stderr.splitlines() if line.startswith("BENCH ")), None)
    if line is None or json.loads(line[6:])["code"] not in (0, None):
        raise SystemExit(f"{mode} {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return json.loads(line[6:])


def change_one_card(root: Path, game: str, round_: int) -> None:
    """A new text for the first card of ``game`` that has one, as a designer saving its card file."""
    for path in sorted((root / "rules" / game / "cards").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        found = re.search(r'^(\s+text: "?)(\(bench \d+\) )?', text, re.M)
        if found:
            path.write_text(text[:found.start()] + found[1] + f"(bench {round_}) " + text[found.end():],
                            encoding="utf-8")
            return
    raise SystemExit(f"no card of {game} has a text to change")


def show(label: str, runs: list[dict]) -> None:
    def median(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    built = runs[-1]["pages_built"]
    pages = f", pages built {built[0]} of {built[1]}" if built else (", site kept" if built is None else "")
    print(f"{label:<46} build {median('cpu'):6.2f} s CPU {median('wall'):6.2f} s wall | site step "
          f"{median('site_cpu'):6.2f} s CPU {median('site_wall'):6.2f} s wall{pages}  (median of {len(runs)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", action="append", choices=GAMES, help="games to copy (default: all five)")
    parser.add_argument("--only-serve", action="store_true", help="only the cold build and serve after build")
    options = parser.parse_args()
    games = options.game or list(GAMES)
    with tempfile.TemporaryDirectory(prefix="bench-site-") as temp:
        root = workspace_copy(games, Path(temp))
        common = ["--root", str(root), "--quiet"]
        show("carddb build, from nothing", [run("cli", *common, "build")])
        if not options.only_serve:
            measure_changes(root, games, common, options.repeat, Path(temp))
        show("site serve's build right after carddb build", [run("serve-build", "--root", str(root))])
        show("carddb build right after site serve's build", [run("cli", *common, "build")])


def measure_changes(root: Path, games: list[str], common: list[str], repeat: int, temp: Path) -> None:
    """Nothing changed, one card changed, a site elsewhere with and without the cache."""
    show("carddb build, nothing changed", [run("cli", *common, "build") for _ in range(repeat)])
    changed = "shmod" if "shmod" in games else games[0]
    runs = []
    for round_ in range(1, repeat + 1):
        change_one_card(root, changed, round_)
        runs.append(run("cli", *common, "build"))
    show(f"carddb build, one {changed} card's text changed", runs)
    runs = []
    for number in range(repeat):
        runs.append(run("cli", *common, "site", "build", "--out", str(temp / f"elsewhere-{number}")))
    show("carddb site build --out NEW (cache shared)", runs)
    runs = []
    for number in range(repeat):
        shutil.rmtree(root / "output" / ".carddb" / "cache", ignore_errors=True)
        runs.append(run("cli", *common, "site", "build", "--out", str(temp / f"nocache-{number}")))
    show("carddb site build --out NEW (no cache)", runs)
    run("cli", *common, "build")


if __name__ == "__main__":
    main()
