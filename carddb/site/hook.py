"""The MkDocs hook (``site/hooks/carddb_hook.py`` re-exports these events): adds the generated pages, data and
engine files to the build and sets the navigation.

``carddb site build`` generates the content and hands it over (``carddb.site.handoff``); a plain ``mkdocs build
-f site/mkdocs.yml`` finds nothing handed over and generates it from the workspace the config file sits in.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from carddb.site.handoff import provided
from carddb.site.pages import SiteContent

_current: SiteContent | None = None


def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:
    global _current
    _current = provided()
    if _current is None:
        from pathlib import Path

        from carddb.site.build import content_from_workspace

        _current = content_from_workspace(Path(config.config_file_path).resolve().parent.parent)
    config.nav = _current.nav
    return config


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    assert _current is not None, "on_config runs first"
    for path, markdown in _current.pages.items():
        files.append(File.generated(config, path, content=markdown))
    for path, data in _current.data.items():
        files.append(File.generated(config, path, content=data))
    for path, source in _current.copies.items():
        files.append(File.generated(config, path, abs_src_path=str(source)))
    return files


def on_env(env: Any, **_: Any) -> Any:
    """The site's Content-Security-Policy, for the ``<meta>`` of every page (``site/overrides/main.html``)."""
    from carddb.site.policy import PAGE_POLICY

    env.globals["carddb_policy"] = PAGE_POLICY
    return env


@event_priority(-100)  # after every other step that writes into the site (carddb's own rebuild links kept files)
def on_post_build(config: MkDocsConfig, **_: Any) -> None:
    """Compressed copies of the engine files beside them, for ``site serve`` and hosts that serve them."""
    from carddb.site.precompress import precompress

    precompress(config.site_dir)
