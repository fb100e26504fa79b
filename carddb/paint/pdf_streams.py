"""How ReportLab writes every PDF of carddb: its streams deflated by libdeflate (the ``deflate`` package, as the PNG
faces are), and its content encoded to bytes without a codec lookup a character where the text is plain ASCII.

- ReportLab deflates with ``zlib.compress``; libdeflate at its level 6 takes a third of that time, its output is
  3 % smaller, and it is the same bytes for the same input. ReportLab calls zlib from one module
  (``reportlab.pdfbase.pdfdoc``: page, form and font streams, images that are not JPEG), whose ``zlib`` is replaced.
- ReportLab turns every content stream into bytes with its PDFDocEncoding codec, a hundred times slower than
  ASCII's; for text of printable ASCII (all of a face's drawing but its words) both give the same bytes.

Both are set once, on import of this module. Every module that makes a ReportLab canvas imports it first, so no PDF
of carddb is ever written both ways (an incremental build equals a clean one byte for byte only if every process
writes alike).
"""

from __future__ import annotations

import re
import zlib
from types import SimpleNamespace
from typing import Any

import deflate
from reportlab.pdfbase import pdfdoc

#: libdeflate's level: as small as zlib's best for a third of zlib's default time on face and page streams.
LEVEL = 6
#: The ASCII characters PDFDocEncoding does not map to themselves (it has no code for them).
_NOT_PLAIN = re.compile("[\x18-\x1f]")


def _compress(data: bytes, level: int = LEVEL) -> bytes:
    return bytes(deflate.zlib_compress(data, LEVEL))  # libdeflate returns a bytearray; ReportLab writes bytes


def _pdfdoc_bytes(text: Any, _slow: Any = pdfdoc.pdfdocEnc) -> Any:
    if isinstance(text, str) and text.isascii() and not _NOT_PLAIN.search(text):
        return text.encode("ascii")
    return _slow(text)


if not isinstance(pdfdoc.zlib, SimpleNamespace):
    pdfdoc.zlib = SimpleNamespace(compress=_compress, decompress=zlib.decompress)
    pdfdoc.pdfdocEnc = _pdfdoc_bytes
