"""Reminder text: what a keyword ability means, printed in italics after it where the card has room.

A game may keep its keywords in ``templates/<game>/reminders.toml``::

    [[reminder]]
    keyword = 'ATK\\+(?P<n>\\d+) vs (?P<type>[A-Za-z]+)'   # a regular expression, matched ignoring case
    text = "When attacking a {type} Pokemon, this Pokemon's ATK is {n} higher."

A template asks for the reminders of a text with ``reminders(card.ability)``: the reminder of every keyword
found in it, in the order the keywords appear, each once, with the keyword's named groups filled in. A text
box prints them through its ``reminder`` key, which is drawn only when it fits (see docs/templates.md).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from carddb.errors import TemplateError


@dataclass(frozen=True)
class Reminder:
    pattern: re.Pattern[str]
    text: str


def load_reminders(path: Path) -> tuple[tuple[Reminder, ...], str]:
    """The reminders of ``path`` (none when the file does not exist) and a hash of the file."""
    if not path.is_file():
        return (), ""
    source = path.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise TemplateError(f"{path}: not valid TOML ({exc})") from None
    unknown = set(raw) - {"reminder"}
    if unknown or not isinstance(raw.get("reminder", []), list):
        raise TemplateError(f"{path}: a reminders file holds only [[reminder]] tables")
    found = []
    for i, item in enumerate(raw.get("reminder", [])):
        where = f"{path}: reminder {i + 1}"
        if not isinstance(item, dict) or set(item) != {"keyword", "text"} or not all(
                isinstance(v, str) for v in item.values()):
            raise TemplateError(f"{where} needs exactly keyword = '...' and text = \"...\"")
        try:
            pattern = re.compile(item["keyword"], re.IGNORECASE)
        except re.error as exc:
            raise TemplateError(f"{where}: keyword is not a valid regular expression ({exc})") from None
        try:
            item["text"].format(**dict.fromkeys(pattern.groupindex, ""))
        except (KeyError, IndexError, ValueError) as exc:
            raise TemplateError(f"{where}: text names {exc} which the keyword does not capture") from None
        found.append(Reminder(pattern, item["text"]))
    return tuple(found), hashlib.sha256(source.encode()).hexdigest()


def reminders_for(reminders: tuple[Reminder, ...], text: object) -> list[str]:
    """The reminder of every keyword in ``text``, in the order they appear there, each once."""
    source = " ".join(str(t) for t in text) if isinstance(text, list | tuple) else str(text or "")
    hits: list[tuple[int, str]] = []
    for reminder in reminders:
        match = reminder.pattern.search(source)
        if match:
            hits.append((match.start(), reminder.text.format(**{k: v or "" for k, v in match.groupdict().items()})))
    out: list[str] = []
    for _, line in sorted(hits, key=lambda hit: hit[0]):
        if line not in out:
            out.append(line)
    return out
