"""The fast path of ``carddb deck check``: the same command, answered before Typer is imported.

Typer builds its parameter converters with pydantic, whose import alone costs about 100 ms; the design wants
``deck check`` under 200 ms as a whole process. ``run()`` in ``main.py`` calls ``try_fast_check`` first: for
the plain forms of the command (``[--root R] [--db D] deck check FILE --game G [--format F] [--json]``) it
does exactly what the Typer command does, through the same functions, and prints the same output; anything
else (help, ``--collection``, an unknown option, a typo) returns None and Typer handles it as usual.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

_GLOBAL = {"--root": "root", "--db": "db"}
_OPTIONS = {"--game": "game", "-g": "game", "--format": "format", "-f": "format"}


def _parse(argv: list[str]) -> dict[str, str | bool] | None:
    args: dict[str, str | bool] = {}
    i = 0
    while i < len(argv) and argv[i] in _GLOBAL:
        if i + 1 >= len(argv):
            return None
        args[_GLOBAL[argv[i]]] = argv[i + 1]
        i += 2
    if argv[i:i + 2] != ["deck", "check"]:
        return None
    i += 2
    while i < len(argv):
        token = argv[i]
        if token == "--json":
            args["json"] = True
            i += 1
        elif token in _OPTIONS and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            args[_OPTIONS[token]] = argv[i + 1]
            i += 2
        elif not token.startswith("-") and "file" not in args:
            args["file"] = token
            i += 1
        else:
            return None  # anything unusual: let Typer parse it and give its usual help and errors
    return args if "file" in args and "game" in args else None


def try_fast_check(argv: list[str]) -> int | None:
    """The exit code of a plain ``deck check``, or None when the command line is for Typer."""
    args = _parse(argv)
    if args is None:
        return None
    from carddb.errors import CarddbError

    try:
        return _check(args)
    except CarddbError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return exc.exit_code
    except Exception as exc:  # a bug: one line and a report, as for every other command
        from carddb.cli.crash import report_crash

        return report_crash(exc, argv)


def _check(args: dict[str, str | bool]) -> int:
    from carddb.catalogue.game_cards import game_and_cards
    from carddb.errors import InputError
    from carddb.files.reading import read_deck_file
    from carddb.rules.report import check_deck_text

    path = Path(str(args["file"]))
    text = read_deck_file(path)
    fmt = args.get("format")
    game, cards = game_and_cards(str(args["game"]), str(fmt) if fmt else None,
                                 str(args["db"]) if args.get("db") else None,
                                 str(args["root"]) if args.get("root") else None)
    if not game.deck_game:
        raise InputError(f"{game.name} ({game.id}) has no decks; try 'carddb ssq turn' or 'carddb roll'")
    report = check_deck_text(text, game, cards, path.name)
    if args.get("json"):
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.text(str(path)))
    return 0 if report.legal else 1


class _ClosedPipeSink(io.RawIOBase):
    """Standard output that outlives its reader: once the reader closes the pipe (``carddb build | head``),
    what is left to print is dropped and the command finishes its work, rather than stopping halfway with
    ``Error: Broken pipe``."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.reader_gone = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, data) -> int:  # type: ignore[no-untyped-def, override]
        if not self.reader_gone:
            try:
                return os.write(self.fd, data)
            except BrokenPipeError:
                self.reader_gone = True
        return len(data)


def _guard_stdout() -> None:
    stdout = sys.stdout
    if stdout is None or stdout.isatty():
        return
    try:
        fd = stdout.fileno()
    except (OSError, ValueError):  # not a real file (a test runner's capture): nothing to guard
        return
    stdout.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedPipeSink(fd)), encoding=stdout.encoding,
                                  errors=stdout.errors, line_buffering=stdout.line_buffering)


def main() -> None:
    """The ``carddb`` entry point: a plain ``deck check`` before anything heavy is imported, else the Typer app.

    Being the entry point (rather than a step inside ``carddb.cli.main``) keeps the fast path fast whatever
    the other command modules import at their top.
    """
    _guard_stdout()
    code = try_fast_check(sys.argv[1:])
    if code is not None:
        raise SystemExit(code)
    from carddb.cli.main import run

    run()
