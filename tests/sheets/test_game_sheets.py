"""``print_game_sheets``: what ``carddb build`` prints for a game."""

from __future__ import annotations

from pypdf import PdfReader

from carddb.paint.print_job import print_game_sheets


def test_a_game_prints_its_sample_decks_once_each_and_a_sheet_of_every_card(workspace, catalogue, tmp_path):
    said: list[str] = []
    results = print_game_sheets(workspace, catalogue, "minibattle", tmp_path, say=said.append)
    names = sorted(p.name for p in (tmp_path / "minibattle").glob("*.pdf"))
    assert names == ["legal-basics-without-babies.pdf", "legal-charizard-line.pdf", "legal-mewtwo-level-200.pdf",
                     "legal-pikachu-line.pdf", "legal-warn-evolution-line-missing-stage-1.pdf",
                     "minibattle-all-cards.pdf"]
    assert said == []
    every = results[-1].report
    assert (every.cards, every.backs) == (67, 67)  # minibattle has a card back: duplex long-edge
    assert len(PdfReader(tmp_path / "minibattle" / "legal-charizard-line.pdf").pages) == 4
    assert all(not r.not_printed for r in results)
