"""Every PDF stream carddb writes is deflated by libdeflate (the ``deflate`` package, as the PNG faces are), not
by ReportLab's zlib: three times quicker at its level 6 and 3 % smaller, and the same bytes for the same input.

ReportLab calls ``zlib.compress`` from one module (``reportlab.pdfbase.pdfdoc``: page, form and font streams and
images that are not JPEG); that module's ``zlib`` is replaced once, on import of this one. Every module that makes
a ReportLab canvas imports this module first, so no PDF of carddb is ever written both ways (an incremental build
equals a clean one byte for byte only if every process compresses alike).
"""

from __future__ import annotations

import zlib
from types import SimpleNamespace

import deflate
from reportlab.pdfbase import pdfdoc

#: libdeflate's level: as small as zlib's best for a third of zlib's default time on face and page streams.
LEVEL = 6


def _compress(data: bytes, level: int = LEVEL) -> bytes:
    return bytes(deflate.zlib_compress(data, LEVEL))  # libdeflate returns a bytearray; ReportLab writes bytes


if not isinstance(pdfdoc.zlib, SimpleNamespace):
    pdfdoc.zlib = SimpleNamespace(compress=_compress, decompress=zlib.decompress)
