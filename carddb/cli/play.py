"""``carddb play <game> <helper>``: the play helpers of every game that has them, one group, the same shape for
each game (``--json`` everywhere; ``--format`` after the game picks a house rule).

The games come from ``carddb.core.play.registry`` (the ``carddb.games`` entry points): a game's commands are
imported only when that game is asked for, so ``carddb play --help`` lists the games without loading them.
``carddb ssq`` is an alias of ``carddb play ssq`` (``carddb.cli.ssq``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from carddb.cli import bundled_click as click
from carddb.cli.parsing import Group, click_command, group

if TYPE_CHECKING:
    from carddb.core.play.registry import GamePlugin


class _GamesGroup(Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        from carddb.core.play.registry import plugins

        return sorted(plugins())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from carddb.core.play.registry import no_play_helpers, plugin

        if name in self.commands:
            return self.commands[name]
        found = plugin(name)
        if found is None:
            raise click.UsageError(no_play_helpers(name), ctx)
        command = self.commands[name] = click_command(_game_app(found), name)
        if found.summary:
            command.help = found.summary
        return command

    def shown(self, ctx: click.Context) -> list[str]:
        return self.list_commands(ctx)  # every game's name, without importing its commands

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from carddb.core.play.registry import plugins

        rows = [(name, found.summary) for name, found in sorted(plugins().items())]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def game_app(game_id: str) -> typer.Typer:
    """The commands of ``carddb play <game_id>``."""
    from carddb.core.play.registry import plugin

    found = plugin(game_id)
    if found is None:
        raise KeyError(game_id)
    return _game_app(found)


def _game_app(found: GamePlugin) -> typer.Typer:
    """A game's commands, made from its helpers' typed signatures (``carddb.cli.play_command``)."""
    from carddb.cli.play_command import game_commands
    from carddb.core.play.registry import load
    from carddb.core.play.signature import Described

    described = {name: one for name, one in load(found.helpers).HELPERS.items() if isinstance(one, Described)}
    return game_commands(found.game, described)


app = group(cls=_GamesGroup, help="Play helpers for every game: damage, KOs, battles, odds, critics.")
