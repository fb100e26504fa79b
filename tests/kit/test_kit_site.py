"""The site offers each game's print-and-play kit on the game's rulebook page: those ``carddb build`` left in
``output/kit/``, or those the build's kit step is about to make (it runs after the site); a game whose kit was
neither made nor promised gets no box. The kits are linked into the built site, never part of its pages' keys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from carddb.site.build import generate_content
from carddb.site.kit_files import kit_file, link_kits, publish_kits

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # generates two games' pages
def test_the_rulebook_page_links_the_kits_the_build_made_or_promised(tmp_path, catalogue):
    exports = tmp_path / "output"
    made = kit_file(exports / "kit", "minibattle", "Letter")
    made.parent.mkdir(parents=True)
    made.write_bytes(b"%PDF-1.4 a kit\n" * 80_000)
    content = generate_content(REPO, catalogue, ["minibattle", "shmod"], exports_dir=exports)
    page = content.pages["games/minibattle/rulebook.md"]
    assert page.startswith("# Pokemon Mini-Battle Card Game\n\n!!! tip \"Print-and-play kit\"\n")
    assert '<a href="../../../downloads/minibattle/minibattle-kit-letter.pdf" download>Letter paper (PDF)</a>' in page
    assert "-a4.pdf" not in page  # no A4 kit was made
    assert content.kits == {"downloads/minibattle/minibattle-kit-letter.pdf": made}
    assert not any(path.startswith("downloads/") for path in content.copies)  # no file of MkDocs': linked after
    assert "Print-and-play kit" not in content.pages["games/shmod/rulebook.md"]

    promised = generate_content(REPO, catalogue, ["minibattle", "shmod"], exports_dir=exports,
                                kits_promised=["shmod"]).pages["games/shmod/rulebook.md"]
    assert ('<a href="../../../downloads/shmod/shmod-kit-a4.pdf" download>A4 paper (PDF)</a> · '
            '<a href="../../../downloads/shmod/shmod-kit-letter.pdf" download>Letter paper (PDF)</a>') in promised


def test_the_kits_are_linked_into_the_site_each_replaced_whole(tmp_path):
    kits, site = tmp_path / "output" / "kit", tmp_path / "output" / "site"
    publish_kits(site, kits, "shmod")
    assert not site.exists()  # no site yet: nothing to offer them on
    (site / "downloads" / "shmod").mkdir(parents=True)
    (site / "index.html").write_text("<html></html>")
    a4 = kit_file(kits, "shmod", "A4")
    a4.parent.mkdir(parents=True)
    a4.write_bytes(b"%PDF-1.4 first\n")
    served = site / "downloads" / "shmod" / "shmod-kit-a4.pdf"
    served.write_bytes(b"%PDF-1.4 an older kit\n")
    publish_kits(site, kits, "shmod")
    assert served.read_bytes() == b"%PDF-1.4 first\n"
    assert not (site / "downloads" / "shmod" / "shmod-kit-letter.pdf").exists()  # not made: nothing linked
    held = os.stat(served)
    link_kits(site, {"downloads/shmod/shmod-kit-a4.pdf": a4})
    assert os.stat(served).st_ino == held.st_ino  # the same file: left as it is
    a4.unlink()
    a4.write_bytes(b"%PDF-1.4 second\n")  # the kit step replaces a kit whole
    publish_kits(site, kits, "shmod")
    assert served.read_bytes() == b"%PDF-1.4 second\n"
    assert sorted(p.name for p in served.parent.iterdir()) == ["shmod-kit-a4.pdf"]  # no staged file left
