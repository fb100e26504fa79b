"""The site, built once per test session from the repository's workspace (strict: any MkDocs warning fails the
build), plus one card whose name and text are HTML, and served on 127.0.0.1 for the browser tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from carddb.catalogue.api import Catalogue
from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import GameDefinition
from carddb.site.build import SiteReport, build_site
from carddb.site.serve import make_server, server_url

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
    # Built as `carddb build` builds it (for the configured site_url) and served on a free port, as `carddb site
    # serve` serves it: the server gives the sitemap its own origin, which instant navigation needs.
    from carddb.paint.render import render_faces

    folder = tmp_path_factory.mktemp("site") / "site"
    faces = tmp_path_factory.mktemp("faces")
    render_faces(repo_root, catalogue.game(FACES_GAME), catalogue.cards(FACES_GAME), faces, dpi=100)
    server = make_server(folder, "127.0.0.1", 0)
    url = server_url(server)
    # no exports: the repository's own output/ (whatever a developer built last) stays out of the tests
    report = build_site(repo_root, WithHostileCard(catalogue), folder, faces_dir=faces, exports_dir=faces / "none")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield BuiltSite(url=url, folder=folder, report=report)
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


def open_visit(chromium: Any, site: BuiltSite, init_script: str = "") -> Visit:
    context = chromium.new_context()
    if init_script:
        context.add_init_script(init_script)
    visit = Visit(page=None, external=[], fetched=[], dialogs=[])

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(site.url):
            visit.fetched.append(url)
            request_route.continue_()
        else:
            visit.external.append(url)
            request_route.abort()

    context.route("**/*", route)  # sees the worker's fetches too
    page = context.new_page()
    page.on("dialog", lambda dialog: (visit.dialogs.append(dialog.message), dialog.dismiss()))
    page.set_default_timeout(60_000)
    visit.page = page
    return visit


def wait_for_instant_navigation(page: Any) -> None:
    """Wait until Material intercepts a click on a link of the site. It fetches ``sitemap.xml`` once the page has
    loaded and swaps a page in place only for the addresses listed there: a click before the sitemap arrives is an
    ordinary full page load. A reader never notices; a test that counts page loads, or one that means to follow an
    in-place swap, does."""
    page.wait_for_function("""() => performance.getEntriesByType('resource')
        .some((entry) => new URL(entry.name).pathname.endsWith('/sitemap.xml') && entry.responseEnd > 0)""")
    # Its body is in; Material parses it a task or two later (``site serve``'s open live-reload request rules out
    # waiting for the network to go quiet)
    page.wait_for_timeout(300)


def add_axe(page: Any, source: str) -> None:
    """Put axe-core in the page. Not as a ``<script>`` element: the site's policy runs no inline script (the browser
    refuses it), so it is evaluated as the developer tools would."""
    page.evaluate(source + "\n;0")


@pytest.fixture
def visit(chromium: Any, site: BuiltSite) -> Iterator[Visit]:
    """A fresh browser context (cold cache, so a cold engine start)."""
    opened = open_visit(chromium, site)
    yield opened
    opened.page.context.close()
