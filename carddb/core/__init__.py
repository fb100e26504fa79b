"""The pure core: what a card, a game, a deck and a check are, standard library only.

The same files run in the browser under Pyodide (the site's deck builder, checker and play pages), so nothing
here imports a third-party package or any other part of carddb but ``carddb.errors``. By concern:
``cards`` (a card, its fields, names and slugs), ``game`` (a game definition and its parser), ``decks`` (a deck
and its file formats), ``checker`` (construction rules and their report), ``search`` (the query language),
``play`` (what every play helper shares, the registry of games' helpers, the playtest table), and ``browser``
(the entry points the site's worker calls).
"""
