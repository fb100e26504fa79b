"""Lackey's checksum: the values the samples' README lists (kept here as facts), our own files in Lackey's
shapes, and, where ``../shared/samples`` is there, the real files and the real updatelists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from carddb.exporters.lackey.checksum import file_checksum, lackey_checksum

FIXTURES = Path(__file__).parent / "fixtures" / "lackey"
RENAMED = {"decks/Amber_&_Amethyst_tfc.dek": "decks/Amber_and_Amethyst_tfc.dek"}  # the README says so

#: The samples' README (``shared/samples/lackey/README.md``): each sample file's size and the checksum that
#: Lackey (or its users' ``/mkupdate``) wrote for it. The values marked there as in a real updatelist are the
#: ones Lackey's users published; the others were computed by the research with the same algorithm.
README_FACTS: dict[str, tuple[int, int]] = {
    "lackey-example/plugininfo.txt": (4848, 447757),
    "lackey-example/pluginpreferences.txt": (3494, 311841),
    "lackey-example/version.txt": (314, 29870),
    "lackey-example/formats.txt": (237, 19676),
    "lackey-example/CardImageUrls1.txt": (637, 61640),
    "lackey-example/packs/packdefinitions1.xml": (2051, 177503),
    "lackey-example/sets/carddata.txt": (729, 58233),
    "lackey-example/decks/sample.dek": (954, 80453),
    "lackey-example/updatelist.txt": (2553, 241947),
    "ccglorcana/plugininfo.txt": (3411, 312065),
    "ccglorcana/version.txt": (321, 29618),
    "ccglorcana/decks/Amber_and_Amethyst_tfc.dek": (8499, 669987),
    "ccglorcana/updatelist.txt": (3166, 286657),
    "ccglorcana/sets/carddata.head21.txt": (4765, 387049),
    "ccglorcana/packdefinitions1.head40.xml": (1221, 99498),
    "vtes/plugininfo.txt": (4473, 403842),
    "vtes/version.txt": (271, 24178),
    "vtes/uninstall.txt": (208, 19462),
    "vtes/decks/Precon_Brujah_V5.txt": (596, 48551),
    "vtes/sets/allsets.head21.txt": (3357, 287262),
    "vtes/sets/tokens.head6.txt": (1007, 88435),
    "vtes/formats.head48.txt": (902, 64966),
    "vtes/updatelist.excerpt.txt": (2104, 191168),
}


def test_checksum_properties():
    assert lackey_checksum(b"") == -1
    assert lackey_checksum(b"a\r\nb\n") == lackey_checksum(b"ab") == 97 + 98 - 1
    assert lackey_checksum(b"\xff") == -2  # bytes are signed
    # the running value wraps by C's truncating remainder: 10^8 / 127 bytes of 0x7f pass the modulus once
    n = 100_000_000 // 127 + 10
    assert lackey_checksum(b"\x7f" * n) == (127 * n) % 100_000_000 - 1
    # a negative running value wraps towards zero too: C's remainder keeps the dividend's sign
    assert lackey_checksum(b"\x80" * 781_260) == -((128 * 781_260) % 100_000_000) - 1



def _by_the_definition(data: bytes) -> int:
    """research/lackey.md's definition, byte by byte: the reference the quick sums must match."""
    value = 0
    for byte in data:
        if byte not in (10, 13):
            value += byte - 256 if byte > 127 else byte
            value = abs(value) % 100_000_000 * (1 if value >= 0 else -1)
    value -= 1
    return abs(value) % 100_000_000 * (1 if value >= 0 else -1)


@pytest.mark.parametrize("size", [1, 255, 256, 65_519, 65_520, 65_521, 65_536, 200_003])
def test_checksum_equals_the_byte_by_byte_definition(size):
    """Images of any size and bytes (JPEGs are mostly bytes above 127), summed a chunk at a time."""
    import random

    rng = random.Random(size)
    for data in (rng.randbytes(size), bytes(rng.choice((0x7F, 0x80, 0xFF, 10, 13)) for _ in range(size)),
                 b"\xff" * size, b"\x7f" * size):
        assert lackey_checksum(data) == _by_the_definition(data)

@pytest.mark.parametrize(("name", "expected"), [("carddata-cr.txt", 22957), ("carddata-crlf.txt", 22957),
                                                ("plugininfo.txt", 29446), ("fixture.dek", 52012)])
def test_checksum_of_our_files_in_lackeys_shapes(name, expected):
    """CR-only (classic Mac), CRLF and mixed endings: line ends never count, so the same rows give one value."""
    data = (FIXTURES / name).read_bytes()
    assert file_checksum(FIXTURES / name) == expected == sum(data.translate(None, b"\r\n")) - 1


@pytest.mark.samples
def test_readme_lists_every_sample_file_with_our_facts(samples):
    lackey = samples / "lackey"
    rows = {}
    for line in (lackey / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"-?\d+", cells[4]):
            rows[cells[0]] = (int(cells[1]), int(cells[4]))
    on_disk = {p.relative_to(lackey).as_posix() for p in lackey.rglob("*") if p.is_file() and p.name != "README.md"}
    assert set(rows) == on_disk
    assert rows == README_FACTS


@pytest.mark.samples
@pytest.mark.parametrize(("name", "expected"), sorted(README_FACTS.items()))
def test_checksum_of_each_sample_matches_readme(samples, name, expected):
    path = samples / "lackey" / name
    assert (path.stat().st_size, file_checksum(path)) == expected


@pytest.mark.samples
@pytest.mark.parametrize("plugin", ["lackey-example", "ccglorcana"])
def test_checksum_matches_real_updatelist_entries(samples, plugin):
    """Where a real updatelist.txt lists a file we hold whole, our value is the one Lackey's users published."""
    lackey = samples / "lackey"
    checked = 0
    for line in (lackey / plugin / "updatelist.txt").read_text().splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) != 3:
            continue
        relative = parts[0].split("/", 2)[2]
        local = lackey / plugin / RENAMED.get(relative, relative)
        if local.is_file():
            assert file_checksum(local) == int(parts[2]), parts[0]
            checked += 1
    assert checked == {"lackey-example": 7, "ccglorcana": 3}[plugin]
