"""Print-shop files: card images at a shop's pixel size with bleed, one card a page PDF, the upload order."""

from carddb.exporters.printshop.export import export_printshop
from carddb.exporters.printshop.services import SERVICES

__all__ = ["SERVICES", "export_printshop"]
