"""A Cockatrice picture whose card name is no safe URL path is put on the site under its card's stem, as the
faces are, and the database's picurl names it there; plain names keep the exported file name."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import card_stems
from carddb.exporters.cockatrice.database import CardEntry, PrintingEntry, SetEntry, write_database
from carddb.exporters.cockatrice.mapping import picture_path
from carddb.exporters.output import MARKER
from carddb.site.client_files import game_clients

SITE = "https://cards.example.org/fan/"


def test_an_unsafe_card_name_is_named_by_its_stem_on_the_site(tmp_path: Path) -> None:
    game = SimpleNamespace(id="demo", name="Demo", lackey={})
    names = ["Plain Card", "Flabébé #2 & 100%"]
    cards = [Card(game="demo", name=name, kind="unit") for name in names]
    folder = tmp_path / "cockatrice" / "demo"
    (folder / "customsets").mkdir(parents=True)
    (folder / MARKER).write_text("{}", encoding="utf-8")
    entries = []
    for number, name in enumerate(names, 1):
        picture = picture_path(name, "DEMO-BASE", str(number))
        assert picture is not None
        (folder / picture).parent.mkdir(parents=True, exist_ok=True)
        (folder / picture).write_bytes(f"picture {number}".encode())
        entries.append(CardEntry(name=name, text="", printings=[PrintingEntry(set="DEMO-BASE", num=str(number))]))
    (folder / "customsets" / "carddb-demo.xml").write_bytes(write_database(
        [SetEntry(name="DEMO-BASE", longname="Demo: base")], entries, author="me", created="2026-01-01",
        source="test"))

    found = game_clients(tmp_path, game, cards, SITE)  # type: ignore[arg-type]

    stem = card_stems(c.key for c in cards)[cards[1].key]
    base = "clients/demo/cockatrice"
    unsafe_site_path = f"{base}/pics/CUSTOM/DEMO-BASE/{stem}_DEMO-BASE_2.jpg"
    plain_site_path = f"{base}/pics/CUSTOM/DEMO-BASE/Plain Card_DEMO-BASE_1.jpg"
    assert found.copies[unsafe_site_path].read_bytes() == b"picture 2"
    assert found.copies[plain_site_path].read_bytes() == b"picture 1"
    assert not any("#" in path or "é" in path or "%" in path for path in found.copies)
    database = found.data[f"{base}/customsets/carddb-demo.xml"].decode("utf-8")
    assert f'picurl="{SITE}{quote(unsafe_site_path)}"' in database
    assert f'picurl="{SITE}{quote(plain_site_path)}"' in database
    assert set(found.offered) == {"cockatrice"}
    # The rest of the database is the export's: it still reads, each name as it was, a picurl on every printing.
    from xml.etree import ElementTree as ET

    read = ET.fromstring(database.encode("utf-8"))
    assert [card.findtext("name") for card in read.iter("card")] == names
    assert all(printing.get("picurl") for printing in read.iter("set") if printing.get("num"))
    assert database.replace(f' picurl="{SITE}{quote(unsafe_site_path)}"', "").replace(
        f' picurl="{SITE}{quote(plain_site_path)}"', "") == (folder / "customsets" / "carddb-demo.xml").read_text(
        encoding="utf-8")
