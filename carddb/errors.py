"""The one error hierarchy of carddb.

Library code raises these; the command line turns them into ``Error: ...`` on stderr and the exit code
of the class, in one place (``carddb.cli.main``). Nothing else is allowed to reach a user as a traceback.
"""

from __future__ import annotations


class CarddbError(Exception):
    """Base of every error carddb reports to a user. ``exit_code`` is the process exit status."""

    exit_code = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
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

    exit_code = 2


class TemplateError(InputError):
    """A card face template that cannot be read or rendered (file and line named)."""


class OutputError(CarddbError):
    """Output that could not be written or failed its own check after writing."""

    exit_code = 3


class LimitError(CarddbError):
    """A rule of use refused the action (a third booster in a day, a size budget that cannot be met)."""

    exit_code = 1


class FaceRuleError(CarddbError):
    """Faces that break a legibility rule (text cut, letters too small, text printed twice) under --strict."""

    exit_code = 1


class DeckIllegal(CarddbError):
    """Not raised for ordinary checks (they return problems); used when a command must stop on an illegal deck."""

    exit_code = 1
