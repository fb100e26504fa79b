"""``carddb booster open``: open a pack into a player's collection, as the game's rulebook describes."""

from __future__ import annotations

import json

import click

from carddb.cli.common import deprecated, state
from carddb.cli.parsing import INTEGER, GameOption, group, option

app = group(help="Open booster packs into a player's collection.")


@app.command("open")
@option("--game", "-g", cls=GameOption, required=True, help="The game (its game.toml must declare [booster]).")
@option("--player", help="Whose collection the pack goes into.")
@option("--seed", type=INTEGER, help="Show the pack this seed gives (the same each time), into no collection.")
@option("--json", "as_json", is_flag=True, help="Print the pack as JSON.")
@option("-p", "old_player", hidden=True, help="Deprecated: --player (-p is --port).")
@click.pass_context
def open_(
    ctx: click.Context,
    game: str,
    player: str,
    seed: int,
    as_json: bool,
    old_player: str,
) -> None:
    """Open one booster (refused beyond the game's packs per day and per week)."""
    from carddb.catalogue.collections import open_booster
    from carddb.errors import InputError

    player = player or deprecated(old_player, "-p", "--player")
    if not player and seed is None:
        raise InputError("say whose collection the pack goes into with --player")

    result = open_booster(state(ctx).catalogue(), game, player, seed)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    click.echo(f"a preview of the {game} booster of seed {result.seed} (a pack from a chosen seed goes into no "
               f"collection):" if result.preview else f"{player} opened a {game} booster (seed {result.seed}):")
    for item in result.cards:
        click.echo(f"  {item.rarity:<11} {item.card.key}{'  (upgraded)' if item.upgraded else ''}")
