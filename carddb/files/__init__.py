"""carddb's boundary with the file system, shared by every layer above ``carddb.core``.

``reading``: the one bounded, type-checked reader of the files users hand carddb (regular files only, size
counted as it streams, encodings, YAML/JSON/TOML with depth and alias limits). ``replacing``: the one way a
file or a folder is written, whole or not at all, never leaving its target missing, with the leftovers of
an interrupted run cleaned by the next. ``crash``: the report written when carddb itself fails.
"""
