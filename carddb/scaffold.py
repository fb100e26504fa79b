"""``carddb init``: a new game in a workspace, with files that already build, check and render."""

from __future__ import annotations

import re
from pathlib import Path

from carddb.errors import ConflictError, InputError

GAME_ID = re.compile(r"^[a-z][a-z0-9-]{1,31}$")

_GAME_TOML = '''# {name}: the game definition. Every key is explained in docs/game-definition.md of carddb.

[game]
id = "{id}"
name = "{name}"
authors = ["You"]
rulebook = "rulebook.md"
main_zone = "main"
card_size = "poker"
default_format = "standard"

[[sets]]
code = "core"
name = "Core Set"

[formats.standard]
label = "Standard"
description = "40 to 60 cards, at most 3 copies of a card."

[fields.cost]
type = "int"
label = "Cost"
min = 0
[fields.power]
type = "int"
label = "Power"
min = 0
[fields.colour]
type = "choice"
label = "Colour"
choices = ["Red", "Blue", "Green"]

[kinds.unit]
label = "Unit"
fields = ["cost", "power", "colour"]
required = ["cost", "power", "colour"]

[kinds.action]
label = "Action"
fields = ["cost", "colour"]
required = ["cost"]

[zones.main]
label = "Deck"
min = 40
max = 60
takes = {{ kind = ["unit", "action"] }}
aliases = ["Main", "Deck"]
rule = "building-a-deck"

[copies]
default = 3
identity = "card"
zones = ["main"]
rule = "building-a-deck"
'''

_RULEBOOK = '''# {name}

Write your rules here. The deck checker links to the headings below.

## Building a deck

A deck has 40 to 60 cards, with at most 3 copies of any card.
'''

_COLOURS = ("Red", "Blue", "Green")


def _cards_yaml() -> str:
    lines = ["# The core set. Card file format: docs/card-files.md of carddb.", "set: core", "cards:"]
    for number in range(1, 15):
        colour = _COLOURS[number % 3]
        if number <= 10:
            lines += [f"  - name: {colour} Unit {number}", "    kind: unit", f"    cost: {number % 5 + 1}",
                      f"    power: {number % 4 + 1}", f"    colour: {colour}",
                      f"    text: \"A {colour.lower()} unit.\"", f"    number: \"{number:03d}\""]
        else:
            lines += [f"  - name: {colour} Action {number}", "    kind: action", f"    cost: {number % 3}",
                      f"    colour: {colour}", "    text: \"Draw a card.\"", f"    number: \"{number:03d}\""]
    return "\n".join(lines) + "\n"


def _deck() -> str:
    lines = ["# expect: legal", "Main:"]
    names = [f"{_COLOURS[n % 3]} {'Unit' if n <= 10 else 'Action'} {n}" for n in range(1, 15)]
    lines += [f"3 {name}" for name in names[:13]] + [f"1 {names[13]}"]
    return "\n".join(lines) + "\n"


def scaffold_game(root: str | Path, game_id: str, name: str | None = None) -> list[Path]:
    """Create ``rules/<game_id>/`` under ``root``; refuse (changing nothing) if the game already exists."""
    if not GAME_ID.match(game_id):
        raise InputError(f"game id {game_id!r}: use 2 to 32 lower-case letters, digits or '-', starting with a letter")
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file, not a folder")
    folder = root / "rules" / game_id
    if folder.exists():
        raise ConflictError(f"{folder} already exists; nothing was changed")
    title = name or game_id.replace("-", " ").title()
    files = {
        folder / "game.toml": _GAME_TOML.format(id=game_id, name=title.replace('"', "'")),
        folder / "rulebook.md": _RULEBOOK.format(name=title),
        folder / "cards" / "core.yaml": _cards_yaml(),
        folder / "decks" / "legal-starter.txt": _deck(),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
