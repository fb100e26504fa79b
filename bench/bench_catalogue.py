"""Catalogue benchmark: import 50,000 generated cards from a CSV file, then search, on each engine.

Run: ``.venv/bin/python bench/bench_catalogue.py [--cards N] [--pg URL]``. Prints figures and the design's
targets (an import of 50,000 cards under 20 s; a search under 50 ms). SQLite always runs, in a temporary
folder; PostgreSQL runs when ``--pg`` or ``$CARDDB_TEST_PG`` names a server whose role may create databases
(a temporary database is made and dropped).
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


def run(db: str, card_file: Path, label: str) -> None:
    catalogue = open_catalogue(db)
    catalogue.load_workspace_game(Workspace(REPO), "shmod")
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
