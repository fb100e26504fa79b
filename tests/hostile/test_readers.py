"""Every reader of user files, fed the hostile corpus through the command line, as a user would.

What a user must see each time: exit 2 (or the documented code), one ``Error:`` line naming the file and the
problem, no traceback, the catalogue exactly as it was, and no file written anywhere but where asked.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from carddb.files.replacing import new_file_mode
from tests.hostile import corpus
from tests.hostile.conftest import Ledger, in_process, one_error_line

CARD_FILES = ([("yaml", name, data) for name, data in corpus.yaml_card_files()]
              + [("csv", name, data) for name, data in corpus.csv_card_files()]
              + [("lackey", name, data) for name, data in corpus.lackey_card_files()])


@pytest.fixture(scope="module")
def ws(hostile_ws: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("readers") / "ws"
    shutil.copytree(hostile_ws, root, symlinks=True)
    return root


@pytest.fixture(scope="module")
def before(ws: Path) -> dict[str, str]:
    """The catalogue's cards and the workspace's files before any attack."""
    exported = in_process(ws, "cards", "export", "--game", "mini", "--format", "yaml")
    assert exported.exit_code == 0
    return {"cards": exported.stdout, **{f"file:{k}": str(v) for k, v in _workspace_files(ws).items()}}


def _workspace_files(ws: Path) -> dict[str, tuple[int, int]]:
    """Every file of the workspace by size and modification time (a write changes one or the other)."""
    # The catalogue's own files change as SQLite pleases; the attack inputs are written by the tests.
    files = {}
    for path in ws.rglob("*"):
        name = path.relative_to(ws).as_posix()
        if path.is_file() and not path.is_symlink() and not name.startswith(("output/catalogue.db", "attack/")):
            info = path.stat()
            files[name] = (info.st_size, info.st_mtime_ns)
    return files


def _unchanged(ws: Path, before: dict[str, str], ledger: Ledger, case: str) -> None:
    exported = in_process(ws, "cards", "export", "--game", "mini", "--format", "yaml")
    now = {"cards": exported.stdout, **{f"file:{k}": str(v) for k, v in _workspace_files(ws).items()}}
    if now != before:
        changed = sorted(k for k in set(now) | set(before) if now.get(k) != before.get(k))
        ledger.fail("data lost", f"{case}: {changed[:5]}")
    assert now == before


def _attack_file(ws: Path, name: str, data: bytes) -> Path:
    folder = ws / "attack"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("kind", "name", "data"), CARD_FILES, ids=[f"{k}-{n}" for k, n, _ in CARD_FILES])
def test_a_bad_card_file_is_one_error_and_changes_nothing(ws: Path, before: dict[str, str], ledger: Ledger,
                                                          kind: str, name: str, data: bytes) -> None:
    path = _attack_file(ws, f"{kind}-{name}", data)
    run = in_process(ws, "cards", "import", str(path), "--game", "mini")
    ledger.run("card file", run)
    assert not run.traceback and not run.hang, run
    assert run.exit_code == 2, run
    one_error_line(run, naming=path.name)
    _unchanged(ws, before, ledger, f"card file {name}")


def test_the_messages_never_echo_a_value_in_full(ws: Path, ledger: Ledger) -> None:
    """A 100,000-character kind, a 2-million-character name, a number of 5,000 digits: each message shows a
    short piece of the value, never all of it."""
    for name, data in corpus.yaml_card_files():
        if name in ("kind-huge.yaml", "long-line.yaml", "cost-5000-digits.yaml", "text-mapping.yaml"):
            run = in_process(ws, "cards", "import", str(_attack_file(ws, f"echo-{name}", data)), "--game", "mini")
            ledger.run("card file", run)
            assert run.exit_code == 2 and len(run.stderr) < 2000, (name, len(run.stderr))


DECKS = corpus.deck_files()


@pytest.mark.parametrize(("name", "data"), DECKS, ids=[n for n, _ in DECKS])
def test_a_bad_deck_file_is_a_report_or_one_error(ws: Path, before: dict[str, str], ledger: Ledger,
                                                  name: str, data: bytes) -> None:
    path = _attack_file(ws, f"deck-{name}", data)
    checked = in_process(ws, "deck", "check", str(path), "--game", "mini")
    ledger.run("deck file", checked)
    assert not checked.traceback and not checked.hang, checked
    assert checked.exit_code in (1, 2), checked  # 1: read, with problems (never "legal"); 2: not a deck at all
    if checked.exit_code == 2:
        one_error_line(checked, naming=path.name)
    else:
        # Every problem is listed (the checker reports them all), each in a line of its own: the report grows
        # with the deck, never with what a line holds.
        assert checked.stderr == "" and path.name in checked.stdout
        assert len(checked.stdout) < 10_000 + 100 * data.count(b"\n")

    keep = ws / "attack" / "keep.dek"
    keep.write_text("the deck I keep\n", encoding="utf-8")
    converted = in_process(ws, "deck", "convert", str(path), "--game", "mini", "--to", "lackey", "--out", str(keep))
    ledger.run("deck file", converted)
    assert not converted.traceback, converted
    if converted.exit_code != 0:
        assert converted.exit_code == 2, converted
        one_error_line(converted, naming=path.name)
        assert keep.read_text(encoding="utf-8") == "the deck I keep\n"  # refused: the old file untouched
    else:
        assert keep.read_text(encoding="utf-8").startswith('<deck version="0.8">')
        assert keep.stat().st_mode & 0o777 == new_file_mode()  # the umask's, never mkstemp's 0600

    imported = in_process(ws, "collection", "import", "attacker", str(path), "--game", "mini")
    ledger.run("deck file", imported)
    assert not imported.traceback and imported.exit_code in (0, 2), imported
    if imported.exit_code == 2:
        one_error_line(imported)
        listed = in_process(ws, "collection", "show", "attacker", "--game", "mini")
        assert listed.exit_code == 2 or "0 cards" in listed.stdout  # nothing half-imported


@pytest.mark.parametrize("query", corpus.search_queries(), ids=range(len(corpus.search_queries())))
def test_a_hostile_search_is_an_answer_or_one_error(ws: Path, ledger: Ledger, query: str) -> None:
    for scope in (["--game", "mini"], []):
        run = in_process(ws, "cards", "search", *scope, "--json", "--", query)
        ledger.run("search", run)
        assert not run.traceback and not run.hang, (query[:80], run.stderr[:300])
        assert run.exit_code in (0, 2), run
        if run.exit_code == 2:
            assert "search" in one_error_line(run)
        else:
            assert isinstance(json.loads(run.stdout), list)


def test_numbers_beyond_the_catalogue_are_refused_by_name(ws: Path, ledger: Ledger) -> None:
    searched = in_process(ws, "cards", "search", "cost>=99999999999999999999999", "--game", "mini")
    ledger.run("search", searched)
    assert searched.exit_code == 2 and "out of range" in one_error_line(searched)
    added = in_process(ws, "collection", "add", "p", "Blue Unit 1", "--game", "mini", "--count",
                       "99999999999999999999999")
    ledger.run("argument", added)
    assert added.exit_code == 2 and not added.traceback and "--count" in added.stderr
    seeded = in_process(ws, "booster", "open", "--game", "mini", "--player", "p", "--seed", str(2**63))
    ledger.run("argument", seeded)
    assert seeded.exit_code == 2 and not seeded.traceback


@pytest.fixture(scope="module")
def good_dump(ws: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dumps") / "good"
    run = in_process(ws, "db", "dump", str(folder))
    assert run.exit_code == 0, run
    return folder


@pytest.mark.parametrize(("name", "mutate"), corpus.dump_variants(), ids=[n for n, _ in corpus.dump_variants()])
def test_a_spoilt_dump_restores_nothing(ws: Path, good_dump: Path, tmp_path: Path, ledger: Ledger,
                                        name: str, mutate) -> None:  # type: ignore[no-untyped-def]
    spoilt = tmp_path / name
    shutil.copytree(good_dump, spoilt)
    mutate(spoilt)
    fresh = tmp_path / "fresh.db"
    run = in_process(ws, "db", "restore", str(spoilt), db=fresh)
    ledger.run("dump", run)
    assert not run.traceback and not run.hang, run
    assert run.exit_code == 2, run
    one_error_line(run)
    status = in_process(ws, "cards", "search", "x", db=fresh)
    assert status.exit_code == 0 and "No cards match" in status.stdout  # the restore wrote nothing


def test_a_good_dump_restores(ws: Path, good_dump: Path, tmp_path: Path) -> None:
    run = in_process(ws, "db", "restore", str(good_dump), db=tmp_path / "fresh.db")
    assert run.exit_code == 0 and "Restored 1 game, 14 cards" in run.stdout, run


@pytest.mark.parametrize("url", corpus.database_urls())
def test_a_bad_database_url_is_one_error_without_its_password(ws: Path, tmp_path: Path, ledger: Ledger,
                                                              monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.chdir(tmp_path)  # a "URL" that is really a file name is made here, not in the repository
    run = in_process(ws, "cards", "search", "x", db=url)  # type: ignore[arg-type]
    ledger.run("database URL", run)
    assert not run.traceback and not run.hang, run
    assert "secret" not in run.stdout + run.stderr
    assert run.exit_code in (0, 2), run
    if run.exit_code == 2:
        one_error_line(run)


@pytest.mark.parametrize("url", corpus.lackey_base_urls())
def test_a_bad_base_url_is_one_error(ws: Path, tmp_path: Path, ledger: Ledger, url: str) -> None:
    if url.startswith("http://h/x") or url.startswith("http://u:"):
        pytest.skip("a plain long http URL is a valid base URL: exporting with it is not an attack")
    run = in_process(ws, "export", "lackey", "--game", "mini", "--out", str(tmp_path / "exp"), "--base-url", url)
    ledger.run("URL", run)
    assert run.exit_code == 2 and not run.traceback, run
    one_error_line(run, naming="--base-url")
    assert not (tmp_path / "exp").exists()


def test_not_a_file_is_refused_at_once(ws: Path, tmp_path: Path, ledger: Ledger) -> None:
    """Named pipes, devices, a symlink to /dev/zero, a folder, a dangling link, a link loop: each refused as
    what it is, without reading it (in process here; bounded memory is measured in test_limits)."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    dangling = tmp_path / "dangling.yaml"
    dangling.symlink_to(tmp_path / "nowhere")
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    expected = {fifo: "named pipe", zero: "device", loop: "cannot be read", dangling: "no such", folder: "folder"}
    for path, words in expected.items():
        for args in (["cards", "import", str(path), "--game", "mini"], ["deck", "check", str(path), "--game", "mini"],
                     ["collection", "import", "p", str(path), "--game", "mini"],
                     ["print", "--game", "mini", "--out", str(tmp_path / "p.pdf"), "--profile", str(path)]):
            run = in_process(ws, *args)
            ledger.run("not a file", run)
            assert run.exit_code == 2 and not run.traceback, run
            assert words in one_error_line(run, naming=path.name), run
