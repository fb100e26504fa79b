"""carddb's PDFs are written with a quick ASCII path for content streams (``carddb.paint.pdf_streams``): it must
give what ReportLab's own codec gives, so a reader sees the same PDF."""

from __future__ import annotations

import random

import pytest
from reportlab.pdfbase import pdfdoc, rl_codecs

from carddb.paint import pdf_streams


def _codec(text: str) -> bytes:
    return text.encode("extpdfdoc")


@pytest.mark.parametrize("seed", range(20))
def test_content_bytes_are_the_pdfdoc_codecs(seed: int) -> None:
    rl_codecs.RL_Codecs.register()
    rng = random.Random(seed)
    alphabet = [chr(i) for i in range(128)] + ["é", "€", "—", "ß"]
    text = "".join(rng.choice(alphabet if seed % 2 else alphabet[32:127]) for _ in range(rng.randrange(1, 400)))
    try:
        expected: bytes | type[Exception] = _codec(text)
    except UnicodeEncodeError:
        expected = UnicodeEncodeError
    if expected is UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            pdf_streams._pdfdoc_bytes(text)
    else:
        assert pdf_streams._pdfdoc_bytes(text) == expected
    assert pdfdoc.pdfdocEnc is pdf_streams._pdfdoc_bytes
