"""How ReportLab writes every PDF of carddb: its content encoded to bytes without a codec lookup a character where
the text is plain ASCII.

ReportLab turns every content stream into bytes with its PDFDocEncoding codec, a hundred times slower than ASCII's;
for text of printable ASCII (all of a face's drawing but its words) both give the same bytes, so the PDF is the
same. The switch is made once, on import of this module; every module that makes a ReportLab canvas imports it.

The streams stay deflated by zlib, not by the quicker libdeflate the PNG faces use: the site's print panel runs
this code in the browser (Pyodide has no libdeflate) and must give the bytes of ``carddb print``.
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.pdfbase import pdfdoc

#: The ASCII characters PDFDocEncoding does not map to themselves (it has no code for them).
_NOT_PLAIN = re.compile("[\x18-\x1f]")


def _pdfdoc_bytes(text: Any, _slow: Any = pdfdoc.pdfdocEnc) -> Any:
    if isinstance(text, str) and text.isascii() and not _NOT_PLAIN.search(text):
        return text.encode("ascii")
    return _slow(text)


if pdfdoc.pdfdocEnc is not _pdfdoc_bytes:
    pdfdoc.pdfdocEnc = _pdfdoc_bytes
