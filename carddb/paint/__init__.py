"""carddb.paint layer."""
