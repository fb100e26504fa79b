"""Catalogue benchmark: the build's load step, an import of 50,000 generated cards from a CSV file, then
searches, on each engine.

Run: ``.venv/bin/python bench/bench_catalogue.py [--cards N] [--pg URL]``. Prints figures and the design's
targets (an import of 50,000 cards under 20 s; a search under 50 ms) and the load step of ``carddb build``:
the five bundled games into a new catalogue, then again with nothing changed (which writes nothing), then
again with the 50,000 imported cards beside them (a build never touches those, but reads where each came from).
SQLite always runs, in a temporary folder; PostgreSQL runs when ``--pg`` or ``$CARDDB_TEST_PG`` names a server
whose role may create databases (a temporary database is made and dropped).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import create_engine, text  # noqa: E402

from carddb.catalogue import db as catalogue_db  # noqa: E402
from carddb.catalogue.api import open_catalogue  # noqa: E402
from carddb.workspace import Workspace  # noqa: E402

TARGET_IMPORT_S = 20.0
TARGET_SEARCH_MS = 50.0
TYPES = ["FIRE", "WATER", "EARTH", "STORM", "DARK", "LIGHT"]
WORDS = ["draw", "destroy", "summon", "return", "discard", "banish", "shield", "storm", "flame", "tide"]
SEARCHES = [("type:fire atk>=2", 50), ('"draw a card"', 50), ("level<=3 -kind:monster", 50),
            ("name:ember", 50), ("type:water def>5 (level:4 or level:5)", 50), ("type:dark atk>=7", None)]


def write_cards(path: Path, count: int) -> None:
    rng = random.Random(8)
    rows: list[list[object]] = [["name", "kind", "type", "atk", "def", "level", "text", "set"]]
    for n in range(count):
        words = " ".join(rng.choice(WORDS) for _ in range(6))
        kind = "monster" if n % 3 else rng.choice(["spell", "trap"])
        name = f"{rng.choice(['Ember', 'Tidal', 'Stone', 'Gale', 'Shade', 'Dawn'])} Card {n}"
        text_ = f"When summoned, {words}. Draw a card." if n % 7 == 0 else f"{words.capitalize()}."
        if kind == "monster":
            rows.append([name, "monster", rng.choice(TYPES), rng.randint(0, 9), rng.randint(0, 9), rng.randint(1, 8),
                         text_, "base"])
        else:
            rows.append([name, kind, "", "", "", rng.randint(1, 8), text_, "base"])
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)


def load_workspace(catalogue, workspace: Workspace) -> tuple[float, int, str]:  # type: ignore[no-untyped-def]
    """Seconds to load every bundled game (the load step of `carddb build`), cards loaded, what it said."""
    start = time.perf_counter()
    reports = [catalogue.load_workspace_game(workspace, game_id) for game_id in workspace.game_ids()]
    seconds = time.perf_counter() - start
    changed = {what: sum(len(getattr(report, what)) for report in reports) for what in ("added", "updated", "removed")}
    said = ", ".join(f"{count} {what}" for what, count in changed.items() if count) or "nothing changed"
    return seconds, sum(report.cards for report in reports), said


def median_load_ms(catalogue, workspace: Workspace, runs: int = 5) -> tuple[float, str]:  # type: ignore[no-untyped-def]
    times, said = [], ""
    for _ in range(runs):
        seconds, _cards, said = load_workspace(catalogue, workspace)
        times.append(seconds * 1000)
    return statistics.median(times), said


def run(db: str, card_file: Path, label: str) -> None:
    workspace = Workspace(REPO)
    catalogue = open_catalogue(db, REPO)
    seconds, cards, said = load_workspace(catalogue, workspace)
    print(f"{label}: build load of the {len(workspace.game_ids())} bundled games into a new catalogue: "
          f"{seconds * 1000:.0f} ms ({cards} cards; {said})")
    ms, said = median_load_ms(catalogue, workspace)
    print(f"{label}: build load with nothing changed: {ms:.0f} ms median of 5 ({said}; "
          f"{ms / (seconds * 1000):.2f} x the first load)")
    start = time.perf_counter()
    report = catalogue.import_cards(card_file, "shmod")
    seconds = time.perf_counter() - start
    verdict = "ok" if seconds < TARGET_IMPORT_S else "SLOWER THAN TARGET"
    print(f"{label}: import of {report.added:,} cards: {seconds:.2f} s (target < {TARGET_IMPORT_S:.0f} s) {verdict}")
    for query, limit in SEARCHES:
        catalogue.search(query, "shmod", limit)  # warm the caches, as a running site or shell would be
        times = []
        for _ in range(5):
            start = time.perf_counter()
            found = catalogue.search(query, "shmod", limit)
            times.append((time.perf_counter() - start) * 1000)
        ms = statistics.median(times)
        verdict = "ok" if ms < TARGET_SEARCH_MS else "SLOWER THAN TARGET"
        shown = f"limit {limit}" if limit else "all"
        print(f"{label}:   search {query!r} ({shown}, {len(found):,} cards): {ms:.1f} ms median "
              f"(target < {TARGET_SEARCH_MS:.0f} ms) {verdict}")
    ms, said = median_load_ms(catalogue, workspace, runs=3)
    print(f"{label}: build load with nothing changed, {report.added:,} imported cards beside: {ms:.0f} ms "
          f"median of 3 ({said})")
    start = time.perf_counter()
    again = catalogue.import_cards(card_file, "shmod")
    print(f"{label}: the same import again ({again.unchanged:,} unchanged, none written): "
          f"{time.perf_counter() - start:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--pg", default=os.environ.get("CARDDB_TEST_PG", ""))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        card_file = Path(folder) / "cards.csv"
        write_cards(card_file, args.cards)
        run(str(Path(folder) / "catalogue.db"), card_file, "SQLite")
        if not args.pg:
            print("PostgreSQL: skipped (no --pg URL and no CARDDB_TEST_PG)")
            return
        name = f"carddb_bench_{uuid.uuid4().hex[:8]}"
        admin = create_engine(catalogue_db.database_url(args.pg), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = args.pg.rsplit("/", 1)[0] + "/" + name
        try:
            run(url, card_file, "PostgreSQL")
        finally:
            for engine in catalogue_db._pg_engines.values():
                engine.dispose()
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
