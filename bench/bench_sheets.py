"""Proxy-sheet benchmark: a 90-card deck with backs, as vector and as raster (JPEG) PDF, against the targets;
and, when it installs from PyPI, the peer tool cartuli on the same JPEG faces in the same run.

Run: .venv/bin/python bench/bench_sheets.py [--game minibattle] [--no-peer]
Targets (design.md): vector under 1 s and under 2 MB; raster file within 5 % of the unique image bytes, the
shared back stored once. Every timing includes the check carddb runs on its own output after writing.
The peer runs in a scratch virtual environment under the system temp folder (created on first use).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from carddb.catalogue.game_cards import game_and_cards  # noqa: E402
from carddb.paint.print_job import PrintOptions, print_cards  # noqa: E402

DECK_SIZE = 90
DISTINCT = 30
RUNS = 5
PEER_VENV = Path(tempfile.gettempdir()) / "carddb-bench-cartuli"

PEER_SCRIPT = r"""
import json, sys, time
from pathlib import Path
from cartuli.card import Card, CardImage
from cartuli.sheet import Sheet
from cartuli.output import sheet_pdf_output
from cartuli.measure import Size, A4, mm
fronts, back, out, width, height, bleed = json.loads(sys.argv[1])
size = Size(width * mm, height * mm)
start = time.perf_counter()
cards = [Card(CardImage(f, size, bleed=bleed * mm), CardImage(back, size, bleed=bleed * mm)) for f in fronts]
sheet = Sheet(cards, size=Size(A4.height, A4.width), print_margin=5 * mm, padding=0)
sheet_pdf_output(sheet, out)
print(json.dumps({"seconds": time.perf_counter() - start, "bytes": Path(out).stat().st_size,
                  "pages": sheet.pages * 2}))
"""


def deck(game_id: str) -> tuple[object, list]:
    game, cards = game_and_cards(game_id, None, str(Path(tempfile.gettempdir()) / "carddb-bench-none.db"), str(REPO))
    chosen = sorted(cards, key=lambda c: c.key)[:DISTINCT]
    if len(chosen) < DISTINCT:
        raise SystemExit(f"{game_id} has only {len(chosen)} cards; need {DISTINCT}")
    return game, [card for card in chosen for _ in range(DECK_SIZE // DISTINCT)]


def timed(runs: int, work) -> tuple[float, float, object]:
    """(first run seconds, median of the later runs, last result)."""
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return times[0], statistics.median(times[1:]) if len(times) > 1 else times[0], result


def peer_python() -> tuple[Path | None, str]:
    python = PEER_VENV / "bin" / "python"
    if python.exists():
        return python, "cartuli (scratch venv, reused)"
    try:
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True, capture_output=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "cartuli"], check=True, capture_output=True,
                       timeout=600)
    except (subprocess.SubprocessError, OSError) as error:
        return None, f"cartuli did not install from PyPI into a scratch venv ({error})"
    return python, "cartuli (scratch venv, installed now)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="minibattle")
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    game, cards = deck(args.game)
    print(f"deck: {len(cards)} cards of {args.game} ({DISTINCT} distinct x {DECK_SIZE // DISTINCT}), "
          f"A4, duplex long-edge with the shared back, 3 mm bleed, crop marks")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = dict(layout="duplex-long", bleed=3.0, paper="A4", faces_dir=str(folder / "faces"))

        vector = PrintOptions(**base)
        first, median, result = timed(RUNS, lambda: print_cards(REPO, game, cards, folder / "vector.pdf", vector))
        size = result.report.bytes
        print(f"vector: {median:.3f} s median of {RUNS - 1} (first run {first:.3f} s), {size / 1e6:.3f} MB, "
              f"{result.report.pages} pages   target < 1 s, < 2 MB: "
              f"{'met' if median < 1 and size < 2e6 else 'NOT met'}")

        raster = PrintOptions(**base, raster=True)
        start = time.perf_counter()
        print_cards(REPO, game, cards, folder / "raster.pdf", raster)  # renders the 31 JPEG faces once
        render_s = time.perf_counter() - start
        first, median, result = timed(RUNS, lambda: print_cards(REPO, game, cards, folder / "raster.pdf", raster))
        jpegs = sorted((folder / "faces").rglob("*.jpg"))
        unique = sum(p.stat().st_size for p in jpegs)
        size = result.report.bytes
        images = result.report.checks[0].images
        ratio = size / unique
        print(f"raster: {median:.3f} s median with faces rendered (first run, rendering {len(jpegs)} faces at "
              f"300 dpi: {render_s:.3f} s), {size / 1e6:.3f} MB for {unique / 1e6:.3f} MB of unique JPEG "
              f"({len(jpegs)} files, {images} image objects): ratio {ratio:.4f}   target <= 1.05: "
              f"{'met' if ratio <= 1.05 and images == len(jpegs) else 'NOT met'}")

        if args.no_peer:
            print("peer: skipped (--no-peer)")
            return
        python, how = peer_python()
        if python is None:
            print(f"peer: {how}")
            return
        by_key = {p.stem.rsplit("-", 1)[0]: p for p in jpegs}
        back = by_key.pop("back")
        fronts = [str(by_key[p]) for p in sorted(by_key)]
        fronts = [f for f in fronts for _ in range(DECK_SIZE // DISTINCT)]
        payload = json.dumps([fronts, str(back), str(folder / "cartuli.pdf"), game.card_size_mm[0],
                              game.card_size_mm[1], 3.0])
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([str(python), "-c", PEER_SCRIPT, payload], capture_output=True, text=True, env=env,
                              timeout=1200)
        if done.returncode != 0:
            print(f"peer: {how} failed: {done.stderr.strip().splitlines()[-1] if done.stderr else done.returncode}")
            return
        peer = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"peer: {how}: same {len(fronts)} JPEG fronts + back, same A4 landscape grid: {peer['seconds']:.3f} s, "
              f"{peer['bytes'] / 1e6:.3f} MB, {peer['pages']} pages (no checks, no TrimBox/BleedBox)")
        print(f"ratios carddb raster / cartuli: time {median / peer['seconds']:.3f}, size {size / peer['bytes']:.3f}")


if __name__ == "__main__":
    main()
