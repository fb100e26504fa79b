"""The site offers each game's print-and-play kit, as ``carddb build`` left it in ``output/kit/``, on the game's
rulebook page; a game whose kit was not made gets no box."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb.site.build import generate_content
from carddb.site.kit_files import kit_file

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # generates two games' pages
def test_the_rulebook_page_links_the_kits_the_build_made(tmp_path, catalogue):
    exports = tmp_path / "output"
    made = kit_file(exports / "kit", "minibattle", "Letter")
    made.parent.mkdir(parents=True)
    made.write_bytes(b"%PDF-1.4 a kit\n" * 80_000)
    content = generate_content(REPO, catalogue, ["minibattle", "shmod"], exports_dir=exports)
    page = content.pages["games/minibattle/rulebook.md"]
    assert page.startswith("# Pokemon Mini-Battle Card Game\n\n!!! tip \"Print-and-play kit\"\n")
    assert ('<a href="../../../downloads/minibattle/minibattle-kit-letter.pdf" download>Letter paper (PDF, 1.1 MB)'
            '</a>') in page
    assert "-a4.pdf" not in page  # no A4 kit was made
    assert content.copies["downloads/minibattle/minibattle-kit-letter.pdf"] == made
    assert "Print-and-play kit" not in content.pages["games/shmod/rulebook.md"]
