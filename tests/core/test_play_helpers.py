"""What every play helper shares: each answer's rule links land on a heading of its game's rulebook, the answer is
plain JSON, and a request that cannot be read is refused with a message naming what is wrong."""

from __future__ import annotations

import json

import pytest

from carddb.core.play.helpers import answer, helpers
from carddb.core.play.registry import plugins
from carddb.errors import InputError
from tests.core.decks import REPO, starter
from tests.play_examples import EXAMPLES
from tests.test_rulebooks import heading_slugs


def anchors(game_id: str) -> set[str]:
    return set(heading_slugs((REPO / "rules" / game_id / "rulebook.md").read_text(encoding="utf-8")))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_every_step_links_a_rulebook_heading_and_the_answer_is_json(example) -> None:  # type: ignore[no-untyped-def]
    game, cards = starter(example.game)
    result = answer(game, cards, example.helper, example.request)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["answer"] and data["working"]
    links = [s["rule"] for s in data["working"]] + [p["rule"] for p in data["problems"]]
    assert all(links), data
    known = anchors(example.game)
    for link in links:
        path, _, anchor = link.partition("#")
        assert path == f"rules/{example.game}/rulebook.md" and anchor in known, link


def test_every_helper_has_an_example() -> None:
    covered = {(e.game, e.helper) for e in EXAMPLES}
    assert set(plugins()) == {"ssbm", "shmod", "minibattle", "website", "ssq"}
    for game_id in plugins():
        game, _ = starter(game_id)
        assert {(game_id, name) for name in helpers(game)} <= covered


def test_unknown_helper_and_request_shapes() -> None:
    game, cards = starter("ssbm")
    with pytest.raises(InputError, match="has no play helper 'dmg' \\(helpers: damage, taken, ko"):
        answer(game, cards, "dmg", {})
    with pytest.raises(InputError, match="the request is not a JSON object"):
        answer(game, cards, "damage", [])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="name at least one attack card"):
        answer(game, cards, "damage", {"character": "Mario", "attacks": []})
    with pytest.raises(InputError, match="damage must be a whole number, not 'lots'"):
        answer(game, cards, "taken", {"damage": "lots"})

