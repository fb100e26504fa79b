"""Everything a site is made from, as one digest found before anything is generated: when it equals the one in
the site's manifest, the site is up to date and neither the pages nor MkDocs run (``carddb.incremental``)."""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from carddb.incremental import MANIFEST, Manifest, code_digest, digest, file_digest, stat_digest, tree_digest
from carddb.site.client_files import exports_digest
from carddb.site.kit_files import offered_kits
from carddb.workspace import Workspace


def site_sources(root: Path, catalogue: Any, game_ids: Sequence[str] | None, faces_dir: str | Path | None,
                 site_url: str | None, out: Path, exports_dir: str | Path | None = None,
                 kits_promised: Collection[str] = ()) -> str:
    """carddb; the site's own files (MkDocs configuration, hand-written pages, scripts, the installed Pyodide);
    the guides of ``docs/``; and per game its definition, cards, rulebook, sample decks, rendered faces, the
    exports of ``output/`` its online client files are made from, and which print-and-play kits it offers (not
    their bytes: ``carddb.site.kit_files``)."""
    workspace = Workspace(root)
    held = set(catalogue.games())
    games = list(game_ids) if game_ids else [g for g in workspace.game_ids() if g in held]
    faces = Path(faces_dir) if faces_dir is not None else workspace.output_dir / "faces"
    exports = Path(exports_dir) if exports_dir is not None else workspace.output_dir
    per_game = []
    for game_id in games:
        game = catalogue.game(game_id)
        folder = root / "rules" / game_id
        decks = workspace.deck_files(game_id) if (folder / "game.toml").is_file() else []
        per_game.append([game_id, game.raw, [card.to_dict() for card in catalogue.cards(game_id)],
                         file_digest(folder / game.rulebook), [(p.name, file_digest(p)) for p in decks],
                         # the faces as the renderer keyed them (its manifest changes whenever one is redrawn)
                         file_digest(faces / game_id / MANIFEST),
                         sorted(p.name for p in (faces / game_id).glob("*.png")),
                         exports_digest(exports, game_id),  # what the site's client files copy
                         # the print-and-play kits it offers (by name: the kit step links them in after the site)
                         sorted(offered_kits(exports, game_id, kits_promised))])
    from carddb.site.precompress import settings_digest

    site = workspace.site_dir
    docs = root / "docs"
    return digest("site", code_digest(), site_url or "", configured_environment(site / "mkdocs.yml"), str(out),
                  settings_digest(),  # how its copies are compressed (CARDDB_QUICK_COMPRESSION)
                  per_game,
                  tree_digest(site, skip=("node_modules", "__pycache__")),
                  stat_digest(site / "node_modules" / "pyodide"),
                  tree_digest(docs) if docs.is_dir() else "",
                  tree_digest(root / "templates"))  # the card anatomy and the browser's printing engine show them


def configured_environment(config_file: Path) -> dict[str, str | None]:
    """The environment variables the MkDocs configuration reads (``!ENV [SITE_URL, ...]``), with their values: a
    site built with another ``SITE_URL`` is another site."""
    try:
        text = config_file.read_text(encoding="utf-8")
    except OSError:
        return {}
    names = set()
    for found in _ENV_TAG.finditer(text):  # every unquoted item names a variable; a quoted one is the default
        names.update(item for item in (part.strip() for part in found[1].strip("[]").split(","))
                     if _ENV_NAME.fullmatch(item))
    return {name: os.environ.get(name) for name in sorted(names)}


_ENV_TAG = re.compile(r"!ENV\s+(\[[^\]]*\]|\S+)")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def kept_report(out: Path, sources: str) -> dict[str, Any] | None:
    """The report of the site in ``out`` when it was made from ``sources`` and is still there, else None."""
    if not (out / "index.html").is_file():
        return None
    manifest = Manifest.read(out / MANIFEST)
    if not (manifest.current(sources) and manifest.report):
        return None
    from carddb.files.replacing import clean_leftovers

    clean_leftovers(out.parent)  # what a killed run left beside the site goes, as a run that writes does
    return dict(manifest.report)
