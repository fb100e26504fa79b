"""``carddb ssq``: an alias of ``carddb play ssq``, Super Smash Quest's play helpers, a game like the others since
issue 36; kept so the scripts written for it still run. Its help says whose alias it is."""

from __future__ import annotations

from carddb.cli.play import game_app

ALIAS = True

app = game_app("ssq")
