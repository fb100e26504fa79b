"""The steps of one build read each game's cards from the catalogue once (``carddb.app.engine``), and each step gets
cards of its own: one that changes a card it was given changes nothing another step sees."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from carddb.app import build
from carddb.app.engine import BuildContext, Stage, Step, run_stages
from carddb.core.cards.card import Card, Printing
from carddb.workspace import Workspace


class CountingCatalogue:
    """What a build's steps ask of a catalogue, each read counted."""

    def __init__(self) -> None:
        self.reads = 0

    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        self.reads += 1
        return [Card(game=game_id, name="Ember Whelp", kind="monster", text="Burn.",
                     fields={"atk": 3, "types": ["Fire", "Dragon"], "costs": {"fire": 1}},
                     printings=[Printing(set="BASE", number="1")], sample=["atk"])]

    def game(self, game_id: str) -> Any:
        return type("Game", (), {"deck_game": True})()


def test_each_game_is_read_once_and_each_step_gets_cards_of_its_own(tmp_path: Path) -> None:
    seen: list[Card] = []

    def spoiling(context: BuildContext) -> str:
        card = context.catalogue.cards(context.game_id)[0]
        card.text = "changed"
        card.fields["atk"] = 99
        card.fields["types"].append("Spoilt")
        card.fields["costs"]["fire"] = 9
        card.printings.clear()
        card.sample.append("text")
        return ""

    def reading(context: BuildContext) -> str:
        seen.extend(context.catalogue.cards(context.game_id))
        return ""

    catalogue = CountingCatalogue()
    report = build.BuildReport()
    context = BuildContext(Workspace(tmp_path), catalogue, [], report.lines.append,  # type: ignore[arg-type]
                           report, build.SILENT, None)  # type: ignore[arg-type]
    context.games = ["shmod"]  # set after: run_stages would load the games' card files first
    from carddb.app import engine

    engine_load, engine._load_games = engine._load_games, lambda context: None
    try:
        run_stages(context, [Stage((Step("spoil", spoiling), Step("read", reading), Step("again", reading)))])
    finally:
        engine._load_games = engine_load
    assert catalogue.reads == 1
    assert len(seen) == 2 and seen[0] is not seen[1]
    for card in seen:
        assert (card.text, card.fields, card.printings, card.sample) == (
            "Burn.", {"atk": 3, "types": ["Fire", "Dragon"], "costs": {"fire": 1}},
            [Printing(set="BASE", number="1")], ["atk"])
