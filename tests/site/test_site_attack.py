"""The site attacked through its card data (``tests/site/site_attack.py``: cards whose names, texts, fields, set
and art carry markup, script, template and Markdown syntax), built once for the session and opened in Chromium.

Every page kind is visited (each hostile card's page, the gallery, the deck builder opened from a shared link
holding those cards, its playtest table, the rulebook, deck construction, sample decks, Play, Play online, the
search, the studio's form and gallery under ``site serve``): no dialog ever opens, no request leaves for another
host, each card's name and text read back exactly as written. The pages are first opened with the browser told to
ignore the site's Content-Security-Policy (escaping alone must hold), then with it, as ``site serve`` sends it:
nothing of the site itself breaks the policy, and a page into which an escaping bug let a script cannot save.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from carddb.catalogue.studio_edits import Studio
from carddb.site.live import LiveReload
from carddb.site.policy import HEADER_POLICY, PAGE_POLICY
from carddb.site.serve import make_server, server_url
from carddb.site.studio_http import StudioServer
from carddb.workspace import Workspace
from tests.site.site_attack import (
    FOREIGN,
    GAME,
    HOSTILE_GAME,
    NAMES,
    REPO,
    SCRIPT_CLOSER,
    TEMPLATE,
    TITLE_BREAKER,
    make_hostile_workspace,
)

pytestmark = pytest.mark.slow  # the hostile workspace is built once, in about 30 s

SITE_NAME = "Fan card games"
#: The page's own heading (the search's results have headings too).
HEADING = "article.md-content__inner > h1"
#: The engine's time to load, long on a busy machine: a slow start is not what these tests look for.
ENGINE_WAIT_MS = 180_000
#: Records each policy violation of a page (read back with ``evaluate``, which the policy does not govern).
VIOLATIONS = ("document.addEventListener('securitypolicyviolation', (event) => (window.carddbViolations ||= [])"
              ".push(`${event.violatedDirective} ${event.blockedURI}`));")


@dataclass
class HostileSite:
    root: Path
    folder: Path
    stems: dict[str, str]  # card name -> its page and face stem

    def page(self, name: str) -> str:
        return f"games/{GAME}/cards/{self.stems[name]}/"


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> HostileSite:
    if not (REPO / "site" / "node_modules").is_dir():
        pytest.skip("the site's Pyodide is not installed (npm ci --prefix site)")
    root = tmp_path_factory.mktemp("attack") / "workspace"
    folder = make_hostile_workspace(root)
    manifest = json.loads((folder / "assets" / "carddb" / "manifest.json").read_text(encoding="utf-8"))
    gallery = json.loads((folder / manifest["games"][GAME]["gallery"]).read_text(encoding="utf-8"))
    return HostileSite(root, folder, {card["key"]: card["stem"] for card in gallery["cards"]})


@pytest.fixture(scope="module")
def served(hostile_site: HostileSite) -> Iterator[tuple[str, StudioServer]]:
    """The hostile site as ``carddb site serve`` serves it: live reload, the studio, the policy on every answer."""
    studio = StudioServer(Studio(Workspace(hostile_site.root)))
    output = hostile_site.root / "output"
    server = make_server(hostile_site.folder, "127.0.0.1", 0, live=LiveReload(hostile_site.folder, output),
                         studio=studio)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server_url(server), studio
    server.shutdown()
    server.server_close()


# --- what the build wrote ----------------------------------------------------------------------------------

class _Markup(HTMLParser):
    """What of a page could run or fetch: event handler attributes, script-like addresses, inline scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.title = ""
        self.policy = ""  # the <meta> Content-Security-Policy
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            address = "".join((value or "").split()).lower()
            if name.startswith("on") or (name in ("href", "src", "action", "formaction")
                                         and (address.startswith(("javascript:", "data:")) or FOREIGN in address)):
                self.found.append(f"<{tag} {name}={value!r}>")
        said = dict(attrs)
        if tag == "script" and not said.get("src") and said.get("type") != "application/json":
            self.found.append("an inline <script>")
        if tag == "meta" and said.get("http-equiv") == "Content-Security-Policy":
            self.policy = said.get("content") or ""
        self._in = tag

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self.title += data


def test_no_built_page_holds_markup_that_runs_and_the_policy_is_written_where_hosts_read_it(
        hostile_site: HostileSite) -> None:
    pages = sorted(hostile_site.folder.rglob("*.html"))
    assert len(pages) > 90
    for path in pages:
        markup = _Markup()
        markup.feed(path.read_text(encoding="utf-8"))
        assert markup.found == [], path.relative_to(hostile_site.folder)
        assert markup.policy == PAGE_POLICY, path.relative_to(hostile_site.folder)
    for name in NAMES:
        markup = _Markup()
        markup.feed((hostile_site.folder / hostile_site.page(name) / "index.html").read_text(encoding="utf-8"))
        assert markup.title == f"{name} - {SITE_NAME}"
    headers = (hostile_site.folder / "_headers").read_text(encoding="utf-8")
    assert headers.startswith(f"/*\n  Content-Security-Policy: {HEADER_POLICY}\n  X-Content-Type-Options: nosniff\n")


# --- in the browser ----------------------------------------------------------------------------------------

@dataclass
class Browsing:
    """One browser context on the site: every dialog, every request for another host (refused), every breach
    of the policy."""

    page: Any
    url: str
    dialogs: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)

    def goto(self, path: str) -> None:
        self.page.goto(self.url + path)

    def violations(self) -> list[str]:
        return self.page.evaluate("() => window.carddbViolations || []")


def browsing(chromium: Any, url: str, *, ignore_policy: bool) -> Browsing:
    context = chromium.new_context(bypass_csp=ignore_policy)
    context.add_init_script(VIOLATIONS + f"window.CARDDB_ENGINE_TIMEOUT_MS = {ENGINE_WAIT_MS};")
    visit = Browsing(context.new_page(), url)

    def route(request: Any) -> None:
        if request.request.url.startswith(url):
            request.continue_()
        else:
            visit.foreign.append(request.request.url)
            request.abort()

    context.route("**/*", route)
    visit.page.on("dialog", lambda dialog: (visit.dialogs.append(dialog.message), dialog.dismiss()))
    visit.page.set_default_timeout(ENGINE_WAIT_MS)
    return visit


def until(page: Any, expression: str, timeout_ms: int = 30_000) -> None:
    """Wait until ``expression`` holds in the page (``wait_for_function`` evaluates a string, which the site's
    policy forbids: its own ``evaluate`` the policy does not govern)."""
    for _ in range(timeout_ms // 50):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never: {expression}")


def every_page_kind(visit: Browsing, site: HostileSite, seen: Callable[[str], None] = lambda path: None) -> None:
    """Open each kind of page the site builds, with the hostile cards on it, and wait until its script has shown
    them; ``seen(path)`` after each."""
    page = visit.page
    for name in NAMES:  # each card's own page: its heading and title are its name, as written
        visit.goto(site.page(name))
        assert page.locator(HEADING).inner_text().removesuffix("¶") == name  # less its permalink
        assert page.title() == f"{name} - {SITE_NAME}"
        seen(site.page(name))
    visit.goto(site.page(TITLE_BREAKER))
    assert page.locator(".carddb-cardtext").inner_text() == SCRIPT_CLOSER
    assert page.locator(".carddb-flavor").inner_text() == TEMPLATE
    seen(site.page(TITLE_BREAKER))

    visit.goto(f"games/{GAME}/cards/")  # the gallery, its names and filters
    tile = page.locator(f"li.carddb-card#{site.stems[TITLE_BREAKER]}")
    assert tile.locator(".carddb-name").inner_text() == TITLE_BREAKER
    seen("gallery")

    # the deck builder, opened from a shared link holding every hostile card and one that names no card
    cards = ",".join(f"{quote(site.stems[name])}*2" for name in NAMES)
    visit.goto(f"games/{GAME}/checker/#deck=standard;main:{cards},{quote('<img src=x onerror=alert(9)>')}")
    page.wait_for_selector("[data-deck-builder][data-ready]", state="attached")  # its buttons are heard
    page.locator("[data-deck-view] li.carddb-deckcard", has_text=TITLE_BREAKER).wait_for()
    engine = page.locator("[data-builder-engine][data-state]:not([data-state=loading])")
    engine.wait_for(state="attached")
    assert engine.get_attribute("data-state") == "ready", engine.inner_text()
    page.locator("[data-builder-result][data-verdict]").wait_for(state="attached")  # checked by the engine
    page.locator("[data-playtest] summary").click()  # its playtest table: a hand dealt, the odds by card
    page.locator("[data-playtest] button[data-action=deal]").click()
    page.locator("[data-playtest-hand] li").first.wait_for()
    page.locator("[data-playtest-odds] table").wait_for()
    seen("builder")

    for path in ("", f"games/{GAME}/rulebook/", f"games/{GAME}/construction/", f"games/{GAME}/decks/",
                 f"games/{GAME}/online/"):
        visit.goto(path)
        page.locator(HEADING).wait_for()
        seen(path)
    visit.goto(f"games/{GAME}/play/")
    page.locator("form[data-play-form] button[type=submit]:enabled").first.wait_for()  # the engine is ready
    seen("play")

    visit.goto("")  # the site search lists the hostile cards' pages by their names; a result opens, highlighted
    assert page.locator(".md-tabs__link").filter(has_text="Mini-Battle").inner_text() == HOSTILE_GAME
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially("evil")
    page.locator(".md-search-result__item", has_text="onerror").first.click()
    page.locator(f"{HEADING} mark[data-md-highlight]").wait_for()
    assert page.locator(HEADING).inner_text().removesuffix("¶") == TITLE_BREAKER
    seen("search")


@pytest.mark.browser
def test_card_data_runs_nowhere_even_without_the_policy(chromium: Any, hostile_site: HostileSite,
                                                        served: tuple[str, StudioServer]) -> None:
    """Escaping alone: the browser ignores the site's policy, so a value that became markup would run here."""
    visit = browsing(chromium, served[0], ignore_policy=True)
    try:
        every_page_kind(visit, hostile_site)
        assert visit.dialogs == [] and visit.foreign == []
    finally:
        visit.page.context.close()


@pytest.mark.browser
def test_under_serve_no_page_breaks_the_policy_and_the_studio_shows_card_data_as_text(
        chromium: Any, hostile_site: HostileSite, served: tuple[str, StudioServer]) -> None:
    visit = browsing(chromium, served[0], ignore_policy=False)
    breaches: dict[str, list[str]] = {}

    def seen(path: str) -> None:
        if found := visit.violations():
            breaches[path] = found

    try:
        every_page_kind(visit, hostile_site, seen)
        page = visit.page
        visit.goto(hostile_site.page(TITLE_BREAKER))  # the studio's form: the card's values, as written
        page.get_by_role("button", name="Edit card").click()
        page.locator(".carddb-studio-face[data-drawn]").wait_for()
        assert page.locator("form.carddb-studio-form [name=name]").input_value() == TITLE_BREAKER
        seen("studio form")
        visit.goto(f"__carddb__/studio/gallery?game={GAME}")  # the designer's gallery
        page.locator(".carddb-studio-faces > li", has_text=TITLE_BREAKER).wait_for()
        seen("studio gallery")
        assert breaches == {} and visit.dialogs == [] and visit.foreign == []
    finally:
        visit.page.context.close()


#: What a script let into a page would do to rewrite a card file: what the studio's own script sends.
ATTACK = """if (!window.attacked) { window.attacked = true;
  fetch('/__carddb__/studio/open', {method: 'POST', headers: HEADERS, body: JSON.stringify({game: 'GAME',
  key: 'Pikachu'})}).then((r) => r.json()).then((form) => fetch('/__carddb__/studio/save', {method: 'POST',
  headers: HEADERS, body: JSON.stringify({game: 'GAME', key: 'Pikachu', digest: form.digest,
  values: {...form.values, hp: '999'}})})).then((r) => { document.body.dataset.attack = String(r.status); }); }
""".replace("HEADERS", '{"Content-Type": "application/json", "X-Carddb-Studio": "1"}').replace("GAME", GAME)


@pytest.mark.browser
def test_under_serve_a_script_an_escaping_bug_let_in_cannot_save(
        chromium: Any, hostile_site: HostileSite, served: tuple[str, StudioServer]) -> None:
    url, studio = served
    cards = hostile_site.root / "rules" / GAME / "cards" / "promo.yaml"
    before = cards.read_text(encoding="utf-8")
    built = (hostile_site.folder / hostile_site.page(TITLE_BREAKER) / "index.html").read_text(encoding="utf-8")
    broken = hostile_site.folder / "games" / GAME / "cards" / "escaping-bug"  # a page as a bug would build it
    broken.mkdir()
    (broken / "index.html").write_text(built.replace("<article", f"<script>{ATTACK}</script><img src=x onerror="
                                                     f'"{ATTACK.replace(chr(34), "&quot;")}"><article', 1),
                                       encoding="utf-8")
    visit = browsing(chromium, url, ignore_policy=False)
    try:
        visit.goto(f"games/{GAME}/cards/escaping-bug/")
        page = visit.page
        page.locator(".carddb-studio-bar").wait_for()  # the studio's own script ran, and had its cookie
        until(page, "(window.carddbViolations || []).length >= 2")
        assert all(found.startswith("script-src") for found in visit.violations())  # both refused
        assert page.evaluate("document.body.dataset.attack") is None and cards.read_text(encoding="utf-8") == before
        assert studio.token not in page.content() and studio.token not in page.evaluate("document.cookie")
    finally:
        visit.page.context.close()
    # The same page with the policy ignored: the script runs and saves, so the policy is what stopped it.
    visit = browsing(chromium, url, ignore_policy=True)
    try:
        visit.goto(f"games/{GAME}/cards/escaping-bug/")
        until(visit.page, "document.body.dataset.attack !== undefined")
        assert visit.page.evaluate("document.body.dataset.attack") == "200" and "hp: 999" in cards.read_text()
    finally:
        visit.page.context.close()
        cards.write_text(before, encoding="utf-8")
