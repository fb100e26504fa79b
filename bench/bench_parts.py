"""Where the time of one change goes: one `carddb build` in this process, after one card's text is changed in a
workspace `bench_scale.py --keep DIR` left (or any one-game workspace), with the CPU time of the thread that ran
each part (the steps, and inside the site the parts that grow with the game). No profiler: cProfile slows
pure-Python code several times more than C, so its figures misplace the cost.

    .venv/bin/python bench/bench_scale.py --sizes 250,1000 --runs 1 --keep /tmp/scale
    .venv/bin/python bench/bench_parts.py /tmp/scale/ws-250 /tmp/scale/ws-1000

Each workspace is built once first (a carddb edited since it was built makes everything again), then one card's
text is changed and built; the parts' CPU seconds are printed side by side, with the growth from the first
workspace to each other. The steps beside the site (the proxy sheets) run in a thread of their own: their time is
theirs. Passes or fails nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: What is timed: module and function (Class.method for a method), as the build calls them.
PARTS = ("carddb.app.engine:_load_games", "carddb.paint.render:render_faces",
         "carddb.exporters.lackey.export:export_lackey", "carddb.exporters.apprentice.export:export_apprentice",
         "carddb.exporters.tts:export_tts", "carddb.exporters.cockatrice:export_cockatrice",
         "carddb.kit.build_part:build_game_kits", "carddb.paint.print_job:print_game_sheets",
         "carddb.site.build:build_site", "carddb.site.client_cache:remembered_clients",
         "carddb.site.pages:_game_pages", "mkdocs.commands.build:build", "carddb.site.rebuild:Rebuild.mark",
         "carddb.site.rebuild:Rebuild.link_kept", "carddb.site.precompress:precompress",
         "carddb.files.replacing:swap_in", "carddb.app.build_stamp:stamp_digest",
         "carddb.app.build_stamp:inputs_digest",
         "carddb.incremental:Manifest.read", "carddb.incremental:Manifest.to_bytes")


def change_a_card(root: Path) -> None:
    """The text of the middle card of the game's first card file that holds texts, changed."""
    for path in sorted((root / "rules").glob("*/cards/*.yaml")):
        text = path.read_text(encoding="utf-8")
        texts = re.findall(r'^    text: "([^"]*)"$', text, re.MULTILINE)
        if texts:
            middle = texts[len(texts) // 2]
            path.write_text(text.replace(f'"{middle}"', f'"{middle} Changed {time.time_ns()}."', 1),
                            encoding="utf-8")
            return
    raise SystemExit(f"{root}: no card file with quoted texts (make one with bench_scale.py --keep)")


def timed_build(root: Path) -> dict[str, float]:
    """Run in a child process (``--child``): one build, each part's CPU seconds, and the whole process's."""
    times: dict[str, float] = {}

    def wrap(owner: Any, attribute: str, label: str) -> None:
        original = getattr(owner, attribute)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                times[label] = times.get(label, 0.0) + time.thread_time() - started

        setattr(owner, attribute, timed)

    for part in PARTS:
        module, name = part.split(":")
        owner: Any = importlib.import_module(module)
        if "." in name:
            cls, name = name.split(".")
            owner = getattr(owner, cls)
        wrap(owner, name, part.split(":")[1])
    from carddb.cli.main import main

    started = time.process_time()
    sys.argv = ["carddb", "--root", str(root), "build"]
    with contextlib.suppress(SystemExit):  # the command line's exit code: the build's report is what counts
        main()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    times["(process)"] = time.process_time() - started + children.ru_utime + children.ru_stime
    return times


def measure(root: Path) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "carddb", "--root", str(root), "build"], env=env, check=True,
                   capture_output=True)
    change_a_card(root)
    done = subprocess.run([sys.executable, __file__, "--child", str(root)], env=env, check=True,
                          capture_output=True, text=True)
    line = done.stdout.strip().splitlines()[-1]
    return {name: float(value) for name, value in (item.split("=") for item in line.split("\t"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspaces", nargs="+", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        times = timed_build(args.workspaces[0])
        print("\t".join(f"{name}={value:.4f}" for name, value in times.items()))
        return
    results = [(root, measure(root)) for root in args.workspaces]
    names = ["(process)", *(part.split(":")[1] for part in PARTS)]
    print(f"CPU seconds of one changed card's build (load {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"{'part':28s}" + "".join(f"{root.name:>14s}" for root, _ in results)
          + "".join(f"{'x ' + root.name:>14s}" for root, _ in results[1:]))
    first = results[0][1]
    for name in names:
        values = [times.get(name, 0.0) for _, times in results]
        growth = [f"{value / first.get(name, 0.0):13.2f}x" if first.get(name) else f"{'-':>14s}"
                  for value in values[1:]]
        print(f"{name:28s}" + "".join(f"{value:14.2f}" for value in values) + "".join(growth))


if __name__ == "__main__":
    main()
