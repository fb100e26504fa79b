"""What the ``carddb play <game> <helper>`` commands share: each turns its arguments into the helper's request (the
same JSON object the site's form sends), asks ``carddb.core.play.helpers.answer``, and prints the answer.

Exit code 0 for an answer, 1 when the request breaks a rule (the answer's problems, as ``deck check``), 2 for input
that cannot be read (an unknown card, a number out of range): ``Error: ...`` from ``carddb.cli.main``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import typer

from carddb.cli.common import print_json, state
from carddb.cli.parsing import group

FORMAT_KEY = "carddb_play_format"

#: ``--json``, on every helper.
JsonFlag = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]


def _game_options(
    ctx: typer.Context,
    *,
    format_id: Annotated[str | None, typer.Option(
        "--format", "-f", help="A format of the game (a house rule) whose readings to follow.")] = None,
) -> None:
    ctx.meta[FORMAT_KEY] = format_id


def game_group() -> typer.Typer:
    """The group of one game's helpers, with the option they all share (``--format`` after the game)."""
    app = group()
    app.callback()(_game_options)
    return app


def run_helper(ctx: typer.Context, game_id: str, helper: str, request: Mapping[str, Any], as_json: bool,
               format_id: str | None = None) -> None:
    from carddb.catalogue.game_cards import game_and_cards
    from carddb.core.play.helpers import answer

    st = state(ctx)
    game, cards = game_and_cards(game_id, format_id or ctx.meta.get(FORMAT_KEY), st.db, st.root)
    result = answer(game, cards, helper, request)
    if as_json:
        print_json(result.to_dict())
    else:
        typer.echo(result.text(), nl=False)
    raise typer.Exit(0 if result.legal else 1)
