"""Exports to the online tabletop clients: a LackeyCCG plugin and an Apprentice patch, with their readers.

``carddb.exporters.lackey.export_lackey`` and ``carddb.exporters.apprentice.export_apprentice`` are the
library functions ``carddb export`` and ``carddb build`` call; ``docs/exports.md`` is the user's guide.
"""
