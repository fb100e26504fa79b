"""LackeyCCG: the plugin exporter, its checksum, and readers for plugins and ``.dek`` files."""

from carddb.exporters.lackey.checksum import lackey_checksum
from carddb.exporters.lackey.export import export_lackey

__all__ = ["export_lackey", "lackey_checksum"]
