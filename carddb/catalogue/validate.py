"""Turning raw card records (from YAML, CSV, JSON) into typed ``Card`` objects checked against the game.

Every problem names the file, the row (or card) and the column; all problems of a file are collected so a
designer fixes them in one go.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from carddb.core.cards.card import COMMON_KEYS, PRINTING_KEYS, Card, Printing, normalise_name
from carddb.core.cards.fields import FieldValueError
from carddb.core.game.definition import GameDefinition
from carddb.core.limits import brief, shown
from carddb.core.wording import plural
from carddb.errors import CardDataError

MAX_REPORTED = 20


@dataclass
class RawCard:
    """One card as read from a file, before typing: ``where`` says where it came from (``file row 3``)."""

    values: dict[str, Any]
    where: str
    printings: list[dict[str, Any]] = field(default_factory=list)
    mergeable: bool = False  # a CSV row: the same card in another printing merges instead of duplicating
    origin: str = ""  # the card file it was read from, as its source names it (a build's cards come from several)


def build_cards(game: GameDefinition, raws: Iterable[RawCard], source: str, *,
                extra_sets: Collection[str] = ()) -> list[Card]:
    """Type and check every record; raise one ``CardDataError`` listing every problem (up to a limit)."""
    return [card for card, _origin in build_cards_with_origins(game, raws, source, extra_sets=extra_sets)]


def build_cards_with_origins(game: GameDefinition, raws: Iterable[RawCard], source: str, *,
                             extra_sets: Collection[str] = (), refused: str = "nothing was imported",
                             ) -> list[tuple[Card, str]]:
    """``build_cards``, each card with the ``origin`` of the record it came from. Set codes must be declared by
    the game (or be among ``extra_sets``: the sets a restored dump lists). ``refused`` ends the message of
    cards that do not build: what did not happen (the studio's "nothing was saved")."""
    problems: list[str] = []
    cards: list[tuple[Card, str]] = []
    seen: dict[tuple[str, str], tuple[str, Card]] = {}
    sets = _SetCodes(game, extra_sets)
    for raw in raws:
        try:
            card = build_card(game, raw, sets)
        except CardDataError as exc:
            problems.append(exc.message)
            continue
        identity = (normalise_name(card.name), card.qualifier)
        if identity in seen:
            first_where, first = seen[identity]
            if raw.mergeable and _same_apart_from_printings(first, card):
                first.printings.extend(card.printings)
                continue
            problems.append(f"{raw.where}: duplicate card {card.key!r} (first at {first_where})")
            continue
        seen[identity] = (raw.where, card)
        cards.append((card, raw.origin))
    if problems:
        shown = problems[:MAX_REPORTED]
        more = f"\n... and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        raise CardDataError(f"{source}: {plural(len(problems), 'problem')}; {refused}\n  "
                            + "\n  ".join(shown) + more)
    return cards


def _same_apart_from_printings(a: Card, b: Card) -> bool:
    return (a.name, a.kind, a.text, a.flavor, a.fields, a.sample) == (b.name, b.kind, b.text, b.flavor, b.fields,
                                                                     b.sample)


class _SetCodes:
    """The set codes a game declares: a card's set is one of them (matched ignoring case, stored as declared)."""

    def __init__(self, game: GameDefinition, extra: Collection[str] = ()) -> None:
        self.game = game
        self.codes = {code.casefold(): code for code in (*(s.code for s in game.sets), *extra)}

    def code(self, written: str, where: str, name: str) -> str:
        declared = self.codes.get(written.casefold())
        if declared is None:
            known = ", ".join(s.code for s in self.game.sets) or "none yet (declare them as [[sets]])"
            raise CardDataError(f"{where}, {_word(where)} set: {name} is in set {written!r}, which "
                                f"{self.game.path} does not declare; its sets are {known}")
        return declared


def build_card(game: GameDefinition, raw: RawCard, sets: _SetCodes | None = None) -> Card:
    values = dict(raw.values)
    name = _text(values.pop("name", ""), raw.where, "name")
    if not name:
        raise CardDataError(f"{raw.where}, {_word(raw.where)} name: a card needs a name")
    kind = _text(values.pop("kind", ""), raw.where, "kind")
    if kind not in game.kinds:
        raise CardDataError(f"{raw.where}, {_word(raw.where)} kind: {shown(name)} has kind {shown(kind)}; "
                            f"{game.id} has {', '.join(game.kinds)}")
    kind_def = game.kinds[kind]
    text = _text(values.pop("text", ""), raw.where, "text").replace("\r\n", "\n")
    flavor = _text(values.pop("flavor", ""), raw.where, "flavor").replace("\r\n", "\n")
    sample = _sample(values.pop("sample", []), raw.where)
    values.pop("game", None)
    values.pop("qualifier", None)
    fields: dict[str, Any] = {}
    for key, value in values.items():
        if key in PRINTING_KEYS:
            continue
        if key not in game.fields:
            known = [*COMMON_KEYS, *PRINTING_KEYS, *game.fields]
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            guess = f"did you mean {close[0]!r}? " if close else ""
            raise CardDataError(f"{raw.where}, {_word(raw.where)} {brief(key)}: unknown {_word(raw.where)} for "
                                f"{game.id}; {guess}fields are {', '.join(known)}")
        definition = game.fields[key]
        if definition.computed:
            continue  # computed from the game definition below, whatever the file says
        try:
            typed = definition.coerce(value)
        except FieldValueError as exc:
            raise CardDataError(f"{raw.where}, {_word(raw.where)} {key}: {name}: {exc}") from None
        if typed is None or (definition.type == "bool" and typed is False):
            continue
        if key not in kind_def.fields:
            raise CardDataError(f"{raw.where}, {_word(raw.where)} {key}: {name} is a {kind}, which has no {key}")
        fields[key] = typed
    for key in kind_def.required:
        if key not in fields:
            raise CardDataError(f"{raw.where}, {_word(raw.where)} {key}: {name} ({kind}) needs a {key}")
    card = Card(game=game.id, name=name, kind=kind, text=text, flavor=flavor, fields=fields,
                printings=_printings(raw, sets or _SetCodes(game), name), sample=sample)
    if game.qualifier_field:
        card.qualifier = str(fields.get(game.qualifier_field, "") or "")
    _apply_computed(game, card)
    return card


def _apply_computed(game: GameDefinition, card: Card) -> None:
    """Fields derived from the definition (Shmod's ``limited`` from its LIMITED list)."""
    kind_fields = game.kinds[card.kind].fields
    for key, definition in game.fields.items():
        if not definition.computed or key not in kind_fields:
            continue
        limits = game.copies.limits if game.copies else ()
        applies = any(limit.source == definition.computed and limit.applies.matches(card) for limit in limits)
        if applies:
            card.fields[key] = True


def _printings(raw: RawCard, sets: _SetCodes, name: str) -> list[Printing]:
    entries = raw.printings or [{k: raw.values.get(k, "") for k in PRINTING_KEYS}]
    printings = []
    for entry in entries:
        unknown = set(entry) - set(PRINTING_KEYS)
        if unknown:
            raise CardDataError(f"{raw.where}, printings: unknown key {shown(sorted(unknown)[0])}; "
                                f"a printing has {', '.join(PRINTING_KEYS)}")
        set_code = _text(entry.get("set", ""), raw.where, "set")
        if not set_code:
            raise CardDataError(f"{raw.where}, {_word(raw.where)} set: {brief(raw.values.get('name', '?'))} has no set")
        set_code = sets.code(set_code, raw.where, name)
        printings.append(Printing(set=set_code, number=_text(entry.get("number", ""), raw.where, "number"),
                                  rarity=_text(entry.get("rarity", ""), raw.where, "rarity"),
                                  art=_text(entry.get("art", ""), raw.where, "art")))
    return printings


def _sample(value: Any, where: str) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(";") if part.strip()]
    if isinstance(value, list) and not any(isinstance(part, list | dict) for part in value):
        return [str(part) for part in value]
    raise CardDataError(f"{where}, {_word(where)} sample: expected a list of keys, got {shown(value)}")


def _text(value: Any, where: str = "", column: str = "") -> str:
    if value is None:
        return ""
    if isinstance(value, list | dict):
        raise CardDataError(f"{where}, {_word(where)} {column}: expected text, got {shown(value)}")
    return str(value).strip()


def _word(where: str) -> str:
    """What a card's value is called where it was written: a CSV file's column, a YAML file's field."""
    return "column" if ".csv" in where.lower() else "field"
