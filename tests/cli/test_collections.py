"""Collections and boosters in the catalogue, through the CLI and the service (with a clock that moves)."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from carddb.catalogue.api import open_catalogue
from carddb.catalogue.collections import open_booster, owned_counts
from carddb.errors import LimitError

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(loaded_db: str, tmp_path: Path) -> str:
    """A writable copy of the session's catalogue (with its WAL, which may hold the data not yet checkpointed)."""
    copy = tmp_path / "catalogue.db"
    for suffix in ("", "-wal"):
        if Path(loaded_db + suffix).exists():
            shutil.copy(loaded_db + suffix, str(copy) + suffix)
    return str(copy)


def test_add_remove_show(cli, db: str) -> None:  # type: ignore[no-untyped-def]
    assert cli("collection", "add", "alan", "splash page (neutral)", "--game", "website", "-n", "3", db=db).stdout \
        == "alan now holds 3 Splash Page (Neutral).\n"
    assert cli("collection", "remove", "alan", "Splash Page (Neutral)", "--game", "website", db=db).stdout \
        == "alan now holds 2 Splash Page (Neutral).\n"
    shown = json.loads(cli("collection", "show", "alan", "--game", "website", "--json", db=db).stdout)
    assert shown == {"collection": "alan", "game": "website", "cards": {"Splash Page (Neutral)": 2}}
    ambiguous = cli("collection", "add", "alan", "Splash Page", "--game", "website", db=db)
    assert ambiguous.exit_code == 2 and "several cards are called Splash Page" in ambiguous.stderr
    too_many = cli("collection", "remove", "alan", "Guestbook", "--game", "website", db=db)
    assert too_many.exit_code == 2 and "holds 0 Guestbook (Neutral); cannot remove 1" in too_many.stderr


def test_import_and_check_a_deck_against_the_collection(cli, db: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = REPO / "rules/minibattle/decks/legal-pikachu-line.txt"
    imported = cli("collection", "import", "ash", str(deck), "--game", "minibattle", db=db)
    assert imported.exit_code == 0
    assert imported.stdout == "Imported 6 different cards into ash.\n"  # 10 copies of 6 cards
    owned = cli("deck", "check", str(deck), "--game", "minibattle", "--collection", "ash", db=db)
    assert owned.exit_code == 0
    cli("collection", "remove", "ash", "Pikachu", "--game", "minibattle", db=db)
    short = json.loads(cli("deck", "check", str(deck), "--game", "minibattle", "--collection", "ash", "--json",
                           db=db).stdout)
    assert [(p["code"], p["card"], p["count"], p["limit"]) for p in short["problems"]] == [
        ("not-owned", "Pikachu", 2, 1)]
    missing = cli("deck", "check", str(deck), "--game", "minibattle", "--collection", "nobody", db=db)
    assert missing.exit_code == 2 and "no collection 'nobody'" in missing.stderr


def test_booster_open_goes_into_the_collection(cli, db: str) -> None:  # type: ignore[no-untyped-def]
    result = json.loads(cli("booster", "open", "--game", "minibattle", "--player", "misty", "--json", db=db).stdout)
    assert [c["rarity"] for c in result["cards"]][:5] == ["common"] * 3 + ["uncommon"] * 2
    assert result["preview"] is False
    owned = json.loads(cli("collection", "show", "misty", "--game", "minibattle", "--json", db=db).stdout)["cards"]
    assert sum(owned.values()) == 6
    nopack = cli("booster", "open", "--game", "ssbm", "--player", "misty", db=db)
    assert nopack.exit_code == 2 and "declares no booster pack" in nopack.stderr


def test_a_pack_from_a_chosen_seed_is_a_preview_in_no_collection(cli, db: str) -> None:  # type: ignore[no-untyped-def]
    """A seed a player picks would let them try seeds on a copy of the catalogue and open only good packs."""
    first, again = (json.loads(cli("booster", "open", "--game", "minibattle", "--player", "misty", "--seed", "5",
                                   "--json", db=db).stdout) for _ in range(2))
    assert first["preview"] is True and first["cards"] == again["cards"]
    shown = cli("collection", "show", "misty", "--game", "minibattle", "--json", db=db)
    assert shown.exit_code == 2 or sum(json.loads(shown.stdout)["cards"].values()) == 0
    said = cli("booster", "open", "--game", "minibattle", "--seed", "5", db=db)
    assert said.exit_code == 0 and said.stdout.startswith(
        "a preview of the minibattle booster of seed 5 (a pack from a chosen seed goes into no collection):")


def test_third_pack_in_a_day_and_eleventh_in_a_week_are_refused(db: str) -> None:
    catalogue = open_catalogue(db)
    now = [datetime(2026, 3, 2, 9, 0, tzinfo=UTC)]

    def clock() -> datetime:
        return now[0]

    for day in range(5):
        now[0] = datetime(2026, 3, 2 + day, 9, 0, tzinfo=UTC)
        open_booster(catalogue, "minibattle", "brock", clock=clock)
        now[0] += timedelta(hours=1)
        open_booster(catalogue, "minibattle", "brock", clock=clock)
        now[0] += timedelta(hours=1)
        if day == 0:
            with pytest.raises(LimitError, match="2 boosters today"):
                open_booster(catalogue, "minibattle", "brock", clock=clock)
    now[0] = datetime(2026, 3, 7, 9, 0, tzinfo=UTC)
    with pytest.raises(LimitError, match="10 boosters in the last seven days"):
        open_booster(catalogue, "minibattle", "brock", clock=clock)
    assert sum(owned_counts(catalogue, "brock", "minibattle").values()) == 60  # the refusals changed nothing
    now[0] = datetime(2026, 3, 9, 9, 30, tzinfo=UTC)
    open_booster(catalogue, "minibattle", "brock", clock=clock)
