"""``carddb build``, the main job: load the workspace's games into the catalogue, then every later step.

Each step is a library function; the build runs them in order for each game and gathers one report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from carddb.catalogue.api import Catalogue, ImportReport
from carddb.workspace import Workspace

Say = Callable[[str], None]


@dataclass
class BuildReport:
    loaded: list[ImportReport] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    failed: bool = False


def build(workspace: Workspace, catalogue: Catalogue, game_ids: list[str] | None = None,
          say: Say = lambda line: None) -> BuildReport:
    report = BuildReport()
    games = game_ids or workspace.game_ids()
    for game_id in games:
        loaded = catalogue.load_workspace_game(workspace, game_id)
        report.loaded.append(loaded)
        line = (f"Loaded {game_id}: {loaded.total} cards in {len(loaded.sets)} set"
                f"{'s' if len(loaded.sets) != 1 else ''} ({', '.join(loaded.sets)})"
                + (f", {loaded.removed} removed" if loaded.removed else ""))
        report.lines.append(line)
        say(line)
    return report
