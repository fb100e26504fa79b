"""The play helpers on the site, in headless Chromium: every helper's form, filled with an example's request, shows
what ``carddb play <game> <helper> --json`` answers for the same example (answer, working, problems, verdict), each
step links to its rulebook section, card names are offered from the catalogue, and bad input is a message."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from carddb.cli.main import app
from tests.play_examples import EXAMPLES, Example
from tests.site.conftest import HOSTILE_NAME, BuiltSite, Visit, open_visit

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ORDERED = sorted(EXAMPLES, key=lambda e: e.game)  # one page load per game


def cli_answer(db: str, example: Example) -> dict[str, Any]:
    group = ["ssq"] if example.game == "ssq" else ["play", example.game]
    result = CliRunner().invoke(app, ["--root", str(REPO), "--db", db, *group, example.helper, *example.args, "--json"],
                                catch_exceptions=False)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return json.loads(result.stdout)


def page_of(game: str) -> str:
    return "games/ssq/checker/" if game == "ssq" else f"games/{game}/play/"


@pytest.fixture(scope="module")
def helpers(chromium: Any, site: BuiltSite) -> Iterator[dict[str, Any]]:
    opened = open_visit(chromium, site)
    yield {"visit": opened, "game": None}
    opened.page.context.close()


def open_game(state: dict[str, Any], site: BuiltSite, game: str) -> Any:
    page = state["visit"].page
    if state["game"] != game:
        page.goto(f"{site.url}{page_of(game)}")
        page.wait_for_selector(f"[data-play][data-game={game}] [data-engine][data-state=ready]")
        page.wait_for_function(f"() => !document.querySelector('form[data-play-form][data-game={game}] "
                               "button[type=submit]').disabled")
        state["game"] = game
    return page


def fill(scope: Any, request: dict[str, Any], prefix: str = "") -> None:
    """Fill the fields a request names (see carddb/site/play_page.py): ``a.b``, ``x[]`` and ``[data-row]`` rows."""
    for key, value in request.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            fill(scope, value, f"{path}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            rows = scope.locator(f"[data-row={key}]")
            for index, item in enumerate(value):
                fill(rows.nth(index), item)
        elif isinstance(value, list):
            fields = scope.locator(f"[name='{path}[]']")
            if fields.count() and fields.first.get_attribute("type") == "checkbox":
                for i in range(fields.count()):
                    fields.nth(i).set_checked(fields.nth(i).get_attribute("value") in value)
            else:
                for index, item in enumerate(value):
                    fields.nth(index).fill(str(item))
        else:
            field = scope.locator(f"[name='{path}']").first
            if isinstance(value, bool):
                field.set_checked(value)
            elif field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(str(value))
            else:
                field.fill(str(value))


def ask(page: Any, game: str, helper: str, request: dict[str, Any]) -> dict[str, Any]:
    form = page.locator(f"form[data-play-form][data-game={game}][data-helper='{helper}']")
    form.evaluate("f => f.reset()")
    fill(form, request)
    box = page.locator(f"[data-play-result='{helper}']")
    before = int(box.get_attribute("data-checks") or 0)
    form.locator("button[type=submit]").click()
    page.wait_for_function(f"() => Number(document.querySelector(\"[data-play-result='{helper}']\").dataset.checks "
                           f"|| 0) > {before}")
    return {"verdict": box.get_attribute("data-verdict"),
            "answer": "".join(box.locator(".carddb-play-answer").all_inner_texts()) or box.inner_text(),
            "working": [item.inner_text() for item in box.locator("ol.carddb-working .carddb-step").all()],
            "problems": [item.inner_text() for item in box.locator("li.carddb-problem .carddb-message").all()],
            "links": [a.get_attribute("href") for a in box.locator("ol.carddb-working a").all()]}


@pytest.mark.parametrize("example", ORDERED, ids=[e.id for e in ORDERED])
def test_each_form_gives_the_command_lines_answer(helpers: dict[str, Any], site: BuiltSite, loaded_db: str,
                                                  example: Example) -> None:
    if example.game not in site.report.games:
        pytest.skip(f"{example.game} is not in the test catalogue")
    expected = cli_answer(loaded_db, example)
    page = open_game(helpers, site, example.game)
    got = ask(page, example.game, example.helper, example.request)
    assert got["verdict"] == ("legal" if expected["legal"] else "illegal")
    assert (got["answer"], got["working"], got["problems"]) == (
        expected["answer"], [w["text"] for w in expected["working"]], [p["message"] for p in expected["problems"]])
    # Each step's link opens its rulebook section.
    assert [href.split("/games/", 1)[1] for href in got["links"]] == [
        w["rule"].replace("rules/", "", 1).replace("rulebook.md#", "rulebook/#") for w in expected["working"]]
    assert helpers["visit"].external == [] and helpers["visit"].dialogs == []


def test_bad_input_is_a_message_and_names_are_offered(helpers: dict[str, Any], site: BuiltSite) -> None:
    page = open_game(helpers, site, "ssbm")
    got = ask(page, "ssbm", "ko", {"attack": "Smash Attack", "target": "Mario", "damage": 85,
                                   "recovery": ["Jump", "Attack"]})
    assert (got["verdict"], got["answer"]) == ("error", "Attack is not a recovery card (no 1st or 2nd Recovery icon)")
    got = ask(page, "ssbm", "damage", {"character": "Ganondorf", "attacks": [{"card": "Set-Up Atack"}]})
    assert got["answer"] == ("no play card called 'Set-Up Atack' in Super Smash Bros. Melee CCG; did you mean "
                             "'Set-Up Attack'?")
    options = page.locator("datalist#play-ssbm-recovery option").evaluate_all("os => os.map(o => o.value)")
    assert "Mario's Coin Jump" in options and "Attack" not in options


def test_the_ganondorf_example_on_the_page(helpers: dict[str, Any], site: BuiltSite) -> None:
    page = open_game(helpers, site, "ssbm")
    got = ask(page, "ssbm", "damage", {"character": "Ganondorf", "attacks": [{"card": "Set-Up Attack"}]})
    assert got["answer"] == "Ganondorf deals 10D with Set-Up Attack."
    assert got["working"] == ["Set-Up Attack: STRENGTH 7 + 3 = 10D."]


def test_a_card_name_of_markup_is_an_option_not_markup(helpers: dict[str, Any], site: BuiltSite) -> None:
    page = open_game(helpers, site, "shmod")
    options = page.locator("datalist#play-shmod-monster option").evaluate_all("os => os.map(o => o.value)")
    assert HOSTILE_NAME in options
    assert page.locator("img[src=x]").count() == 0 and helpers["visit"].dialogs == []


def test_ssqs_turn_calculator_is_its_helpers_forms(helpers: dict[str, Any], site: BuiltSite) -> None:
    if "ssq" not in site.report.games:
        pytest.skip("ssq is not in the test catalogue")
    page = open_game(helpers, site, "ssq")
    assert page.locator("h1").inner_text().rstrip("¶") == "Super Smash Quest Skirmish: turn calculator"
    got = ask(page, "ssq", "turn", {"fighter": "Mario", "tick": 2, "target": "Bowser",
                                    "actions": [{"action": "Red Fireball", "successes": 11, "defence_successes": 1}]})
    assert got["verdict"] == "illegal"
    assert got["problems"] == ["Red Fireball: 11 attack successes cannot come from 5 dice; the most is 10 (2 a die)."]
    got = ask(page, "ssq", "sp", {"fighter": "Mario", "sp": 9, "from_tick": 0, "to_tick": 5})
    assert (got["verdict"], got["answer"]) == ("error", "9 SP is not between 0 and the maximum 3")


def test_play_page_is_in_the_nav_and_linked_from_the_checker(visit: Visit, site: BuiltSite) -> None:
    page = visit.page
    page.goto(f"{site.url}games/website/checker/")
    page.click("article a[href$='/games/website/play/']")
    page.wait_for_selector("[data-play][data-game=website]")
    assert page.url.endswith("/games/website/play/")
    assert page.locator("h1").inner_text().rstrip("¶") == "Website TCG: play helpers"
    assert page.locator("a.md-nav__link[href$='/website/play/'], a.md-nav__link[href='./']",
                        has_text="Play").count() >= 1
