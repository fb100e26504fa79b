"""A game's client files are kept between site builds while their inputs are unchanged, and made again when
an export is written again or an entry of the cache is damaged; what is kept is what would be made."""

from __future__ import annotations

from pathlib import Path

import pytest

from carddb import incremental
from carddb.app.build import build
from carddb.catalogue.api import Catalogue, open_catalogue
from carddb.core.game.definition import GameDefinition
from carddb.incremental import MANIFEST, remember_in
from carddb.site import client_cache
from carddb.site.client_cache import pack, remembered_clients, unpack
from carddb.site.client_files import GameClients, game_clients
from carddb.workspace import Workspace
from tests.test_incremental import small_workspace

pytestmark = pytest.mark.slow
GAME = "minibattle"
SITE = "https://example.org/play/"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Catalogue]:
    root = small_workspace(tmp_path_factory.mktemp("cache"))
    catalogue = open_catalogue(str(root / "output" / "catalogue.db"), str(root))
    report = build(Workspace(root), catalogue, skip=["sheets", "site"])
    assert not report.failures, report.failures
    return root, catalogue


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games whose client files were made (not taken from the cache), with the process memo emptied, as in
    a new ``carddb build``."""
    made: list[str] = []

    def counting(exports, game, cards, site_url, store=None):  # type: ignore[no-untyped-def]
        made.append(game.id)
        return game_clients(exports, game, cards, site_url, store)

    monkeypatch.setattr(client_cache, "game_clients", counting)
    incremental._remembered.clear()
    return made


def first_made(exported: tuple[Path, Catalogue], cache: Path) -> tuple[Path, GameDefinition, list, GameClients]:
    """The exports' folder, the game, its cards and its client files as a first build makes them into ``cache``."""
    root, catalogue = exported
    game, cards = catalogue.game(GAME), catalogue.cards(GAME)
    with remember_in(cache):
        first = remembered_clients(root / "output", game, cards, SITE)
    return root / "output", game, cards, first


def files(clients: GameClients) -> dict[str, bytes]:
    """What the site holds of ``clients``: each file's bytes, made or copied."""
    return {**clients.data, **{path: source.read_bytes() for path, source in clients.copies.items()}}


def test_the_packed_client_files_read_back_the_same_and_a_damaged_entry_is_refused(exported) -> None:  # type: ignore[no-untyped-def]
    root, catalogue = exported
    clients = game_clients(root / "output", catalogue.game(GAME), catalogue.cards(GAME), SITE)
    assert clients.data and clients.copies and clients.offered  # a real game's: zips, rewritten objects, images
    packed = pack(clients)
    assert unpack(packed) == clients
    assert unpack(packed[:-1]) is None
    assert unpack(packed[:100] + bytes([packed[100] ^ 1]) + packed[101:]) is None
    assert unpack(b"") is None


def test_a_second_build_takes_them_from_the_cache_until_an_export_changes(exported, counted, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out, game, cards, first = first_made(exported, tmp_path / "cache")
    incremental._remembered.clear()  # another process
    with remember_in(tmp_path / "cache"):
        again = remembered_clients(out, game, cards, SITE)
    assert counted == [GAME] and again == first

    # the LackeyCCG export written again (its manifest is new): made again, as a clean build would make them
    manifest = out / "lackey" / GAME / MANIFEST
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with remember_in(tmp_path / "cache"):
        changed = remembered_clients(out, game, cards, SITE)
    changed_files = files(changed)  # while the build that made it holds it in the cache: the next one prunes it
    assert counted == [GAME, GAME] and changed_files == files(game_clients(out, game, cards, SITE))

    # another address: made again, every URL in them the new one
    with remember_in(tmp_path / "cache"):
        elsewhere = remembered_clients(out, game, cards, "https://example.com/")
    assert len(counted) == 3 and files(elsewhere) != changed_files


def test_a_damaged_cache_entry_is_made_again(exported, counted, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out, game, cards, first = first_made(exported, tmp_path / "cache")
    (entry,) = (path for path in (tmp_path / "cache").iterdir() if path.suffix != ".zip")
    entry.write_bytes(entry.read_bytes()[:-10])  # cut short, as by a full disk
    incremental._remembered.clear()
    with remember_in(tmp_path / "cache"):
        again = remembered_clients(out, game, cards, SITE)
    assert again == first and counted == [GAME, GAME]
    assert unpack(entry.read_bytes()) == first  # the entry is whole again: the next build takes it


def test_the_plugin_zip_is_a_file_of_the_cache_made_again_when_it_is_gone(exported, counted, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out, game, cards, first = first_made(exported, tmp_path / "cache")
    (site_path, name), = first.cached.items()
    assert site_path.endswith(".zip") and site_path not in first.data and first.copies[site_path].name == name
    assert site_path in first.keys  # the site keys it by what it was made from, without reading 85 MB
    assert files(first) == files(game_clients(out, game, cards, SITE))  # the zip made without a cache, in bytes
    (tmp_path / "cache" / name).unlink()  # as a build that did not use it prunes it
    incremental._remembered.clear()
    with remember_in(tmp_path / "cache"):
        again = remembered_clients(out, game, cards, SITE)
    assert counted == [GAME, GAME] and files(again) == files(first)


def test_a_written_cache_file_is_made_once_and_a_failed_one_leaves_nothing(tmp_path: Path) -> None:
    """``cached_written_file`` (the plugin's zip, written into its file, never whole in memory): made once for its
    key; a writer that fails leaves no file, and the caller is told (None), so it makes the bytes itself."""
    from carddb.incremental import cached_written_file

    writes: list[str] = []

    def write(handle) -> None:  # type: ignore[no-untyped-def]
        writes.append("zip")
        handle.write(b"PK" + b"\0" * 100)

    def fail(handle) -> None:  # type: ignore[no-untyped-def]
        handle.write(b"half")
        raise OSError(28, "No space left on device")

    with remember_in(tmp_path / "cache"):
        first = cached_written_file("a" * 64, write, ".zip")
        again = cached_written_file("a" * 64, write, ".zip")
        assert first is not None and first == again and first.read_bytes() == b"PK" + b"\0" * 100
        assert writes == ["zip"]
        assert cached_written_file("b" * 64, fail, ".zip") is None
        assert sorted(path.name for path in (tmp_path / "cache").iterdir() if "b" * 64 in path.name) == []
    assert cached_written_file("c" * 64, write, ".zip") is None  # outside a build's cache: nowhere to keep it
