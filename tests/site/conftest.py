"""The site, built once per test session from the repository's workspace (strict: any MkDocs warning fails the
build), plus one card whose name and text are HTML, and served on 127.0.0.1 for the browser tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from carddb.catalogue.api import Catalogue
from carddb.rules.cards import Card, Printing
from carddb.rules.game import GameDefinition
from carddb.site.build import SiteReport, build_site
from carddb.site.serve import make_server, server_url

CHROMIUM = Path("/usr/bin/chromium")
HOSTILE_GAME = "shmod"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_TEXT = "<script>alert(2)</script> & <b>bold</b>"


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
    # Bind first: instant navigation only works when site_url names the exact origin, port included.
    folder = tmp_path_factory.mktemp("site") / "site"
    server = make_server(folder, "127.0.0.1", 0)
    url = server_url(server)
    report = build_site(repo_root, WithHostileCard(catalogue), folder, site_url=url)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield BuiltSite(url=url, folder=folder, report=report)
    server.shutdown()
    server.server_close()
