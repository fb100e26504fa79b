"""carddb.cli layer."""
