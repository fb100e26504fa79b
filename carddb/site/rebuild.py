"""Rebuilding only the site pages and files whose inputs changed, with MkDocs' own build.

MkDocs builds every page again each time (2.5 s for the bundled games, more with a page per card). This module
lets it build only what changed, and makes the result the same, byte for byte, as a build from scratch:

* each file of the site (a page, generated data, a face, a theme asset) gets a key: the digest of its source
  (a page's Markdown, a file's bytes, an installed file's size and times) and, for a page, of everything that
  every page shows (the navigation, the configuration, the theme, carddb itself);
* a page's links are part of what it renders: every file it looked up while MkDocs rendered it is kept in the
  manifest with what the lookup found (its address, or nothing), and the page is kept only while every one of
  those lookups finds the same. So an added or removed card builds its own page and the pages that link to it
  or list it (whose Markdown changed), not every page: the card pages are not in the navigation, and no page
  depends on the list of all the site's files;
* MkDocs runs in its ``dirty`` mode into an empty staging folder, told (``File.is_modified``) that a file whose
  key is unchanged, and which the previous site holds, needs no work: it reads, renders and writes only the
  others (the home page's 404 and sitemap are always written);
* what a skipped page gives the rest of the build is put back from the manifest: its anchors and links (so the
  strict check of anchors sees every page) and its entries of the search index (in the order a full build
  writes them);
* last, every file of the previous site that this build kept is hard-linked into the staging folder (a copy
  where links are refused), with its precompressed copies (a file's key holds the compression settings, so its
  copies are what a clean build would make); the folder is then swapped in whole.

The manifest is ``.build-inputs.json`` at the root of the site (``carddb.incremental``), written into the
staging folder, so it always describes the files beside it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from carddb.files.listing import plain_files, prune_to
from carddb.incremental import MANIFEST, Manifest, digest, file_digest, short
from carddb.progress import Task

#: Written by every build (MkDocs' theme templates and the search plugin): never taken from the previous site.
ALWAYS_BUILT = ("404.html", "sitemap.xml", "sitemap.xml.gz", "search/search_index.json")
#: Precompressed copies a post-build step may write beside a file (kept with the file they compress).
COMPANIONS = (".br", ".gz")
SEARCH = "material/search"
#: Folders of installed files, keyed by size and time rather than read at every build.
INSTALLED = {"site-packages", "node_modules"}


def stat_key(path: str | Path) -> str:
    """A key of an installed or generated file by its size, time and inode (an atomic rewrite changes the inode):
    for files too many or too large to read at every build (Pyodide, the faces)."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


class Rebuild:
    """A partial build into ``stage`` of the site in ``previous`` (a MkDocs plugin: ``plugin()`` registers it)."""

    def __init__(self, previous: Path, stage: Path, common: str, cache: Path | None = None,
                 progress: Task | None = None, known: dict[str, str] | None = None,
                 linkable: Path | None = None) -> None:
        from carddb.site.precompress import settings_digest

        self.progress = progress or Task()  # told n of m pages as MkDocs writes them
        self.packing = settings_digest()  # a file's compressed copies are kept with it only while this holds
        self.previous = previous
        self.cache = cache  # where the theme's compiled templates are kept between builds (None: nowhere)
        self.stage = stage
        self.common = common  # the digest of what every page shows
        self.known = known or {}  # site path -> the key a copied file was made from (``SiteContent.copy_keys``)
        #: a folder whose files carddb replaces whole, never writing into them (``output/``): an export's file copied
        #: from it into the site is hard-linked (a game of 5,000 cards copies 10,000 images and a 200 MB zip)
        self.linkable = os.path.join(os.path.abspath(linkable), "") if linkable is not None else None
        had_site = (previous / "index.html").is_file()
        self.old = Manifest.read(previous / MANIFEST) if had_site else Manifest()
        self.new = Manifest()
        self.kept: set[str] = set()  # destination paths taken from the previous site
        self.reasons: dict[str, list[str]] = {}  # page built -> why (``carddb build --explain``)
        self._refs: dict[str, list[Any] | None] | None = None  # the lookups of the page being rendered
        self.pages_built = 0
        self.pages = 0
        self._pages: list[Any] = []
        self._listed: dict[str, int] | None = None  # ``_previous_files``
        #: the files of an old copy of the site the stage was refilled from that are the previous site's own
        #: (hard links to them); the rest went before MkDocs writes anything (``carddb.files.replacing``)
        self._there = prune_to(stage, self._previous_files())

    # -- the plugin's events ---------------------------------------------------------------------------------
    def plugin(self) -> Any:
        from mkdocs.plugins import BasePlugin, event_priority

        rebuild = self

        class IncrementalPlugin(BasePlugin):  # type: ignore[type-arg]
            @event_priority(100)  # before the search plugin's, which makes an environment to translate its labels
            def on_config(self, config: Any) -> Any:
                from carddb.site.theme_env import quicker_environments

                quicker_environments(config.theme, rebuild.cache)
                return config

            @event_priority(-100)  # after every other on_files: the list of files is final
            def on_files(self, files: Any, *, config: Any) -> Any:
                rebuild.mark(files)
                return files

            @event_priority(-100)  # the last event before MkDocs renders the page (and resolves its links)
            def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Any) -> str:
                rebuild.start_page()
                return markdown

            @event_priority(100)  # the first event after it
            def on_page_content(self, html: str, *, page: Any, config: Any, files: Any) -> str:
                rebuild.remember_anchors(page)
                return html

            def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
                rebuild.progress.advance()  # a page MkDocs skips is never rendered: only the pages built count
                return output

            def on_env(self, env: Any, *, config: Any, files: Any) -> Any:
                rebuild.restore_anchors(files)
                return env

            @event_priority(100)  # before the search plugin writes its index
            def on_post_build(self, *, config: Any) -> None:
                rebuild.merge_search(config)

        class LinkKeptPlugin(BasePlugin):  # type: ignore[type-arg]
            # after the search index is merged, before the compressed copies are made (``precompress`` then leaves
            # the kept files, which come with theirs)
            @event_priority(50)
            def on_post_build(self, *, config: Any) -> None:
                rebuild.link_kept()

        return IncrementalPlugin(), LinkKeptPlugin()

    def mark(self, files: Any) -> None:
        """Give every file its key, and tell MkDocs which ones need no work."""
        # Every page shows the navigation (card pages are not in it) and what it links to; not the list of the
        # site's files, so an added card builds its own page and those that list it, not every page.
        pages_common = short(self.common, self.packing)
        for file in files:
            dest = file.dest_uri
            page = file.is_documentation_page()
            source = self._source_key(file)
            key = digest(pages_common, file.src_uri, source) if page else digest(dest, source, self.packing)
            entry: dict[str, Any] = {"key": key, "source": short(source), "common": pages_common} if page else \
                {"key": key}
            kept = self.old.part(dest, key)
            moved = _moved_links(kept.get("refs"), files) if kept is not None else []
            if kept is not None and not moved and dest in self._previous_files() and dest not in ALWAYS_BUILT:
                entry = kept
                self.kept.add(dest)
                file.is_modified = _false
            else:
                file.is_modified = _true
                if self._links(file):
                    file.copy_file = functools.partial(_link_or_copy, file, file.copy_file)
                if page:
                    self.pages_built += 1
                    self.reasons[dest] = self._why(dest, entry, moved)
            self.pages += page
            self.new.parts[dest] = entry
        self._pages = list(files.documentation_pages())
        self._record_lookups(files)
        self._clear_what_is_built()
        self.progress(0, self.pages_built)

    def _clear_what_is_built(self) -> None:
        """Out of the refilled stage: every file of the old copy this build does not keep (MkDocs writes the pages
        it builds in place, and such a file is a link to the live site's), and the folders left empty (a removed
        card's): the stage then holds the kept files (``link_kept`` adds those missing) and what is built."""
        stage = str(self.stage)
        for relative in self._there:
            if relative in self.kept or any(relative.endswith(suffix) and relative.removesuffix(suffix) in self.kept
                                            for suffix in COMPANIONS):
                continue
            path = os.path.join(stage, relative)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            folder = os.path.dirname(path)
            while folder != stage:
                try:
                    os.rmdir(folder)
                except OSError:  # not empty: neither is any folder above it
                    break
                folder = os.path.dirname(folder)

    def _previous_files(self) -> dict[str, int]:
        """The files of the previous site (their paths in it, and inode numbers), listed once: asking for each kept
        file was a status call and four ``Path`` objects a file, 15,000 of them at 5,000 cards. A file in a linked
        folder is not listed, so it is built again."""
        if self._listed is None:
            self._listed = plain_files(self.previous, linked_files=True) if self.old.found else {}
        return self._listed

    def _links(self, file: Any) -> bool:
        """Whether ``file`` is linked, not copied: a file carddb made under ``linkable`` and keyed by what it was
        made from (``known``: an export's image, the plugin's zip). A file keyed by its bytes (a face) is copied:
        a link changes the status of the file it links (its change time), and the steps find a face unchanged
        by its status; linked, every face would be read again at the next build."""
        source = file.abs_src_path
        return (self.linkable is not None and source is not None and file.src_uri in self.known
                and getattr(file, "_content", None) is None and not file.is_documentation_page()
                and os.path.abspath(source).startswith(self.linkable))

    def _why(self, dest: str, entry: dict[str, Any], moved: list[str]) -> list[str]:
        """Why page ``dest`` is built again, for ``--explain``."""
        if not self.old.found:
            return ["no earlier build"]
        old = self.old.parts.get(dest)
        if old is None:
            return ["a new part"]
        reasons = []
        if old.get("common") != entry.get("common"):
            reasons.append("what every page shows (carddb, the configuration, the theme, the navigation)")
        if old.get("source") != entry.get("source"):
            reasons.append("its Markdown")
        reasons += [f"its link to {uri}" for uri in moved]
        return reasons or ["its output file is missing"]

    def _record_lookups(self, files: Any) -> None:
        """Every file a page looks up while it is rendered (its links and images: ``start_page`` to
        ``remember_anchors``) is kept with what the lookup found, the page's dependencies on other files."""
        lookup = files.get_file_from_path

        def recorded(path: str) -> Any:
            found = lookup(path)
            if self._refs is not None:
                self._refs[path] = _found(found)
            return found

        files.get_file_from_path = recorded

    def start_page(self) -> None:
        self._refs = {}

    def _source_key(self, file: Any) -> str:
        known = self.known.get(file.src_uri)
        if known is not None:
            return f"made from {known}"  # an export's image: what its bytes were made from, not read again
        if file.abs_src_path is None or getattr(file, "_content", None) is not None:
            return _bytes_digest(file.content_bytes)
        source = file.abs_src_path
        if _installed(os.path.dirname(source)):
            return stat_key(source)  # the theme's assets, Pyodide: never edited, only installed again
        return file_digest(source)  # a face, a hand-written page or script: its bytes

    def remember_anchors(self, page: Any) -> None:
        refs, self._refs = self._refs, None
        entry = self.new.parts.get(page.file.dest_uri)
        if entry is None:
            return
        entry["refs"] = dict(sorted((refs or {}).items()))
        entry["anchors"] = sorted(page.present_anchor_ids or ())
        entry["links"] = {target.src_uri: dict(sorted(links.items()))
                          for target, links in sorted((page.links_to_anchors or {}).items(),
                                                      key=lambda item: item[0].src_uri)}

    def restore_anchors(self, files: Any) -> None:
        """A page MkDocs skipped still has its anchors and links, so the anchor check is that of a full build."""
        for file in self._pages:
            if file.dest_uri not in self.kept or file.page is None:
                continue
            entry = self.new.parts[file.dest_uri]
            file.page.present_anchor_ids = set(entry.get("anchors", []))
            links = {}
            for src_uri, anchors in entry.get("links", {}).items():
                target = files.get_file_from_path(src_uri)
                if target is not None:
                    links[target] = dict(anchors)
            file.page.links_to_anchors = links

    def merge_search(self, config: Any) -> None:
        """The search index in a full build's order: the entries of the pages built now, the kept pages' from the
        previous index."""
        plugin = config.plugins.get(SEARCH)
        index = getattr(plugin, "search_index", None)
        if index is None:
            return
        fresh = _by_page(index.entries)
        old = _by_page(_previous_index(self.previous))
        entries: list[dict[str, Any]] = []
        for file in self._pages:
            if file.page is None:
                continue
            url = file.page.url
            entries += old.get(url, []) if file.dest_uri in self.kept else fresh.get(url, [])
        index.entries = entries

    def link_kept(self) -> None:
        """Every file taken from the previous site, hard-linked into the stage (with its precompressed copies).

        Plain strings and one system call a file (copies are looked for only beside the kinds of file that get
        them): a site of thousands of kept files is linked in every build."""
        from carddb.site import handoff
        from carddb.site.precompress import may_have_copies

        handoff.note_pages_written(sorted({dest for dest in self.new.parts if dest.endswith(".html")} - self.kept
                                          | {dest for dest in ALWAYS_BUILT if dest.endswith(".html")}))
        previous, stage = str(self.previous), str(self.stage)
        folders: set[str] = set()
        for dest in sorted(self.kept):
            folder = os.path.dirname(os.path.join(stage, dest))
            if folder not in folders:
                os.makedirs(folder, exist_ok=True)
                folders.add(folder)
            for name in (dest, *(dest + suffix for suffix in COMPANIONS if may_have_copies(dest))):
                source, target = os.path.join(previous, name), os.path.join(stage, name)
                try:
                    os.link(source, target)
                except FileNotFoundError:  # no such copy beside the file (its folder is made above)
                    continue
                except FileExistsError:  # built again in this build after all
                    continue
                except OSError:  # a file system without hard links
                    if os.path.isfile(source) and not os.path.exists(target):
                        shutil.copy2(source, target)

    # -- after the build --------------------------------------------------------------------------------------
    def finish(self, inputs: str, report: dict[str, Any]) -> None:
        """Write the manifest into the stage (before it is swapped in)."""
        self.new.inputs = inputs
        self.new.report = report
        self.new.write(self.stage / MANIFEST)


@functools.lru_cache(maxsize=256)
def _installed(folder: str) -> bool:
    """Whether files in ``folder`` were installed by a package manager (asked once a folder: a site has a
    thousand files in a few dozen folders, and resolving links costs a system call a part)."""
    return bool(INSTALLED.intersection(Path(folder).parts) or INSTALLED.intersection(Path(folder).resolve().parts))


def _found(file: Any) -> list[Any] | None:
    """What a page's lookup of a file found, as far as the page shows it: its address and whether it is left out
    of the site (None: no such file)."""
    return None if file is None else [file.url, bool(file.inclusion.is_excluded())]


def _moved_links(refs: Any, files: Any) -> list[str]:
    """The files a page looked up when it was built that the same lookup now finds otherwise (gone, new, moved)."""
    if not isinstance(refs, dict):
        return []
    return [path for path, found in refs.items() if _found(files.get_file_from_path(path)) != found]


def _true() -> bool:
    return True


def _link_or_copy(file: Any, copy: Any, dirty: bool = False) -> None:
    """MkDocs' ``File.copy_file`` for a file carddb made: a hard link to it when it is readable by all (a site is
    served as it is), else, or where links are refused, MkDocs' copy."""
    source, target = file.abs_src_path, file.abs_dest_path
    try:
        if os.stat(source).st_mode & 0o444 == 0o444:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
            os.link(source, target)
            return
    except OSError:
        pass
    copy(dirty)


def _false() -> bool:
    return False


def _bytes_digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _by_page(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    pages: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        pages.setdefault(str(entry.get("location", "")).split("#")[0], []).append(entry)
    return pages


def _previous_index(previous: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads((previous / "search" / "search_index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    docs = data.get("docs") if isinstance(data, dict) else None
    return docs if isinstance(docs, list) else []


@contextlib.contextmanager
def quiet_dirty_warning() -> Iterator[None]:
    """MkDocs warns that a dirty build may be inaccurate; this one is not (every page that changed is built), and
    in strict mode the warning would fail the build."""

    class _Drop(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            return "'dirty' build" not in record.getMessage()

    logger = logging.getLogger("mkdocs.commands.build")
    dropped = _Drop()
    logger.addFilter(dropped)
    try:
        yield
    finally:
        logger.removeFilter(dropped)


def site_common(root: Path, content: Any, site_url: str | None) -> str:
    """The digest of what every page of the site shows: carddb, the MkDocs configuration and theme overrides, the
    address the site is served from, the navigation."""
    from carddb.incremental import code_digest, tree_digest

    site = root / "site"
    return digest(code_digest(), file_digest(site / "mkdocs.yml"), tree_digest(site / "overrides"),
                  tree_digest(site / "hooks", skip=("__pycache__",)), site_url or "", content.nav)
