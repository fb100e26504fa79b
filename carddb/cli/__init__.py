"""carddb's command line, on Typer: ``main.py`` is the root (its ``COMMANDS`` table, the lazy loading, the one place
errors become ``Error: ...`` and an ``ExitCode``), ``parsing.py`` how every command is declared (typed ``Annotated``
signatures, plain help, the number types), one module per noun. To add a command, see ``main.py``'s docstring:
a module with ``app = group(...)`` (or ``single()``) and typed functions, one line in ``COMMANDS``, then
``python -m carddb.cli.reference``. The play helpers' commands are not written here: ``play_command.py`` makes
each from the helper's typed signature (``carddb.core.play.signature``)."""
