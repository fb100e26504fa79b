"""``carddb booster open``: open a pack into a player's collection, as the game's rulebook describes."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from carddb.cli.common import deprecated, state
from carddb.cli.parsing import INTEGER, group, workspace_game

app = group(help="Open booster packs into a player's collection.")


@app.command("open")
def open_(
    ctx: typer.Context,
    *,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", callback=workspace_game, help="The game (its game.toml must declare [booster]).")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Whose collection the pack goes into.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", click_type=INTEGER,
        help="Show the pack this seed gives (the same each time), into no collection.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the pack as JSON.")] = False,
    old_player: Annotated[str | None, typer.Option(
        "-p", hidden=True, help="Deprecated: --player (-p is --port).")] = None,
) -> None:
    """Open one booster (refused beyond the game's packs per day and per week)."""
    from carddb.catalogue.collections import open_booster
    from carddb.errors import InputError

    player = player or deprecated(old_player, "-p", "--player")
    if not player and seed is None:
        raise InputError("say whose collection the pack goes into with --player")

    result = open_booster(state(ctx).catalogue(), game, player, seed)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    typer.echo(f"a preview of the {game} booster of seed {result.seed} (a pack from a chosen seed goes into no "
               f"collection):" if result.preview else f"{player} opened a {game} booster (seed {result.seed}):")
    for item in result.cards:
        typer.echo(f"  {item.rarity:<11} {item.card.key}{'  (upgraded)' if item.upgraded else ''}")
