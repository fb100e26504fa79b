"""``[components]`` of a game definition: the pieces a game is played with beyond its cards, as data.

``carddb kit`` draws each piece from one of a few templates (``counters``, ``track``, ``sheet``, ``mat``,
``coin``) and the quick-reference card from ``[components.reference]``. Read fail-closed like the rest of
game.toml: every key known, every value of its type, every number in range, and a reference number taken
``from`` the definition must name a value the definition holds. Pure standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carddb.core.game.definition_errors import definition_error
from carddb.core.game.schema import Spec, read_table

#: Each template's own keys (type, required), beside the keys every piece has (``_PIECE``).
TEMPLATES: dict[str, Spec] = {
    # tokens to cut out, ``count`` of each value
    "counters": {"values": ("strings", True), "count": (int, False), "size_mm": (float, False),
                 "shape": (str, False)},
    # a numbered track per player, a paper clip or a bead marks the value
    "track": {"from": (int, True), "to": (int, True), "step": (int, False), "players": (int, False),
              "unit": (str, False)},
    # a record sheet: a row per thing kept, a column per player, room to write and cross out
    "sheet": {"rows": ("strings", True), "players": (int, False), "start": (dict, False)},
    # a mat of labelled zones where dice pools are gathered, with a ring per die
    "mat": {"zones": ("strings", True), "dice": (int, False), "die": (str, False)},
    # a coin to cut out and fold over (two faces back to back)
    "coin": {"faces": ("strings", False), "count": (int, False), "size_mm": (float, False)},
}
_PIECE: Spec = {"template": (str, True), "name": (str, True), "rule": (str, False), "copies": (int, False),
                "note": (str, False)}
_TOP: Spec = {"reference": (dict, False), "pieces": (list, False)}
_REFERENCE: Spec = {"title": (str, False), "phases": ("strings", False), "numbers": (list, False),
                    "copies": (int, False), "rule": (str, False)}
_NUMBER: Spec = {"label": (str, True), "value": (str, False), "from": (str, False)}
_SHAPES = ("round", "square")
#: Sizes a piece may take, in millimetres: smaller cannot be picked up, larger does not fit a sheet's safe area.
_SIZE_RANGE = (10.0, 60.0)


@dataclass(frozen=True)
class Piece:
    """One declared piece: its template and that template's values (defaults filled in)."""

    template: str
    name: str
    params: Mapping[str, Any]
    rule: str = ""
    copies: int = 1
    note: str = ""


@dataclass(frozen=True)
class Reference:
    """The quick-reference card: the turn's phases in order and the numbers a player looks up most."""

    title: str
    phases: tuple[str, ...]
    numbers: tuple[tuple[str, str], ...]
    copies: int = 2
    rule: str = ""


@dataclass(frozen=True)
class Components:
    reference: Reference
    pieces: tuple[Piece, ...] = field(default_factory=tuple)


def parse_components(raw: Any, definition: Mapping[str, Any], name: str) -> Components:
    """``[components]`` of the definition ``definition`` (its raw tables, for ``from`` and the phases)."""
    table = read_table(raw if raw is not None else {}, _TOP, "components")
    reference = _reference(table.get("reference", {}), definition, name)
    pieces = tuple(_piece(entry, f"components.pieces[{index}]")
                   for index, entry in enumerate(table.get("pieces", [])))
    names = [piece.name for piece in pieces]
    for piece in pieces:
        if names.count(piece.name) > 1:
            raise definition_error("components.pieces", f"two pieces are named {piece.name!r}")
    return Components(reference, pieces)


def _reference(raw: Any, definition: Mapping[str, Any], name: str) -> Reference:
    table = read_table(raw, _REFERENCE, "components.reference")
    phases = table.get("phases")
    if phases is None:  # the turn the online clients show already: LackeyCCG's phases
        phases = definition.get("lackey", {}).get("phases", [])
    numbers: list[tuple[str, str]] = []
    for index, entry in enumerate(table.get("numbers", [])):
        where = f"components.reference.numbers[{index}]"
        number = read_table(entry, _NUMBER, where)
        if ("value" in number) == ("from" in number):
            raise definition_error(where, "give a value or where it comes from (from = \"play.life\"), one of them")
        value = number["value"] if "value" in number else _looked_up(definition, number["from"], f"{where}.from")
        numbers.append((number["label"], value))
    copies = _in_range(table.get("copies", 2), 1, 9, "components.reference.copies")
    return Reference(title=table.get("title", f"{name}: quick reference"), phases=tuple(phases),
                     numbers=tuple(numbers), copies=copies, rule=table.get("rule", ""))


def _looked_up(definition: Mapping[str, Any], path: str, where: str) -> str:
    """The value at a dotted ``path`` of the definition (``play.life``, ``zones.main.min``), as text."""
    value: Any = definition
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise definition_error(where, f"{path!r} names no value of the definition")
        value = value[part]
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise definition_error(where, f"{path!r} is not a number or a word")
    return str(value)


def _piece(raw: Any, where: str) -> Piece:
    if not isinstance(raw, Mapping):
        raise definition_error(where, "must be a table")
    template = raw.get("template")
    if template not in TEMPLATES:
        raise definition_error(f"{where}.template", f"must be one of {', '.join(TEMPLATES)}, not {template!r}")
    table = read_table(raw, {**_PIECE, **TEMPLATES[template]}, where)
    params = {key: value for key, value in table.items() if key not in _PIECE}
    _check(template, params, where)
    return Piece(template=template, name=table["name"], params=params, rule=table.get("rule", ""),
                 copies=_in_range(table.get("copies", 1), 1, 20, f"{where}.copies"), note=table.get("note", ""))


def _check(template: str, params: dict[str, Any], where: str) -> None:
    """Ranges and defaults of a template's values (``params`` gets its defaults filled in)."""
    if "size_mm" in params or template in ("counters", "coin"):
        default = 16.0 if template == "counters" else 25.0
        params["size_mm"] = float(params.get("size_mm", default))
        if not _SIZE_RANGE[0] <= params["size_mm"] <= _SIZE_RANGE[1]:
            raise definition_error(f"{where}.size_mm", f"must be from {_SIZE_RANGE[0]:g} to {_SIZE_RANGE[1]:g} mm")
    if template == "counters":
        params["count"] = _in_range(params.get("count", 4), 1, 100, f"{where}.count")
        params["shape"] = params.get("shape", "round")
        if params["shape"] not in _SHAPES:
            raise definition_error(f"{where}.shape", f"must be one of {', '.join(_SHAPES)}")
        if not params["values"]:
            raise definition_error(f"{where}.values", "names no value")
    elif template == "track":
        params["step"] = _in_range(params.get("step", 1), 1, 10_000, f"{where}.step")
        params["players"] = _in_range(params.get("players", 2), 1, 8, f"{where}.players")
        boxes = (params["to"] - params["from"]) // params["step"] + 1
        if boxes < 2 or boxes > 200:
            raise definition_error(f"{where}.to", "the track must have from 2 to 200 boxes")
        params["unit"] = params.get("unit", "")
    elif template == "sheet":
        params["players"] = _in_range(params.get("players", 4), 1, 8, f"{where}.players")
        start = params.get("start", {})
        for row in start:
            if row not in params["rows"]:
                raise definition_error(f"{where}.start.{row}", "names no row of the sheet")
            if not isinstance(start[row], int | str) or isinstance(start[row], bool):
                raise definition_error(f"{where}.start.{row}", "must be a number or a word")
        params["start"] = {row: str(value) for row, value in start.items()}
        if not 1 <= len(params["rows"]) <= 20:
            raise definition_error(f"{where}.rows", "must name from 1 to 20 rows")
    elif template == "mat":
        params["dice"] = _in_range(params.get("dice", 10), 1, 30, f"{where}.dice")
        params["die"] = params.get("die", "d10")
        if not 1 <= len(params["zones"]) <= 4:
            raise definition_error(f"{where}.zones", "must name from 1 to 4 zones")
    elif template == "coin":
        params["faces"] = params.get("faces", ["Heads", "Tails"])
        if len(params["faces"]) != 2:
            raise definition_error(f"{where}.faces", "a coin has two faces")
        params["count"] = _in_range(params.get("count", 2), 1, 20, f"{where}.count")


def _in_range(value: int, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise definition_error(where, f"must be a whole number from {low} to {high}, not {value!r}")
    return value
