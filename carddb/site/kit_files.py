"""Each game's print-and-play kit on the site: the PDFs ``carddb build`` makes (``carddb.kit.build_part``) copied
under ``downloads/<game>/``, and the download box on the game's rulebook page.

The build keeps a game's kit for each paper at ``output/kit/<game>/<paper>/<game>-kit.pdf`` (``kit_file``, the
one place that path is spelled); a paper whose kit is missing (a site built without ``carddb build``) is left out,
and a game with no kit gets no box.
"""

from __future__ import annotations

from pathlib import Path
from posixpath import relpath
from typing import Any

from carddb.core.cards.slugs import slugify
from carddb.incremental import MANIFEST, file_digest
from carddb.site.markup import html_text, md_text

#: The papers the build makes a kit for.
KIT_PAPERS = ("A4", "Letter")
#: The site's folder of every game's downloads.
SITE_FOLDER = "downloads"


def kit_file(kit_dir: str | Path, game_id: str, paper: str) -> Path:
    """Where the build keeps a game's kit for ``paper``."""
    return Path(kit_dir) / slugify(game_id) / paper.lower() / f"{slugify(game_id)}-kit.pdf"


def kit_copies(exports: Path, game_id: str) -> dict[str, Path]:
    """Site path -> kit PDF, for each paper whose kit the build made."""
    found = {}
    for paper in KIT_PAPERS:
        path = kit_file(exports / "kit", game_id, paper)
        if path.is_file():
            found[f"{SITE_FOLDER}/{slugify(game_id)}/{slugify(game_id)}-kit-{paper.lower()}.pdf"] = path
    return found


def kits_digest(exports: Path, game_id: str) -> list[Any]:
    """What the game's kits on the site are made from, for the site's key: the kit step's manifest (it changes
    whenever a kit is made again) and the sizes of the kits."""
    return [file_digest(exports / "kit" / slugify(game_id) / MANIFEST),
            sorted((name, path.stat().st_size) for name, path in kit_copies(exports, game_id).items())]


def with_kit_box(page: str, game_name: str, copies: dict[str, Path], page_path: str) -> str:
    """The rulebook page with a "Print-and-play kit" box under its title, linking each paper's kit."""
    if not copies:
        return page
    here = page_path.removesuffix(".md")  # the page is served as a folder: links are relative to it
    links = " · ".join(f'<a href="{html_text(relpath(name, here))}" download>{_paper(name)} paper '
                       f"(PDF, {path.stat().st_size / 1_048_576:.1f} MB)</a>" for name, path in copies.items())
    box = ['!!! tip "Print-and-play kit"', "",
           f"    Everything to play {md_text(game_name)} at the table, in one PDF: this rulebook typeset, the cards "
           "with their backs, quick-reference cards, a tuck box, the game's pieces and a checklist. Print at "
           f"Actual size (100 %): {links}", ""]
    lines = page.split("\n")
    title = next((index for index, line in enumerate(lines) if line.startswith("# ")), -1)
    return "\n".join([*lines[:title + 1], "", *box, *lines[title + 1:]])


def _paper(site_path: str) -> str:
    return next(paper for paper in KIT_PAPERS if site_path.endswith(f"-{paper.lower()}.pdf"))
