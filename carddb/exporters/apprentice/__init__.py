"""Apprentice: ``cardinfo.dat``, ``Expan.dat``, ``.dec`` decks and the spoiler list."""

from carddb.exporters.apprentice.export import export_apprentice

__all__ = ["export_apprentice"]
