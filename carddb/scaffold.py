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

# Card face templates (docs/templates.md): a shared frame, one template per kind, and the back, so that
# `carddb build` draws faces, sheets and the LackeyCCG plugin of a new game before anyone edits a template.
_FRAME_TOML = '''# The frame every card of the game shares; unit.toml and action.toml extend it. Poker size, 63 x 88 mm.
# Boxes are at = [left, top, width, height] in millimetres from the card's top-left corner (docs/templates.md).
background = "{{ pick('colour', card.colour) }}"

[palettes.colour]
Red = "#b3261e"
Blue = "#1f5fa8"
Green = "#2e7d32"
default = "#555555"

[[box]]
name = "border"
shape = "rect"
at = [1.6, 1.6, 59.8, 84.8]
stroke = "#111111"
stroke_width = 0.5
radius = 2

[[box]]
name = "title-bar"
shape = "rect"
at = [3.5, 3.5, 56, 7.5]
fill = "#fbf7ee"
stroke = "#111111"
stroke_width = 0.35
radius = 1

[[box]]
name = "title"
shape = "text"
at = [5, 3.5, 45, 7.5]
text = "{{ card.name }}"
font = "bold"
size = 11
min_size = 6.5
wrap = false
valign = "middle"

[[box]]
name = "cost"
shape = "text"
at = [50, 3.5, 8.5, 7.5]
text = "{{ card.cost }}"
font = "bold"
size = 11
min_size = 7
wrap = false
align = "right"
valign = "middle"

[[box]]
name = "kind-line"
shape = "text"
at = [4.5, 11.6, 54, 4.6]
text = "{{ card.kind_label }}{% if card.colour %} - {{ card.colour }}{% endif %}"
font = "bold"
size = 7.5
min_size = 5.5
wrap = false
valign = "middle"
colour = "#ffffff"

[[box]]
name = "art"
shape = "art"
at = [6, 17, 51, 36]
placeholder = "{{ pick('colour', card.colour) }}"
stroke = "#111111"
stroke_width = 0.4

[[box]]
name = "text-panel"
shape = "rect"
at = [3.5, 56, 56, 23]
fill = "#fbf7ee"
stroke = "#111111"
stroke_width = 0.3
radius = 0.8

[[box]]
name = "text"
shape = "text"
at = [3.5, 56, 56, 23]
padding = 1.3
text = "{{ card.text }}"
size = 7.5
min_size = 5

[[box]]
name = "set"
shape = "text"
at = [4, 80.5, 30, 4]
text = "{{ set.name }} {{ card.number }}"
size = 5
min_size = 4
wrap = false
valign = "middle"
colour = "#ffffff"
'''

_UNIT_TOML = '''# A unit: the shared frame with its Power in the lower right corner.
extends = "_frame.toml"

[[box]]
name = "power-badge"
shape = "rect"
at = [45.5, 80, 14, 5]
fill = "#fbf7ee"
stroke = "#111111"
stroke_width = 0.3
radius = 0.8

[[box]]
name = "power"
shape = "text"
at = [45.5, 80, 14, 5]
text = "{{ card.power }}"
font = "bold"
size = 8
min_size = 6
wrap = false
align = "center"
valign = "middle"
'''

_ACTION_TOML = '''# An action: the shared frame as it is.
extends = "_frame.toml"
'''

_BACK_TOML = '''# The card back: the game's name on a dark field.
background = "#1d2f5a"

[[box]]
name = "border"
shape = "rect"
at = [3, 3, 57, 82]
stroke = "#c9a227"
stroke_width = 0.8
radius = 3

[[box]]
name = "title"
shape = "text"
at = [6, 30, 51, 28]
text = "{{ game.name }}"
font = "bold"
size = 16
min_size = 8
align = "center"
valign = "middle"
colour = "#f2d46b"
'''


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
    templates = root / "templates" / game_id
    for existing in (folder, templates):
        if existing.exists():
            raise ConflictError(f"{existing} already exists; nothing was changed")
    title = name or game_id.replace("-", " ").title()
    files = {
        folder / "game.toml": _GAME_TOML.format(id=game_id, name=title.replace('"', "'")),
        folder / "rulebook.md": _RULEBOOK.format(name=title),
        folder / "cards" / "core.yaml": _cards_yaml(),
        folder / "decks" / "legal-starter.txt": _deck(),
        templates / "_frame.toml": _FRAME_TOML,
        templates / "unit.toml": _UNIT_TOML,
        templates / "action.toml": _ACTION_TOML,
        templates / "back.toml": _BACK_TOML,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
