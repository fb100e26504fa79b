"""Cockatrice: a custom card database (cockatrice_carddatabase 4), card pictures and ``.cod`` decks."""

from carddb.exporters.cockatrice.export import export_cockatrice

__all__ = ["export_cockatrice"]
