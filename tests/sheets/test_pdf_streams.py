"""carddb's PDFs are written with a quick ASCII path for content streams (``carddb.paint.pdf_streams``): it must
give what ReportLab's own codec gives, so a reader sees the same PDF."""

from __future__ import annotations

import random
import zlib
from pathlib import Path
from typing import Any

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


@pytest.mark.parametrize("text", ["q 1 0 0 1 0 0 cm Q\n", "0.5 g " * 2000, ("BT (Café) Tj ET\n" * 600).encode()])
def test_a_stream_is_deflated_as_zlib_deflates_it(text: str | bytes) -> None:
    """Small or large, text or bytes, remembered or not: the bytes ReportLab's own filter writes."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    assert pdf_streams.deflate(text) == zlib.compress(data)
    assert pdf_streams.deflate(text) == zlib.compress(data)  # the second time from the memo
    assert pdfdoc.PDFZCompress.encode(text) == zlib.compress(data)


def test_a_face_is_deflated_once_in_a_build_and_the_pdf_is_the_same(
        tmp_path: Path, repo_root: Path, catalogue: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's face, printed again by another process of the same build's cache (the memo emptied), is not
    deflated again, and the PDF is the same, byte for byte, as the one whose streams were all deflated afresh."""
    from carddb.incremental import remember_in
    from carddb.paint.print_job import print_cards
    from carddb.paint.print_options import PrintOptions

    large: list[int] = []

    def counted(data: bytes) -> bytes:
        if len(data) >= pdf_streams.REMEMBERED_FROM:
            large.append(len(data))
        return zlib.compress(data)

    monkeypatch.setattr(pdf_streams, "_compress", counted)
    game, cards = catalogue.game("shmod"), catalogue.cards("shmod")[:9]
    printed = []
    for run in ("first", "again"):
        pdf_streams._deflated.clear()  # as a new process would start
        large.clear()
        (tmp_path / run).mkdir()
        with remember_in(tmp_path / "cache", prune=False):
            result = print_cards(repo_root, game, cards, tmp_path / run / "sheet.pdf", PrintOptions(), title="nine")
        printed.append((result.report.files[0].read_bytes(), len(large)))
    (first, deflated_first), (again, deflated_again) = printed
    assert deflated_first >= len(cards)  # every face's drawing is a large stream, deflated the first time
    assert deflated_again == 0
    assert again == first
    assert any(entry.stat().st_size > 0 for entry in (tmp_path / "cache").iterdir())
