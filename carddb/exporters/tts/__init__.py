"""Tabletop Simulator: saved objects (deck JSON, deck sheets, thumbnails) and a reader for them."""

from carddb.exporters.tts.export import export_tts

__all__ = ["export_tts"]
