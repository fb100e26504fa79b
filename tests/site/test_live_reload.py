"""The designer's loop, end to end: ``carddb site serve`` runs, a card file is saved, and the open card page shows
the new text and the new face without anyone pressing anything; a card file saved broken shows its error over
the page while the last good page stays, and the next good save clears it.

A real ``carddb`` process, a real file written as an editor writes it (a temporary file renamed over the card
file), Debian's Chromium driven by Playwright.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from carddb.app.watch import HOLD_BUILDS_ENV
from tests.site.conftest import StatusPolls, wait_until_idle

REPO = Path(__file__).resolve().parents[2]
CARD_PAGE = "games/shmod/cards/replenish/"
OLD = "Shuffle your Graveyard into your deck."
NEW = "Shuffle your Graveyard into your deck, then draw 2 cards."
HOLD = "hold-builds"  # beside the workspace: while it is there, the server's next build waits (``HOLD_BUILDS_ENV``)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def save_as_an_editor_does(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One ``site serve`` for the module (its first build is most of a test's time); each test starts once it is
    idle, and changes the card file in its own way."""
    root = tmp_path_factory.mktemp("live") / "workspace"
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod")
    (root / "templates").mkdir(parents=True)
    shutil.copytree(REPO / "templates" / "shmod", root / "templates" / "shmod")
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copytree(REPO / "site", root / "site", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    if not (REPO / "site" / "node_modules").is_dir():
        pytest.skip("the site's Pyodide is not installed (npm ci --prefix site)")
    (root / "site" / "node_modules").symlink_to(REPO / "site" / "node_modules", target_is_directory=True)
    process = subprocess.Popen([sys.executable, "-m", "carddb", "--root", str(root), "--db",
                                str(root / "output" / "catalogue.db"), "site", "serve", "--port", "0",
                                # what these tests never look at, left out of every build (``--skip``, tested below)
                                "--skip", "sheets", "--skip", "kit"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root,
                               env={**os.environ, HOLD_BUILDS_ENV: str(root.parent / HOLD)})
    url = None
    deadline = time.monotonic() + 240
    lines = []
    while url is None and time.monotonic() < deadline:
        line = process.stdout.readline()  # type: ignore[union-attr]
        if not line and process.poll() is not None:
            break
        lines.append(line)
        found = re.match(r"Serving on (http://127\.0\.0\.1:\d+/)", line)
        url = found.group(1) if found else None
    if url is None:
        process.kill()
        pytest.fail(f"site serve did not start: {''.join(lines)} {process.stderr.read()}")  # type: ignore[union-attr]
    yield root, url, process
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture
def served(server):  # type: ignore[no-untyped-def]
    """The module's server, once no build of an earlier test's change runs or waits."""
    wait_until_idle(server[1])
    return server


def face_digest(page) -> str:  # type: ignore[no-untyped-def]
    """The SHA-256 of the face image the page shows, as the browser fetched it."""
    return page.evaluate("""async () => {
        const image = document.querySelector('img[src*="assets/faces/shmod/replenish"]');
        const bytes = await (await fetch(image.src, {cache: "no-store"})).arrayBuffer();
        const digest = await crypto.subtle.digest("SHA-256", bytes);
        return Array.from(new Uint8Array(digest)).map(b => b.toString(16).padStart(2, "0")).join("");
    }""")


def wait_for_text(page, text: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    """Poll the page's article until it shows ``text`` (the site's CSP forbids the page-side polling of
    ``wait_for_function``, which evaluates a string)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if text in page.inner_text("article", timeout=1000):
                return
        except Exception:  # the page is reloading
            pass
        page.wait_for_timeout(20)
    raise AssertionError(f"the page never showed {text!r}")


def test_a_saved_card_shows_on_its_open_page_and_an_error_over_it(served, chromium) -> None:  # type: ignore[no-untyped-def]
    root, url, process = served
    context = chromium.new_context()
    page = context.new_page()
    page.set_default_timeout(60_000)
    polls = StatusPolls(page)
    page.goto(url + CARD_PAGE)
    assert OLD in page.inner_text("article")
    before = face_digest(page)
    polls.wait_for_first()  # the live-reload script runs, with the page's stamp
    cards = root / "rules" / "shmod" / "cards" / "base.yaml"
    text = cards.read_text(encoding="utf-8")

    saved = time.monotonic()
    save_as_an_editor_does(cards, text.replace(OLD, NEW, 1))
    wait_for_text(page, NEW)
    seconds = time.monotonic() - saved
    print(f"\nsaved card -> open page shows it: {seconds:.2f} s")  # measured in bench/bench_build.py too
    assert face_digest(page) != before  # the face on the page is the new one
    assert page.locator("#carddb-build-error").count() == 0

    # Saved half-written: the error is shown over the page, which stays as the last good build left it.
    save_as_an_editor_does(cards, text.replace(OLD, NEW, 1).replace("cards:", "cards: [", 1))
    overlay = page.locator("#carddb-build-error")
    overlay.wait_for(state="visible", timeout=60_000)
    assert "base.yaml" in overlay.inner_text()
    assert NEW in page.inner_text("article")
    assert process.poll() is None  # the watcher keeps running

    # Fixed: the overlay goes, and the page follows the next build.
    again = NEW.replace("2 cards", "3 cards")
    save_as_an_editor_does(cards, text.replace(OLD, again, 1))
    wait_for_text(page, again)
    assert page.locator("#carddb-build-error").count() == 0
    context.close()


def test_the_steps_serve_skips_are_left_out_and_the_site_is_not_skippable(served) -> None:  # type: ignore[no-untyped-def]
    root, _url, _process = served
    assert (root / "output" / "faces" / "shmod").is_dir() and (root / "output" / "site" / "index.html").is_file()
    assert not (root / "output" / "sheets").exists() and not (root / "output" / "kit").exists()
    from typer.testing import CliRunner

    from carddb.cli.main import app

    for skip, said in (("site", "cannot skip the site"), ("pdfs", "unknown build step 'pdfs'")):
        result = CliRunner().invoke(app, ["--root", str(root), "site", "serve", "--port", "0", "--skip", skip])
        assert result.exit_code != 0 and said in result.output, result.output
    result = CliRunner().invoke(app, ["--root", str(root), "site", "serve", "--no-watch", "--skip", "kit"])
    assert result.exit_code != 0 and "--skip is for watching" in result.output, result.output


def test_the_built_site_has_no_live_reload_script(served) -> None:  # type: ignore[no-untyped-def]
    root, url, _process = served
    from urllib.request import urlopen

    page = (root / "output" / "site" / CARD_PAGE / "index.html").read_text(encoding="utf-8")
    assert "__carddb__" not in page  # never written into the site
    with urlopen(url + CARD_PAGE) as answer:  # only the server adds it, as it sends the page
        assert re.search(rb'<script src="/__carddb__/live\.js" data-stamp="[0-9a-f]{16}" defer></script></body>',
                         answer.read())
        assert answer.headers["Cache-Control"] == "no-store"


def test_a_page_opened_before_its_card_is_built_turns_into_the_card(served, chromium) -> None:  # type: ignore[no-untyped-def]
    """A card added while its page is open (the studio's New card opens it at once): the page is the site's 404 page,
    saying while a build runs that it is being built, and it opens as the card's page by itself once built."""
    root, url, _process = served
    context = chromium.new_context()
    page = context.new_page()
    page.set_default_timeout(60_000)
    polls = StatusPolls(page)
    answer = page.goto(url + "games/shmod/cards/ember-pup/")
    assert answer is not None and answer.status == 404
    polls.wait_for_first()  # the live-reload script has its first stamp
    cards = root / "rules" / "shmod" / "cards" / "base.yaml"
    hold = root.parent / HOLD  # the build this save starts waits until the page has said it is being built
    hold.touch()
    try:
        save_as_an_editor_does(cards, cards.read_text(encoding="utf-8") + (
            '  - name: Ember Pup\n    kind: monster\n    number: "M98"\n    type: FIRE\n    atk: 1\n    def: 1\n'
            '    level: 1\n    categories: [Beast]\n'))
        page.locator("#carddb-page-building").wait_for(state="attached", timeout=60_000)
    finally:
        hold.unlink()
    wait_for_text(page, "Ember Pup")
    assert page.locator("#carddb-page-building").count() == 0
    context.close()
