"""The Play pages and the ssq odds forms read back from the built site: a form for every helper, datalists of the
catalogue's names (markup escaped), the link from the checker page, the play readings on the construction page."""

from __future__ import annotations

import html
import re

from carddb.core.play.helpers import helpers
from tests.core.decks import starter
from tests.site.conftest import HOSTILE_NAME, BuiltSite
from tests.site.htmlread import table

FORM = re.compile(r'<form class="carddb-play-form" data-play-form data-game="(?P<game>[^"]+)" '
                  r'data-helper="(?P<helper>[^"]+)">')


def forms(page_html: str) -> list[tuple[str, str]]:
    return [(m["game"], m["helper"]) for m in FORM.finditer(page_html)]


def test_a_form_for_every_helper(site: BuiltSite) -> None:
    for game_id in ("ssbm", "shmod", "minibattle", "website"):
        if game_id in site.report.games:
            game, _ = starter(game_id)
            assert forms(site.html(f"games/{game_id}/play.md")) == [(game_id, h) for h in helpers(game)]
    if "ssq" in site.report.games:
        game, _ = starter("ssq")  # its play helpers' forms are on the turn calculator page, in HELPERS' order
        assert forms(site.html("games/ssq/checker.md")) == [("ssq", h) for h in helpers(game)]
        assert {"odds", "clash-odds", "items", "reach", "percentile", "lose-life", "smash-powers"} <= set(helpers(game))


def test_card_names_are_offered_and_markup_is_escaped(site: BuiltSite) -> None:
    page = site.html("games/shmod/play.md")
    monsters = re.search(r'<datalist id="play-shmod-monster">(.*?)</datalist>', page)[1]
    assert '<option value="Night Reaver"></option>' in monsters
    assert f'<option value="{html.escape(HOSTILE_NAME)}"></option>' in monsters
    assert HOSTILE_NAME not in page
    website = site.html("games/website/play.md")
    assert '<option value="Splash Page (Neutral)"></option>' in website  # a shared name comes with its version


def test_checker_pages_link_the_play_page(site: BuiltSite) -> None:
    for game_id in ("ssbm", "shmod", "minibattle", "website"):
        page = site.html(f"games/{game_id}/checker.md")
        assert '<a href="../play/">play helpers</a>' in page


def test_the_readings_of_play_are_on_the_construction_page(site: BuiltSite) -> None:
    readings = {row[0]: row for row in table(site.html("games/ssbm/construction.md"), "readings")}
    assert "Recovery cards in order" in readings and "A KO in a TIME match" in readings
    shmod = {row[0] for row in table(site.html("games/shmod/construction.md"), "readings")}
    assert {"Equal ATK and DEF", "The first player draws", "Losing"} <= shmod
