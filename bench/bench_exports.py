"""Export timings: ``.venv/bin/python bench/bench_exports.py [DB]`` prints, per bundled game, the seconds
for a LackeyCCG plugin (faces already rendered; the first run also renders them) and an Apprentice patch."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from carddb.catalogue.api import open_catalogue
from carddb.exporters.apprentice import export_apprentice
from carddb.exporters.lackey import export_lackey
from carddb.workspace import Workspace


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    workspace = Workspace(root)
    with tempfile.TemporaryDirectory() as tmp:
        db = sys.argv[1] if len(sys.argv) > 1 else str(Path(tmp) / "catalogue.db")
        catalogue = open_catalogue(db)
        faces = Path(tmp) / "faces"
        for game in workspace.game_ids():
            if not workspace.card_files(game):
                continue
            catalogue.load_workspace_game(workspace, game)
            timings = []
            for _ in range(2):
                start = time.perf_counter()
                report = export_lackey(root, catalogue, game, Path(tmp) / "lackey" / game, faces_dir=faces,
                                       base_url="https://example.org/plugin", zip=True)
                timings.append(time.perf_counter() - start)
            start = time.perf_counter()
            export_apprentice(root, catalogue, game, Path(tmp) / "apprentice" / game)
            apprentice = time.perf_counter() - start
            size = sum(p.stat().st_size for p in report.root.rglob("*") if p.is_file())
            print(f"{game:11} {report.cards:4} cards  lackey first {timings[0]:6.2f} s  again {timings[1]:5.2f} s  "
                  f"plugin {size / 1e6:5.1f} MB  apprentice {apprentice * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
