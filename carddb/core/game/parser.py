"""Reading a game definition's TOML tables into the classes of ``definition.py``, fail-closed.

Every table is checked against its key list (``schema.read_table``); every field, kind and zone a rule
names must be declared. Errors name the key path; ``game.parse_game`` prefixes the file.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from carddb.core.cards.fields import FIELD_TYPES, FieldDef
from carddb.core.game.components import parse_components
from carddb.core.game.definition import (
    RESERVED_KEYS,
    SEVERITIES,
    BoosterSlot,
    BoosterSpec,
    CheckDef,
    CopyLimit,
    CopyRules,
    FormatInfo,
    GameDefinition,
    KindDef,
    Modifier,
    PlaytestRules,
    Reading,
    SetInfo,
    SumCap,
    ZoneDef,
)
from carddb.core.game.definition_errors import definition_error
from carddb.core.game.schema import read_table
from carddb.core.game.selectors import Selector, parse_selector
from carddb.errors import DefinitionError

#: Check types the checker implements, with their parameters (type, required) and their default code.
CHECK_TYPES: dict[str, tuple[str, dict[str, tuple[Any, bool]]]] = {
    "character-only": ("character-only", {"field": (str, True), "from_zones": ("strings", True),
                                          "zones": ("strings", True)}),
    "presence": ("no-basic", {"applies": ("selector", True), "zones": ("strings", True)}),
    "evolution-line": ("evolution-line", {"field": (str, True), "roots": ("selector", True),
                                          "zones": ("strings", True)}),
    "mana-type": ("mana-type", {"field": (str, True), "applies": ("selector", True),
                                "exempt": ("strings", False), "zones": ("strings", True),
                                "min_count": (int, True)}),
    "fusion-material": ("fusion-material", {"field": (str, True), "applies": ("selector", False),
                                            "zones": ("strings", True)}),
    "site-type": ("site-type", {"applies": ("selector", True), "bases": ("selector", True),
                                "base_zones": ("strings", True), "zones": ("strings", True)}),
    "starting-component": ("no-component", {"applies": ("selector", True), "base_zones": ("strings", True),
                                            "zones": ("strings", True)}),
    "requires-card": ("requires-card", {"field": (str, True), "zones": ("strings", True)}),
}

_CARD_SIZES = {"poker": (63.0, 88.0), "bridge": (57.0, 89.0), "yugioh": (59.0, 86.0), "mini": (41.0, 63.0),
               "tarot": (70.0, 120.0), "square": (70.0, 70.0)}


_TOP = {
    "game": (dict, True), "sets": (list, False), "fields": (dict, False), "kinds": (dict, True),
    "zones": (dict, False), "copies": (dict, False), "modifiers": (list, False), "sum_caps": (list, False),
    "checks": (list, False), "compatibility": (dict, False), "readings": (list, False),
    "aliases": (dict, False), "formats": (dict, False), "booster": (dict, False), "lackey": (dict, False),
    "apprentice": (dict, False), "dice": (dict, False), "turn": (dict, False), "play": (dict, False),
    "playtest": (dict, False),
    "print": (dict, False), "components": (dict, False),
}
_GAME = {
    "id": (str, True), "name": (str, True), "authors": ("strings", False), "origin": (str, False),
    "rulebook": (str, False), "deck_game": (bool, False), "main_zone": (str, False),
    "qualifier_field": (str, False), "card_size": ((str, "ints", list), False),
    "default_format": (str, False),
}


class GameParser:
    def __init__(self, raw: Mapping[str, Any], where: str) -> None:
        self.raw = raw
        self.where = where

    def parse(self, format_id: str | None) -> GameDefinition:
        top = read_table(self.raw, _TOP, "")
        game = read_table(top["game"], _GAME, "game")
        formats = self._formats(top.get("formats", {}))
        default_format = game.get("default_format", next(iter(formats), "standard"))
        if formats and default_format not in formats:
            raise definition_error("game.default_format", f"names no format in [formats] ({default_format!r})")
        chosen = format_id or default_format
        if format_id and format_id not in formats:
            known = ", ".join(formats) or "none"
            raise DefinitionError(f"{self.where}: game {game['id']!r} has no format {format_id!r} "
                                  f"(formats: {known})")
        if chosen in formats:
            override = top.get("formats", {}).get(chosen, {}).get("override", {})
            top = _merge(top, read_table(override, {k: (t, False) for k, (t, _) in _TOP.items() if k != "formats"},
                                         f"formats.{chosen}.override"))

        fields = self._fields(top.get("fields", {}))
        kinds = self._kinds(top["kinds"], fields)
        deck_game = game.get("deck_game", True)
        zones = self._zones(top.get("zones", {}), kinds, fields)
        main_zone = game.get("main_zone", next(iter(zones), ""))
        if deck_game and main_zone not in zones:
            raise definition_error("game.main_zone", f"names no zone ({main_zone!r})")
        qualifier = game.get("qualifier_field", "")
        if qualifier and qualifier not in fields:
            raise definition_error("game.qualifier_field", f"names no declared field ({qualifier!r})")
        compat = read_table(top.get("compatibility", {}), {"field": (str, False), "fits": (dict, False)},
                            "compatibility")
        if compat.get("field") and compat["field"] not in fields:
            raise definition_error("compatibility.field", f"names no declared field ({compat['field']!r})")
        fits = {}
        for key, values in compat.get("fits", {}).items():
            if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
                raise definition_error(f"compatibility.fits.{key}", "must be a list of strings")
            fits[key] = tuple(values)
        return GameDefinition(
            id=game["id"], name=game["name"], path=self.where, authors=tuple(game.get("authors", ())),
            origin=game.get("origin", ""), rulebook=game.get("rulebook", "rulebook.md"), deck_game=deck_game,
            main_zone=main_zone, qualifier_field=qualifier, card_size_mm=self._card_size(game),
            sets=self._sets(top.get("sets", [])), fields=fields, kinds=kinds, zones=zones,
            copies=self._copies(top.get("copies"), zones, fields),
            modifiers=self._modifiers(top.get("modifiers", []), zones, fields),
            sum_caps=self._sum_caps(top.get("sum_caps", []), zones, fields),
            checks=self._checks(top.get("checks", []), zones, fields, kinds),
            compatibility=fits, compatibility_field=compat.get("field", ""),
            readings=self._readings(top.get("readings", [])), aliases=self._aliases(top.get("aliases", {})),
            formats=formats, format=chosen, default_format=default_format,
            booster=self._booster(top.get("booster")), lackey=self._lackey(top.get("lackey", {})),
            apprentice=self._apprentice(top.get("apprentice", {}), fields),
            dice=self._dice(top.get("dice", {})), turn=read_table(top.get("turn", {}), _TURN, "turn"),
            raw=self.raw, play=self._play(game["id"], top.get("play", {})),
            playtest=self._playtest(top.get("playtest"), zones, fields, kinds, main_zone),
            safe_zone_mm=self._safe_zone(top.get("print", {})),
            components=parse_components(top.get("components"), top, game["name"]),
        )

    def _play(self, game_id: str, raw: Any) -> dict[str, Any]:
        """``[play]``: the keys the game's plugin declares (``GamePlugin.play``), no others; the core knows none."""
        if not raw:
            return read_table(raw, {}, "play")
        from carddb.core.play.registry import plugin

        found = plugin(game_id)
        if found is None or not found.play:
            raise definition_error("play", f"game {game_id!r} has no play helpers installed to read [play] (a game's "
                                           "plugin declares its keys)")
        return read_table(raw, {key: (declared.kind, False) for key, declared in found.play.items()}, "play")

    def _playtest(self, raw: Any, zones: Mapping[str, ZoneDef], fields: Mapping[str, FieldDef],
                  kinds: Mapping[str, KindDef], main_zone: str) -> PlaytestRules | None:
        if raw is None:
            return None
        table = read_table(raw, _PLAYTEST, "playtest")
        stat_zone = table.get("stat_zone", "")
        if stat_zone and (stat_zone not in zones or zones[stat_zone].maximum != 1):
            raise definition_error("playtest.stat_zone", f"must name a zone of one card, not {stat_zone!r}")
        numbers = {}
        for key in ("opening_hand", "draw_per_turn"):
            value = table[key]
            if isinstance(value, bool) or (isinstance(value, int) and not 0 <= value <= 100):
                raise definition_error(f"playtest.{key}", "must be a number from 0 to 100 or a number field")
            if isinstance(value, str) and (not stat_zone or value not in fields
                                           or fields[value].type != "int"):
                raise definition_error(f"playtest.{key}", f"{value!r} is not a number field of the card in "
                                                          "stat_zone")
            numbers[key] = value
        draw_zones = tuple(table.get("draw_zones", [main_zone]))
        for zone in draw_zones:
            if zone not in zones:
                raise definition_error("playtest.draw_zones", f"names no declared zone ({zone!r})")
        reveal = table.get("setup_reveal", 0)
        if not 0 <= reveal <= 100 or (reveal > 0) != ("setup_takes" in table):
            raise definition_error("playtest.setup_reveal", "a number from 1 to 100, given with setup_takes")
        return PlaytestRules(
            hand=numbers["opening_hand"], per_turn=numbers["draw_per_turn"], draw_zones=draw_zones,
            stat_zone=stat_zone, setup_reveal=reveal,
            redraw_until=self._selector(table["redraw_until"], "playtest.redraw_until", fields, kinds)
            if "redraw_until" in table else None,
            setup_takes=self._selector(table["setup_takes"], "playtest.setup_takes", fields, kinds)
            if "setup_takes" in table else None,
            first_turn_draws=table.get("first_turn_draws", True), rule=table.get("rule", ""))

    def _safe_zone(self, table: Any) -> float:
        """``[print] safe_zone_mm``: how far inside the trim frame lines and text keep (3 mm unless it says)."""
        value = read_table(table, {"safe_zone_mm": (float, False)}, "print").get("safe_zone_mm", 3.0)
        if not 0 <= value <= 20:
            raise definition_error("print.safe_zone_mm", f"must be between 0 and 20 mm, not {value!r}")
        return float(value)

    def _card_size(self, game: Mapping[str, Any]) -> tuple[float, float]:
        size = game.get("card_size", "poker")
        if isinstance(size, str):
            if size not in _CARD_SIZES:
                raise definition_error("game.card_size", f"unknown preset {size!r}; "
                                       f"use one of {', '.join(_CARD_SIZES)} or [width_mm, height_mm]")
            return _CARD_SIZES[size]
        if len(size) != 2 or not all(isinstance(v, int | float) and v > 0 for v in size):
            raise definition_error("game.card_size", "must be a preset name or [width_mm, height_mm]")
        return float(size[0]), float(size[1])

    def _sets(self, raw: list[Any]) -> tuple[SetInfo, ...]:
        spec = {"code": (str, True), "name": (str, True), "mark": (str, False), "description": (str, False)}
        sets = [SetInfo(**read_table(item, spec, f"sets[{i}]")) for i, item in enumerate(raw)]
        codes = [s.code for s in sets]
        if len(set(codes)) != len(codes):
            raise definition_error("sets", "two sets share a code")
        return tuple(sets)

    def _fields(self, raw: Mapping[str, Any]) -> dict[str, FieldDef]:
        spec = {"type": (str, True), "label": (str, False), "choices": ("strings", False),
                "also": ("strings", False), "min": (int, False), "max": (int, False),
                "description": (str, False), "computed": (str, False)}
        fields = {}
        for key, item in raw.items():
            where = f"fields.{key}"
            if key in RESERVED_KEYS:
                raise definition_error(where, "is a key every card already has; pick another name")
            table = read_table(item, spec, where)
            if table["type"] not in FIELD_TYPES:
                raise definition_error(f"{where}.type", f"unknown field type {table['type']!r}; "
                                       f"use one of {', '.join(FIELD_TYPES)}")
            fields[key] = FieldDef(key=key, type=table["type"], label=table.get("label", key.replace("_", " ")),
                                   choices=tuple(table.get("choices", ())), also=tuple(table.get("also", ())),
                                   minimum=table.get("min"), maximum=table.get("max"),
                                   description=table.get("description", ""), computed=table.get("computed", ""))
        return fields

    def _kinds(self, raw: Mapping[str, Any], fields: Mapping[str, FieldDef]) -> dict[str, KindDef]:
        spec = {"label": (str, False), "fields": ("strings", False), "required": ("strings", False),
                "description": (str, False), "face": ("strings", False)}
        kinds = {}
        for kind_id, item in raw.items():
            where = f"kinds.{kind_id}"
            table = read_table(item, spec, where)
            for key in (*table.get("fields", ()), *table.get("required", ())):
                if key not in fields:
                    raise definition_error(f"{where}.fields", f"names no declared field ({key!r})")
            missing = set(table.get("required", ())) - set(table.get("fields", ()))
            if missing:
                raise definition_error(f"{where}.required", f"lists fields the kind does not have: {sorted(missing)}")
            strangers = set(table.get("face", ())) - set(table.get("fields", ()))
            if strangers:
                raise definition_error(f"{where}.face", f"lists fields the kind does not have: {sorted(strangers)}")
            kinds[kind_id] = KindDef(id=kind_id, label=table.get("label", kind_id.replace("-", " ").title()),
                                     fields=tuple(table.get("fields", ())),
                                     required=tuple(table.get("required", ())),
                                     description=table.get("description", ""),
                                     face=tuple(table.get("face", ())))
        if not kinds:
            raise definition_error("kinds", "a game needs at least one card kind")
        return kinds

    def _selector(self, raw: Any, where: str, fields: Mapping[str, FieldDef],
                  kinds: Mapping[str, KindDef] | None = None) -> Selector:
        selector = parse_selector(raw, where)
        for key in selector.field_keys():
            if key not in fields and key not in RESERVED_KEYS:
                raise definition_error(where, f"names no declared field ({key!r})")
        if kinds is not None:
            for kind in _selector_kinds(selector):
                if kind not in kinds:
                    raise definition_error(where, f"names no declared kind ({kind!r})")
        return selector

    def _zones(self, raw: Mapping[str, Any], kinds: Mapping[str, KindDef],
               fields: Mapping[str, FieldDef]) -> dict[str, ZoneDef]:
        spec = {"label": (str, False), "min": (int, False), "max": (int, False), "or_empty": (bool, False),
                "takes": (dict, True), "aliases": ("strings", False), "rule": (str, False),
                "lackey_name": (str, False)}
        zones = {}
        for zone_id, item in raw.items():
            where = f"zones.{zone_id}"
            table = read_table(item, spec, where)
            zones[zone_id] = ZoneDef(
                id=zone_id, label=table.get("label", zone_id.title()),
                takes=self._selector(table["takes"], f"{where}.takes", fields, kinds),
                minimum=table.get("min", 0), maximum=table.get("max"), or_empty=table.get("or_empty", False),
                aliases=tuple(table.get("aliases", ())), rule=table.get("rule", ""),
                lackey_name=table.get("lackey_name", ""))
        return zones

    def _zone_list(self, names: list[str], where: str, zones: Mapping[str, ZoneDef]) -> tuple[str, ...]:
        for name in names:
            if name not in zones:
                raise definition_error(where, f"names no declared zone ({name!r})")
        return tuple(names)

    def _field_ref(self, key: str, where: str, fields: Mapping[str, FieldDef]) -> str:
        if key not in fields:
            raise definition_error(where, f"names no declared field ({key!r})")
        return key

    def _copies(self, raw: Any, zones: Mapping[str, ZoneDef], fields: Mapping[str, FieldDef]) -> CopyRules | None:
        if raw is None:
            return None
        spec = {"default": (int, False), "identity": (str, False), "zones": ("strings", True),
                "per_card_field": (str, False), "per_card_source": (str, False),
                "default_source": (str, False), "limits": (list, False), "rule": (str, False)}
        table = read_table(raw, spec, "copies")
        identity = table.get("identity", "card")
        if identity not in ("card", "name"):
            raise definition_error("copies.identity", "must be 'card' (name and qualifier) or 'name'")
        if "per_card_field" in table:
            self._field_ref(table["per_card_field"], "copies.per_card_field", fields)
        limit_spec = {"source": (str, True), "limit": (int, True), "applies": (dict, True),
                      "scope": (str, False), "rule": (str, False)}
        limits = []
        for i, item in enumerate(table.get("limits", [])):
            where = f"copies.limits[{i}]"
            lt = read_table(item, limit_spec, where)
            if lt.get("scope", "card") not in ("card", "group"):
                raise definition_error(f"{where}.scope", "must be 'card' or 'group'")
            limits.append(CopyLimit(source=lt["source"], limit=lt["limit"],
                                    applies=self._selector(lt["applies"], f"{where}.applies", fields),
                                    scope=lt.get("scope", "card"), rule=lt.get("rule", "")))
        return CopyRules(default=table.get("default"), identity=identity,
                         zones=self._zone_list(table["zones"], "copies.zones", zones),
                         per_card_field=table.get("per_card_field", ""),
                         per_card_source=table.get("per_card_source", "deck limit"),
                         default_source=table.get("default_source", "default"),
                         limits=tuple(limits), rule=table.get("rule", ""))

    def _modifiers(self, raw: list[Any], zones: Mapping[str, ZoneDef],
                   fields: Mapping[str, FieldDef]) -> tuple[Modifier, ...]:
        spec = {"type": (str, True), "field": (str, True), "zones": ("strings", True), "label": (str, False)}
        out = []
        for i, item in enumerate(raw):
            where = f"modifiers[{i}]"
            table = read_table(item, spec, where)
            if table["type"] != "limit-bonus":
                raise definition_error(f"{where}.type", "unknown modifier type; the one known is 'limit-bonus'")
            self._field_ref(table["field"], f"{where}.field", fields)
            if fields[table["field"]].type != "map":
                raise definition_error(f"{where}.field", "a limit-bonus field must be of type 'map'")
            out.append(Modifier(type=table["type"], field=table["field"],
                                zones=self._zone_list(table["zones"], f"{where}.zones", zones),
                                label=table.get("label", "{card}'s extra")))
        return tuple(out)

    def _sum_caps(self, raw: list[Any], zones: Mapping[str, ZoneDef],
                  fields: Mapping[str, FieldDef]) -> tuple[SumCap, ...]:
        spec = {"field": (str, True), "cap": (int, True), "zones": ("strings", True), "rule": (str, False)}
        out = []
        for i, item in enumerate(raw):
            where = f"sum_caps[{i}]"
            table = read_table(item, spec, where)
            self._field_ref(table["field"], f"{where}.field", fields)
            out.append(SumCap(field=table["field"], cap=table["cap"],
                              zones=self._zone_list(table["zones"], f"{where}.zones", zones),
                              rule=table.get("rule", "")))
        return tuple(out)

    def _checks(self, raw: list[Any], zones: Mapping[str, ZoneDef], fields: Mapping[str, FieldDef],
                kinds: Mapping[str, KindDef]) -> tuple[CheckDef, ...]:
        out = []
        for i, item in enumerate(raw):
            where = f"checks[{i}]"
            if not isinstance(item, Mapping) or not isinstance(item.get("check"), str):
                raise definition_error(f"{where}.check", "every check needs check = \"<type>\"")
            check_type = item["check"]
            if check_type not in CHECK_TYPES:
                raise definition_error(f"{where}.check", f"unknown check {check_type!r}; "
                                       f"known: {', '.join(CHECK_TYPES)}")
            default_code, params_spec = CHECK_TYPES[check_type]
            spec = {"check": (str, True), "code": (str, False), "severity": (str, False),
                    "rule": (str, False), "message": (str, False),
                    **{k: (dict if t == "selector" else t, req) for k, (t, req) in params_spec.items()}}
            table = read_table(item, spec, where)
            code = table.get("code", default_code)
            if code not in SEVERITIES:
                raise definition_error(f"{where}.code", f"unknown problem code {code!r}")
            severity = table.get("severity", SEVERITIES[code])
            if severity not in ("error", "warning"):
                raise definition_error(f"{where}.severity", "must be 'error' or 'warning'")
            params: dict[str, Any] = {}
            for key, (kind, _) in params_spec.items():
                if key not in table:
                    continue
                value = table[key]
                if kind == "selector":
                    value = self._selector(value, f"{where}.{key}", fields, kinds)
                elif key == "field":
                    value = self._field_ref(value, f"{where}.field", fields)
                elif key in ("zones", "from_zones", "base_zones"):
                    value = self._zone_list(value, f"{where}.{key}", zones)
                elif kind == "strings":
                    value = tuple(value)
                params[key] = value
            out.append(CheckDef(type=check_type, code=code, severity=severity, params=params,
                                rule=table.get("rule", ""), message=table.get("message", "")))
        return tuple(out)

    def _readings(self, raw: list[Any]) -> tuple[Reading, ...]:
        spec = {"id": (str, True), "title": (str, True), "text": (str, True), "rule": (str, False)}
        return tuple(Reading(**read_table(item, spec, f"readings[{i}]")) for i, item in enumerate(raw))

    def _aliases(self, raw: Mapping[str, Any]) -> dict[str, str]:
        for key, value in raw.items():
            if not isinstance(value, str):
                raise definition_error(f"aliases.{key}", "must name a card")
        return dict(raw)

    def _formats(self, raw: Mapping[str, Any]) -> dict[str, FormatInfo]:
        spec = {"label": (str, True), "description": (str, False), "override": (dict, False)}
        out = {}
        for format_id, item in raw.items():
            table = read_table(item, spec, f"formats.{format_id}")
            out[format_id] = FormatInfo(id=format_id, label=table["label"],
                                        description=table.get("description", ""))
        return out

    def _booster(self, raw: Any) -> BoosterSpec | None:
        if raw is None:
            return None
        spec = {"slots": (list, True), "per_day": (int, False), "per_week": (int, False), "set": (str, False),
                "rule": (str, False)}
        table = read_table(raw, spec, "booster")
        slot_spec = {"count": (int, True), "rarity": (str, True), "upgrade": (str, False),
                     "upgrade_chance": (float, False)}
        slots = tuple(BoosterSlot(**read_table(s, slot_spec, f"booster.slots[{i}]"))
                      for i, s in enumerate(table["slots"]))
        return BoosterSpec(slots=slots, per_day=table.get("per_day"), per_week=table.get("per_week"),
                           set=table.get("set", ""), rule=table.get("rule", ""))

    def _lackey(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        table = read_table(raw, _LACKEY, "lackey")
        for i, stat in enumerate(table.get("player_stats", [])):
            read_table(stat, {"name": (str, True), "start": (int, True)}, f"lackey.player_stats[{i}]")
        for key, known in (("functions", LACKEY_FUNCTIONS), ("counters", LACKEY_COUNTER_COLORS)):
            for value in table.get(key, []):
                if value not in known:
                    raise definition_error(f"lackey.{key}", f"unknown value {value!r}; known: {', '.join(known)}")
        for label, seen_by in table.get("zone_visibility", {}).items():
            if seen_by not in ("owner", "all", "none"):
                raise definition_error(f"lackey.zone_visibility.{label}", "must be 'owner', 'all' or 'none'")
        for zone_id, label in table.get("deck_zone_names", {}).items():
            if not isinstance(label, str):
                raise definition_error(f"lackey.deck_zone_names.{zone_id}", "must be a string")
        if "base_url" in table and not _HTTP_URL.match(table["base_url"]):
            raise definition_error("lackey.base_url", "must be an http:// or https:// URL without spaces or quotes "
                                   "(where the plugin folder is published)")
        return table

    def _apprentice(self, raw: Mapping[str, Any], fields: Mapping[str, FieldDef]) -> dict[str, Any]:
        table = read_table(raw, _APPRENTICE, "apprentice")
        for key in ("cost", "type", "power", "toughness", "color", "flavor"):
            if key in table:
                self._field_ref(table[key], f"apprentice.{key}", fields)
        for key in table.get("text_fields", []):
            self._field_ref(key, "apprentice.text_fields", fields)
        for value, letter in table.get("colors", {}).items():
            if not (isinstance(letter, str) and letter and set(letter) <= set("WUBRGALM")):
                raise definition_error(f"apprentice.colors.{value}",
                                       "must be letters of W U B R G (colours), A (colourless), L (land), M (multi)")
        return table

    def _dice(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        table = read_table(raw, {"sides": (int, False), "successes": (dict, False)}, "dice")
        successes = {}
        for face, count in table.get("successes", {}).items():
            if not face.isdigit() or not isinstance(count, int):
                raise definition_error(f"dice.successes.{face}", "faces are numbers mapped to success counts")
            successes[int(face)] = count
        if successes:
            table["successes"] = successes
        return table


# [lackey] and [apprentice]: what the exporters map the game onto (docs/exports.md describes each key).
LACKEY_FUNCTIONS = ("coin", "draw-to-table", "take-control", "stays-tapped", "clone")
LACKEY_COUNTER_COLORS = ("red", "green", "blue", "yellow", "white", "black", "orange", "violet")
_LACKEY = {"plugin_name": (str, False), "phases": ("strings", False), "game_zones": ("strings", False),
           "player_stats": (list, False), "dice": ("ints", False), "hand_size": (int, False),
           "deck_zone_names": (dict, False), "functions": ("strings", False), "counters": ("strings", False),
           "zone_visibility": (dict, False), "base_url": (str, False)}
_HTTP_URL = re.compile(r"^https?://[^\s<>\"']+$")
_APPRENTICE = {"cost": (str, False), "type": (str, False), "power": (str, False), "toughness": (str, False),
               "color": (str, False), "colors": (dict, False), "text_fields": ("strings", False),
               "flavor": (str, False)}
_TURN = {"combo_penalty": (int, False), "special_sp_cost": (int, False), "move_speed": (int, False),
         "move_rate": (int, False), "sp_regen_ticks": (int, False), "smash_powers_per_turn": (int, False),
         "damage_formula": (str, False),
         "recovery_base_units": (int, False), "recovery_damage_per_unit": (int, False),
         "wall_damage_multiplier": (int, False), "star_finish_multiple": (int, False),
         "charge_release_bonus_dice": (int, False)}

# [playtest]: the opening hand and the draws (GameDefinition.playtest; docs/game-definition.md).
_PLAYTEST = {"opening_hand": ((int, str), True), "draw_per_turn": ((int, str), True), "draw_zones": ("strings", False),
             "stat_zone": (str, False), "redraw_until": (dict, False), "setup_reveal": (int, False),
             "setup_takes": (dict, False), "first_turn_draws": (bool, False), "rule": (str, False)}

def _selector_kinds(selector: Selector) -> set[str]:
    kinds = set(selector.kinds)
    for sub in selector.any_of:
        kinds |= _selector_kinds(sub)
    if selector.negated is not None:
        kinds |= _selector_kinds(selector.negated)
    return kinds


_SELECTOR_KEYS = frozenset({"takes", "applies", "roots", "bases"})


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge a format's override onto the base definition: tables merge, everything else replaces."""
    merged = copy.deepcopy(dict(base))
    for key, value in override.items():
        # A selector is one condition: a format that restates it replaces it rather than adding to it.
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping) and key not in _SELECTOR_KEYS:
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged
