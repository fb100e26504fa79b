"""carddb.layout layer."""
