"""``python -m carddb``: the same as the ``carddb`` command."""

from carddb.cli.main import main

main()
