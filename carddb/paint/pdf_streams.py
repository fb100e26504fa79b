"""How ReportLab writes every PDF of carddb: its content encoded to bytes without a codec lookup a character where
the text is plain ASCII, and each large stream deflated once.

ReportLab turns every content stream into bytes with its PDFDocEncoding codec, a hundred times slower than ASCII's;
for text of printable ASCII (all of a face's drawing but its words) both give the same bytes, so the PDF is the
same.

A card's face is a form of 30 to 70 kB of drawing, the same in every PDF that holds the card (a deck's fronts and
duplex sheets, its kit prints, the sheet of every card), and deflating it was a quarter of a PDF's time. zlib gives
the same bytes for the same input, so a stream is deflated once and its result remembered by the digest of its
bytes: for the life of the process and, within a build, in the build's cache (``carddb.incremental.remembered``),
so that a build after one changed card deflates only that card's forms and the pages around them. The PDF is the
same, byte for byte, as one deflated afresh.

The streams stay deflated by zlib, not by the quicker libdeflate the PNG faces use: the site's print panel runs
this code in the browser (Pyodide has no libdeflate) and must give the bytes of ``carddb print``.

Both switches are made once, on import of this module; every module that makes a ReportLab canvas imports it.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from typing import Any

from reportlab.pdfbase import pdfdoc

from carddb.incremental import Memo, remembered

#: The ASCII characters PDFDocEncoding does not map to themselves (it has no code for them).
_NOT_PLAIN = re.compile("[\x18-\x1f]")
#: Streams shorter than this are deflated every time: a page's few placements cost less to deflate than to look up.
REMEMBERED_FROM = 4096
#: What a remembered stream's key is salted with: the zlib that made it (another version may deflate otherwise).
_SALT = f"carddb pdf stream, FlateDecode by zlib {zlib.ZLIB_RUNTIME_VERSION}\n".encode("ascii")
#: The deflated forms of the cards a process prints (a few hundred: a deck's, or a volume of the sheet of every card).
_deflated: Memo[str, bytes] = Memo(512)
_compress = zlib.compress  # looked up at each call (a test counts the calls)


def _pdfdoc_bytes(text: Any, _slow: Any = pdfdoc.pdfdocEnc) -> Any:
    if isinstance(text, str) and text.isascii() and not _NOT_PLAIN.search(text):
        return text.encode("ascii")
    return _slow(text)


def deflate(text: str | bytes) -> bytes:
    """``zlib.compress`` as ReportLab's FlateDecode filter calls it (text as UTF-8), remembered for large streams."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if len(data) < REMEMBERED_FROM:
        return _compress(data)
    key = hashlib.sha256(_SALT + data).hexdigest()
    return remembered(key, lambda: _compress(data), memo=_deflated)


def _filter_encode(_filter: Any, text: str | bytes) -> bytes:
    return deflate(text)


if pdfdoc.pdfdocEnc is not _pdfdoc_bytes:
    pdfdoc.pdfdocEnc = _pdfdoc_bytes
    pdfdoc.PDFStreamFilterZCompress.encode = _filter_encode  # type: ignore[method-assign]
