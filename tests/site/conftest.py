"""The site, built once per test session from the repository's workspace (strict: any MkDocs warning fails the
build), plus one card whose name and text are HTML, and served on 127.0.0.1 for the browser tests."""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from carddb.catalogue.api import Catalogue
from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import GameDefinition
from carddb.site.build import SiteReport, build_site
from carddb.site.serve import make_server, server_url
from tests.conftest import built_once
from tests.site.engine_snapshot import seed_engine

CHROMIUM = Path("/usr/bin/chromium")
HOSTILE_GAME = "shmod"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_TEXT = "<script>alert(2)</script> & <b>bold</b>"
FACES_GAME = "shmod"  # the one game whose faces the tests render (the others show as text, as without faces)


class WithHostileCard:
    """The test catalogue plus one shmod monster whose name and text are markup."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.hostile = Card(game=HOSTILE_GAME, name=HOSTILE_NAME, kind="monster", text=HOSTILE_TEXT,
                            fields={"type": "FIRE", "atk": 1, "def": 1, "level": 1},
                            printings=[Printing(set="base", number="999")])

    def games(self) -> list[str]:
        return self.catalogue.games()

    def game(self, game_id: str) -> GameDefinition:
        return self.catalogue.game(game_id)

    def cards(self, game_id: str) -> list[Card]:
        cards = self.catalogue.cards(game_id)
        return [*cards, self.hostile] if game_id == HOSTILE_GAME else cards


@dataclass
class BuiltSite:
    url: str
    folder: Path
    report: SiteReport

    def html(self, page: str) -> str:
        """The built HTML of a docs page: ``games/shmod/construction.md`` -> its ``index.html``."""
        stem = page.removesuffix(".md").removesuffix("index")
        return (self.folder / stem / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, repo_root: Path, catalogue: Catalogue) -> Iterator[BuiltSite]:
    # Built as `carddb build` builds it (for the configured site_url), once per run however many workers share it,
    # and served on a free port by each worker, as `carddb site serve` serves it: the server gives the sitemap its
    # own origin, which instant navigation needs.
    # Its engine files compressed as a user's build compresses them (the suite's other builds compress at the
    # quickest settings: tests/conftest.py), for the tests of what a visitor downloads.
    def build(shared: Path) -> SiteReport:
        from carddb.paint.render import render_faces
        from carddb.site.precompress import QUICK_ENV

        faces = shared / "faces"
        render_faces(repo_root, catalogue.game(FACES_GAME), catalogue.cards(FACES_GAME), faces, dpi=100)
        # no exports: the repository's own output/ (whatever a developer built last) stays out of the tests
        with pytest.MonkeyPatch.context() as patch:
            patch.delenv(QUICK_ENV, raising=False)
            return build_site(repo_root, WithHostileCard(catalogue), shared / "site", faces_dir=faces,
                              exports_dir=faces / "none")

    shared, report = built_once(tmp_path_factory, "site", build)
    folder = shared / "site"
    server = make_server(folder, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield BuiltSite(url=server_url(server), folder=folder, report=report)
    server.shutdown()
    server.server_close()


@dataclass
class Visit:
    """A browser page that lets only the site's own origin through and records everything else."""

    page: Any
    external: list[str]
    fetched: list[str]
    dialogs: list[str]

    def count(self, suffix: str) -> int:
        return sum(1 for url in self.fetched if url.split("?")[0].endswith(suffix))


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); the browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # Debian's Chromium, never a downloaded one. Playwright adds --headless and --no-sandbox itself.
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--disable-gpu", "--disable-quic", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


#: Added to every page ``open_visit`` opens (and to pages that call ``wait_for_instant_navigation``): it notes when
#: Material has read the sitemap. Material parses it with DOMParser and maps its addresses in the same task, so
#: a task queued after the parse finds them known.
SITEMAP_READ = """(() => {
  const parse = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (text, type) {
    const parsed = parse.call(this, text, type);
    if (parsed.querySelector("urlset")) setTimeout(() => { window.__carddbSitemapRead = true; });
    return parsed;
  };
  window.__carddbSitemapWatched = true;
})();"""


#: A page gives up on the rules engine after 30 s ("did not load within 30 s"), which a machine busy with other
#: work can take to start Pyodide: the tests wait as long as it takes (a test of the limit sets its own after this).
ENGINE_PATIENCE = "window.CARDDB_ENGINE_TIMEOUT_MS = 600000;"


#: Where Material's search worker fetches the site's search index, at every full page load.
SEARCH_INDEX = "search/search_index.json"


@functools.cache
def empty_search_index(folder: Path) -> str:
    """The built site's search index with its configuration and no page: what a visit that never searches is
    given (read once a session: the index is 0.9 MB)."""
    config = json.loads((folder / SEARCH_INDEX).read_text(encoding="utf-8"))["config"]
    return json.dumps({"config": config, "docs": []})


def open_visit(chromium: Any, site: BuiltSite, init_script: str = "", *, cold: bool = False,
               search: bool = False) -> Visit:
    """A fresh context on the site, every request outside it refused and recorded. Its engine starts from the
    snapshot a first visit left (``engine_snapshot``), unless ``cold``: a first visit's boot.

    Unless ``search``, Material's search index is answered with an empty one: its worker fetches the whole index
    (every page of the site, 0.9 MB) at every full page load and indexes it, a third of the CPU a plain page costs
    the browser, for a search box the test never types in. The request is made and recorded all the same."""
    context = chromium.new_context()
    context.add_init_script(SITEMAP_READ)
    context.add_init_script(ENGINE_PATIENCE)
    if init_script:
        context.add_init_script(init_script)
    visit = Visit(page=None, external=[], fetched=[], dialogs=[])
    empty_index = None if search else empty_search_index(site.folder)

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if empty_index is not None and url.split("?")[0] == site.url + SEARCH_INDEX:
            visit.fetched.append(url)
            request_route.fulfill(status=200, content_type="application/json", body=empty_index)
        elif url.startswith(site.url):
            visit.fetched.append(url)
            request_route.continue_()
        else:
            visit.external.append(url)
            request_route.abort()

    context.route("**/*", route)  # sees the worker's fetches too
    if not cold:
        seed_engine(context, chromium, site.url, site.folder)  # routed after, so its own route answers first
    page = context.new_page()
    page.on("dialog", lambda dialog: (visit.dialogs.append(dialog.message), dialog.dismiss()))
    page.set_default_timeout(120_000)  # the longest a wait for the page's state may take on a busy machine
    visit.page = page
    return visit


def open_holding_script(page: Any, url: str, script: str) -> Callable[[], None]:
    """Open ``url`` with the site's ``javascripts/<script>`` held back (a page module imported late, whose
    listeners are not there yet): returns the function that lets it load. For what a visitor does before a
    page's script has started."""
    held: list[Any] = []
    page.route(f"**/javascripts/{script}*", lambda route: held.append(route))
    with page.expect_request(lambda request: f"/javascripts/{script}" in request.url):
        page.goto(url)
    return lambda: held[0].continue_()


def wait_until(page: Any, expression: str, what: str, timeout: float = 60.0) -> None:
    """Poll ``expression`` in the page until it is true (``wait_for_function`` compiles its predicate in the page,
    which a Content-Security-Policy without 'unsafe-eval' forbids; ``evaluate`` is not the page's own code)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still not so after {timeout:.0f} s")
        page.wait_for_timeout(20)  # the polling interval, not a wait for something to happen


def wait_for_instant_navigation(page: Any) -> None:
    """Wait until Material intercepts a click on a link of the site. It fetches ``sitemap.xml`` once the page has
    loaded and swaps a page in place only for the addresses listed there: a click before it has read the sitemap
    is an ordinary full page load. A reader never notices; a test that counts page loads, or one that means to
    follow an in-place swap, does. The page needs ``SITEMAP_READ`` among its init scripts (``open_visit`` adds it)."""
    assert page.evaluate("window.__carddbSitemapWatched === true"), "the page was opened without SITEMAP_READ"
    wait_until(page, "window.__carddbSitemapRead === true", "Material has not read the sitemap")


def wait_until_idle(url: str) -> None:
    """Until ``site serve`` at ``url`` says no build runs and no change waits for one: the builds of the saves of
    earlier tests are over, so only this test's own changes reach its page."""
    from urllib.request import urlopen

    deadline, status = time.monotonic() + 120, {}
    while time.monotonic() < deadline:
        with urlopen(url + "__carddb__/status") as answer:  # our own server, on 127.0.0.1
            status = json.load(answer)
        if not status["building"] and not status["pending"]:
            return
        time.sleep(0.1)  # the polling interval, not a wait for something to happen
    raise AssertionError(f"the server never went idle: {status}")

class StatusPolls:
    """Counts a page's requests for its live-reload status (``site serve``'s pages ask four times a second). The
    script asks again only once it has acted on the last answer: after ``n + 1`` requests, ``n`` answers have been
    acted on (a reload done, an error shown or taken away). Count from before the page is opened."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0
        page.on("request", self._seen)

    @staticmethod
    def _status(request: Any) -> bool:
        return request.url.endswith("/__carddb__/status")

    def _seen(self, request: Any) -> None:
        self.count += self._status(request)

    def wait(self, answers: int) -> None:
        """Until ``answers`` more answers have been acted on (``answers + 1`` more requests)."""
        target = self.count + answers + 1
        while self.count < target:
            self.page.wait_for_event("request", self._status)

    def wait_for_first(self) -> None:
        """Until the script has acted on its first answer (whenever the page was opened)."""
        while self.count < 2:
            self.page.wait_for_event("request", self._status)


def add_axe(page: Any, source: str) -> None:
    """Put axe-core in the page. Not as a ``<script>`` element: the site's policy runs no inline script (the browser
    refuses it), so it is evaluated as the developer tools would."""
    page.evaluate(source + "\n;0")


@pytest.fixture
def visit(chromium: Any, site: BuiltSite) -> Iterator[Visit]:
    """A fresh browser context (cold cache; the engine from a first visit's snapshot, as a returning visitor's)."""
    opened = open_visit(chromium, site)
    yield opened
    opened.page.context.close()
