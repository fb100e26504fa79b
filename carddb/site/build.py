"""``build_site``: the site of a workspace, built by MkDocs from ``site/mkdocs.yml`` into a folder, whole or not
at all (built beside the target, then swapped in).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.errors import InputError, OutputError
from carddb.exporters.published import check_site_url, is_published
from carddb.files.replacing import replacing_folder
from carddb.progress import SILENT, Reporter, Task
from carddb.workspace import Workspace

if TYPE_CHECKING:
    from carddb.catalogue.api import Catalogue
    from carddb.core.cards.card import Card
    from carddb.core.game.definition import GameDefinition
    from carddb.site.client_files import GameClients
    from carddb.site.pages import CatalogueLike, SiteContent

PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass
class SiteReport:
    out_dir: Path
    games: list[str]
    pages: int
    cards: int
    faces: int
    decks: int
    pyodide_version: str
    bytes: int
    seconds: float
    notes: list[str] = field(default_factory=list)
    kept: bool = False  # the previous site was made from the same inputs: nothing was built
    pages_built: tuple[int, int] | None = None  # pages MkDocs built again, of how many (None: not counted)
    reasons: dict[str, list[str]] = field(default_factory=dict)  # page built again -> why (``--explain``)
    built_for: str = ""  # the site's address (site_url)

    def warnings(self, *, served_here: bool = False) -> list[str]:
        """The notes, and that the site was built for this computer's own address, unless it is being served
        here (``carddb site serve``, on any port: then that is the point, not a mistake)."""
        local = None if served_here else local_address_warning(self.built_for)
        return [*self.notes, *([local] if local else [])]


def local_address_warning(address: str) -> str | None:
    """What a site built for this computer's own address is told (other players cannot reach it), or None."""
    if not address or is_published(address):
        return None
    return (f"site_url {address} is this computer's own address: other players will not see the images of the "
            "client files (set SITE_URL or --site-url to where the site is published)")


#: The task of a build nobody watches.
SILENT_TASK = Task()

#: The file every built site holds, by which a rebuild knows the folder it replaces is a site (an earlier one).
SITE_INDEX = "index.html"

#: How a workspace without ``site/`` gets one.
SITE_HINT = ("To publish a site, run `carddb init .` in the workspace (it adds the site's files) and "
             "`npm ci --prefix site` once.")


def build_site(workspace_root: str | Path, catalogue: CatalogueLike, out_dir: str | Path, *,
               game_ids: Sequence[str] | None = None, site_url: str | None = None,
               faces_dir: str | Path | None = None, cache_dir: str | Path | None = None,
               exports_dir: str | Path | None = None, kits_promised: Collection[str] = (),
               progress: Task = SILENT_TASK) -> SiteReport:
    """Build the site of the workspace at ``workspace_root`` from ``catalogue`` into ``out_dir``.

    Every game of the workspace that the catalogue holds is on the site (``game_ids`` picks others).
    ``site_url`` is the address the site will be published at (default: ``site/mkdocs.yml``'s, or ``SITE_URL``);
    every page names it, so ``carddb site serve`` builds for the same one and serves the sitemap with its own
    address instead (``carddb.site.served_sitemap``).
    The online clients' files are copied from the exports under ``exports_dir`` (default ``output/``:
    ``output/<client>/<game>``, as ``carddb build`` writes them), their URLs rewritten for ``site_url``.
    The gallery shows the faces ``carddb render`` drew into ``faces_dir`` (default ``output/faces``); a card
    without one is shown as text. A game's rulebook page offers its print-and-play kits: those an earlier build
    left under ``exports_dir``, or every paper's for a game of ``kits_promised`` (``carddb build`` makes them after
    the site: ``carddb.site.kit_files``).
    What is costly and seldom changes (the engine's bundles, compressed copies, compiled templates) is kept in
    ``cache_dir``; by default the workspace's cache (``output/.carddb/cache``) for the workspace's own site, and no
    folder (memory only) for a site built elsewhere. ``progress`` is told ``n`` of ``m`` pages as they are built.
    Raises ``InputError`` when something it needs is missing and ``OutputError`` when MkDocs reports a
    problem (a strict build: a broken link or anchor fails it).
    """
    from carddb.site.sources import kept_report, site_sources

    started = time.perf_counter()
    root = Path(workspace_root).resolve()
    out = Path(out_dir).resolve()
    address = effective_site_url(root / "site" / "mkdocs.yml", site_url)  # refused here, before anything runs
    sources = site_sources(root, catalogue, game_ids, faces_dir, site_url, out, exports_dir, kits_promised)
    from carddb.incremental import keep_cache_of, keys_used, note_cache_of, remember_in

    kept = kept_report(out, sources)
    if kept is not None:  # nothing the site is made from changed since it was built (carddb.incremental)
        keep_cache_of(sources)  # in a build, its bundles stay in the cache for the next change
        return SiteReport(**{**kept, "out_dir": out, "kept": True, "seconds": time.perf_counter() - started})
    if cache_dir is None and out == Workspace(root).output_dir / "site":
        cache_dir = workspace_cache(Workspace(root))
    cache = Path(cache_dir) if cache_dir is not None else None
    with remember_in(cache) if cache else contextlib.nullcontext(), keys_used() as used:
        content = generate_content(root, catalogue, game_ids, faces_dir, site_url=address, exports_dir=exports_dir,
                                   kits_promised=kits_promised)
        version = next((p.split("/")[2].split("-")[0] for p in content.copies if p.startswith("assets/pyodide/")),
                       "")
        notes = [] if content.faces == content.cards else [
            f"{content.cards - content.faces} cards have no rendered face (run `carddb render`); they show as text"]
        report = SiteReport(out_dir=out, games=content.games, pages=len(content.pages), cards=content.cards,
                            faces=content.faces, decks=content.decks, pyodide_version=version, bytes=0, seconds=0.0,
                            notes=notes, built_for=address)
        report.pages_built = run_mkdocs(root, content, out, site_url, inputs=sources, report=report, cache=cache,
                                        progress=progress)
        note_cache_of(sources, used)  # what a build that finds this site up to date keeps in the cache
    report.seconds = time.perf_counter() - started
    return report


def workspace_cache(workspace: Workspace) -> Path:
    """The cache ``carddb build``, ``carddb site build`` and ``carddb site serve`` share (deleting it is safe)."""
    return workspace.output_dir / ".carddb" / "cache"


def effective_site_url(config_file: Path, site_url: str | None) -> str:
    """The address the site is built for, checked (``check_site_url``): ``site_url``, else what the MkDocs
    configuration says (``site_url: !ENV [SITE_URL, "default"]`` reads the environment first)."""
    import re

    if not site_url:
        try:
            text = config_file.read_text(encoding="utf-8")
        except OSError:
            text = ""
        line = re.search(r"^site_url:\s*(.+?)\s*$", text, re.MULTILINE)
        value = line[1] if line else DEFAULT_SITE_URL
        tagged = re.fullmatch(r"!ENV\s*\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*[\"']?([^\"'\]]*)[\"']?\s*\]", value)
        if tagged:
            value = os.environ.get(tagged[1]) or tagged[2]
        site_url = value.strip("\"'")
    return check_site_url(site_url)


#: The address of a site whose configuration names none (MkDocs' own ``mkdocs serve`` address).
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"


def generate_content(root: Path, catalogue: CatalogueLike, game_ids: Sequence[str] | None = None,
                     faces_dir: str | Path | None = None, site_url: str | None = None,
                     exports_dir: str | Path | None = None, kits_promised: Collection[str] = ()) -> SiteContent:
    from carddb.core.browser import check_deck_json
    from carddb.paint.render import face_path

    workspace = Workspace(root)
    if game_ids:
        games = list(game_ids)
    else:
        held = set(catalogue.games())
        games = [g for g in workspace.game_ids() if g in held]
    if not games:
        raise InputError(f"no game of {workspace.rules_dir} is in the catalogue: nothing to put on a site",
                         hint="Load them first: `carddb build` (or `carddb site build`, which loads them).")
    require_site_config(workspace)
    from carddb.site import bundle
    from carddb.site.client_cache import remembered_clients
    from carddb.site.kit_files import offered_kits
    from carddb.site.pages import generate

    pyodide = bundle.find_pyodide(workspace.site_dir)
    faces = Path(faces_dir) if faces_dir is not None else workspace.output_dir / "faces"

    def face(game_id: str, stem: str | None) -> Path | None:
        path = face_path(faces, game_id, stem, "png")
        return path if path.is_file() else None

    address = effective_site_url(workspace.site_dir / "mkdocs.yml", site_url)
    exports = Path(exports_dir) if exports_dir is not None else workspace.output_dir

    def clients(game: GameDefinition, cards: list[Card]) -> tuple[GameClients, str]:
        return remembered_clients(exports, game, cards, address), address

    return generate(root, catalogue, games, package_root=PACKAGE_ROOT, pyodide=pyodide, faces=face,
                    check_deck_json=check_deck_json, clients=clients,
                    kits=lambda game_id: offered_kits(exports, game_id, kits_promised))


def require_site_config(workspace: Workspace) -> None:
    """A workspace made by ``carddb init`` has no site/: say so first, rather than "package.json does not pin ..."
    or anything a later step meets."""
    if not (workspace.site_dir / "mkdocs.yml").is_file():
        raise InputError(f"{workspace.site_dir / 'mkdocs.yml'} is missing: this workspace has no site configuration",
                         hint=SITE_HINT)


def build_workspace_site(workspace: Workspace, catalogue: Catalogue, out_dir: str | Path, *,
                         site_url: str | None = None, progress: Reporter = SILENT) -> SiteReport:
    """``carddb site build``: draw the faces that are missing or stale (``carddb render``, incremental), then
    ``build_site``. The site shows the catalogue as it is; only ``carddb build`` loads the card files into it."""
    from carddb.paint.render import render_faces

    faces = workspace.output_dir / "faces"
    require_site_config(workspace)
    effective_site_url(workspace.site_dir / "mkdocs.yml", site_url)  # a bad address is refused before any work
    for game_id in workspace.game_ids():
        cards = catalogue.cards(game_id)
        with progress.task(f"{game_id}: faces") as task:
            render_faces(workspace.root, catalogue.game(game_id), cards, faces, progress=task)
        if cards:  # a game with no cards yet has no client files (the exports refuse an empty game)
            with progress.task(f"{game_id}: client files"):
                export_clients(workspace, catalogue, game_id)
    with progress.task("site: pages") as task:  # a site built elsewhere (--out) shares the workspace's cache
        return build_site(workspace.root, catalogue, out_dir, site_url=site_url, faces_dir=faces,
                          cache_dir=workspace_cache(workspace), progress=task)


def export_clients(workspace: Workspace, catalogue: Catalogue, game_id: str) -> None:
    """The exports the site's client files are copied from, into ``output/<client>/<game>`` as ``carddb build``
    makes them (each is incremental: an export whose inputs did not change is kept as it is)."""
    from carddb.exporters.apprentice.export import export_apprentice
    from carddb.exporters.cockatrice import export_cockatrice
    from carddb.exporters.lackey.export import export_lackey
    from carddb.exporters.tts import export_tts

    root, out = workspace.root, workspace.output_dir
    faces = out / "faces"
    export_lackey(root, catalogue, game_id, out / "lackey" / game_id, faces_dir=faces, zip=True)
    export_apprentice(root, catalogue, game_id, out / "apprentice" / game_id)
    export_tts(root, catalogue, game_id, out / "tts" / game_id, faces_dir=faces)
    export_cockatrice(root, catalogue, game_id, out / "cockatrice" / game_id, faces_dir=faces)


def content_from_workspace(root: Path) -> SiteContent:
    """For a plain ``mkdocs build``: the content of the workspace's catalogue (read, never written)."""
    from carddb.catalogue.api import open_catalogue

    return generate_content(root, open_catalogue(root=root))


def run_mkdocs(root: Path, content: SiteContent, out: Path, site_url: str | None, *, inputs: str = "",
               report: SiteReport | None = None, cache: Path | None = None,
               progress: Task = SILENT_TASK) -> tuple[int, int]:
    """MkDocs with ``site/mkdocs.yml`` and ``content``, strict, into ``out`` (replaced only on success). Only the
    pages and files whose inputs changed since the site in ``out`` was built are built again (``rebuild``);
    returns how many pages were. ``report`` is kept in the site's manifest, with its size filled in; the theme's
    compiled templates are kept under ``cache``."""
    from carddb.site import handoff
    from carddb.site.kit_files import link_kits
    from carddb.site.rebuild import Rebuild, quiet_dirty_warning, site_common

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # Material's end-of-life banner is noise here
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    config_file = root / "site" / "mkdocs.yml"
    if not config_file.is_file():
        raise InputError(f"{config_file} is missing: the site needs its MkDocs configuration")
    _refuse_to_replace_a_stranger(out)
    warnings = _WarningLog()
    logger = logging.getLogger("mkdocs")
    with replacing_folder(out, refill=True) as staging:  # in a build, an old copy the rebuild clears first
        logger.addHandler(warnings)
        handoff.provide(content)
        try:
            overrides = {"site_url": site_url} if site_url else {}
            config = load_config(config_file=str(config_file), site_dir=str(staging), strict=True, **overrides)
            # every page names the address it is served from as its canonical one: the address as configured
            rebuild = Rebuild(out, staging, site_common(root, content, config.site_url),
                              cache=cache / "jinja" if cache is not None else None, progress=progress,
                              known=content.copy_keys, linkable=root / "output")
            for number, plugin in enumerate(rebuild.plugin()):
                config.plugins[f"carddb-incremental-{number}"] = plugin
            with quiet_dirty_warning():
                build(config, dirty=True)
            if report is not None:
                report.bytes = _folder_bytes(staging)
                report.reasons = rebuild.reasons
                rebuild.finish(inputs, _plain_report(report))
            # after the size and the manifest, which a clean build finds no kit for yet: the pages never depend on
            # a kit, and the kit step links the kits it makes into the served site
            link_kits(staging, content.kits)
        except (MkDocsException, OSError) as exc:
            detail = "; ".join(warnings.messages) or str(exc)
            raise OutputError(f"the site did not build: {detail}") from None
        finally:
            handoff.provide(None)
            logger.removeHandler(warnings)
    return rebuild.pages_built, rebuild.pages


def _folder_bytes(folder: Path) -> int:
    """The size of every file under ``folder`` (strings and ``os.walk``: pathlib's glob costs a tenth of a second
    on a site of a thousand files, in every build)."""
    total = 0
    for dirpath, _dirnames, filenames in os.walk(folder):
        for name in filenames:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


def _plain_report(report: SiteReport) -> dict[str, object]:
    """What a skipped build gives back: the report less what only this run knows."""
    from dataclasses import asdict

    from carddb.incremental import plain_report

    kept = asdict(report)
    for what_this_run_did in ("out_dir", "seconds", "kept", "pages_built", "reasons"):
        del kept[what_this_run_did]
    return plain_report(kept)


def _refuse_to_replace_a_stranger(out: Path) -> None:
    """The build replaces ``out`` whole: only an empty folder or an earlier site may be replaced, never a file or a
    folder of the user's that ``--out`` named by mistake."""
    if not out.exists():
        return
    if out.is_dir() and (not any(out.iterdir()) or (out / SITE_INDEX).is_file()):
        return
    raise OutputError(f"{out} exists and is not a site (no {SITE_INDEX}); choose a new or empty folder, or an "
                      "earlier site (nothing was changed)")


class _WarningLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
