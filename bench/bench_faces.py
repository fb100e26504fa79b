"""Card face benchmark: faces per second at 300 DPI on every core (PNG and JPEG encoding included), and the
time to bring a 500-card game up to date after one card changed.

Run: .venv/bin/python bench/bench_faces.py [--cards 500] [--dpi 300]
Targets (issue 37): 200 JPEG and 160 PNG faces a second on every core; under 2 s and one face redrawn after one
change. The faces draw their symbols from game-icons.net when the icon set is installed (site/node_modules), as a
built workspace's do; CPU time a face is printed too, the figure to trust on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from carddb.core.cards.card import Card, Printing  # noqa: E402
from carddb.core.game.definition import load_game  # noqa: E402
from carddb.paint.render import render_faces  # noqa: E402

WORDS = ["destroy", "draw", "discard", "monster", "spell", "trap", "field", "target", "opponent", "life", "mana",
         "level", "attack", "defense", "battle", "phase", "graveyard", "summon", "return", "hand", "deck", "control",
         "until", "end", "turn", "each", "your", "card"]
TARGETS = {"png": 160, "jpg": 200}  # faces a second on every core
TYPES = ["FIRE", "WATER", "EARTH", "STORM", "DARK", "LIGHT", "COLOURLESS", "MULTI-TYPE"]


def generated_cards(count: int, seed: int = 7) -> list[Card]:
    rng = random.Random(seed)
    cards = []
    for i in range(count):
        name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}"
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 45))).capitalize() + "."
        kind = rng.choice(["monster", "monster", "monster", "spell", "trap"])
        fields: dict = {"level": rng.randint(1, 8)}
        if kind == "monster":
            fields |= {"type": rng.choice(TYPES), "atk": rng.randint(0, 9), "def": rng.randint(0, 9),
                       "categories": rng.sample(["Dragon", "Warrior", "Fusion", "Beast", "Spirit"], 2)}
        cards.append(Card("shmod", name, kind, text=text, fields=fields,
                          printings=[Printing("base", f"{i:03d}", "common")]))
    return cards


def _cpu_seconds() -> float:
    """CPU time of this process and its finished worker processes (the machine may be shared and busy)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def workspace(root: Path) -> Path:
    (root / "rules").mkdir(parents=True)
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod", ignore=shutil.ignore_patterns("cards", "decks"))
    (root / "templates").mkdir()
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates")
    shutil.copytree(REPO / "templates" / "shmod", root / "templates" / "shmod")
    icons = REPO / "site" / "node_modules" / "@iconify-json"
    if icons.is_dir():  # the symbols a card without art shows, as in the repository's own workspace
        (root / "site" / "node_modules").mkdir(parents=True)
        (root / "site" / "node_modules" / "@iconify-json").symlink_to(icons, target_is_directory=True)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=500)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    game = load_game(REPO / "rules" / "shmod")
    cards = generated_cards(args.cards)
    print(f"{args.cards} generated shmod cards, {args.dpi} DPI, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        root = workspace(Path(tmp) / "ws")
        for fmt in ("png", "jpg"):
            out = Path(tmp) / f"faces-{fmt}"
            cpu_before = _cpu_seconds()
            start = time.perf_counter()
            report = render_faces(root, game, cards, out, dpi=args.dpi, fmt=fmt)
            elapsed = time.perf_counter() - start
            cpu = (_cpu_seconds() - cpu_before) / len(report.drawn)
            size = sum(p.stat().st_size for p in (out / "shmod").glob(f"*.{fmt}"))
            per_face = size / len(report.drawn) / 1024
            target = TARGETS[fmt]
            print(f"  full render, {fmt}: {len(report.drawn)} faces in {elapsed:.2f} s = "
                  f"{len(report.drawn) / elapsed:.0f} faces/s (target >= {target}); {cpu * 1000:.1f} ms of CPU a face, "
                  f"so {(os.cpu_count() or 1) / cpu:.0f} faces/s on idle cores; {per_face:.0f} KiB a face")
        out = Path(tmp) / "faces-png"
        changed = generated_cards(args.cards)
        changed[args.cards // 2].text = "This one card changed."
        start = time.perf_counter()
        report = render_faces(root, game, changed, out, dpi=args.dpi, fmt="png")
        elapsed = time.perf_counter() - start
        print(f"  rebuild after one change: {elapsed:.2f} s (target < 2 s), {len(report.drawn)} face redrawn "
              f"(target 1), {len(report.reused)} reused")
        start = time.perf_counter()
        report = render_faces(root, game, changed, out, dpi=args.dpi, fmt="png")
        print(f"  rebuild with nothing changed: {time.perf_counter() - start:.2f} s, {len(report.drawn)} redrawn")


if __name__ == "__main__":
    main()
