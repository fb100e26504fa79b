"""Which games have play helpers, found through the ``carddb.games`` entry-point group.

A game's helpers live in a package of their own (the five bundled games in ``carddb/games/<id>/``, a sixth game's
in any installed distribution) that declares one ``GamePlugin`` under the group::

    [project.entry-points."carddb.games"]
    sixth = "sixth_game:PLUGIN"

The plugin names its parts by import path, as strings, so that finding a game's helpers imports nothing else: the
command line and the site load ``helpers`` only for ``carddb play <id>`` and the Play page, and the browser loads
``helpers`` and ``engine``.

The site's rules engine ships each plugin's ``engine`` modules with an ``entry_points.txt`` of its own
(``carddb.site.bundle``), so the browser finds the same plugins through this same code.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from carddb.errors import DefinitionError

#: The entry-point group a game's play helpers register under.
ENTRY_POINT_GROUP = "carddb.games"


@dataclass(frozen=True)
class PlayKey:
    """A key of the game's ``[play]`` table: its type (as ``carddb.core.game.schema.read_table`` reads one: ``int``,
    ``str``, ``bool``, ``dict``, ``"strings"``, ``"ints"``), what it means, and the value a game.toml without it
    gets (``None``: none; a helper needing it says so)."""

    kind: Any
    doc: str
    default: Any = None


@dataclass(frozen=True)
class GamePlugin:
    """The play helpers of one game and the parts that show them.

    ``game``: the game's id (``rules/<game>/game.toml``). ``helpers``: the pure module whose ``HELPERS`` maps each
    helper's name to its ``carddb.core.play.signature.Described``. ``engine``: every pure module the
    helpers need, shipped to the browser (``helpers`` is added when missing). Each helper is described by its typed
    signature (``carddb.core.play.signature``): its command ``carddb play <game> <helper>`` and its form on the
    site's Play page (a game without decks: its turn calculator) are made from it; ``NAME_LISTS`` of the helpers'
    module adds card name lists to the forms (name -> predicate). ``play``: the keys of the game's ``[play]``
    table, each a ``PlayKey`` (the game definition's parser accepts these and no others).
    """

    game: str
    helpers: str
    engine: tuple[str, ...] = ()
    summary: str = ""
    play: Mapping[str, PlayKey] = field(default_factory=dict)

    @property
    def engine_modules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.helpers, *self.engine)))


def plugins() -> dict[str, GamePlugin]:
    """Every registered game plugin that loads, by game id (each entry point loaded once a process)."""
    return _scan()[0]


def broken_plugins() -> list[str]:
    """A sentence for each registered plugin that does not load: carddb runs on without it (a plugin's failure is
    that plugin's, never the end of a build), and says so."""
    return _scan()[1]


@cache
def _scan() -> tuple[dict[str, GamePlugin], list[str]]:
    from importlib import metadata  # only here: a bundled game's plugin is found without it (``plugin``)

    found: dict[str, GamePlugin] = {}
    where: dict[str, str] = {}
    broken: list[str] = []
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        source = entry.dist.name if entry.dist is not None else entry.value
        try:
            plugin = entry.load()
        except (Exception, SystemExit) as exc:  # whatever a third-party package raises, even sys.exit(0)
            broken.append(f"the play helpers {entry.name} = {entry.value!r} of {source} cannot be loaded "
                          f"({_failure(exc)}); carddb goes on without them")
            continue
        if not isinstance(plugin, GamePlugin):
            broken.append(f"the entry point {entry.name} = {entry.value!r} of {source} is not a GamePlugin; "
                          "carddb goes on without it")
            continue
        if plugin.game in found and found[plugin.game] != plugin:
            raise DefinitionError(f"two packages bring play helpers for {plugin.game}: {where[plugin.game]} and "
                                  f"{source}; uninstall one")
        found[plugin.game], where[plugin.game] = plugin, source
    return found, broken


def _failure(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}) while being imported"
    return f"{type(exc).__name__}: {str(exc)[:200]}"


def no_play_helpers(game_id: str) -> str:
    """What ``carddb play GAME`` says of a game without play helpers: which games have them, why this one may
    not (its plugin did not load), and where a game's own helpers are explained."""
    games = ", ".join(sorted(plugins()))
    broken = next((line for line in broken_plugins() if f" {game_id} = " in line), "")
    why = f" ({broken})" if broken else ""
    return (f"no play helpers for {game_id!r}{why}; the games with play helpers: {games}. A game's own helpers are "
            "a package of its own: docs/new-game.md#play-helpers-of-your-own")


def plugin(game_id: str) -> GamePlugin | None:
    """The plugin of one game. A game bundled with carddb (``carddb/games/<id>``) is imported straight away: reading
    its game.toml (every ``deck check``) then never scans the installed packages' entry points."""
    bundled = _bundled(game_id)
    return bundled if bundled is not None else plugins().get(game_id)


@cache
def _bundled(game_id: str) -> GamePlugin | None:
    if not game_id.isidentifier():
        return None
    from importlib.util import find_spec

    name = f"{__name__.rsplit('.', 3)[0]}.games.{game_id}"  # carddb.games.<id>
    try:
        found = find_spec(name)
    except ModuleNotFoundError:
        return None
    if found is None:
        return None
    made = getattr(importlib.import_module(name), "PLUGIN", None)
    return made if isinstance(made, GamePlugin) and made.game == game_id else None


def load(reference: str) -> Any:
    """``package.module:attribute`` (or a module alone) imported; a plugin's module that fails to (even by
    ``sys.exit``) is a ``DefinitionError`` naming it, never the end of carddb's run."""
    module, _, attribute = reference.partition(":")
    try:
        loaded = importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded
    except (Exception, SystemExit) as exc:
        raise DefinitionError(f"the play helpers' module {reference!r} cannot be loaded ({_failure(exc)})") from None
