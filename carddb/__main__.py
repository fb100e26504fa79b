"""``python -m carddb``: the same as the ``carddb`` command."""

from carddb.cli.fastcheck import main

main()
