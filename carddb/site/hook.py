"""The MkDocs hook (``site/hooks/carddb_hook.py`` re-exports these events): adds the generated pages, data and
engine files to the build and sets the navigation.

``carddb site build`` generates the content and hands it over (``carddb.site.handoff``); a plain ``mkdocs build
-f site/mkdocs.yml`` finds nothing handed over and generates it from the workspace the config file sits in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from carddb.bundled import bundled_root
from carddb.site.handoff import provided
from carddb.site.pages import SiteContent
from carddb.site.policy import PAGE_POLICY

#: Material's inline scripts as files (``site/overrides/partials/javascripts/`` loads them).
THEME_SCRIPTS = "theme-*.js"
_current: SiteContent | None = None


def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:
    global _current
    _current = provided()
    if _current is None:
        from carddb.site.build import content_from_workspace

        _current = content_from_workspace(Path(config.config_file_path).resolve().parent.parent)
    config.nav = _current.nav
    _verbatim_blocks(config)
    config.extra["carddb_policy"] = PAGE_POLICY  # for the <meta> of every page (site/overrides/main.html)
    _carddb_theme_behind(config)
    return config


def _verbatim_blocks(config: MkDocsConfig) -> None:
    """The generated pages' marked HTML set aside whole (``carddb.site.verbatim``): a gallery of thousands of cards
    is not read twice by HTML parsers in every build that changes one."""
    from carddb.site.verbatim import VerbatimExtension

    if not any(isinstance(extension, VerbatimExtension) for extension in config.markdown_extensions):
        config.markdown_extensions.append(VerbatimExtension())


def _carddb_theme_behind(config: MkDocsConfig) -> None:
    """carddb's own theme overrides, right behind the workspace's (whose templates still win). A workspace made by
    an older carddb has its own older copy of ``site/overrides``, without the partials that turn Material's inline
    scripts into files: the site's policy, which runs no inline script, would stop them and Material with them."""
    ours = bundled_root() / "site" / "overrides"
    dirs = config.theme.dirs
    if ours.is_dir() and all(Path(folder).resolve() != ours.resolve() for folder in dirs):
        dirs.insert(1 if config.theme.custom_dir else 0, str(ours))


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    assert _current is not None, "on_config runs first"
    for path, markdown in _current.pages.items():
        files.append(File.generated(config, path, content=markdown))
    for path, data in _current.data.items():
        files.append(File.generated(config, path, content=data))
    for path, source in _current.copies.items():
        files.append(File.generated(config, path, abs_src_path=str(source)))
    for source in sorted((bundled_root() / "site" / "docs" / "javascripts").glob(THEME_SCRIPTS)):
        if files.get_file_from_path(f"javascripts/{source.name}") is None:  # an older workspace's docs lack them
            files.append(File.generated(config, f"javascripts/{source.name}", abs_src_path=str(source)))
    return files


@event_priority(-100)  # after every other step that writes into the site (carddb's own rebuild links kept files)
def on_post_build(config: MkDocsConfig, **_: Any) -> None:
    """Compressed copies of the engine files beside them, for ``site serve`` and hosts that serve them; in a plain
    MkDocs build, the print-and-play kits the rulebook pages offer (carddb's own build links them after the site's
    manifest is written: ``carddb.site.build.run_mkdocs``)."""
    from carddb.site.handoff import pages_written
    from carddb.site.precompress import precompress

    precompress(config.site_dir, pages=pages_written())
    if _current is not None and provided() is None:
        from carddb.site.kit_files import link_kits

        link_kits(Path(config.site_dir), _current.kits)
