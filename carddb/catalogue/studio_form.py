"""The card studio's form: what a card of a kind can hold, as the browser draws its inputs, the card's values as
the form shows them, and the values a designer typed checked into a card by the very code ``carddb cards
import`` runs (``carddb.catalogue.validate.build_card``), every problem named with its field.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from carddb.catalogue.validate import RawCard, build_card
from carddb.core.cards.card import COMMON_KEYS, PRINTING_KEYS, Card
from carddb.core.game.definition import GameDefinition
from carddb.errors import CardDataError, InputError

#: The keys of the form beside the game's fields: the common keys and the first printing's.
FORM_KEYS = (*COMMON_KEYS, *PRINTING_KEYS)
#: The form's list of the card's other printings (its second on), each a mapping of ``PRINTING_KEYS``; a problem
#: with one is named ``printings.N.key``, N counting the card's printings from 1 (the first is the plain keys).
MORE_PRINTINGS = "more_printings"
#: A card's printings that a form may list (far more than any card has: a bound on a hostile request).
MAX_PRINTINGS = 100
#: What a checked value is called in build_card's messages: ``form, field cost: ...``.
WHERE = "form"
_PROBLEM = re.compile(rf"^{WHERE}, field (?P<key>[^:\s]+): (?P<message>.*)$", re.DOTALL)
#: A form names no more fields than a game has, and its values are short: bounds a hostile request.
MAX_VALUE_CHARS = 4000


def form_fields(game: GameDefinition, kind: str) -> list[dict[str, Any]]:
    """The inputs of the form for a card of ``kind``, in order: name and kind, the kind's fields, the text and
    flavour, then the printing; each with its label, type, choices, range and whether it is required."""
    if kind not in game.kinds:
        raise InputError(f"{game.id} has no kind {kind!r} (kinds: {', '.join(game.kinds)})")
    kind_def = game.kinds[kind]
    out: list[dict[str, Any]] = [
        _input("name", "Name", "str", required=True),
        _input("kind", "Kind", "choice", required=True, choices=[[k.id, k.label] for k in game.kinds.values()]),
    ]
    for key in kind_def.fields:
        definition = game.fields[key]
        if definition.computed:
            continue  # derived from the game definition, whatever a card says
        out.append(_input(key, definition.label, definition.type, required=key in kind_def.required,
                          choices=[[c, c] for c in definition.choices], minimum=definition.minimum,
                          maximum=definition.maximum, also=list(definition.also), help=definition.description))
    out += [_input("text", "Rules text", "text"), _input("flavor", "Flavour text", "text"),
            _input("set", "Set", "choice", required=True, choices=[[s.code, s.name] for s in game.sets]),
            _input("number", "Collector number", "str"), _input("rarity", "Rarity", "str"),
            _input("art", "Art file", "str")]
    return out


def _input(key: str, label: str, kind: str, *, required: bool = False, choices: list[list[str]] | None = None,
           minimum: int | None = None, maximum: int | None = None, also: list[str] | None = None,
           help: str = "") -> dict[str, Any]:
    return {"key": key, "label": label, "type": kind, "required": required, "choices": choices or [],
            "min": minimum, "max": maximum, "also": also or [], "help": help}


def form_values(game: GameDefinition, card: Card) -> dict[str, Any]:
    """The card as the form shows it: every value as text (a CSV cell's form), a yes/no field as a bool."""
    values: dict[str, Any] = {"name": card.name, "kind": card.kind, "text": card.text, "flavor": card.flavor}
    printing = card.printings[0] if card.printings else None
    for key in PRINTING_KEYS:
        values[key] = getattr(printing, key) if printing else ""
    values[MORE_PRINTINGS] = [other.to_dict() for other in card.printings[1:]]
    for key, value in card.fields.items():
        definition = game.fields.get(key)
        if definition is None or definition.computed:
            continue
        values[key] = bool(value) if definition.type == "bool" else definition.to_cell(value)
    return values


def checked_values(values: Any, game: GameDefinition) -> dict[str, Any]:
    """The form's values as a plain mapping of known keys to short texts (or bools): anything else, a key the
    game does not know included, is refused here, before any file is read."""
    if not isinstance(values, dict):
        raise InputError("the card's values must be an object of field names to values")
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key == MORE_PRINTINGS:
            out[key] = _checked_printings(value)
            continue
        if key not in FORM_KEYS and key not in game.fields:
            raise InputError(f"{game.id} has no field {str(key)[:60]!r}")
        if not isinstance(value, str | bool | int) or (isinstance(value, str) and len(value) > MAX_VALUE_CHARS):
            raise InputError(f"the value of {key} must be a text of at most {MAX_VALUE_CHARS} characters")
        out[key] = value
    return out


def _checked_printings(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list) or len(value) > MAX_PRINTINGS:
        raise InputError(f"the card's other printings must be a list of at most {MAX_PRINTINGS}")
    out = []
    for printing in value:
        if not isinstance(printing, dict) or not set(printing) <= set(PRINTING_KEYS):
            raise InputError(f"a printing must be an object of {', '.join(PRINTING_KEYS)}")
        if not all(isinstance(text, str) and len(text) <= MAX_VALUE_CHARS for text in printing.values()):
            raise InputError(f"a printing's values must be texts of at most {MAX_VALUE_CHARS} characters")
        out.append({key: printing.get(key, "") for key in PRINTING_KEYS})
    return out


def card_from_form(game: GameDefinition, values: dict[str, Any], before: Card | None = None
                   ) -> tuple[Card | None, dict[str, str]]:
    """The card the form's values make, and the problems by field (empty when the card is good; then the card is
    never None). Checked by ``build_card``: a problem with one field is noted, that field left out, and the rest
    checked again, so every field's problem shows at once; then each of the other printings, by the same code
    with that printing's values in place of the first's. The card keeps ``before``'s sample marks, which the form
    does not show, and its other printings when the values do not list them."""
    more = values.get(MORE_PRINTINGS)
    raw = {key: value for key, value in values.items()
           if key != MORE_PRINTINGS and not (isinstance(value, bool) and not value)}
    problems: dict[str, str] = {}
    card = None
    for _ in range(len(raw) + 1):
        try:
            card = build_card(game, RawCard(values=dict(raw), where=WHERE))
        except CardDataError as exc:
            key, message = _problem(exc, values)
            problems.setdefault(key, message)
            if key not in raw or raw[key] in ("", None) or key in ("name", "kind"):
                break  # nothing to leave out, or nothing else can be checked without it
            raw.pop(key)
            if key in game.kinds[str(raw["kind"])].required:
                raw[key] = _stand_in(game, key)  # so the fields after it are checked too
            continue
        break
    if card is not None and more is not None:  # the fields are good, or stood in for: the printings can be checked
        printings = card.printings[:1]
        for number, printing in enumerate(more, start=2):
            try:
                printings += build_card(game, RawCard(values={**raw, **printing}, where=WHERE)).printings
            except CardDataError as exc:
                key, message = _problem(exc, values)
                problems.setdefault(f"printings.{number}.{key}" if key in PRINTING_KEYS else "",
                                    f"printing {number}: {message}")
        card = replace(card, printings=printings)
    if card is None or problems:
        return None, problems
    if before is not None:
        kept = before.printings[1:] if more is None else []
        card = replace(card, printings=[*card.printings, *kept], sample=list(before.sample))
    return card, {}


def _problem(error: CardDataError, values: dict[str, Any]) -> tuple[str, str]:
    """The field ``build_card``'s message names ("" for the card as a whole), and the message said beside it."""
    found = _PROBLEM.match(error.message)
    key, message = (found["key"], found["message"]) if found else ("", error.message)
    return key, _without_name(message, values)


def _stand_in(game: GameDefinition, key: str) -> Any:
    """A value any required field takes, standing in for a wrong one while the other fields are checked."""
    definition = game.fields[key]
    if definition.choices:
        return definition.choices[0]
    return definition.minimum or 0 if definition.type == "int" else "x"


def _without_name(message: str, values: dict[str, Any]) -> str:
    """``Goblin: expected a whole number`` beside the field reads better without the card's name first."""
    name = str(values.get("name", "") or "")
    return message[len(name) + 2:] if name and message.startswith(f"{name}: ") else message
