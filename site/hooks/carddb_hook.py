"""MkDocs loads hooks by file path; the events live in the carddb package."""

from carddb.site.hook import on_config, on_files, on_post_build

__all__ = ["on_config", "on_files", "on_post_build"]
