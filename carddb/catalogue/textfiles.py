"""Kept for the modules that import the reader from here: the one reader of user files is ``carddb.files.reading``."""

from carddb.files.reading import MAX_BYTES, decode_text, read_deck_file, read_text_file, read_user_file

__all__ = ["MAX_BYTES", "decode_text", "read_deck_file", "read_text_file", "read_user_file"]
