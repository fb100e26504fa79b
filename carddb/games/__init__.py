"""The five bundled games' own code, a folder each: their play helpers (pure, run in the browser too), each described
by its typed signature, from which its command and its site form are made. Each folder registers one
``carddb.core.play.registry.GamePlugin`` under the ``carddb.games`` entry points (``pyproject.toml``), as a sixth
game's package would (``docs/new-game.md``). Nothing else in carddb names a game's modules."""
