"""``carddb play <game> <helper>``: the play helpers of every game, one group, the same shape for each game
(``--json`` everywhere; ``--format`` after the game picks a house rule). ``carddb play ssq`` is the same group as
``carddb ssq`` (turn, initiative, clash, charge, sp, recovery, odds, clash-odds, items)."""

from __future__ import annotations

import typer

from carddb.cli import play_minibattle, play_shmod, play_ssbm, play_website
from carddb.cli import ssq as ssq_cli

app = typer.Typer(no_args_is_help=True)
app.add_typer(play_ssbm.app, name="ssbm", help="Super Smash Bros. Melee CCG: damage and combos, damage taken, KO and "
              "recovery, turn order, the play phase, discarding, match scores.")
app.add_typer(play_shmod.app, name="shmod", help="Shmod: battles, a Battle Phase and Life, mana, a turn's limits.")
app.add_typer(play_minibattle.app, name="minibattle", help="Pokemon Mini-Battle: an attack's exact odds, between "
              "turns, what may be played, the opening hand.")
app.add_typer(play_website.app, name="website", help="Website TCG: a site's totals, critics won, what a critic "
              "needs, winning, setup, a turn's limits.")
app.add_typer(ssq_cli.app, name="ssq", help="Super Smash Quest: a turn, initiative, clashes, charging, Smash Points, "
              "recovery, hit odds, items.")
