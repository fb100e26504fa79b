"""When carddb itself fails: one line for the user, the whole story in a report file, exit code 70.

Bad input never gets here (it is a ``CarddbError``, reported as ``Error: ...`` with its own exit code); an
exception that gets here is a bug. The user sees one line saying so and naming the report, which holds the
traceback, the command line and the versions, every password masked. Writes are whole or not at all
(``carddb.files.replacing``), so a crash leaves no file half-written. Standard library only: the deck
check fast path uses it too.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

from carddb.errors import ExitCode

#: The exit status of a crash: EX_SOFTWARE of sysexits.h, "an internal software error".
CRASH_EXIT = ExitCode.CRASH
#: Where reports go when set (the tests use it); else the platform's state folder, else the temp folder.
CRASH_DIR_ENV = "CARDDB_CRASH_DIR"


def report_folder() -> Path:
    if os.environ.get(CRASH_DIR_ENV):
        return Path(os.environ[CRASH_DIR_ENV])
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or tempfile.gettempdir())
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Logs"
    else:
        base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "carddb" / "crashes"


def report_crash(error: BaseException, argv: list[str] | None = None) -> int:
    """Write the report of an unexpected exception, print the one line, and return the exit code."""
    from carddb import __version__
    from carddb.errors import mask_secrets

    moment = datetime.now(UTC)
    text = mask_secrets("".join([
        f"carddb {__version__} crashed at {moment.isoformat(timespec='seconds')}\n",
        f"command: carddb {' '.join(argv if argv is not None else sys.argv[1:])}\n",
        f"python {platform.python_version()} on {platform.platform()}\n\n",
        *traceback.format_exception(type(error), error, error.__traceback__)]))
    name = f"crash-{moment:%Y%m%d-%H%M%S}-{os.getpid()}.txt"
    where = _write(text, name)
    summary = mask_secrets(f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else type(error).__name__)
    if len(summary) > 200:
        summary = summary[:197] + "..."
    told = f"the full report is in {where}" if where else "no report could be written"
    print(f"Error: carddb hit a bug ({summary}); {told}. Please send it to carddb's maintainers.",
          file=sys.stderr)
    return CRASH_EXIT


def _write(text: str, name: str) -> Path | None:
    for folder in (report_folder(), Path(tempfile.gettempdir()) / "carddb-crashes"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            # A new file of its own (O_EXCL): nothing is replaced, so nothing can be left half-replaced; private
            # (0600), since a traceback shows paths and values from the user's files.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            return path
        except OSError:
            continue
    return None
