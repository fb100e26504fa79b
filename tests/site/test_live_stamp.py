"""What an open page of ``carddb site serve`` takes for a rebuild: a change of any page or asset of the site,
never a change of the client files alone (the exports, which a served build redoes after the pages)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from carddb.incremental import MANIFEST
from carddb.site.live import LiveReload


def write_manifest(site: Path, parts: dict[str, str]) -> None:
    """A site's manifest, replaced whole as a build replaces it (a new file renamed over the old)."""
    temp = site / ".new-manifest"
    temp.write_text(json.dumps({"inputs": "x", "parts": {name: {"key": key} for name, key in parts.items()},
                                "report": {}, "sources": {}}), encoding="utf-8")
    os.replace(temp, site / MANIFEST)


def test_only_a_change_outside_the_client_files_is_a_rebuild(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    live = LiveReload(site, tmp_path)
    parts = {"index.html": "a", "games/shmod/cards/replenish/index.html": "b",
             "clients/shmod/lackey/Shmod.zip": "c", "clients/shmod/tts/every-card.json": "d"}
    write_manifest(site, parts)
    first = live.status()["stamp"]
    assert first

    write_manifest(site, {**parts, "clients/shmod/lackey/Shmod.zip": "c2", "clients/shmod/tts/every-card.json": "d2"})
    assert live.status()["stamp"] == first  # the exports again: no page to reload

    write_manifest(site, {**parts, "games/shmod/cards/replenish/index.html": "b2"})
    changed = live.status()["stamp"]
    assert changed != first

    write_manifest(site, {**parts, "games/shmod/cards/replenish/index.html": "b2",
                          "games/shmod/cards/faces/replenish.png": "e"})
    assert live.status()["stamp"] != changed  # a face image is shown by its page: a change of it reloads it too


def test_a_damaged_or_missing_manifest_still_gives_a_stamp(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    live = LiveReload(site, tmp_path)
    assert live.status()["stamp"] == ""  # no site yet
    (site / MANIFEST).write_text("{not json", encoding="utf-8")
    damaged = live.status()["stamp"]
    assert damaged
    write_manifest(site, {"index.html": "a"})
    assert live.status()["stamp"] != damaged
