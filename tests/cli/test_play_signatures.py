"""Each play helper described once (issue 36): for every helper with a typed signature, every parameter is on its
command (with its help) and on its form of the Play page (with its label), and a value out of its range gets the
same words from the command line as from the site's request."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from carddb.cli.main import app
from carddb.core.play.helpers import answer
from carddb.core.play.registry import load, plugins
from carddb.core.play.signature import Described
from carddb.errors import InputError
from carddb.site.markup import html_text
from carddb.site.play_page import described_forms, form_html
from tests.conftest import REPO
from tests.core.decks import starter

DESCRIBED = [(game, one) for game, found in sorted(plugins().items())
             for one in load(found.helpers).HELPERS.values() if isinstance(one, Described)]


def test_every_helper_of_the_five_games_is_described_by_its_signature() -> None:
    assert {game for game, _ in DESCRIBED} >= {"ssbm", "shmod", "website", "minibattle", "ssq"}
    for game_id, found in plugins().items():
        assert all(isinstance(one, Described) for one in load(found.helpers).HELPERS.values()), game_id


@pytest.mark.parametrize(("game_id", "described"), DESCRIBED, ids=[f"{g}-{d.name}" for g, d in DESCRIBED])
def test_every_parameter_is_on_the_command_and_the_form(game_id: str, described: Described) -> None:
    shown = CliRunner().invoke(app, ["play", game_id, described.name, "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    flat = " ".join(re.sub(r"-\n\s*", "-", shown.stdout).split())  # a line wrapped after a hyphen
    game, _ = starter(game_id)
    (form,) = described_forms(game, [described])
    html = "\n".join(form_html(game, form, True, f"games/{game_id}/play.md"))
    for param in described.params:
        if param.arg.cli:
            assert " ".join(param.arg.help.rstrip(".").split()) in flat, (described.name, param.name)
        if not param.arg.form:  # the command line's own (a seed, the roll as two faces)
            continue
        names = {f'name="{param.key}"', f'name="{param.key}[]"', f'data-row="{param.key}"', f'name="{param.key}.'}
        assert any(name in html for name in names), (described.name, param.name)
        assert html_text(param.label if param.kind != "rows" else param.arg.label or param.fields[0].label) in html


def test_a_value_out_of_range_is_refused_alike() -> None:
    game, cards = starter("ssbm")
    with pytest.raises(InputError) as refused:
        answer(game, cards, "taken", {"damage": 1000})
    ran = CliRunner().invoke(app, ["--root", str(REPO), "play", "ssbm", "taken", "1000"])
    assert ran.exit_code == 2 and ran.stderr == f"Error: {refused.value}\n"
