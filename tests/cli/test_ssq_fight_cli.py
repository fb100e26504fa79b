"""``carddb ssq clash|charge|sp|recovery`` through the CLI: the text a player reads, JSON, exit codes."""

from __future__ import annotations

import json


def test_clash(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("ssq", "clash", "Mario", "Red Fireball", "Bowser", "Bowser's Punch", "--result", "3:2")
    assert result.exit_code == 0
    assert result.stdout == ("Mario hits Bowser: 3 + 1 - 4 = 0 (at least 1), x2 = 2 damage; Bowser cannot continue "
                             "a combo.\n"
                             "  Mario, Red Fireball: 3 successes +0 Power = 3\n"
                             "  Bowser, Bowser's Punch: 2 successes +0 Power = 2\n"
                             "Rules: rules/ssq/rulebook.md#same-tick\n")
    tie = cli("ssq", "clash", "Mario", "Mario's Punch", "Link", "Link's Punch", "-r", "2:2", "--json")
    assert json.loads(tie.stdout)["winner"] is None
    bad = cli("ssq", "clash", "Mario", "Red Fireball", "Bowser", "Koopa Klaw", "-r", "3")
    assert bad.exit_code == 2 and "give the successes of the two attacks, as 3:2" in bad.stderr


def test_charge_hit_and_a_move_that_cannot_be_charged(cli) -> None:  # type: ignore[no-untyped-def]
    hit = cli("ssq", "charge", "Pikachu", "Super Smash", "--tick", "9", "--ticks", "3", "--used", "Pikachu's Punch",
              "--event", "hit", "--at", "11")
    assert hit.exit_code == 0
    assert hit.stdout.splitlines()[0] == "Next turn on tick 18 (11 + Speed 7, the slowest attack used)."
    release = cli("ssq", "charge", "Pikachu", "Super Smash", "--tick", "9", "--ticks", "3", "--used",
                  "Pikachu's Punch", "--event", "release", "--at", "11", "--json")
    assert (json.loads(release.stdout)["pool"], json.loads(release.stdout)["next_tick"]) == (5, 18)
    fireball = cli("ssq", "charge", "Mario", "Red Fireball", "--tick", "2", "--ticks", "2")
    assert fireball.exit_code == 1
    assert "Problem: Red Fireball cannot be charged (its Special does not say so)." in fireball.stdout
    unknown = cli("ssq", "charge", "Pikachu", "Super Smash", "--tick", "9", "--ticks", "3", "--event", "explode")
    assert unknown.exit_code == 2 and "event must be resume or hit or release or store or drop, not 'explode'" \
        in unknown.stderr


def test_sp(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("ssq", "sp", "Mario", "--sp", "1", "--from-tick", "3", "--to-tick", "14")
    assert (result.exit_code, result.stdout) == (0, "1 SP on tick 3, +2 by tick 14 (1 every 5 ticks): 3 SP.\n"
                                                    "Rules: rules/ssq/rulebook.md#smash-points\n")
    over = cli("ssq", "sp", "Mario", "--sp", "9", "--from-tick", "0", "--to-tick", "5")
    assert over.exit_code == 2 and "9 SP is not between 0 and the maximum 3" in over.stderr


def test_recovery(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("ssq", "recovery", "Mario", "--damage", "75", "--hit", "10", "--ledge", "1", "--roll", "1",
                 "--up-b", "Super Jump Punch", "--up-b-roll", "2")
    assert (result.exit_code, result.stdout) == (0, "Recovery roll 1 + Super Jump Punch 2 = 3 beats 2: back to the "
                                                    "ledge.\n"
                                                    "  85 damage, 25 past the threshold 60: sent flying 3 units.\n"
                                                    "Rules: rules/ssq/rulebook.md#recovery\n")
    star = cli("ssq", "recovery", "Bowser", "--damage", "81", "--result", "5:2", "--json")
    assert json.loads(star.stdout)["outcome"] == "star-finish"
    walls = cli("ssq", "recovery", "Mario", "--damage", "85", "--walls", "2", "--roll", "1", "--json")
    assert (json.loads(walls.stdout)["wall_damage"], json.loads(walls.stdout)["distance"]) == (12, 2)
    not_recovery = cli("ssq", "recovery", "Mario", "--damage", "85", "--roll", "4", "--up-b", "Red Fireball")
    assert not_recovery.exit_code == 1
