"""A problem the deck checker reports: one violation of one rule, in words a player understands.

The JSON shape (``Problem.to_dict``) is a public contract of ``design.md``: every problem carries ``code``,
``severity``, ``zone``, ``message``, ``rule``, ``line`` and ``card``, and where they apply ``count``,
``limit`` (or ``min``/``max``), ``source`` (where a limit comes from) and ``suggestions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carddb.core.game.definition import SEVERITIES


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    message: str
    zone: str | None = None
    rule: str = ""
    card: str | None = None
    line: int | None = None
    count: int | None = None
    limit: int | None = None
    min: int | None = None
    max: int | None = None
    source: str | None = None
    suggestions: tuple[str, ...] | None = None
    severity: str = ""

    def __post_init__(self) -> None:
        if not self.severity:
            object.__setattr__(self, "severity", SEVERITIES.get(self.code, "error"))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object; optional keys appear only where they apply."""
        data: dict[str, Any] = {"code": self.code, "severity": self.severity, "zone": self.zone}
        for key in ("count", "limit", "min", "max"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.source is not None:
            data["source"] = self.source
        data["message"] = self.message
        data["rule"] = self.rule
        data["line"] = self.line
        data["card"] = self.card
        if self.suggestions is not None:
            data["suggestions"] = list(self.suggestions)
        return data

    def sort_key(self) -> tuple[int, int, str, str]:
        """Errors first, then by line (deck-wide problems last), then code and card."""
        return (0 if self.is_error else 1, self.line if self.line is not None else 1 << 30, self.code,
                self.card or "")


def is_legal(problems: list[Problem]) -> bool:
    """A deck is legal when it has no error; warnings never make a deck illegal."""
    return not any(p.is_error for p in problems)
