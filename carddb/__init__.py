"""carddb: a card catalogue and print-and-play publishing pipeline for fan-made card games."""

__version__ = "0.1.0"
