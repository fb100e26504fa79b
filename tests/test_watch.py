"""Watching: which saved files start a build and for which games, real file events through watchdog (an editor's
save, a folder renamed while watched), what a failed build leaves (its message in the status file the open pages
show, the outputs as they were), and, with real builds, every input followed: art named from the workspace root,
the catalogue written by another process (exactly one build, none for the build's own writes), ``--game``.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from carddb.app.watch import STATUS_FILE, Changes, Watcher, games_touched, ignored, read_status, watch_build
from carddb.app.watch_inputs import read_files, watch_plan
from carddb.catalogue.api import Catalogue
from carddb.errors import CardDataError, TemplateError
from carddb.workspace import Workspace


def workspace_at(root: Path) -> Workspace:
    for game in ("shmod", "ssbm"):
        (root / "rules" / game / "cards").mkdir(parents=True)
        (root / "rules" / game / "game.toml").write_text("", encoding="utf-8")
    (root / "templates" / "shmod").mkdir(parents=True)
    (root / "output").mkdir()
    return Workspace(root)


def no_catalogue(workspace: Workspace) -> Catalogue:
    """A catalogue not made yet (the watcher reads it as holding no cards), for builds that are faked."""
    return Catalogue(str(workspace.output_dir / "catalogue.db"), workspace)


def test_what_counts_as_a_change(tmp_path: Path) -> None:
    root = tmp_path
    assert not ignored(root / "rules" / "shmod" / "cards" / "base.yaml", root)
    assert not ignored(root / "site" / "docs" / "javascripts" / "carddb.js", root)
    for path in ("output/site/index.html", "rules/shmod/cards/.base.yaml.swp", "rules/shmod/cards/base.yaml~",
                 "site/node_modules/pyodide/pyodide.js", "rules/shmod/cards/4913", "README.md",
                 "rules/shmod/__pycache__/x.pyc"):
        assert ignored(root / path, root), path


def test_a_change_in_one_game_builds_that_game_only(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    cards = tmp_path / "rules" / "shmod" / "cards" / "base.yaml"
    assert games_touched([cards, tmp_path / "templates" / "shmod" / "spell.toml"], workspace) == ["shmod"]
    assert games_touched([cards, tmp_path / "rules" / "ssbm" / "decks" / "a.txt"], workspace) == ["shmod", "ssbm"]
    for shared in ("templates/icons.toml", "docs/search.md", "site/mkdocs.yml", "rules/shmod", "rules/zelda/x"):
        assert games_touched([tmp_path / shared], workspace) is None, shared


def test_files_the_games_name_belong_to_the_games_reading_them(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    inputs = read_files(tmp_path, {"ssbm": ["art/mario.png"], "shmod": ["art/mario.png", "../../shmod-art/x.png"]},
                        {"shmod": "../../books/shmod.md", "ssbm": "rulebook.md"},
                        fonts=[tmp_path / "fonts" / "Vera.ttf"])
    art = tmp_path / "art" / "mario.png"
    assert games_touched([art], workspace, inputs) == ["shmod", "ssbm"]  # art/ is outside every watched folder
    assert games_touched([tmp_path / "shmod-art" / "x.png"], workspace, inputs) == ["shmod"]
    assert games_touched([tmp_path / "books" / "shmod.md"], workspace, inputs) == ["shmod"]
    assert games_touched([tmp_path / "art"], workspace, inputs) == ["shmod", "ssbm"]  # its folder renamed
    assert games_touched([tmp_path / "fonts" / "Vera.ttf"], workspace, inputs) is None  # every game draws with it
    assert games_touched([tmp_path / "art" / "unused.png", tmp_path / "README.md"], workspace, inputs) == []
    # the game's own folder (art found there first) is still that game's
    assert games_touched([tmp_path / "rules" / "ssbm" / "art" / "mario.png"], workspace, inputs) == ["ssbm"]
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "real.png").write_bytes(b"png")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "link.png").symlink_to(tmp_path / "media" / "real.png")
    linked = read_files(tmp_path, {"ssbm": ["art/link.png"]}, {})
    assert games_touched([tmp_path / "media" / "real.png"], workspace, linked) == ["ssbm"]  # the file it names
    # never a build's own output, nor art out of the workspace (it is not drawn)
    named = read_files(tmp_path, {"ssbm": ["output/faces/x.png", "../../../../elsewhere.png"]}, {}).readers
    assert tmp_path / "output" / "faces" / "x.png" not in named and not any("elsewhere" in str(p) for p in named)


def test_what_is_watched_follows_the_inputs_and_leaves_out_installed_files(tmp_path: Path) -> None:
    workspace_at(tmp_path)
    (tmp_path / "site" / "node_modules" / "pyodide").mkdir(parents=True)
    (tmp_path / "site" / "docs").mkdir()
    (tmp_path / "art").mkdir()
    inputs = read_files(tmp_path, {"ssbm": ["art/mario.png", "pictures/deep/luigi.png"]}, {})
    catalogue = tmp_path / "elsewhere" / "cards.db"
    plan = watch_plan(tmp_path, inputs, [catalogue])
    assert plan == {tmp_path: False, tmp_path / "rules": True, tmp_path / "templates": True,
                    # site/ watched around its installed node_modules
                    tmp_path / "site": False, tmp_path / "site" / "docs": True,
                    tmp_path / "art": False}  # pictures/ not made yet: the workspace's own watch sees it made
    catalogue.parent.mkdir()
    (tmp_path / "pictures").mkdir()
    plan = watch_plan(tmp_path, inputs, [catalogue])
    assert plan[tmp_path / "pictures"] is False and plan[catalogue.parent] is False
    assert not any("output" in folder.parts or "node_modules" in folder.parts for folder in plan)


def _wait(condition, seconds: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    # a wait on state; the deadline only ends a test that would hang (a loaded machine builds slowly, not wrongly)
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "nothing happened"
        time.sleep(0.02)


def test_real_saves_and_a_renamed_folder_start_builds(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    batches: list[list[Path]] = []
    said: list[str] = []
    watcher = Watcher(workspace, lambda changes: batches.append(changes.paths), say=said.append)
    watcher.start()
    runner = threading.Thread(target=watcher.run, daemon=True)
    runner.start()
    try:
        cards = tmp_path / "rules" / "shmod" / "cards" / "base.yaml"
        swap = cards.with_name(".base.yaml.swp")
        swap.write_text("cards: []\n", encoding="utf-8")  # an editor: a scratch file, renamed over the file
        os.replace(swap, cards)
        _wait(lambda: batches)
        assert cards in batches[0] and not any(p.name.endswith(".swp") for p in batches[0] if p != swap)
        (tmp_path / "output" / "built.txt").write_text("x", encoding="utf-8")  # the build's own writes
        time.sleep(0.3)
        assert len(batches) == 1
        # the whole rules/ folder renamed while watched: a build, a message, and the new folder watched again
        os.replace(tmp_path / "rules", tmp_path / "rules-old")
        _wait(lambda: len(batches) >= 2)
        _wait(lambda: any("is gone" in line for line in said))
        os.replace(tmp_path / "rules-old", tmp_path / "rules")
        _wait(lambda: len(batches) >= 3)
        count = len(batches)
        cards.write_text("cards: [1]\n", encoding="utf-8")
        _wait(lambda: len(batches) > count and any(cards in batch for batch in batches[count:]))
    finally:
        watcher.stop()
        runner.join(timeout=5)


def test_a_failed_build_is_said_and_kept_for_the_page_until_one_succeeds(tmp_path: Path) -> None:
    workspace = workspace_at(tmp_path)
    outcomes = [CardDataError("rules/shmod/cards/base.yaml:3: not valid YAML (expected ':')"), "ok"]
    errors: list[str] = []
    statuses: list[dict] = []
    stop = threading.Event()
    during: list[dict] = []  # the status an open page reads while each build runs

    def once(games, catalogue):  # type: ignore[no-untyped-def]
        during.append(read_status(workspace.output_dir))
        outcome = outcomes.pop(0) if outcomes else "ok"
        if isinstance(outcome, Exception):
            raise outcome
        return type("Report", (), {"failures": []})()

    def watch() -> None:
        watch_build(workspace, no_catalogue(workspace), once, say=lambda line: None, error=errors.append, stop=stop)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    _wait(lambda: read_status(workspace.output_dir).get("builds") == 1)
    statuses.append(read_status(workspace.output_dir))
    cards = tmp_path / "rules" / "shmod" / "cards" / "base.yaml"
    cards.write_text("cards: []\n", encoding="utf-8")
    _wait(lambda: read_status(workspace.output_dir).get("builds") == 2)
    statuses.append(read_status(workspace.output_dir))
    stop.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert statuses[0]["error"] == "rules/shmod/cards/base.yaml:3: not valid YAML (expected ':')"
    assert errors == ["Error: rules/shmod/cards/base.yaml:3: not valid YAML (expected ':')"]
    assert statuses[1] == {"builds": 2, "building": False, "pending": False, "error": None,
                           "changed": ["rules/shmod/cards/base.yaml"], "games": ["shmod"]}
    # while a build runs, the status says so, still counts the builds finished before it, and owes no change
    assert [(status["builds"], status["building"], status["pending"]) for status in during] == \
        [(0, True, False), (1, True, False)]
    assert json.loads((workspace.output_dir / STATUS_FILE).read_text(encoding="utf-8"))["error"] is None


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the interrupt it swallows
def test_ctrl_c_stops_watching_even_when_a_finalizer_swallowed_its_interrupt(tmp_path: Path) -> None:
    """Why ``build --watch`` sometimes went on after Ctrl-C: the KeyboardInterrupt is raised wherever the main thread
    is, and one raised in a finalizer (as the collector ends a build's database connections) is printed as
    "Exception ignored" and lost. The Ctrl-C is kept as state too, so the watcher stops all the same."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Ctrl-C is handled by the main thread, and this test runs in another")
    workspace = workspace_at(tmp_path)
    builds: list[list[str] | None] = []
    stop = threading.Event()

    class Connection:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C, handled inside the finalizer: its exception is lost

    def once(games, catalogue):  # type: ignore[no-untyped-def]
        builds.append(games)
        Connection()  # made and dropped: its finalizer runs here
        return type("Report", (), {"failures": []})()

    handler = signal.getsignal(signal.SIGINT)
    gave_up = threading.Timer(60, stop.set)  # ends a watcher that missed the Ctrl-C, so that the test can fail
    gave_up.start()
    try:
        watch_build(workspace, no_catalogue(workspace), once, say=lambda line: None, error=lambda line: None,
                    stop=stop)
    finally:
        missed = not gave_up.is_alive()
        gave_up.cancel()
    assert not missed, "the watcher went on after Ctrl-C"
    assert builds == [None]
    assert signal.getsignal(signal.SIGINT) is handler  # Ctrl-C does what it did before watching


def test_a_change_seen_is_owed_a_build_until_one_takes_it(tmp_path: Path) -> None:
    """What ``site serve``'s status says between a save and its build (a page or a test waits on it): the first
    change of a burst is told once, and the watcher owes a build until it takes the changes."""
    workspace = workspace_at(tmp_path)
    told: list[bool] = []
    built: list[list[Path]] = []
    watcher = Watcher(workspace, lambda changes: built.append(changes.paths), quiet=0.0,
                      seen=lambda: told.append(watcher.pending()))
    assert not watcher.pending()
    cards = workspace.root.resolve() / "rules" / "shmod" / "cards" / "base.yaml"
    watcher.changed(str(cards))
    watcher.changed(str(cards))
    assert told == [True] and watcher.pending()
    changes, _wait_for = watcher._take()
    assert changes is not None and changes.paths == [cards] and not watcher.pending()
    watcher.changed(str(workspace.root.resolve() / "output" / "faces" / "x.png"))  # an output: no change
    assert told == [True] and not watcher.pending()


def test_a_burst_said_to_be_whole_is_built_without_the_quiet_wait_once(tmp_path: Path, monkeypatch) -> None:
    """A studio save writes its card file and the catalogue, then says so (``hurry``): its changes are taken once
    quiet for a hundredth of a second, not for the quiet an editor's save needs. The hurry is for that burst only,
    and lapses when no change follows it."""
    from types import SimpleNamespace

    from carddb.app import watch

    clock = [1000.0]
    monkeypatch.setattr(watch, "time", SimpleNamespace(monotonic=lambda: clock[0], time=time.time, sleep=time.sleep))
    watcher = Watcher(workspace_at(tmp_path), lambda changes: None, quiet=5.0)
    cards = watcher.root / "rules" / "shmod" / "cards" / "base.yaml"

    def heard_then(seconds: float) -> Changes | None:
        watcher.changed(str(cards))
        clock[0] += seconds
        return watcher._take()[0]

    assert heard_then(0.02) is None  # an editor's save: 5 s of quiet first
    watcher.hurry()
    assert watcher._take()[0] is not None
    assert heard_then(0.02) is None  # the next burst waits again
    assert watcher._take() == (None, pytest.approx(4.98))
    clock[0] += 5.0
    assert watcher._take()[0] is not None
    watcher.hurry()
    clock[0] += watch.HURRY_SECONDS  # nothing written after the hurry: it lapses
    assert heard_then(0.02) is None


@pytest.mark.slow
def test_a_broken_template_names_its_file_and_line_and_leaves_the_faces(tmp_path: Path) -> None:
    from tests.test_incremental import run_build, small_workspace

    root = small_workspace(tmp_path)
    run_build(root)
    faces = {p.name: p.read_bytes() for p in (root / "output" / "faces" / "minibattle").glob("*.png")}
    template = root / "templates" / "minibattle" / "pokemon.toml"
    text = template.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "{{" in row)
    broken = text.splitlines()
    broken[line - 1] = broken[line - 1].replace("}}", "", 1)  # an unclosed {{: a Jinja syntax error
    template.write_text("\n".join(broken) + "\n", encoding="utf-8")
    from carddb.app.build import build
    from carddb.catalogue.api import open_catalogue

    report = build(Workspace(root), open_catalogue(str(root / "output" / "catalogue.db"), str(root)))
    failure = next(f for f in report.failures if f.startswith("minibattle faces: "))
    assert f"pokemon.toml:{line}:" in failure
    assert {p.name: p.read_bytes() for p in (root / "output" / "faces" / "minibattle").glob("*.png")} == faces
    with pytest.raises(TemplateError):
        from carddb.layout import load_templates

        load_templates(root, open_catalogue(str(root / "output" / "catalogue.db"), str(root)).game("minibattle"))
    shutil.rmtree(root / "output" / "site")  # nothing else to check there


# -- every input a build reads, --game, the catalogue: the real watcher and real builds ----------------------
#: Steps a watch test leaves out to stay quick: what is left (loading, the decks, the faces) reads every kind of
#: input the watcher follows.
FAST = ("sheets", "lackey", "apprentice", "tts", "cockatrice", "kit", "site")
REPO = Path(__file__).resolve().parents[1]


def two_games(root: Path) -> Path:
    """A workspace of two small games (two cards each, no sample decks) whose faces draw in a second."""
    import yaml

    for game, kept in (("minibattle", ("Bulbasaur", "Charmander")), ("shmod", ("Replenish", "Yoink!"))):
        shutil.copytree(REPO / "rules" / game, root / "rules" / game, ignore=shutil.ignore_patterns("decks"))
        for path in (root / "rules" / game / "cards").iterdir():
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            data["cards"] = [card for card in data["cards"] if card["name"] in kept]
            path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        shutil.copytree(REPO / "templates" / game, root / "templates" / game)
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    return root


def set_card(root: Path, game: str, name: str, **fields: object) -> None:
    """Change a card in its card file, as a designer saving it would."""
    import yaml

    for path in (root / "rules" / game / "cards").iterdir():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in data["cards"]:
            if card["name"] == name:
                card.update(fields)
                path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def paint(path: Path, colour: tuple[int, int, int]) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (600, 450), colour).save(path)


class Watching:
    """``carddb build --watch`` in a thread, on real files and real builds: which games each build built and what
    the watcher said."""

    def __init__(self, root: Path, *, games: list[str] | None = None, db: Path | None = None) -> None:
        from carddb.catalogue.api import open_catalogue

        self.root = root
        self.db = db or root / "output" / "catalogue.db"
        self.workspace = Workspace(root)
        self.catalogue = open_catalogue(str(self.db), str(root))
        self.games = games
        self.builds: list[list[str] | None] = []
        self.started = 0  # builds begun: a build that begins while a test waits for none is counted at once
        self.said: list[str] = []
        self.errors: list[str] = []
        self.heard: list[tuple[str, str]] = []  # (event type, path) of each file event the watcher has taken
        self.watcher: Watcher | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._patch = pytest.MonkeyPatch()

    def _watch(self) -> None:
        watch_build(self.workspace, self.catalogue, self._build, games=self.games, say=self.said.append,
                    error=self.errors.append, stop=self._stop)

    def _listen(self) -> None:
        """Note the watcher watch_build makes, and every event it has taken (after it took it)."""
        from carddb.app import watch

        start, dispatch = watch.Watcher.start, watch._Forward.dispatch

        def started(watcher: Watcher) -> None:
            self.watcher = watcher
            start(watcher)

        def dispatched(forward, event) -> None:  # type: ignore[no-untyped-def]
            dispatch(forward, event)
            self.heard.append((event.event_type, os.fsdecode(event.src_path)))

        self._patch.setattr(watch.Watcher, "start", started)
        self._patch.setattr(watch._Forward, "dispatch", dispatched)

    def settle(self, seconds: float = 60) -> None:
        """Until every change made so far has reached the watcher and what it owed is built: a scratch file made
        and removed in each watched folder (never a change: an editor's swap file) is heard after every earlier
        event of that folder, then the status file says no build runs or waits. Again while builds run: their
        own writes (the catalogue) are changes the watcher hears too."""
        assert self.watcher is not None
        while True:
            begun = self.started
            for folder in list(self.watcher._watches):
                mark = folder / f".carddb-settled-{len(self.heard)}.swp"
                try:
                    mark.write_bytes(b"")
                    mark.unlink()
                except OSError:
                    continue  # the folder is gone (its removal is an event of its own)
                _wait(lambda mark=mark: ("deleted", str(mark)) in self.heard, seconds)
            _wait(lambda: not (status := read_status(self.workspace.output_dir)).get("building")
                  and not status.get("pending") and self.started == len(self.builds), seconds)
            if self.started == begun:
                return

    def _build(self, games: list[str] | None, catalogue: Catalogue) -> object:
        from carddb.app.build import build

        self.started += 1
        report = build(self.workspace, catalogue, games, skip=FAST)
        self.builds.append(games)  # after the build: a test that sees it counted sees its outputs
        return report

    def __enter__(self) -> Watching:
        self._listen()
        self._thread.start()
        _wait(lambda: self.builds, 60)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self._patch.undo()
        assert not self._thread.is_alive(), "the watcher did not stop"

    def built_after(self, change: Callable[[], object], *, seconds: float = 30) -> list[list[str] | None]:
        """The builds a change started: waits for the first, then for the files to be quiet."""
        count = len(self.builds)
        change()
        _wait(lambda: len(self.builds) > count, seconds)
        self.settle(seconds)  # a further build, begun: counted too
        return self.builds[count:]

    def nothing_built_after(self, change: Callable[[], object]) -> bool:
        count = self.started
        change()
        self.settle()
        return self.started == count


def import_in_another_process(root: Path, db: Path, game: str, card: dict) -> None:
    """``carddb cards import`` run as a designer runs it in a second terminal."""
    import subprocess
    import sys

    import yaml

    card_file = root.parent / f"import-{card['name']}.yaml"
    card_file.write_text(yaml.safe_dump({"set": "base", "cards": [card]}), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "carddb", "--root", str(root), "--db", str(db), "cards", "import",
                    str(card_file), "--game", game], check=True, timeout=60, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(REPO)})


SQUIRTLE = {"name": "Squirtle", "kind": "pokemon", "number": "010", "rarity": "common", "level": 10, "hp": 40,
            "atk": 7, "def": 8, "type": "Water", "stage": "basic"}


@pytest.mark.slow
def test_art_saved_before_its_folder_is_watched_is_built_all_the_same(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder of art a card names outside the watched folders is watched once a build has loaded that card;
    a save between that build's start and the watch (no event reaches anyone) is built all the same. The save is
    made exactly there: just before the watcher learns what the build read."""
    from carddb.app import watch
    from carddb.app.build import build
    from carddb.catalogue.api import open_catalogue

    root = two_games(tmp_path / "ws")
    paint(root / "art" / "bulbasaur.png", (40, 160, 60))
    set_card(root, "minibattle", "Bulbasaur", art="art/bulbasaur.png")  # art/ is outside every watched folder
    read_files, saves = watch._read_files, []

    def saved_meanwhile(*args: object) -> object:
        if saves == ["first"]:  # after the first build: the moment between its end and the watch on art/
            paint(root / "art" / "bulbasaur.png", (200, 40, 60))
        saves.append("first" if not saves else "later")
        return read_files(*args)

    monkeypatch.setattr(watch, "_read_files", saved_meanwhile)
    faces = root / "output" / "faces" / "minibattle"
    with Watching(root) as watching:
        watching.settle()
        assert watching.builds[:2] == [None, ["minibattle"]], watching.said
        assert any("art/bulbasaur.png changed: building minibattle" in line for line in watching.said)
    clean = tmp_path / "clean"
    for name in ("rules", "templates", "art"):
        shutil.copytree(root / name, clean / name)
    build(Workspace(clean), open_catalogue(str(clean / "output" / "catalogue.db"), str(clean)), skip=FAST)
    assert (faces / "bulbasaur.png").read_bytes() == (clean / "output" / "faces" / "minibattle" /
                                                      "bulbasaur.png").read_bytes()


@pytest.mark.slow
def test_art_named_from_the_workspace_root_builds_the_game_using_it(tmp_path: Path) -> None:
    root = two_games(tmp_path / "ws")
    paint(root / "art" / "bulbasaur.png", (40, 160, 60))
    set_card(root, "minibattle", "Bulbasaur", art="art/bulbasaur.png")  # art/ is outside every watched folder
    set_card(root, "minibattle", "Charmander", art="pictures/fire/charmander.png")  # a folder not made yet
    faces = root / "output" / "faces"
    with Watching(root) as watching:
        before = (faces / "minibattle" / "bulbasaur.png").read_bytes()
        shmod_faces = {p.name: p.stat().st_mtime_ns for p in (faces / "shmod").glob("*.png")}

        assert watching.built_after(lambda: paint(root / "art" / "bulbasaur.png", (200, 40, 60))) == [["minibattle"]]
        assert (faces / "minibattle" / "bulbasaur.png").read_bytes() != before  # the face shows the new art
        assert {p.name: p.stat().st_mtime_ns for p in (faces / "shmod").glob("*.png")} == shmod_faces
        assert any("art/bulbasaur.png changed: building minibattle" in line for line in watching.said)

        placeholder = (faces / "minibattle" / "charmander.png").read_bytes()
        builds = watching.built_after(lambda: paint(root / "pictures" / "fire" / "charmander.png", (250, 120, 0)))
        assert builds and all(games == ["minibattle"] for games in builds)
        assert (faces / "minibattle" / "charmander.png").read_bytes() != placeholder

        # art a card is given while watching is followed from the build that loads it
        assert watching.built_after(lambda: set_card(root, "shmod", "Replenish", art="art/replenish.png")) \
            == [["shmod"]]
        assert watching.built_after(lambda: paint(root / "art" / "replenish.png", (90, 0, 90))) == [["shmod"]]

        # what no build reads: art no card names, a file at the root, the build's own output
        assert watching.nothing_built_after(lambda: paint(root / "art" / "unused.png", (0, 0, 0)))
        assert watching.nothing_built_after(lambda: (root / "README.md").write_text("notes\n", encoding="utf-8"))
        assert watching.nothing_built_after(lambda: (root / "output" / "x.txt").write_text("x", encoding="utf-8"))
    assert not watching.errors


@pytest.mark.slow
def test_only_the_chosen_games_are_built(tmp_path: Path) -> None:
    root = two_games(tmp_path / "ws")
    with Watching(root, games=["shmod"]) as watching:
        assert watching.builds == [["shmod"]]
        assert not (root / "output" / "faces" / "minibattle").exists()
        # another game's card file: nothing built, and the watcher says why
        assert watching.nothing_built_after(lambda: set_card(root, "minibattle", "Bulbasaur", hp=45))
        assert any("which is not built (--game shmod)" in line for line in watching.said)
        # a shared file (the icons of every game): the chosen game only
        icons = root / "templates" / "icons.toml"
        assert watching.built_after(lambda: icons.write_text(icons.read_text(encoding="utf-8") + "\n",
                                                             encoding="utf-8")) == [["shmod"]]
        assert watching.built_after(lambda: set_card(root, "shmod", "Replenish", text="Draw 2.")) == [["shmod"]]
        assert watching.nothing_built_after(
            lambda: import_in_another_process(root, watching.db, "minibattle", SQUIRTLE))
    assert not (root / "output" / "faces" / "minibattle").exists()


@pytest.mark.slow
@pytest.mark.parametrize("where", ["output", "elsewhere"])
def test_a_catalogue_written_by_another_process_builds_once(tmp_path: Path, where: str) -> None:
    import sqlite3

    root = two_games(tmp_path / "ws")
    db = root / "output" / "catalogue.db" if where == "output" else tmp_path / "shared" / "cards.db"  # --db
    faces = root / "output" / "faces" / "minibattle"
    with Watching(root, db=db) as watching:
        with sqlite3.connect(db) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        watching.settle()
        assert watching.started == 1  # the first build loaded every card file: none of its writes builds
        assert watching.built_after(
            lambda: import_in_another_process(root, db, "minibattle", SQUIRTLE)) == [["minibattle"]]
        assert (faces / "squirtle.png").is_file()  # the imported card has its face
        # the build's own write (a saved card file loaded into the catalogue) builds once, not again and again
        assert watching.built_after(lambda: set_card(root, "minibattle", "Bulbasaur", hp=45)) == [["minibattle"]]
        assert watching.built_after(
            lambda: import_in_another_process(root, db, "shmod", {"name": "Pot", "kind": "spell", "number": "S9",
                                                                  "level": 1, "text": "Draw 2."})) == [["shmod"]]
    assert not watching.errors


@pytest.mark.slow
def test_a_catalogue_without_a_file_is_looked_at_every_few_seconds(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from carddb.app import watch_catalogue

    monkeypatch.setattr(watch_catalogue, "catalogue_files", lambda db: [])  # as for a PostgreSQL catalogue
    monkeypatch.setattr(watch_catalogue, "POLL_SECONDS", 0.3)
    root = two_games(tmp_path / "ws")
    with Watching(root) as watching:
        assert watching.watcher is not None
        for _ in range(2):  # looked at twice: the first look's answer is taken before the second look
            looked = watching.watcher._last_poll
            _wait(lambda looked=looked: watching.watcher._last_poll > looked)
        assert watching.started == 1  # looked at, and nothing changed: no build
        assert watching.built_after(
            lambda: import_in_another_process(root, watching.db, "minibattle", SQUIRTLE)) == [["minibattle"]]


@pytest.mark.slow
def test_build_watch_on_the_command_line_builds_only_the_chosen_game(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    root = two_games(tmp_path / "ws")
    skips = [arg for step in FAST for arg in ("--skip", step)]
    process = subprocess.Popen([sys.executable, "-m", "carddb", "--root", str(root), "build", "--watch", "--game",
                                "shmod", *skips], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONPATH": str(REPO)})
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)

    threading.Thread(target=read, daemon=True).start()

    def said(text: str) -> int:
        return sum(text in line for line in list(lines))

    try:
        _wait(lambda: said("Watching "), 180)
        assert said("shmod: faces in") == 1 and not said("minibattle:")
        set_card(root, "minibattle", "Bulbasaur", hp=45)
        _wait(lambda: said("which is not built (--game shmod)"))
        set_card(root, "shmod", "Replenish", text="Draw 2.")
        _wait(lambda: said("shmod: faces in") == 2, 180)
        assert said("building shmod") == 1 and not said("minibattle:")
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C, as the build that said its faces may still be ending
        try:
            code = process.wait(timeout=120)  # Ctrl-C during a build waits for its step to stop
        except subprocess.TimeoutExpired:
            process.kill()
            code = None
    # It once went on watching now and then: test_ctrl_c_stops_watching_even_when_a_finalizer_swallowed_its_interrupt
    assert code == 0, "".join(lines)
