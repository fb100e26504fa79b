"""``deck odds`` on decks no one would play but anyone can write: 200 lines of 999 copies (199,800 cards), asked
for one card's table (at least 1, 2, ... copies) and for every card's. The work is bounded by what is drawn (at
least k copies for k past the cards seen is nought), so it answers within the corpus's processor-time limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.conftest import Ledger, subprocess_run

PLAYTEST = '\n[playtest]\nopening_hand = 7\ndraw_per_turn = 1\ndraw_zones = ["main"]\n'


@pytest.mark.parametrize("asked", [["--card", "Blue Unit 1"], ["--kind", "unit"], []])
def test_a_deck_of_199800_cards_gets_its_odds_in_bounded_time(ws_copy: Path, asked: list[str],
                                                               ledger: Ledger) -> None:
    toml = ws_copy / "rules" / "mini" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + PLAYTEST, encoding="utf-8")
    deck = ws_copy / "huge.txt"
    deck.write_text("Main:\n" + "999 Blue Unit 1\n" * 199 + "999 Green Unit 2\n", encoding="utf-8")
    run = subprocess_run(ws_copy, "deck", "odds", str(deck), "--game", "mini", *asked, "--by-turn", "3", "--json")
    ledger.run("deck odds: huge deck", run)
    assert run.exit_code == 0 and not run.hang and not run.traceback, run
    data = json.loads(run.stdout)
    assert data["cards"] == 199_800
    rows = data["rows"]
    assert all(len(row["chances"]) <= 2 * data["seen_by_turn"] for row in rows)
    green = [row for row in rows if row["target"] == "Green Unit 2"]
    if green:  # 999 of 199,800: small, never shown as nought
        assert green[0]["chances"][0]["shown"] == "3.4 %"
