"""carddb.site layer."""
