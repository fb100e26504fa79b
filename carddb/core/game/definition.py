"""Game definitions: ``rules/<game>/game.toml`` read into frozen dataclasses. Pure standard library.

This module holds the definition's classes and the loading functions; ``parser.py`` reads the TOML
tables into them.

The loader is fail-closed: an unknown key, a value of the wrong type, or a rule naming a field, kind or zone
that the definition does not declare is a ``DefinitionError`` naming the file and the key. The file format
is documented in ``docs/game-definition.md``; ``games.md`` is what each game's file encodes.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carddb.core.cards.fields import FieldDef
from carddb.core.game.components import Components
from carddb.core.game.selectors import Selector
from carddb.errors import DefinitionError

#: Keys every card has; a game may not declare fields under these names.
RESERVED_KEYS = frozenset({"name", "kind", "text", "flavor", "set", "number", "rarity", "art", "sample",
                           "printings", "game"})

#: The codes and default severities of ``games.md``.
SEVERITIES = {
    "parse": "error", "unknown-card": "error", "ambiguous-card": "error", "unknown-zone": "error",
    "unknown-format": "error", "zone-size": "error",
    "copy-limit": "error", "level-cap": "error", "wrong-zone": "error", "character-only": "error",
    "no-basic": "error", "no-component": "error", "site-type": "warning", "evolution-line": "warning",
    "mana-type": "warning", "fusion-material": "warning", "requires-card": "warning", "not-owned": "error",
}

@dataclass(frozen=True, slots=True)
class SetInfo:
    code: str
    name: str
    mark: str = ""
    description: str = ""


@dataclass(frozen=True, slots=True)
class KindDef:
    id: str
    label: str
    fields: tuple[str, ...]
    required: tuple[str, ...] = ()
    description: str = ""
    face: tuple[str, ...] = ()  # the fields its card face prints in their own place (the text never repeats them)


@dataclass(frozen=True, slots=True)
class ZoneDef:
    id: str
    label: str
    takes: Selector
    minimum: int = 0
    maximum: int | None = None
    or_empty: bool = False
    aliases: tuple[str, ...] = ()
    rule: str = ""
    lackey_name: str = ""

    def size_text(self) -> str:
        """The zone's size rule in words: ``exactly 10``, ``60 to 80``, ``at least 50``, ``empty or exactly 15``."""
        if self.maximum is None:
            base = f"at least {self.minimum}" if self.minimum else "any number"
        elif self.minimum == self.maximum:
            base = f"exactly {self.minimum}"
        else:
            base = f"{self.minimum} to {self.maximum}"
        return f"empty or {base}" if self.or_empty else base


@dataclass(frozen=True, slots=True)
class CopyLimit:
    """A limit that applies to the cards a selector picks; the lowest applicable limit wins."""

    source: str
    limit: int
    applies: Selector
    scope: str = "card"  # "card": per card; "group": all matching cards together
    rule: str = ""


@dataclass(frozen=True, slots=True)
class CopyRules:
    default: int | None
    identity: str  # "card" (name and qualifier) or "name"
    zones: tuple[str, ...]
    per_card_field: str = ""
    per_card_source: str = "deck limit"
    default_source: str = "default"
    limits: tuple[CopyLimit, ...] = ()
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Modifier:
    """A card-borne change to deck building, e.g. Mario's extra: ``field`` maps card names to +n copies."""

    type: str
    field: str
    zones: tuple[str, ...]
    label: str = "{card}'s extra"


@dataclass(frozen=True, slots=True)
class SumCap:
    field: str
    cap: int
    zones: tuple[str, ...]
    rule: str = ""


@dataclass(frozen=True, slots=True)
class CheckDef:
    type: str
    code: str
    severity: str
    params: Mapping[str, Any]
    rule: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class Reading:
    id: str
    title: str
    text: str
    rule: str = ""


@dataclass(frozen=True, slots=True)
class FormatInfo:
    id: str
    label: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class BoosterSlot:
    count: int
    rarity: str
    upgrade: str = ""
    upgrade_chance: float = 0.0


@dataclass(frozen=True, slots=True)
class BoosterSpec:
    slots: tuple[BoosterSlot, ...]
    per_day: int | None = None
    per_week: int | None = None
    set: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class PlaytestRules:
    """``[playtest]``: how the rulebook starts a game from a deck, for the playtest table and ``deck odds``.

    ``hand`` and ``per_turn`` are numbers, or the key of a number field of the one card in ``stat_zone`` (ssbm's
    character: INTELLIGENCE cards to start, SPEED a turn). ``setup_reveal`` cards are turned over first and those
    ``setup_takes`` matches leave the deck (website's components), the rest shuffled back, again until one is
    taken; an opening hand without a card ``redraw_until`` matches is shuffled back and drawn again.
    """

    hand: int | str
    per_turn: int | str
    draw_zones: tuple[str, ...]
    stat_zone: str = ""
    redraw_until: Selector | None = None
    setup_reveal: int = 0
    setup_takes: Selector | None = None
    first_turn_draws: bool = True  # the player who goes first draws on the first turn too
    rule: str = ""


@dataclass(frozen=True)
class GameDefinition:
    id: str
    name: str
    path: str
    authors: tuple[str, ...]
    origin: str
    rulebook: str
    deck_game: bool
    main_zone: str
    qualifier_field: str
    card_size_mm: tuple[float, float]
    sets: tuple[SetInfo, ...]
    fields: Mapping[str, FieldDef]
    kinds: Mapping[str, KindDef]
    zones: Mapping[str, ZoneDef]
    copies: CopyRules | None
    modifiers: tuple[Modifier, ...]
    sum_caps: tuple[SumCap, ...]
    checks: tuple[CheckDef, ...]
    compatibility: Mapping[str, tuple[str, ...]]
    compatibility_field: str
    readings: tuple[Reading, ...]
    aliases: Mapping[str, str]
    formats: Mapping[str, FormatInfo]
    format: str
    default_format: str
    booster: BoosterSpec | None
    lackey: Mapping[str, Any]
    apprentice: Mapping[str, Any]
    dice: Mapping[str, Any]
    turn: Mapping[str, Any]
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    #: ``[play]``: the numbers and readings of the play helpers (``docs/game-definition.md``).
    play: Mapping[str, Any] = field(default_factory=dict)
    #: ``[playtest]``: the opening hand and the draws (None: the game declares none).
    playtest: PlaytestRules | None = None
    #: ``[print] safe_zone_mm``: frame lines and text keep this far inside the trim.
    safe_zone_mm: float = 3.0
    #: ``[components]``: the quick-reference card and the pieces ``carddb kit`` draws (None: parsed elsewhere).
    components: Components | None = None

    def rule_link(self, anchor: str) -> str:
        """The public link of a rulebook section: ``rules/shmod/rulebook.md#how-to-build-a-deck``."""
        if not anchor:
            return f"rules/{self.id}/{self.rulebook}"
        return f"rules/{self.id}/{self.rulebook}#{anchor}"

    def fields_of(self, kind: str) -> list[FieldDef]:
        return [self.fields[key] for key in self.kinds[kind].fields]

    def zone_for(self, header: str) -> str | None:
        """The zone a deck-file header names (``Side Deck:`` -> ``side``), by id, label or alias."""
        from carddb.core.cards.card import normalise_name

        wanted = normalise_name(header.rstrip(":"))
        for zone in self.zones.values():
            names = {zone.id, zone.label, *zone.aliases}
            if wanted in {normalise_name(n) for n in names}:
                return zone.id
        return None

    def with_format(self, format_id: str | None) -> GameDefinition:
        """This game under another of its formats (a house rule is a format)."""
        if not format_id or format_id == self.format:
            return self
        return parse_game(self.raw, self.path, format_id=format_id)


def load_game(path: str | Path, format_id: str | None = None) -> GameDefinition:
    """Read ``rules/<game>/game.toml`` (or the folder holding it)."""
    path = Path(path)
    if path.is_dir():
        path = path / "game.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DefinitionError(f"{path}: no game definition there") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DefinitionError(f"{path}: cannot be read ({exc})") from None
    return load_game_text(text, str(path), format_id)


def load_game_text(text: str, where: str = "game.toml", format_id: str | None = None) -> GameDefinition:
    """Parse a game definition from TOML text; ``where`` names the file in errors."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DefinitionError(f"{where}: not valid TOML ({exc})") from None
    except (RecursionError, ValueError) as exc:  # arrays nested thousands deep; a number of 5,000 digits
        raise DefinitionError(f"{where}: cannot be read as TOML ({type(exc).__name__})") from None
    return parse_game(raw, where, format_id=format_id)


def parse_game(raw: Mapping[str, Any], where: str, format_id: str | None = None) -> GameDefinition:
    from carddb.core.game.parser import GameParser  # the parser builds these classes: imported when used

    try:
        return GameParser(raw, where).parse(format_id)
    except DefinitionError as exc:
        if exc.message.startswith(where):
            raise
        raise DefinitionError(f"{where}: {exc.message}") from None
