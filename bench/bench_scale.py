"""How `carddb build` scales with the size of a game (issue 22): a starter workspace (`carddb init DIR`, one game)
grown to N generated cards, each size built as a user builds it, every build a fresh `carddb` process:

- `carddb build` from nothing (no output/ at all: catalogue, faces, sheets, exports and the site), and its time
  per card;
- `carddb build` with nothing changed;
- one card's text changed in the card file, every output brought up to date;
- one card added to the card file, and the same card deleted (with the site pages each built);
- the peak memory of a build: the largest resident set of the build process or any process it waited for (its
  drawing workers), from `os.wait4`'s rusage of that one child (`ru_maxrss`), so each figure is that build's own.

Targets (issues 22 and 34, design.md "Performance targets"): time per card at N no more than at the smallest N
(design: a 5,000-card game within 1.2x a 500-card game's); one card changed, and one card added, at 5,000 under 3 s
and within 1.5x of the same change at 250 cards; nothing changed under 1 s; peak memory under 1 GiB.

    .venv/bin/python bench/bench_scale.py [--sizes 250,5000] [--runs 3] [--keep DIR]

The generated cards are legal for the starter game (its kinds, fields and choices), with distinct names and texts,
written into the starter's own card file (rules/<game>/cards/core.yaml), after its 14 cards; with --set-size, that
many a set in sets of their own (each declared in game.toml, in a card file of its own). One set of more than 450
cards gets the Apprentice exporter's warning that it splits the set over two codes. Prints wall and CPU
seconds (medians of --runs for the incremental builds), ratios and the machine's load; passes or fails nothing.
carddb runs with its bytecode cached (in the temporary folder), as an installed carddb does; one untimed build of
the starter workspace fills that cache first.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDDB = [sys.executable, "-m", "carddb"]
GAME = "mygame"  # what `carddb init DIR` names the one game it makes
CARD_FILE = Path("rules") / GAME / "cards" / "core.yaml"
STARTER_CARDS = 14
GIB = 1 << 30

ADJECTIVES = ["Amber", "Ashen", "Bold", "Brass", "Bright", "Cinder", "Clever", "Copper", "Crimson", "Dusk", "Ember",
              "Feral", "Frost", "Gilded", "Grim", "Hollow", "Iron", "Jade", "Lone", "Lunar", "Mossy", "Night",
              "Quiet", "Rune", "Rusted", "Silent", "Silver", "Solar", "Stone", "Storm", "Swift", "Tidal", "Velvet",
              "Wild", "Winter", "Young"]
NOUNS = ["Archer", "Badger", "Bard", "Beacon", "Blade", "Colossus", "Drake", "Drummer", "Falcon", "Golem", "Guard",
         "Harrier", "Herald", "Hound", "Knight", "Lancer", "Mage", "Monk", "Oracle", "Otter", "Ranger", "Raven",
         "Scout", "Sentinel", "Shaman", "Smith", "Squire", "Stag", "Tinker", "Titan", "Viper", "Warden", "Wisp",
         "Wolf", "Wyvern", "Zealot"]
PLACES = ["Ash", "Dawn", "Reeds", "Spires", "the Deep", "the Dunes", "the Fen", "the Marsh", "the Pass", "the Vale",
          "Thorns", "Tides"]
ACTIONS = ["Ambush", "Barrage", "Blessing", "Charge", "Detour", "Feint", "Gambit", "Insight", "Rally", "Ransack",
           "Reprieve", "Respite", "Retreat", "Ritual", "Salvage", "Scheme", "Surge", "Uprising", "Volley", "Warcry"]
UNIT_LINES = ["When this unit enters play, draw a card.", "This unit gets +1 Power while you control another {colour} "
              "unit.", "At the start of your turn, you may return a unit with Cost {cost} or less to its owner's hand.",
              "This unit cannot be blocked by units with Power {power} or less.", "When this unit leaves play, "
              "your opponent discards a card.", "Pay {cost}: this unit gets +{power} Power until end of turn.",
              "Your other {colour} units cost 1 less to play.", "When this unit attacks, look at the top {power} "
              "cards of your deck and put one into your hand.", "This unit can attack the turn it enters play.",
              "Once each turn, when you play an action, this unit gets +1 Power until end of turn."]
ACTION_LINES = ["Draw {n} cards, then discard a card.", "Target unit gets +{n} Power until end of turn.",
                "Return target unit with Cost {n} or less to its owner's hand.", "Your opponent discards {n} cards "
                "at random.", "Look at the top {m} cards of your deck; put them back in any order.", "Destroy target "
                "unit with Power {n} or less.", "Each {colour} unit you control gets +1 Power until end of turn.",
                "Search your deck for a {colour} unit, reveal it and put it into your hand.", "Untap up to {n} "
                "units you control.", "Shuffle your discard pile into your deck, then draw a card."]
COLOURS = ["Red", "Blue", "Green"]


def card_names(count: int, rng: random.Random) -> list[tuple[str, str]]:
    """``count`` distinct (name, kind) pairs: units are 'Adjective Noun (of Place)', actions 'Adjective Action'."""
    units = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS] + [f"{n} of {p}" for n in NOUNS for p in PLACES] \
        + [f"{a} {n} of {p}" for a in ADJECTIVES for n in NOUNS for p in PLACES]
    actions = [f"{a} {b}" for a in ADJECTIVES for b in ACTIONS] + [f"{b} of {p}" for b in ACTIONS for p in PLACES]
    rng.shuffle(units)
    rng.shuffle(actions)
    pairs = []
    for index in range(count):
        pool = actions if index % 4 == 3 and actions else units  # a quarter actions, as in the starter
        pairs.append((pool.pop(), "action" if pool is actions else "unit"))
    return pairs


def generated_cards(count: int, seed: int = 22) -> list[dict[str, object]]:
    """``count`` cards legal for the starter game, numbered after its 14 cards."""
    rng = random.Random(seed)
    cards = []
    for index, (name, kind) in enumerate(card_names(count, rng)):
        colour, cost, power = rng.choice(COLOURS), rng.randint(0, 7), rng.randint(0, 8)
        lines = UNIT_LINES if kind == "unit" else ACTION_LINES
        chosen = rng.sample(lines, rng.randint(1, 2))
        text = " ".join(line.format(colour=colour, cost=max(1, cost - 1), power=power, n=rng.randint(1, 3),
                                    m=rng.randint(3, 5)) for line in chosen)
        card: dict[str, object] = {"name": name, "kind": kind, "cost": cost}
        if kind == "unit":
            card["power"] = power
            card["colour"] = colour
        elif rng.random() < 0.8:  # an action's colour is optional
            card["colour"] = colour
        card["text"] = f"{text} (No. {index + 1})"  # every text distinct, as every face differs
        card["number"] = f"{STARTER_CARDS + index + 1:03d}"
        cards.append(card)
    return cards


def yaml_card(card: dict[str, object]) -> str:
    lines = []
    for key, value in card.items():
        shown = f'"{value}"' if isinstance(value, str) and key in ("name", "text", "number") else value
        lines.append(f"    {key}: {shown}")
    return "  - " + "\n".join(lines)[4:] + "\n"


def grow(root: Path, cards: int, set_size: int = 0) -> tuple[Path, str]:
    """The starter's game with ``cards`` cards in all: the generated ones after the starter's in its card file, or
    with ``set_size``, that many a set in further sets (declared in game.toml, a card file each). Gives back the
    card file and the text of the card the bench edits (the middle one)."""
    generated = generated_cards(max(0, cards - STARTER_CARDS))
    path = root / CARD_FILE
    chunks = [generated[i:i + set_size] for i in range(0, len(generated), set_size)] if set_size else [generated]
    files = []
    for number, chunk in enumerate(chunks):
        if number == 0:
            target, text = path, path.read_text(encoding="utf-8")
        else:
            code = f"g{number + 1:02d}"
            with (root / "rules" / GAME / "game.toml").open("a", encoding="utf-8") as game:
                game.write(f'\n[[sets]]\ncode = "{code}"\nname = "Generated {number + 1}"\n')
            target, text = path.with_name(f"{code}.yaml"), f"set: {code}\ncards:\n"
            for index, card in enumerate(chunk):
                card["number"] = f"{index + 1:03d}"
        target.write_text(text.rstrip("\n") + "\n" + "".join(yaml_card(card) for card in chunk), encoding="utf-8")
        files += [target] * len(chunk)
    if not generated:
        return path, "A blue unit."
    return files[len(generated) // 2], str(generated[len(generated) // 2]["text"])


@dataclass
class Run:
    wall: float
    cpu: float
    peak: int  # bytes
    summary: str = ""


def carddb(root: Path, *args: str) -> Run:
    """One `carddb --root ROOT ARGS` process; its own CPU time and peak memory from wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen([*CARDDB, "--root", str(root), *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if process.returncode != 0:
        raise SystemExit(f"carddb {' '.join(args)} failed ({process.returncode}):\n{stdout[-3000:]}\n{stderr[-3000:]}")
    summary = next((line for line in stdout.splitlines() if line.startswith(("Redone", "Everything"))), "")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, summary)


def workspace(into: Path, cards: int, set_size: int = 0) -> tuple[Path, Path, str]:
    done = subprocess.run([*CARDDB, "init", str(into), "--no-npm"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"carddb init failed:\n{done.stdout}\n{done.stderr}")
    node_modules = into / "site" / "node_modules"
    if not node_modules.exists():
        node_modules.symlink_to((ROOT / "site" / "node_modules").resolve(), target_is_directory=True)
    return (into, *grow(into, cards, set_size))


@dataclass
class Size:
    cards: int
    cold: Run
    nothing: list[Run] = field(default_factory=list)
    card: list[Run] = field(default_factory=list)
    added: list[Run] = field(default_factory=list)
    deleted: list[Run] = field(default_factory=list)
    redone: str = ""

    @property
    def peak(self) -> int:
        return max(run.peak for run in [self.cold, *self.nothing, *self.card, *self.added, *self.deleted])


def median(runs: list[Run], what: str = "wall") -> float:
    return statistics.median(getattr(run, what) for run in runs)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(folder: Path, cards: int, runs: int, set_size: int) -> Size:
    root, path, text = workspace(folder / f"ws-{cards}", cards, set_size)
    cold = carddb(root, "build")
    size = Size(cards, cold)
    print(f"  {cards:>5} cards: cold build {cold.wall:7.1f} s wall, {cold.cpu:7.1f} s CPU, peak "
          f"{cold.peak / 1e6:6.0f} MB   (load {load()})", flush=True)
    size.nothing = [carddb(root, "build") for _ in range(runs)]
    current = text
    for run in range(runs):
        changed = f"{text} Edited {run + 1}."
        source = path.read_text(encoding="utf-8")
        if source.count(f'"{current}"') != 1:
            raise SystemExit(f"{path}: the text to change, {current!r}, is not there exactly once")
        path.write_text(source.replace(f'"{current}"', f'"{changed}"'), encoding="utf-8")
        current = changed
        size.card.append(carddb(root, "build"))
    size.redone = size.card[-1].summary
    print(f"  {cards:>5} cards: nothing changed {median(size.nothing):5.2f} s, one card changed "
          f"{median(size.card):6.2f} s wall / {median(size.card, 'cpu'):6.2f} s CPU   (load {load()})", flush=True)
    print(f"         what one card redid: {size.redone}", flush=True)
    for run in range(runs):
        before = path.read_text(encoding="utf-8")
        added = {"name": f"Bench Added {run + 1}", "kind": "unit", "cost": 2, "power": 2, "colour": "Red",
                 "text": f"An added card ({run + 1}).", "number": f"{STARTER_CARDS + cards + run + 1:04d}"}
        path.write_text(before.rstrip("\n") + "\n" + yaml_card(added), encoding="utf-8")
        size.added.append(carddb(root, "build"))
        path.write_text(before, encoding="utf-8")
        size.deleted.append(carddb(root, "build"))
    print(f"  {cards:>5} cards: one card added {median(size.added):6.2f} s wall / {median(size.added, 'cpu'):6.2f} s "
          f"CPU, deleted {median(size.deleted):6.2f} s / {median(size.deleted, 'cpu'):6.2f} s   (load {load()})",
          flush=True)
    print(f"         site pages, card added: {site_pages(size.added[-1].summary)}; deleted: "
          f"{site_pages(size.deleted[-1].summary)}", flush=True)
    print(f"         what one card added redid: {size.added[-1].summary}", flush=True)
    print(f"         against the cold build (wall / CPU): one card changed {ratio(median(size.card), cold.wall)} / "
          f"{ratio(median(size.card, 'cpu'), cold.cpu)}, added {ratio(median(size.added), cold.wall)} / "
          f"{ratio(median(size.added, 'cpu'), cold.cpu)}, deleted {ratio(median(size.deleted), cold.wall)} / "
          f"{ratio(median(size.deleted, 'cpu'), cold.cpu)}", flush=True)
    return size


def site_pages(summary: str) -> str:
    found = re.search(r"site \(([^)]*)\)", summary)
    return found.group(1) if found else ("site up to date" if summary else "?")


def ratio(value: float, reference: float) -> str:
    return f"{value / reference:5.2f}x" if reference else "   - "


def report(sizes: list[Size]) -> None:
    print()
    print("| cards | cold build (wall / CPU) | time per card (wall / CPU) | nothing changed (wall / CPU) "
          "| one card's text changed (wall / CPU) | one card added | one card deleted | site pages (added) "
          "| peak memory |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        print(f"| {size.cards:,} | {size.cold.wall:.1f} s / {size.cold.cpu:.1f} s "
              f"| {size.cold.wall / size.cards * 1000:.1f} ms / {size.cold.cpu / size.cards * 1000:.1f} ms "
              f"| {median(size.nothing):.2f} s / {median(size.nothing, 'cpu'):.2f} s "
              f"| {median(size.card):.2f} s / {median(size.card, 'cpu'):.2f} s "
              f"| {median(size.added):.2f} s / {median(size.added, 'cpu'):.2f} s "
              f"| {median(size.deleted):.2f} s / {median(size.deleted, 'cpu'):.2f} s "
              f"| {site_pages(size.added[-1].summary)} | {size.peak / 1e6:,.0f} MB |")
    print()
    first, last = sizes[0], sizes[-1]
    per = [(s.cold.wall / s.cards, s.cold.cpu / s.cards) for s in sizes]
    print(f"ratios against the smallest game ({first.cards:,} cards):")
    for size, (wall, cpu) in zip(sizes[1:], per[1:], strict=True):
        print(f"  {size.cards:>5} cards: time per card {ratio(wall, per[0][0])} wall, {ratio(cpu, per[0][1])} CPU "
              f"(target: no more than 1.00x at 250; design: within 1.20x of 500)   one card changed "
              f"{ratio(median(size.card), median(first.card))} wall, "
              f"{ratio(median(size.card, 'cpu'), median(first.card, 'cpu'))} CPU, one card added "
              f"{ratio(median(size.added), median(first.added))} wall, "
              f"{ratio(median(size.added, 'cpu'), median(first.added, 'cpu'))} CPU (targets within 1.50x of 250)")
    at_500 = next((s for s in sizes if s.cards == 500), None)
    if at_500 is not None and last.cards > 500:
        print(f"  design.md's ratio, {last.cards:,} against 500 cards: time per card "
              f"{ratio(last.cold.wall / last.cards, at_500.cold.wall / 500)} wall, "
              f"{ratio(last.cold.cpu / last.cards, at_500.cold.cpu / 500)} CPU (target within 1.20x)")
    print(f"at {last.cards:,} cards: one card changed {median(last.card):.2f} s, one card added "
          f"{median(last.added):.2f} s (target under 3 s each at 5,000: {ratio(median(last.card), 3.0)} and "
          f"{ratio(median(last.added), 3.0)} the target); nothing changed {median(last.nothing):.2f} s (target under "
          f"1 s: {ratio(median(last.nothing), 1.0)}); peak memory {last.peak / GIB:.2f} GiB (target under 1 GiB: "
          f"{ratio(last.peak, GIB)})")
    slowest = max(sizes, key=lambda s: median(s.nothing))
    print(f"nothing changed, slowest: {median(slowest.nothing):.2f} s at {slowest.cards:,} cards; peak memory, "
          f"largest: {max(s.peak for s in sizes) / 1e6:,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="250,5000", help="comma-separated card counts (default 250,5000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each incremental build (median shown)")
    parser.add_argument("--set-size", type=int, default=0,
                        help="generated cards a set, in sets of their own (default 0: all in the starter's core set)")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it (default: a temporary one)")
    args = parser.parse_args()
    counts = sorted({int(n) for n in args.sizes.split(",") if n.strip()})
    if not counts or counts[0] < STARTER_CARDS:
        raise SystemExit(f"--sizes: each size must be at least the starter's {STARTER_CARDS} cards")
    print(f"load average at start: {load()} on {os.cpu_count()} cores; sizes {', '.join(map(str, counts))}; "
          f"{args.runs} runs of each incremental build")
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        warm, _, _ = workspace(folder / "ws-warm-up", STARTER_CARDS)
        warm_up = carddb(warm, "build")
        print(f"untimed warm-up (bytecode cache), the starter's {STARTER_CARDS} cards: {warm_up.wall:.1f} s")
        shutil.rmtree(warm, ignore_errors=True)
        sizes = [measure(folder, cards, args.runs, args.set_size) for cards in counts]
        report(sizes)
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
