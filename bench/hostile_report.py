"""The hostile corpus's counts: how many bad inputs and faults were tried, and how many went wrong.

Run: ``.venv/bin/python bench/hostile_report.py``. It runs ``tests/hostile`` (the corpus of bad files,
property fuzzing, resource-limited runs and ``kill -9`` fault injection) and prints what the tests' ledger
counted: inputs tried by kind, then tracebacks, hangs, partial writes and data lost, which must all be 0
(the tests fail otherwise), the slowest run and the peak memory of a measured run. Exit status: pytest's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="carddb-hostile-") as folder:
        ledger = Path(folder) / "ledger.json"
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/hostile"],
                                cwd=REPO, env={**os.environ, "CARDDB_HOSTILE_LEDGER": str(ledger)},
                                capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if not ledger.is_file():
            print(result.stdout[-3000:], result.stderr[-3000:], sep="\n")
            print("no ledger was written: the tests did not run to the end")
            return result.returncode or 1
        data = json.loads(ledger.read_text(encoding="utf-8"))
    counts = data["counts"]
    tried = {key.removeprefix("tried:"): n for key, n in counts.items() if key.startswith("tried:")}
    summary = next((line.strip("= ") for line in reversed(result.stdout.splitlines()) if " passed" in line), "?")
    print(f"hostile corpus: {sum(tried.values()):,} inputs and faults tried ({summary}, {seconds:.0f} s)")
    width = max(len(kind) for kind in tried) if tried else 10
    for kind, n in sorted(tried.items()):
        print(f"  {kind:<{width}}  {n:>6,}")
    for what in ("tracebacks", "hangs", "partial writes", "data lost"):
        print(f"{what}: {counts.get(what, 0)}")
    print(f"slowest run: {data['slowest']:.1f} s; peak memory of a measured run: {data['peak_mb']:.0f} MB")
    for failure in data["failures"][:20]:
        print(f"  {failure}")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
