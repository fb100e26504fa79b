"""Each game's print-and-play kit on the site: the PDFs ``carddb build`` makes (``carddb.kit.build_part``) linked
under ``downloads/<game>/``, and the download box on the game's rulebook page.

The build keeps a game's kit for each paper at ``output/kit/<game>/<paper>/<game>-kit.pdf`` (``kit_file``, the
one place that path is spelled). The site does not wait for the kits: ``carddb build`` makes them beside the
site (a saved card reaches its page however long its kits take), its rulebook pages offering the kits the build's
kit step is making (``offered_kits``, ``promised``); the site's folder gets the kits as they are then, linked in
after MkDocs has built it and before it is swapped in (``link_kits``), and once both are done the build links
each kit into the served site (``publish_kits``), a file replaced whole. So the pages never depend on a kit's
bytes: the box names each paper, not the size of its file, and a site rebuilt for a changed card is a site built
from nothing, byte for byte. A site built without ``carddb build`` (``carddb site build``) offers the kits an
earlier build left, and a game with none gets no box.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Collection
from pathlib import Path
from posixpath import relpath

from carddb.core.cards.slugs import slugify
from carddb.site.markup import html_text, md_text

#: The papers the build makes a kit for.
KIT_PAPERS = ("A4", "Letter")
#: The site's folder of every game's downloads.
SITE_FOLDER = "downloads"


def kit_file(kit_dir: str | Path, game_id: str, paper: str) -> Path:
    """Where the build keeps a game's kit for ``paper``."""
    return Path(kit_dir) / slugify(game_id) / paper.lower() / f"{slugify(game_id)}-kit.pdf"


def offered_kits(exports: Path, game_id: str, promised: Collection[str] = ()) -> dict[str, Path]:
    """Site path -> kit PDF, for each paper the site offers: every paper of a game in ``promised`` (the build's
    kit step makes them beside the site), else each paper whose kit an earlier build left."""
    found = {}
    for paper in KIT_PAPERS:
        path = kit_file(exports / "kit", game_id, paper)
        if game_id in promised or path.is_file():
            found[f"{SITE_FOLDER}/{slugify(game_id)}/{slugify(game_id)}-kit-{paper.lower()}.pdf"] = path
    return found


def link_kits(site_dir: Path, kits: dict[str, Path]) -> None:
    """Each kit that is there into ``site_dir`` at its site path, replacing the file there whole (a hard link, a
    copy where links are refused); one the site holds already is left as it is."""
    for site_path, kit in kits.items():
        target = site_dir / site_path
        try:
            made = os.stat(kit)
        except FileNotFoundError:
            continue  # not made yet (its step runs beside the site) or failed: linked once made
        try:
            held = os.stat(target)
        except FileNotFoundError:
            held = None
        if held is not None and (held.st_ino, held.st_dev) == (made.st_ino, made.st_dev):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.linking")
        staged.unlink(missing_ok=True)
        try:
            os.link(kit, staged)
        except OSError:  # a file system without hard links
            shutil.copyfile(kit, staged)
        os.replace(staged, target)


def publish_kits(site_dir: Path, kit_dir: Path, game_id: str) -> None:
    """The kit step's kits into the served site, when there is one (an open page may download one at any time:
    each file is replaced whole)."""
    if (site_dir / "index.html").is_file():
        link_kits(site_dir, offered_kits(kit_dir.parent, game_id, promised=(game_id,)))


def with_kit_box(page: str, game_name: str, kits: Collection[str], page_path: str) -> str:
    """The rulebook page with a "Print-and-play kit" box under its title, linking each paper's kit (``kits``: their
    site paths)."""
    if not kits:
        return page
    here = page_path.removesuffix(".md")  # the page is served as a folder: links are relative to it
    links = " · ".join(f'<a href="{html_text(relpath(name, here))}" download>{_paper(name)} paper (PDF)</a>'
                       for name in kits)
    box = ['!!! tip "Print-and-play kit"', "",
           f"    Everything to play {md_text(game_name)} at the table, in one PDF: this rulebook typeset, the cards "
           "with their backs, quick-reference cards, a tuck box, the game's pieces and a checklist. Print at "
           f"Actual size (100 %): {links}", ""]
    lines = page.split("\n")
    title = next((index for index, line in enumerate(lines) if line.startswith("# ")), -1)
    return "\n".join([*lines[:title + 1], "", *box, *lines[title + 1:]])


def _paper(site_path: str) -> str:
    return next(paper for paper in KIT_PAPERS if site_path.endswith(f"-{paper.lower()}.pdf"))
