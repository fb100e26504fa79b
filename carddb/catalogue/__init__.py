"""carddb.catalogue layer."""
