"""Rebuilding only the site pages and files whose inputs changed, with MkDocs' own build.

MkDocs builds every page again each time (2.5 s for the bundled games, more with a page per card). This module
lets it build only what changed, and makes the result the same, byte for byte, as a build from scratch:

* each file of the site (a page, generated data, a face, a theme asset) gets a key: the digest of its source
  (a page's Markdown, a file's bytes, an installed file's size and times) and, for a page, of everything that
  every page shows (the navigation, the list of files, the configuration, the theme, carddb itself);
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

from carddb.incremental import MANIFEST, Manifest, digest, file_digest
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

    def __init__(self, previous: Path, stage: Path, common: str, data: set[str],
                 cache: Path | None = None, progress: Task | None = None) -> None:
        from carddb.site.precompress import settings_digest

        self.progress = progress or Task()  # told n of m pages as MkDocs writes them
        self.packing = settings_digest()  # a file's compressed copies are kept with it only while this holds
        self.previous = previous
        self.cache = cache  # where the theme's compiled templates are kept between builds (None: nowhere)
        self.data = data
        self.stage = stage
        self.common = common  # the digest of what every page shows
        had_site = (previous / "index.html").is_file()
        self.old = Manifest.read(previous / MANIFEST) if had_site else Manifest()
        self.new = Manifest()
        self.kept: set[str] = set()  # destination paths taken from the previous site
        self.pages_built = 0
        self.pages = 0
        self._pages: list[Any] = []

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
        # Every page shows the navigation and may link to any page or file; generated data (the checker's cards,
        # named by their content's hash) is read by the page scripts, not linked, so its names are left out: one
        # card changed must not build every page again.
        listing = sorted(f"{f.src_uri}>{f.dest_uri}" for f in files if f.src_uri not in self.data)
        pages_common = digest(self.common, listing, self.packing)
        for file in files:
            dest = file.dest_uri
            if file.is_documentation_page():
                self.pages += 1
                key = digest(pages_common, file.src_uri, self._source_key(file))
            else:
                key = digest(dest, self._source_key(file), self.packing)
            entry: dict[str, Any] = {"key": key}
            kept = self.old.part(dest, key)
            if kept is not None and (self.previous / dest).is_file() and dest not in ALWAYS_BUILT:
                entry = kept
                self.kept.add(dest)
                file.is_modified = _false
            else:
                file.is_modified = _true
                self.pages_built += file.is_documentation_page()
            self.new.parts[dest] = entry
        self._pages = list(files.documentation_pages())
        self.progress(0, self.pages_built)

    def _source_key(self, file: Any) -> str:
        if file.abs_src_path is None or getattr(file, "_content", None) is not None:
            return _bytes_digest(file.content_bytes)
        source = file.abs_src_path
        if _installed(os.path.dirname(source)):
            return stat_key(source)  # the theme's assets, Pyodide: never edited, only installed again
        return file_digest(source)  # a face, a hand-written page or script: its bytes

    def remember_anchors(self, page: Any) -> None:
        entry = self.new.parts.get(page.file.dest_uri)
        if entry is None:
            return
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

        Plain strings and one system call a file: a site of a thousand kept files is linked in every build."""
        previous, stage = str(self.previous), str(self.stage)
        folders: set[str] = set()
        for dest in sorted(self.kept):
            folder = os.path.dirname(os.path.join(stage, dest))
            if folder not in folders:
                os.makedirs(folder, exist_ok=True)
                folders.add(folder)
            for name in (dest, *(dest + suffix for suffix in COMPANIONS)):
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


def _true() -> bool:
    return True


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
