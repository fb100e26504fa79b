"""A game's cards onto Cockatrice's card database (``research/tts-cockatrice.md`` §2.1-2.3).

- ``name``: the card's name, its version added only where two cards share a name (``card_names``).
- ``text``: the stats and the card's text (``card_text.readable_text``): what the card box shows.
- ``prop``: ``type`` (the type line), ``maintype`` (the kind: the deck editor groups by it), ``pt`` for a
  game whose ``[apprentice]`` table names power/toughness fields, then one element per field the card has,
  named after the field's label (Cockatrice shows a property's name as its label and hides names with a
  ``-``, so spaces and hyphens become ``_``: ``IP_required``, ``Deck_limit_DL``).
- ``set``: one per printing, ``num`` and ``rarity`` as attributes. Set names are ``<GAME>-<SET>``
  (``WEBSITE-APSN``): Cockatrice merges every custom set into one database, so a game's ``base`` must not
  meet another game's.
- ``tablerow``: 2 (the creature row) for a card with power/toughness, else 1.

Pictures go where Cockatrice's local loader looks first: ``pics/CUSTOM/<SET>/<name>_<SET>_<num>.jpg``, with
the name corrected as Cockatrice corrects it (``correct_name``).
"""

from __future__ import annotations

import re

from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import GameDefinition
from carddb.exporters.card_text import field_words, kind_label, readable_text, type_line

RESERVED = {"type", "maintype", "manacost", "cmc", "colors", "coloridentity", "loyalty", "pt", "side", "layout"}
# Cockatrice's CardInfo::getCorrectedName: " // " and Windows' reserved characters go, "/" and tabs become " ".
_REMOVED = re.compile(r"( // |[*<>:\"\\?\x00-\x08\x10-\x1f])")
_SPACED = re.compile(r"[/\x09-\x0f]")
# What Windows also refuses in a file name, which Cockatrice's correction keeps.
_WINDOWS_UNSAFE = re.compile(r"[|]|[. ]$")
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.]+")
_SAFE_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def correct_name(name: str) -> str:
    return _SPACED.sub(" ", _REMOVED.sub("", name))


def set_name(game: GameDefinition, code: str) -> str:
    """``WEBSITE-APSN``: unique across games, and a safe folder name under ``pics/CUSTOM``."""
    return re.sub(r"[^A-Z0-9]+", "-", f"{game.id}-{code}".upper()).strip("-")


def property_names(game: GameDefinition) -> dict[str, str]:
    """Field key -> property element name, from the field's label; unique, no reserved name, no ``-``."""
    out: dict[str, str] = {}
    taken = set(RESERVED)
    for key, field in game.fields.items():
        name = _NOT_NAME.sub("_", field.label.strip()).strip("_") or _NOT_NAME.sub("_", key).strip("_") or "field"
        if not (name[0].isalpha() or name[0] == "_"):
            name = f"_{name}"
        if name.lower().startswith("xml"):
            name = f"_{name}"  # names starting with "xml" are reserved by XML itself
        unique, n = name, 1
        while unique in taken:
            n += 1
            unique = f"{name}_{n}" if name not in RESERVED else f"{name}_field"
        taken.add(unique)
        out[key] = unique
    return out


def power_toughness(game: GameDefinition, card: Card) -> str:
    keys = [game.apprentice.get("power"), game.apprentice.get("toughness")]
    values = [field_words(game, k, card.fields[k]) if k and card.fields.get(k) is not None else "" for k in keys]
    return f"{values[0] or '-'}/{values[1] or '-'}" if any(values) else ""


def properties(game: GameDefinition, card: Card, names: dict[str, str]) -> list[tuple[str, str]]:
    """The card's ``prop`` children, in order: type, maintype, pt, then the game's fields."""
    out = [("type", type_line(game, card)), ("maintype", kind_label(game, card))]
    pt = power_toughness(game, card)
    if pt:
        out.append(("pt", pt))
    for key, field in game.fields.items():
        value = card.fields.get(key)
        if value is not None and value != [] and value != {}:
            # Lists and maps keep the card files' "a; b" form, which reads back without guessing.
            out.append((names[key], field_words(game, key, value) if field.type == "bool" else field.to_cell(value)))
    return out


def card_text(game: GameDefinition, card: Card) -> str:
    return readable_text(game, card)


def table_row(game: GameDefinition, card: Card) -> int:
    return 2 if power_toughness(game, card) else 1


def collector_number(printing: Printing, position: int) -> str:
    """The printing's number, or its place in the set when it has none (the picture name needs one)."""
    return printing.number.strip() or str(position)


def picture_path(name: str, set_code: str, number: str) -> str | None:
    """``pics/CUSTOM/<SET>/<corrected name>_<SET>_<num>.jpg``; None when no OS could hold that file name."""
    stem = f"{correct_name(name)}_{set_code}_{number}"
    if not correct_name(name).strip() or _WINDOWS_UNSAFE.search(stem) or len(stem.encode()) > 200 or \
            not _SAFE_NUMBER.fullmatch(number):
        return None
    return f"pics/CUSTOM/{set_code}/{stem}.jpg"
