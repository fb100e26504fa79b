"""The site hosts every online client's files: a small workspace is built by ``carddb build`` for the address of
a server on 127.0.0.1, served there, and every URL in every client file is fetched back from it (200, and the
bytes of the file it names); LackeyCCG's checksums are those of the served files."""

from __future__ import annotations

import json
import threading
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from carddb.app.build import build
from carddb.catalogue.api import open_catalogue
from carddb.errors import InputError
from carddb.exporters.lackey.checksum import lackey_checksum
from carddb.exporters.lackey.reader import read_updatelist
from carddb.exporters.published import check_site_url
from carddb.exporters.tts.reader import card_cells
from carddb.site.serve import make_server, server_url
from carddb.workspace import Workspace
from tests.test_incremental import assert_same_as_clean, change_card, small_workspace

pytestmark = pytest.mark.slow
GAME = "minibattle"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = small_workspace(tmp_path_factory.mktemp("clients"))
    out = root / "output" / "site"
    out.mkdir(parents=True)
    server = make_server(out, "127.0.0.1", 0)
    url = server_url(server)
    report = build(Workspace(root), open_catalogue(str(root / "output" / "catalogue.db"), str(root)), site_url=url)
    assert not report.failures, report.failures
    # 127.0.0.1 is this machine: the build says so once (not once a game or a client)
    assert sum("other players will not see the images" in line for line in report.warnings) == 1, report.warnings
    assert not any("other players will not see the images" in line for line in report.lines)  # a warning, not a step
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, url
    server.shutdown()
    server.server_close()


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:  # our own server, on 127.0.0.1
        assert answer.status == 200, url
        return answer.read()


def clients(root: Path) -> Path:
    return root / "output" / "site" / "clients" / GAME


def on_site(root: Path, url: str, site_url: str) -> Path:
    from urllib.parse import unquote

    assert url.startswith(site_url), f"{url} is not on the site {site_url}"
    return root / "output" / "site" / unquote(url[len(site_url):])


def test_every_tts_image_url_answers_with_the_sheet_on_the_site(served: tuple[Path, str]) -> None:
    root, site_url = served
    saved = sorted((clients(root) / "tts").glob("*.json"))
    assert saved, "no saved object on the site"
    urls = set()
    for path in saved:
        data = json.loads(path.read_text(encoding="utf-8"))
        for deck in [data["ObjectStates"][0], *data["ObjectStates"][0].get("ContainedObjects", [])]:
            for sheet in deck.get("CustomDeck", {}).values():
                urls |= {sheet["FaceURL"], sheet["BackURL"]}
        cells = list(card_cells(path, clients(root) / "tts", site_url + f"clients/{GAME}/tts"))
        assert cells and all(cell.sheet.is_file() for cell in cells)
    assert urls
    for url in sorted(urls):
        assert fetch(url) == on_site(root, url, site_url).read_bytes()
    # the export in output/tts keeps working on this machine alone
    exported = next((root / "output" / "tts" / GAME).glob("*/*.json")).read_text(encoding="utf-8")
    assert '"FaceURL": "file:///' in exported


def test_lackey_installs_from_the_updatelist_url_with_matching_checksums(served: tuple[Path, str]) -> None:
    root, site_url = served
    plugin = next(p for p in (clients(root) / "lackey").iterdir() if p.is_dir())
    updatelist_url = site_url + f"clients/{GAME}/lackey/{plugin.name}/updatelist.txt"
    (name, _day), files, sections = read_updatelist(fetch(updatelist_url).decode("utf-8"))
    assert name == plugin.name
    local = {path for path, _, _ in files}
    assert f"plugins/{plugin.name}/plugininfo.txt" in local and f"plugins/{plugin.name}/version.txt" in local
    assert any("/sets/setimages/" in path for path in local)
    for path, url, checksum in files:
        served_bytes = fetch(url)
        assert lackey_checksum(served_bytes) == checksum, url
        assert served_bytes == (plugin / path.removeprefix(f"plugins/{plugin.name}/")).read_bytes()
    for folder in sections.get("CardGeneralURLs", []):
        assert folder.startswith(site_url + f"clients/{GAME}/lackey/{plugin.name}/sets/setimages/")
    version = fetch(site_url + f"clients/{GAME}/lackey/{plugin.name}/version.txt").decode()
    assert f"<updateurl>{updatelist_url}</updateurl>" in version
    with zipfile.ZipFile(plugin.parent / f"{plugin.name}.zip") as archive:
        assert f"{plugin.name}/updatelist.txt" in archive.namelist()


def test_every_cockatrice_picture_url_answers_with_its_picture(served: tuple[Path, str]) -> None:
    root, site_url = served
    database = fetch(site_url + f"clients/{GAME}/cockatrice/customsets/carddb-{GAME}.xml")
    printings = list(ET.fromstring(database).iter("set"))
    urls = [printing.get("picurl") for printing in printings if printing.get("num") is not None]
    assert urls and all(urls), "a printing without picurl"
    for url in urls:
        picture = fetch(url)
        assert picture[:3] == b"\xff\xd8\xff"  # a JPEG
        assert picture == on_site(root, url, site_url).read_bytes()


def test_the_apprentice_patch_is_a_zip_of_the_export(served: tuple[Path, str]) -> None:
    root, site_url = served
    patch = fetch(site_url + f"clients/{GAME}/apprentice/{GAME}-apprentice.zip")
    exported = root / "output" / "apprentice" / GAME
    import io

    with zipfile.ZipFile(io.BytesIO(patch)) as archive:
        names = archive.namelist()
        assert "Expan.dat" in names
        assert archive.read("Expan.dat") == (exported / "Expan.dat").read_bytes()


def test_the_play_online_page_offers_each_client(served: tuple[Path, str]) -> None:
    _root, site_url = served
    html = fetch(site_url + f"games/{GAME}/online/").decode("utf-8")
    for heading in ("Tabletop Simulator", "LackeyCCG", "Cockatrice", "Apprentice", "Print shops"):
        assert f">{heading}<" in html
    assert f'value="{site_url}clients/{GAME}/lackey/' in html
    assert "other players will not see the images" in html  # 127.0.0.1 is no published address
    for href in ("../../../clients/minibattle/cockatrice/customsets/carddb-minibattle.xml",
                 f"../../../clients/{GAME}/apprentice/{GAME}-apprentice.zip"):
        assert f'href="{href}"' in html
        fetch(site_url + href.removeprefix("../../../"))


def test_a_changed_card_changes_the_client_files_as_a_clean_build_would(served: tuple[Path, str]) -> None:
    root, site_url = served
    before = (clients(root) / "cockatrice" / "customsets" / f"carddb-{GAME}.xml").read_bytes()
    change_card(root, "Pikachu", text="A changed card text for the clients.")
    report = build(Workspace(root), open_catalogue(str(root / "output" / "catalogue.db"), str(root)),
                   site_url=site_url)
    assert not report.failures
    after = (clients(root) / "cockatrice" / "customsets" / f"carddb-{GAME}.xml").read_bytes()
    assert before != after and b"A changed card text for the clients." in after
    assert_same_as_clean(root, site_url=site_url)


@pytest.mark.parametrize("bad", ["ftp://example.org/", "https://example.org/?x=1", "https://example.org/#top",
                                 "https://user:secret@example.org/", "example.org", "https://exa mple.org/"])
def test_a_bad_site_url_is_refused_in_one_line(bad: str) -> None:
    with pytest.raises(InputError) as refused:
        check_site_url(bad)
    assert "\n" not in str(refused.value) and "site_url" in str(refused.value)


def test_a_plain_site_url_gets_one_trailing_slash() -> None:
    assert check_site_url("https://cards.example.org/fan") == "https://cards.example.org/fan/"


def test_build_takes_the_published_address_and_refuses_a_bad_one(tmp_path: Path) -> None:
    """``carddb build --site-url``: a bad address is one ``Error:`` line, exit 2, before anything is written; a
    published one is where the client files point."""
    from typer.testing import CliRunner

    from carddb.cli.main import app

    root = small_workspace(tmp_path)
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    run = CliRunner().invoke(app, ["--root", str(root), "build", "--site-url", "https://me:pw@example.org/"])
    assert run.exit_code == 2
    assert run.stderr.splitlines() == ["Error: site_url 'https://me:***@example.org/' carries credentials; give "
                                       "the site's address without them"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before
    run = CliRunner().invoke(app, ["--root", str(root), "--quiet", "build", "--site-url",
                                   "https://cards.example.org/fan/"])
    assert run.exit_code == 0, run.stderr
    saved = json.loads(next((clients(root) / "tts").rglob("*.json")).read_text(encoding="utf-8"))
    assert "https://cards.example.org/fan/clients/minibattle/tts/" in json.dumps(saved)
