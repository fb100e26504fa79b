"""What the site says about each card, computed once per game: its page address, the zones that take it, its
legality under every format (the checker's own ``CardIndex`` facts, never written by hand), the axes the deck
builder charts, and the JSON the gallery and the deck builder read in the browser.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from carddb.core.cards.card import Card, normalise_name
from carddb.core.cards.slugs import card_stems
from carddb.core.checker.check import CardIndex
from carddb.core.game.definition import GameDefinition

#: Fields read as a card's "type" (filters, charts), in order of preference.
TYPE_KEYS = ("type", "types", "site_type", "move_type")
#: Number fields read as the game's curve (the deck builder charts it), in order of preference.
CURVE_KEYS = ("level", "cost", "lv")


def type_field(game: GameDefinition) -> str:
    """The field the gallery filters and the builder charts as "type" (``""`` when the game has none)."""
    for key in TYPE_KEYS:
        if key in game.fields:
            return key
    return next((key for key, f in game.fields.items() if f.type == "choice"), "")


def curve_field(game: GameDefinition) -> str:
    return next((key for key in CURVE_KEYS if key in game.fields and game.fields[key].type == "int"), "")


def values_of(card: Card, key: str) -> list[str]:
    value = card.fields.get(key) if key else None
    if value is None or value == "":
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


@dataclass(frozen=True)
class FormatLegality:
    format_id: str
    label: str
    limit: int | None
    source: str
    rule: str  # a checker rule link, rules/<game>/rulebook.md#anchor
    zones: tuple[str, ...]  # zone labels, in the game's order
    groups: tuple[str, ...]  # "1 legendary in all"
    bonuses: tuple[str, ...]  # "+1 when Mario is in the Character"


@dataclass
class GameCards:
    """One game's cards as the site shows them."""

    game: GameDefinition
    cards: list[Card]
    stems: dict[str, str]  # card key -> page and face file stem
    zones: dict[str, tuple[str, ...]] = field(default_factory=dict)  # card key -> zone ids (default format)
    legality: dict[str, list[FormatLegality]] = field(default_factory=dict)
    faces: dict[str, str] = field(default_factory=dict)  # card key -> site path of its rendered face

    def page(self, card: Card) -> str:
        return f"games/{self.game.id}/cards/{self.stems[card.key]}.md"


def game_cards(game: GameDefinition, cards: Sequence[Card]) -> GameCards:
    """The game's cards with what the site shows of them; each card's page and face are named by its file-name
    stem (``carddb.core.cards.slugs.card_stems``: the face renderer's and the exports', never ``index``)."""
    data = GameCards(game, list(cards), card_stems(card.key for card in cards))
    variants = [(fid, info.label, game.with_format(fid)) for fid, info in game.formats.items()] or \
        [(game.format, "", game)]
    indexes = [(fid, label, variant, CardIndex(variant, cards)) for fid, label, variant in variants]
    default = next((ix for fid, _, _, ix in indexes if fid == game.default_format), indexes[0][3])
    for card in cards:
        data.zones[card.key] = tuple(z for z in game.zones if z in default.facts(card).zones)
        data.legality[card.key] = [_legality(fid, label, variant, index, card, cards)
                                   for fid, label, variant, index in indexes]
    return data


def _legality(format_id: str, label: str, game: GameDefinition, index: CardIndex, card: Card,
              cards: Sequence[Card]) -> FormatLegality:
    facts = index.facts(card)
    zones = tuple(z.label for z in game.zones.values() if z.id in facts.zones)
    groups = tuple(f"{index.group_limits[g].limit} {index.group_limits[g].source} in all" for g in facts.groups)
    bonuses = []
    wanted = normalise_name(card.name)
    for modifier in game.modifiers:
        for carrier in cards:
            extra = carrier.fields.get(modifier.field)
            if not isinstance(extra, Mapping):
                continue
            for name, plus in extra.items():
                if normalise_name(name) == wanted and isinstance(plus, int) and plus:
                    where = " or ".join(game.zones[z].label for z in modifier.zones if z in game.zones)
                    bonuses.append(f"+{plus} when {carrier.key} is in the {where} "
                                   f"({modifier.label.format(card=carrier.name)})")
    return FormatLegality(format_id, label, facts.limit, facts.source, facts.rule and game.rule_link(facts.rule),
                          zones, groups, tuple(bonuses))


def chart_axes(game: GameDefinition, cards: Sequence[Card]) -> list[dict[str, object]]:
    """The axes the deck builder charts: kind (when the game has several), its type field, its curve."""
    axes: list[dict[str, object]] = []
    if len({c.kind for c in cards}) > 1:
        axes.append({"key": "kind", "label": "Kind"})
    tkey = type_field(game)
    if tkey:
        axes.append({"key": tkey, "label": game.fields[tkey].label})
    ckey = curve_field(game)
    if ckey:
        axes.append({"key": ckey, "label": game.fields[ckey].label, "numeric": True})
    return axes


def gallery_json(data: GameCards) -> str:
    """What the gallery, the card pages and the deck builder read: each card's key, page, face, kind, the zones
    that take it and its values on the charted axes."""
    game = data.game
    axes = chart_axes(game, data.cards)
    out = []
    for card in data.cards:
        values: dict[str, object] = {}
        for axis in axes:
            key = str(axis["key"])
            if key == "kind":
                values[key] = [game.kinds[card.kind].label if card.kind in game.kinds else card.kind]
            else:
                values[key] = values_of(card, key)
        out.append({"key": card.key, "name": card.name, "stem": data.stems[card.key], "kind": card.kind,
                    "face": data.faces.get(card.key, ""), "zones": list(data.zones[card.key]), "axes": values})
    zones = [{"id": z.id, "label": z.label, "size": z.size_text(), "min": z.minimum, "max": z.maximum,
              "or_empty": z.or_empty} for z in game.zones.values()]
    kinds = {k.id: k.label for k in game.kinds.values()}
    drawn = list(game.playtest.draw_zones) if game.playtest else []  # the playtest table's odds name their cards
    return json.dumps({"game": game.id, "cards": out, "axes": axes, "zones": zones, "kinds": kinds,
                       "main_zone": game.main_zone, "drawn_zones": drawn, "link_limits": link_limits(data)},
                      ensure_ascii=False, sort_keys=True, separators=(",", ":"))


#: What a zone without a maximum is taken to hold at most, for ``link_limits`` (no game's deck comes near it).
OPEN_ZONE_CARDS = 60


def link_limits(data: GameCards) -> dict[str, int]:
    """How much of a shared link the builder opens: a deck twice the size the game allows (a zone without a
    maximum counts as its minimum or ``OPEN_ZONE_CARDS``, whichever is more), and a card's count twice the most
    copies any format allows of any card (the whole deck's size when some card has no limit). Twice, so a deck
    over the limits still opens and shows its problems, while a 1 MB link cannot build a deck of 300,000 cards."""
    allowed = sum(z.maximum if z.maximum is not None else max(z.minimum, OPEN_ZONE_CARDS)
                  for z in data.game.zones.values())
    deck = 2 * max(allowed, 1)
    limits = [item.limit for legality in data.legality.values() for item in legality]
    copies = deck if not limits or None in limits else min(deck, 2 * max(max(limits), 1))
    return {"deck": deck, "copies": copies}
