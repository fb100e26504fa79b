"""``carddb booster open``: open a pack into a player's collection, as the game's rulebook describes."""

from __future__ import annotations

import json

import typer

from carddb.cli.common import deprecated, state

app = typer.Typer(no_args_is_help=True)


@app.command("open")
def open_(
    ctx: typer.Context,
    game: str = typer.Option(..., "--game", "-g", help="The game (its game.toml must declare [booster])."),
    player: str = typer.Option(None, "--player", help="Whose collection the pack goes into."),
    seed: int = typer.Option(None, "--seed", help="Seed for a repeatable pack."),
    as_json: bool = typer.Option(False, "--json", help="Print the pack as JSON."),
    old_player: str = typer.Option(None, "-p", hidden=True, help="Deprecated: --player (-p is --port)."),
) -> None:
    """Open one booster (refused beyond the game's packs per day and per week)."""
    from carddb.catalogue.collections import open_booster
    from carddb.errors import InputError

    player = player or deprecated(old_player, "-p", "--player")
    if not player:
        raise InputError("say whose collection the pack goes into with --player")

    result = open_booster(state(ctx).catalogue(), game, player, seed)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    typer.echo(f"{player} opened a {game} booster (seed {result.seed}):")
    for item in result.cards:
        typer.echo(f"  {item.rarity:<11} {item.card.key}{'  (upgraded)' if item.upgraded else ''}")
