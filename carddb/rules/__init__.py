"""carddb.rules layer."""
