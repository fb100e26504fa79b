"""Lackey's checksum against every value the samples' README lists and the real updatelists hold."""

from __future__ import annotations

import re

import pytest

from carddb.exporters.lackey.checksum import file_checksum, lackey_checksum

from .conftest import SAMPLES

LACKEY = SAMPLES / "lackey"
RENAMED = {"decks/Amber_&_Amethyst_tfc.dek": "decks/Amber_and_Amethyst_tfc.dek"}  # the README says so


def readme_rows() -> list[tuple[str, int]]:
    rows = []
    for line in (LACKEY / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"-?\d+", cells[4]):
            rows.append((cells[0], int(cells[4])))
    return rows


def test_readme_lists_every_sample_file():
    listed = {name for name, _ in readme_rows()}
    on_disk = {p.relative_to(LACKEY).as_posix() for p in LACKEY.rglob("*") if p.is_file() and p.name != "README.md"}
    assert listed == on_disk
    assert len(listed) == 23


@pytest.mark.parametrize(("name", "expected"), readme_rows())
def test_checksum_of_each_sample_matches_readme(name, expected):
    assert file_checksum(LACKEY / name) == expected


@pytest.mark.parametrize("plugin", ["lackey-example", "ccglorcana"])
def test_checksum_matches_real_updatelist_entries(plugin):
    """Where a real updatelist.txt lists a file we hold whole, our value is the one Lackey's users published."""
    checked = 0
    for line in (LACKEY / plugin / "updatelist.txt").read_text().splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) != 3:
            continue
        relative = parts[0].split("/", 2)[2]
        local = LACKEY / plugin / RENAMED.get(relative, relative)
        if local.is_file():
            assert file_checksum(local) == int(parts[2]), parts[0]
            checked += 1
    assert checked == {"lackey-example": 7, "ccglorcana": 3}[plugin]


def test_checksum_properties():
    assert lackey_checksum(b"") == -1
    assert lackey_checksum(b"a\r\nb\n") == lackey_checksum(b"ab") == 97 + 98 - 1
    assert lackey_checksum(b"\xff") == -2  # bytes are signed
    # the running value wraps by C's truncating remainder: 10^8 / 127 bytes of 0x7f pass the modulus once
    n = 100_000_000 // 127 + 10
    assert lackey_checksum(b"\x7f" * n) == (127 * n) % 100_000_000 - 1
