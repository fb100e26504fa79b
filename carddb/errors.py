"""The one error hierarchy of carddb.

Library code raises these; the command line turns them into ``Error: ...`` on stderr and the exit code
of the class, in one place (``carddb.cli.main``). Nothing else is allowed to reach a user as a traceback.
"""

from __future__ import annotations

import re
from enum import IntEnum


class ExitCode(IntEnum):
    """Every exit status of ``carddb`` (README's table, docs/safety.md)."""

    OK = 0
    #: A check found errors (deck check, a play helper), a build step failed, a rule of use refused the action.
    PROBLEMS = 1
    #: Bad invocation (unknown command or option, a bad value) or input that cannot be read.
    BAD_INPUT = 2
    #: Output that could not be written or failed its own check after writing.
    OUTPUT = 3
    #: A bug in carddb: one line names the crash report (EX_SOFTWARE of sysexits.h).
    CRASH = 70
    #: Interrupted (Ctrl-C).
    INTERRUPTED = 130

#: The password of any URL (``mysql://u:secret@h/db``, ``postgresql://u:secret@h/db``) and a password given
#: as a parameter (``?password=secret``, ``password=secret`` in a connection string).
_URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*):(?P<secret>\S*)@(?=[^\s@]*$|[^\s@]*\s)")
_PARAMETER_PASSWORD = re.compile(r"(?P<head>\b(?:password|passwd|pwd)\s*=\s*)"
                                 r"(?P<secret>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|(?:[^\s&'\"]|&(?!\w+=))+)",
                                 re.IGNORECASE)


def mask_secrets(text: str) -> str:
    """``text`` with every password in it replaced by ``***``: the one place database URLs are masked, applied
    to every message carddb prints (errors, crash reports) and to the catalogue's name as it is shown."""
    text = _URL_PASSWORD.sub(r"\g<head>:***@", text)
    return _PARAMETER_PASSWORD.sub(r"\g<head>***", text)


class CarddbError(Exception):
    """Base of every error carddb reports to a user. ``exit_code`` is the process exit status.

    The message and hint are masked (``mask_secrets``) as they are made, so no password reaches a user.
    """

    exit_code: int = ExitCode.BAD_INPUT

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        message = mask_secrets(message)
        hint = mask_secrets(hint) if hint else hint
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n{self.hint}"


class InputError(CarddbError):
    """A file or argument that cannot be read or makes no sense (missing, binary, malformed, too big)."""


class DefinitionError(InputError):
    """A game definition (game.toml) that is malformed: unknown key, wrong type, dangling reference."""


class CardDataError(InputError):
    """A card file or card value that does not fit the game definition. Names file, row and column."""


class UnknownGameError(InputError):
    """A game id that is neither bundled nor in the catalogue."""


class NotFoundError(InputError):
    """A card, set, collection or other named thing that does not exist."""


class ConflictError(CarddbError):
    """A write that clashes with what is already there (duplicate card, concurrent edit)."""

    exit_code = ExitCode.BAD_INPUT


class TemplateError(InputError):
    """A card face template that cannot be read or rendered (file and line named)."""


class OutputError(CarddbError):
    """Output that could not be written or failed its own check after writing."""

    exit_code = ExitCode.OUTPUT


class LimitError(CarddbError):
    """A rule of use refused the action (a third booster in a day, a size budget that cannot be met)."""

    exit_code = ExitCode.PROBLEMS


class FaceRuleError(CarddbError):
    """Faces that break a legibility rule (text cut, letters too small, text printed twice) under --strict."""

    exit_code = ExitCode.PROBLEMS


class KitCheckError(OutputError):
    """A print-and-play kit that failed its own check after writing (contents, bookmarks, tuck box, margins)."""
