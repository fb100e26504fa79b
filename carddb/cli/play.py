"""``carddb play <game> <helper>``: the play helpers of every game, one group, the same shape for each game
(``--json`` everywhere; ``--format`` after the game picks a house rule). ``carddb play ssq`` is the same group as
``carddb ssq`` (turn, initiative, clash, charge, sp, recovery, odds, clash-odds, items)."""

from __future__ import annotations

from carddb.cli import play_minibattle, play_shmod, play_ssbm, play_website
from carddb.cli import ssq as ssq_cli
from carddb.cli.parsing import group

app = group(help="Play helpers for every game: damage, KOs, battles, odds, critics.")
play_ssbm.app.help = ("Super Smash Bros. Melee CCG: damage and combos, damage taken, KO and recovery, turn order, "
                      "the play phase, discarding, match scores.")
play_shmod.app.help = "Shmod: battles, a Battle Phase and Life, mana, a turn's limits."
play_minibattle.app.help = ("Pokemon Mini-Battle: an attack's exact odds, between turns, what may be played, the "
                            "opening hand.")
play_website.app.help = ("Website TCG: a site's totals, critics won, what a critic needs, winning, setup, a turn's "
                         "limits.")
for name, game_group in (("ssbm", play_ssbm.app), ("shmod", play_shmod.app), ("minibattle", play_minibattle.app),
                         ("website", play_website.app), ("ssq", ssq_cli.app)):
    app.add_command(game_group, name)
