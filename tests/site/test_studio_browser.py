"""The card studio as a designer uses it, in Chromium on a real ``carddb site serve``: open a card page, edit a
number and a line of text and see the face redrawn, save; ``git diff`` of the card file shows exactly those two
lines, its comments intact, and the page (reloaded) shows the change. Then a card added and one deleted from the
browser, the gallery filtered by a layout problem, and the editor checked by axe-core at 360 px and 1280 px.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest
from PIL import Image

from carddb.catalogue.api import Catalogue
from carddb.incremental import MANIFEST
from carddb.workspace import Workspace
from tests.catalogue.test_studio_edits import entry_text
from tests.site.conftest import SITEMAP_READ, StatusPolls, add_axe, wait_for_instant_navigation, wait_until_idle

REPO = Path(__file__).resolve().parents[2]
CARDS = "rules/shmod/cards/base.yaml"
AXE = REPO / "site" / "node_modules" / "axe-core" / "axe.min.js"
OLD_TEXT = "Shuffle your Graveyard into your deck."
NEW_TEXT = "Shuffle your Graveyard into your deck, then draw 1 card."

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    if not (REPO / "site" / "node_modules").is_dir():
        pytest.skip("the site's Pyodide is not installed (npm ci --prefix site)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed; the test reads the card file's diff with it")
    root = tmp_path_factory.mktemp("studio") / "workspace"
    shutil.copytree(REPO / "rules" / "shmod", root / "rules" / "shmod")
    (root / "templates").mkdir(parents=True)
    shutil.copytree(REPO / "templates" / "shmod", root / "templates" / "shmod")
    shutil.copy(REPO / "templates" / "icons.toml", root / "templates" / "icons.toml")
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copytree(REPO / "site", root / "site", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    (root / "site" / "node_modules").symlink_to(REPO / "site" / "node_modules", target_is_directory=True)
    git(root, "init", "-q")
    git(root, "add", "rules")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "cards")
    process = subprocess.Popen([sys.executable, "-m", "carddb", "--root", str(root), "--db",
                                str(root / "output" / "catalogue.db"), "site", "serve", "--port", "0",
                                "--skip", "kit"],  # the print-and-play kits: no test here reads them
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root)
    url, lines = None, []
    deadline = time.monotonic() + 300
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
    yield root, url
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def wait_for_text(page: Any, text: str, timeout: float = 90.0) -> None:
    """Poll the article until it shows ``text`` (the site's CSP forbids ``wait_for_function``'s string eval)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if text in page.inner_text("article", timeout=1000):
                return
        except Exception:  # the page is reloading
            pass
        page.wait_for_timeout(50)
    raise AssertionError(f"the page never showed {text!r}")


def open_editor(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_role("button", name="Edit card").click()
    page.locator(".carddb-studio-face[data-drawn]").wait_for()


def drawn(page: Any) -> tuple[str, str]:
    face = page.locator(".carddb-studio-face")
    return face.get_attribute("data-drawn"), face.get_attribute("src")


def wait_redrawn(page: Any, before: tuple[str, str]) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        now = drawn(page)
        if now[0] != before[0]:
            return now[1]
        page.wait_for_timeout(20)
    raise AssertionError("the face was not redrawn")


def test_edit_a_number_and_a_line_of_text_see_the_face_change_and_save(served: tuple[Path, str],
                                                                      chromium: Any) -> None:
    root, url = served
    face_file = root / "output" / "faces" / "shmod" / "replenish.png"
    face_before = face_file.read_bytes()
    with Image.open(face_file) as face:
        size_before = face.size
    page = chromium.new_context().new_page()
    page.set_default_timeout(60_000)
    open_editor(page, url + "games/shmod/cards/replenish/")
    first = drawn(page)
    page.get_by_label("LEVEL").fill("3")
    after_level = wait_redrawn(page, first)
    assert after_level != first[1]  # the face shows the new level
    before_text = drawn(page)
    page.get_by_label("Rules text").fill(NEW_TEXT)
    assert wait_redrawn(page, before_text) != after_level

    page.get_by_label("LEVEL").fill("lots")  # a problem shows beside its field, the face stays
    problem = page.locator('[data-field="level"] .carddb-studio-problem')
    problem.filter(has_text="expected a whole number").wait_for()
    assert page.get_by_label("LEVEL").get_attribute("aria-invalid") == "true"
    page.get_by_label("LEVEL").fill("3")
    page.locator('[data-field="level"] .carddb-studio-problem:empty').wait_for(state="attached")

    page.get_by_role("button", name="Save").click()
    wait_for_text(page, NEW_TEXT)  # the site is rebuilt and the page reloads itself
    diff = git(root, "diff", "--unified=0", "--", CARDS)
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == ["-    level: 2", f'-    text: "{OLD_TEXT}"', "+    level: 3", f'+    text: "{NEW_TEXT}"']
    assert (root / CARDS).read_text(encoding="utf-8").startswith("# Shmod base set.")
    page.reload()
    wait_for_text(page, NEW_TEXT)
    assert "3" in page.inner_text(".carddb-cardpage-info")
    # the watcher loaded the file into the catalogue and drew the face again, as for a file saved by an editor
    (card,) = Catalogue(str(root / "output" / "catalogue.db"), Workspace(root)).find("shmod", "Replenish")
    assert card.fields["level"] == 3 and card.text == NEW_TEXT
    assert face_file.read_bytes() != face_before
    with Image.open(face_file) as face:
        assert face.format == "PNG" and face.size == size_before
    # and the proxy sheets that hold the card, made last by the same build: what the designer prints shows it
    wait_until_idle(url)
    sheet = pypdf.PdfReader(root / "output" / "sheets" / "shmod" / "legal-fire-water-fusion-fronts.pdf")
    printed = " ".join(" ".join(page.extract_text().split()) for page in sheet.pages)
    assert NEW_TEXT in printed and OLD_TEXT not in printed


def rebuild_stamp(root: Path) -> None:
    """Give the served site a new stamp, as a finished rebuild does: its manifest replaced, a page's key new."""
    manifest = root / "output" / "site" / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["parts"]["index.html"]["key"] += "0"
    temp = manifest.with_name(".rebuilt")
    temp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(temp, manifest)


def test_a_rebuild_never_reloads_the_page_under_unsaved_edits(served: tuple[Path, str], chromium: Any) -> None:
    root, url = served
    wait_until_idle(url)
    page = chromium.new_context().new_page()
    page.set_default_timeout(60_000)
    polls = StatusPolls(page)
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    open_editor(page, url + "games/shmod/cards/monster-bash/")
    page.get_by_label("Rules text").fill("Typed, not saved.")
    loaded = len(loads)
    rebuild_stamp(root)
    page.locator(".carddb-studio-status").filter(has_text="reloads once your edits are saved").wait_for()
    polls.wait(4)  # four answers with the new stamp: none reloaded the page
    assert len(loads) == loaded
    assert page.get_by_label("Rules text").input_value() == "Typed, not saved."

    with page.expect_navigation():  # closed, the page catches up with the rebuild it held
        page.get_by_role("button", name="Close").click()
    assert "Typed, not saved." not in (root / CARDS).read_text(encoding="utf-8")

    # an open editor with nothing unsaved lets the page reload, and is open again after it
    page.get_by_role("button", name="Edit card").click()
    page.locator(".carddb-studio-face[data-drawn]").wait_for()
    with page.expect_navigation():
        rebuild_stamp(root)
    page.get_by_role("heading", name=re.compile("^Edit ")).wait_for()

    # a new card's form is kept too, from the click that opens it
    page.get_by_role("button", name="New card").click()
    rebuild_stamp(root)
    page.get_by_role("heading", name="New shmod card").wait_for()
    page.get_by_label("Name").fill("Not Added")
    polls.wait(4)
    assert page.get_by_label("Name").input_value() == "Not Added"


def test_add_a_card_delete_it_and_undo_from_the_browser(served: tuple[Path, str], chromium: Any) -> None:
    root, url = served
    wait_until_idle(url)  # no earlier test's rebuild reloads the page under a click
    page = chromium.new_context().new_page()
    page.set_default_timeout(60_000)
    page.goto(url + "games/shmod/cards/monster-bash/")
    page.get_by_role("button", name="New card").click()
    page.get_by_role("heading", name="New shmod card").wait_for()
    # nothing said against a form not yet filled in, and no broken image: a blank card says what comes there
    blank = page.locator(".carddb-studio-blank")
    blank.filter(has_text="drawn here as soon as the card has a name").wait_for()
    assert page.locator(".carddb-studio-face").is_hidden()
    page.get_by_label("Name").fill("Studio Spark")
    page.get_by_label("Name").press("Tab")
    # the preview's answer to the name typed: still nothing said of LEVEL, not typed in yet
    page.locator(".carddb-studio[data-preview=done]").wait_for(state="attached")
    assert page.locator(".carddb-studio-problem").all_inner_texts() == [""] * page.locator(
        ".carddb-studio-problem").count()
    assert page.locator('[aria-invalid="true"]').count() == 0
    page.get_by_label("LEVEL").fill("1")
    page.locator(".carddb-studio-face[data-drawn]").wait_for()  # the face, as soon as the values make a card
    assert blank.is_hidden()
    page.get_by_label("Rules text").fill("Draw 1 card.")
    page.get_by_label("Collector number").fill("S77")
    page.get_by_role("button", name="Add card").click()
    page.wait_for_url("**/games/shmod/cards/studio-spark/")
    wait_for_text(page, "Draw 1 card.")  # the new card's page, once the site is rebuilt
    # in the file's own style: the keys in the order of its spells, its quotes, no "set: base" its set gives
    assert entry_text((root / CARDS).read_text(encoding="utf-8"), "Studio Spark") == (
        "  - name: Studio Spark\n"
        "    kind: spell\n"
        '    number: "S77"\n'
        "    level: 1\n"
        '    text: "Draw 1 card."\n')

    # deleted from its own page (a card no sample deck names: the build checks the decks)
    page.get_by_role("button", name="Edit card").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete…").click()
    page.wait_for_url("**/games/shmod/cards/")
    # the list it lands on says what was deleted, with an Undo right there, and has the focus
    notice = page.locator(".carddb-studio-notice")
    notice.filter(has_text="Deleted Studio Spark from rules/shmod/cards/base.yaml.").wait_for()
    assert focused(notice)
    if AXE.is_file():
        assert axe_violations(page) == []
    assert "name: Studio Spark" not in (root / CARDS).read_text(encoding="utf-8")
    deadline = time.monotonic() + 90
    while page.request.get(url + "games/shmod/cards/studio-spark/").status != 404:
        assert time.monotonic() < deadline, "the deleted card's page is still there"
        page.wait_for_timeout(200)
    assert page.locator("#carddb-build-error").count() == 0

    wait_until_idle(url)  # the deletion's build is over: its reload would swallow the click on Undo
    notice.get_by_role("button", name="Undo").click()  # said again after the list's page reloaded itself
    notice.filter(has_text="Undid: deleted Studio Spark").wait_for()
    assert "name: Studio Spark" in (root / CARDS).read_text(encoding="utf-8")
    notice.get_by_role("link", name="Open Studio Spark").wait_for()
    deadline = time.monotonic() + 90
    while page.request.get(url + "games/shmod/cards/studio-spark/").status != 200:
        assert time.monotonic() < deadline, "the card undeleted has no page again"
        page.wait_for_timeout(200)


def test_the_gallery_filters_faces_by_a_layout_problem_and_opens_the_editor(served: tuple[Path, str],
                                                                          chromium: Any) -> None:
    _root, url = served
    # The builds of earlier tests' saves end first: a reload of the card page racing the Back below would
    # swallow it (Chromium aborts one of the two navigations), leaving the test on the card page
    wait_until_idle(url)
    page = chromium.new_context().new_page()
    page.set_default_timeout(60_000)
    page.goto(url + "__carddb__/studio/gallery?game=shmod")
    faces = page.locator(".carddb-studio-faces > li")
    faces.first.wait_for()
    every = faces.count()
    page.get_by_label("Show:").select_option("shrunk")
    shrunk = faces.count()
    assert 0 < shrunk < every
    assert all("shrunk from" in faces.nth(n).inner_text() for n in range(shrunk))
    faces.first.get_by_role("link").click()
    page.locator(".carddb-studio-face[data-drawn]").wait_for()
    page.go_back()
    page.get_by_role("link", name="New card").click()  # the first card's page, its form blank
    page.get_by_role("heading", name="New shmod card").wait_for()
    assert page.get_by_label("Name").input_value() == ""


def axe_violations(page: Any) -> list[str]:
    """The critical and serious problems axe-core finds in the page as it is now."""
    add_axe(page, AXE.read_text(encoding="utf-8"))
    return page.evaluate("""() => axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' ')}: ${v.help}`))""")


def focused(locator: Any) -> bool:
    return locator.evaluate("(element) => element === document.activeElement")


def in_sight(page: Any, locator: Any) -> dict[str, float]:
    """The element's box, checked to be wholly inside the window and not under the editor's face (held at the top
    of a phone's screen)."""
    box = locator.bounding_box()
    view = page.viewport_size
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= view["height"] + 1, (box, view)
    face = page.locator(".carddb-studio-preview").bounding_box()
    beside = face["x"] >= box["x"] + box["width"] or box["x"] >= face["x"] + face["width"]
    assert beside or box["y"] >= face["y"] + face["height"] - 1 or box["y"] + box["height"] <= face["y"], (box, face)
    return box


@pytest.mark.parametrize("width", [360, 1280])
def test_a_refused_save_is_said_beside_save_and_at_the_field_which_gets_the_focus(
        served: tuple[Path, str], chromium: Any, width: int) -> None:
    if not AXE.is_file():
        pytest.skip(f"{AXE} is missing: run `npm ci --prefix site`")
    root, url = served
    wait_until_idle(url)
    before = (root / CARDS).read_text(encoding="utf-8")
    page = chromium.new_context(viewport={"width": width, "height": 800}).new_page()
    page.set_default_timeout(60_000)
    open_editor(page, url + "games/shmod/cards/cinder-hound/")
    save = page.get_by_role("button", name="Save")
    refusal = page.locator(".carddb-studio-refusal")
    page.get_by_label("ATK").fill("lots")
    page.get_by_label("Name").fill("Yoink!")  # another card's name: only a save finds that out
    save.click()
    refusal.filter(has_text="Not saved: see the problem under ATK.").wait_for()
    atk = page.get_by_label("ATK")
    assert focused(atk) and atk.get_attribute("aria-invalid") == "true"
    page.get_by_label("ATK").fill("3")  # the value right again: the refusal goes with its problem
    refusal.filter(has_text="Not saved").wait_for(state="hidden")
    assert atk.get_attribute("aria-invalid") == "false"

    save.click()
    refusal.filter(has_text="Not saved: see the problem under Name.").wait_for()
    # beside Save, and what Save is described by
    assert save.get_attribute("aria-describedby") == refusal.get_attribute("id")
    save_box, said_box = save.bounding_box(), refusal.bounding_box()
    assert 0 <= said_box["y"] - (save_box["y"] + save_box["height"]) < 100, (save_box, said_box)
    # at the field, focused and in sight with its problem, which it is described by
    name = page.get_by_label("Name")
    assert focused(name) and name.get_attribute("aria-invalid") == "true"
    name_problem = page.locator('[data-field="name"] .carddb-studio-problem')
    assert "has a card named 'Yoink!' already" in name_problem.inner_text()
    assert name_problem.get_attribute("id") in name.get_attribute("aria-describedby").split()
    in_sight(page, name)
    in_sight(page, name_problem)
    page.screenshot(path=str(root.parent / f"refused-{width}.png"))
    assert axe_violations(page) == []
    assert (root / CARDS).read_text(encoding="utf-8") == before
    page.get_by_role("button", name="Close").click()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_face_stays_in_sight_while_typing(served: tuple[Path, str], chromium: Any, width: int) -> None:
    root, url = served
    wait_until_idle(url)
    page = chromium.new_context(viewport={"width": width, "height": 800}).new_page()
    page.set_default_timeout(60_000)
    open_editor(page, url + "games/shmod/cards/magma-colossus/")
    face = page.locator(".carddb-studio-face")
    page.get_by_label("Rules text").click()  # halfway down the form, then as the keyboard goes down it
    for label, tabs in (("Rules text", 0), ("Flavour text", 1), ("Collector number", 2)):
        for _ in range(tabs):
            page.keyboard.press("Tab")
        field = page.get_by_label(label)
        assert focused(field)
        before = drawn(page)
        page.keyboard.press("End")
        page.keyboard.type("7")
        wait_redrawn(page, before)  # the face redrawn, in sight, and never over the field typed in
        in_sight(page, field)
        box = page.locator(".carddb-studio-preview").bounding_box()
        assert box["y"] >= 0 and face.bounding_box()["height"] >= 150
    page.screenshot(path=str(root.parent / f"typing-{width}.png"))
    page.get_by_role("button", name="Close").click()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("screen", ["editor", "new", "gallery"])
def test_the_editor_and_the_gallery_pass_axe_and_fit_the_screen(served: tuple[Path, str], chromium: Any, width: int,
                                                                screen: str) -> None:
    if not AXE.is_file():
        pytest.skip(f"{AXE} is missing: run `npm ci --prefix site`")
    _root, url = served
    wait_until_idle(url)  # no reload of the page while axe reads it
    page = chromium.new_context(viewport={"width": width, "height": 800}).new_page()
    page.set_default_timeout(60_000)
    if screen == "editor":
        open_editor(page, url + "games/shmod/cards/cinder-hound/")
        page.get_by_role("button", name="Add a printing").click()  # with a second printing's inputs
        page.get_by_role("group", name="Printing 2").wait_for()
        page.get_by_label("ATK").fill("x")  # and a problem shown
        page.locator('[data-field="atk"] .carddb-studio-problem').filter(has_text="whole number").wait_for()
    elif screen == "new":  # a blank card where the face comes
        page.goto(url + "games/shmod/cards/cinder-hound/")
        page.get_by_role("button", name="New card").click()
        page.locator(".carddb-studio-blank").wait_for()
    else:
        page.goto(url + "__carddb__/studio/gallery?game=shmod")
        page.locator(".carddb-studio-faces > li").first.wait_for()
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_editor_follows_instant_navigation_to_the_next_card(served: tuple[Path, str], chromium: Any) -> None:
    _root, url = served
    wait_until_idle(url)  # a reload of the page by an earlier test's rebuild would swallow the click on Edit
    context = chromium.new_context()
    context.add_init_script(SITEMAP_READ)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url + "games/shmod/cards/yoink/")
    wait_for_instant_navigation(page)  # else the click is a full page load, and the test would not test a swap
    page.evaluate("window.__same_visit = true")
    page.locator(".carddb-pager a", has_text="Revival Stone").click()  # Material swaps the page in place
    page.wait_for_url("**/games/shmod/cards/revival-stone/")
    # the URL changes before Material swaps the content in: until the new card's part is there with its bar, a
    # click would land on the old card's Edit button, whose form goes with the old content
    page.locator('[data-card-page][data-key="Revival Stone"][data-studio]').wait_for(state="attached")
    assert page.locator(".carddb-studio-bar").count() == 1
    page.get_by_role("button", name="Edit card").click()
    page.get_by_role("heading", name="Edit Revival Stone").wait_for()
    assert page.get_by_label("Name").input_value() == "Revival Stone"
    assert page.evaluate("window.__same_visit") is True  # the page was swapped in place, never loaded


def test_a_printing_added_in_the_browser_is_saved_shown_and_removed_again(served: tuple[Path, str],
                                                                        chromium: Any) -> None:
    root, url = served
    wait_until_idle(url)  # no earlier test's rebuild reloads the page under a click
    before = (root / CARDS).read_text(encoding="utf-8")
    page = chromium.new_context().new_page()
    page.set_default_timeout(60_000)
    open_editor(page, url + "games/shmod/cards/ember-whelp/")
    page.get_by_role("button", name="Add a printing").click()
    second = page.get_by_role("group", name="Printing 2")
    assert second.get_by_label("Set").input_value() == "base"  # the first printing's set, to start from
    assert page.get_by_label("Set").count() == 2
    second.get_by_label("Collector number").fill("P01")
    second.get_by_label("Rarity").fill("promo")
    page.get_by_role("button", name="Save").click()
    wait_for_text(page, "P01")  # the card page's table of printings, once the site is rebuilt
    after = (root / CARDS).read_text(encoding="utf-8")
    assert entry_text(after, "Ember Whelp") == (
        "  - name: Ember Whelp\n"
        "    kind: monster\n"
        "    type: FIRE\n"
        "    atk: 2\n"
        "    def: 1\n"
        "    level: 1\n"
        "    categories: [Dragon]\n"
        "    printings:\n"
        "      - set: base\n"
        '        number: "M01"\n'
        "      - set: base\n"
        '        number: "P01"\n'
        "        rarity: promo\n"
        '    sample: ["*"]\n')
    assert after.replace(entry_text(after, "Ember Whelp"), "") == before.replace(entry_text(before, "Ember Whelp"), "")
    (card,) = Catalogue(str(root / "output" / "catalogue.db"), Workspace(root)).find("shmod", "Ember Whelp")
    assert [(p.number, p.rarity) for p in card.printings] == [("M01", ""), ("P01", "promo")]

    wait_until_idle(url)
    page = page.context.new_page()  # a tab of its own: the first one reopens its editor after the reload
    open_editor(page, url + "games/shmod/cards/ember-whelp/")
    second = page.get_by_role("group", name="Printing 2")
    assert second.get_by_label("Collector number").input_value() == "P01"
    second.get_by_role("button", name="Remove printing 2").click()
    assert page.get_by_role("group", name="Printing 2").count() == 0
    assert page.get_by_role("button", name="Add a printing").evaluate("(button) => button === document.activeElement")
    page.get_by_role("button", name="Save").click()
    deadline = time.monotonic() + 90
    while "P01" in page.request.get(url + "games/shmod/cards/ember-whelp/").text():
        assert time.monotonic() < deadline, "the printing removed is still on the card's page"
        page.wait_for_timeout(200)
    (card,) = Catalogue(str(root / "output" / "catalogue.db"), Workspace(root)).find("shmod", "Ember Whelp")
    assert [p.number for p in card.printings] == ["M01"]
    assert "P01" not in (root / CARDS).read_text(encoding="utf-8")


def test_deleting_a_card_a_sample_deck_names_shows_the_builds_error_until_undone(served: tuple[Path, str],
                                                                                chromium: Any) -> None:
    if not AXE.is_file():
        pytest.skip(f"{AXE} is missing: run `npm ci --prefix site`")
    root, url = served
    wait_until_idle(url)  # no earlier test's rebuild reloads the page under a click
    page = chromium.new_context(viewport={"width": 360, "height": 800}).new_page()
    page.set_default_timeout(90_000)
    page.goto(url + "games/shmod/cards/monster-bash/")
    page.get_by_role("button", name="Edit card").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete…").click()
    page.wait_for_url("**/games/shmod/cards/")
    overlay = page.locator("#carddb-build-error")
    overlay.wait_for(state="visible")
    said = overlay.inner_text()  # the sample decks that name it no longer keep their promise
    assert "sample deck" in said and "unknown-card" in said
    add_axe(page, AXE.read_text(encoding="utf-8"))
    violations = page.evaluate("""() => axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => v.id))""")
    assert violations == []
    wait_until_idle(url)  # the deletion's build is over: its reload would swallow the click on Undo
    page = page.context.new_page()
    page.goto(url + "games/shmod/cards/replenish/")
    page.get_by_role("button", name="Undo last edit").click()
    page.locator(".carddb-studio-barstatus").filter(has_text="Undid").wait_for()
    assert "name: Monster Bash" in (root / CARDS).read_text(encoding="utf-8")
    deadline = time.monotonic() + 90
    while page.request.get(url + "games/shmod/cards/monster-bash/").status != 200:
        assert time.monotonic() < deadline, "the card undeleted has no page again"
        page.wait_for_timeout(200)
    page = page.context.new_page()  # the page the undo was pressed on reloads itself when the site is rebuilt
    polls = StatusPolls(page)
    page.goto(url + "games/shmod/cards/monster-bash/")
    polls.wait_for_first()  # the live-reload script has shown the error, if the status has one
    assert page.locator("#carddb-build-error").count() == 0
