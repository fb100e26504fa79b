"""``plugininfo.txt``: the game's zones, phases, counters and buttons in LackeyCCG's vocabulary.

Only tags and kinds seen in real plugins are written (``research/lackey.md`` §1.2, the union over 11
plugins); the shape follows lackey-example and vtes. Values never hold ``<``, ``>`` or ``&``: nothing shows
that Lackey decodes entities in this file, so such characters are replaced and reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from carddb.core.game.definition import GameDefinition
from carddb.errors import DefinitionError
from carddb.exporters.text import to_ascii

_DIE_KINDS = {6: "ROLLD6", 20: "ROLLD20"}  # the only dice real plugins use
_OPTIONAL_FUNCTIONS = {  # [lackey] functions -> (element, label, kind, button)
    "coin": ("generalfunction", "Flip Coin", "FLIPCOIN", True),
    "draw-to-table": ("generalfunction", "Draw To Table", "DRAWCARDTOTABLE", True),
    "take-control": ("cardfunction", "Take Control", "CHANGEOWNER", False),
    "stays-tapped": ("cardfunction", "Does Not Untap", "TOGGLETURNALLIMMUNITY", False),
    "clone": ("cardfunction", "Clone", "CLONE", False),
}


@dataclass(frozen=True)
class DeckZone:
    zone_id: str  # the game's zone id ("" for the default zone of a game without zones)
    label: str  # the deckzone label: the superzone name in .dek files
    shuffle: bool


def clean_label(text: str, warnings: list[str]) -> str:
    ascii_text, _ = to_ascii(text)
    cleaned = " ".join(ascii_text.replace("&", "and").replace("<", "").replace(">", "").split())
    if cleaned != text:
        warnings.append(f"plugininfo label {text!r} written as {cleaned!r}")
    return cleaned


def lackey_zone_label(game: GameDefinition, zone_id: str) -> str:
    """A zone's LackeyCCG name, with the precedence ``carddb.core.decks.write`` uses for ``.dek`` files."""
    zone = game.zones.get(zone_id)
    names = game.lackey.get("deck_zone_names", {})
    return (zone.lackey_name if zone and zone.lackey_name else "") or names.get(zone_id) or \
        (zone.label if zone else zone_id)


def deck_zones(game: GameDefinition, warnings: list[str]) -> list[DeckZone]:
    zones = [DeckZone(zone_id, clean_label(lackey_zone_label(game, zone_id), warnings), zone_id == game.main_zone)
             for zone_id in game.zones]
    if not zones:  # not a deck game (ssq): one pile to load the cards a player brings
        zones = [DeckZone("", "Deck", False)]
    labels = [z.label.casefold() for z in zones]
    if len(set(labels)) != len(labels):
        raise DefinitionError(f"{game.path}: two zones share the LackeyCCG name "
                              f"{', '.join(z.label for z in zones)}; set distinct [lackey] deck_zone_names")
    return zones


def _visibility(game: GameDefinition, label: str, zones: list[DeckZone]) -> str:
    chosen = game.lackey.get("zone_visibility", {})
    if label in chosen:
        return chosen[label]
    if label.casefold() == "hand":
        return "owner"
    main = [z.label for z in zones if z.shuffle]
    if label in main:
        return "none"
    if label in [z.label for z in zones]:
        return "owner"
    return "all"


def build_plugininfo(game: GameDefinition, warnings: list[str]) -> str:
    lackey = game.lackey
    zones = deck_zones(game, warnings)
    lines = ["<plugin>", ""]
    for stat in lackey.get("player_stats", []):
        lines.append(f"<playerstat><label>{clean_label(stat['name'], warnings)}</label>"
                     f"<initialvalue>{stat['start']}</initialvalue></playerstat>")
    if lackey.get("player_stats"):
        lines.append("")
    for zone in zones:
        lines.append(f"<deckzone><label>{zone.label}</label><gamezonetoloadto>{zone.label}</gamezonetoloadto>"
                     f"<shuffle>{'yes' if zone.shuffle else 'no'}</shuffle></deckzone>")
    lines.append("")
    game_zones = [clean_label(z, warnings) for z in lackey.get("game_zones", ["Hand", "Discard"])]
    missing = [zone.label for zone in zones if zone.label not in game_zones]
    at = 1 if game_zones and game_zones[0].casefold() == "hand" else 0
    game_zones[at:at] = missing  # the piles decks load into come right after the hand
    for label in game_zones:
        seen = _visibility(game, label, zones)
        owner, others = {"owner": ("yes", "no"), "all": ("yes", "yes"), "none": ("no", "no")}[seen]
        lines.append(f"<gamezone><label>{label}</label><visibletoowner>{owner}</visibletoowner>"
                     f"<visibletoothers>{others}</visibletoothers></gamezone>")
    lines.append("")
    for phase in lackey.get("phases", []):
        lines.append(f"<phase><label>{clean_label(phase, warnings)}</label></phase>")
    if lackey.get("phases"):
        lines.append("")
    lines += _general_functions(game, warnings)
    lines.append("")
    lines += _card_functions(game)
    lines += ["", "<definition><kind>ISYOURFACEDOWNVISIBLE</kind><value>yes</value></definition>", "", "</plugin>"]
    return "\n".join(lines) + "\n"


def _function(element: str, label: str, kind: str, button: bool, extra: str = "", position: str = "") -> str:
    return (f"<{element}><label>{label}</label><kind>{kind}</kind>{extra}"
            f"<includeasbutton>{'yes' if button else 'no'}</includeasbutton>{position}</{element}>")


def _general_functions(game: GameDefinition, warnings: list[str]) -> list[str]:
    lackey = game.lackey
    out = [_function("generalfunction", "Draw", "DRAWCARD", True),
           _function("generalfunction", "Untap All", "ALLYOURCARDSMAKERIGHT0DEGREES", True)]
    if lackey.get("phases"):
        out += [_function("generalfunction", "Next Phase", "NEXTPHASE", False),
                _function("generalfunction", "Previous Phase", "PREVIOUSPHASE", False)]
    out += [_function("generalfunction", "Next Turn", "NEXTTURN", False),
            _function("generalfunction", "Previous Turn", "PREVIOUSTURN", False)]
    for sides in lackey.get("dice", []):
        if sides in _DIE_KINDS:
            out.append(_function("generalfunction", f"Roll D{sides}", _DIE_KINDS[sides], True))
        else:
            warnings.append(f"LackeyCCG has no button for a d{sides} (real plugins know ROLLD6 and ROLLD20 only); "
                            f"players roll d{sides} outside Lackey or with its chat")
    for name in lackey.get("functions", []):
        element, label, kind, button = _OPTIONAL_FUNCTIONS[name]
        if element == "generalfunction":
            out.append(_function(element, label, kind, button))
    out.append(_function("generalfunction", "Spawn Card", "SPAWNCARD", False))
    return out


def _card_functions(game: GameDefinition) -> list[str]:
    out = [_function("cardfunction", "Tap", "MAKERIGHT90DEGREES", True),
           _function("cardfunction", "Untap", "MAKERIGHT0DEGREES", True),
           _function("cardfunction", "Turn Over", "TURNOVER", True)]
    colors = game.lackey.get("counters", ["red"])
    for i, color in enumerate(colors):
        x = f"{(i + 1) / (len(colors) + 1):.2f}".rstrip("0")
        name = color.capitalize()
        out.append(_function("cardfunction", f"{name}+1", "ADDCOUNTER", True, f"<color>{color}</color>",
                             f"<PositionX>{x}</PositionX><PositionY>.04</PositionY>"))
        out.append(_function("cardfunction", f"{name}-1", "REMOVECOUNTER", True, f"<color>{color}</color>"))
    out.append(_function("cardfunction", "Edit Note", "EDITNOTE", True))
    for name in game.lackey.get("functions", []):
        element, label, kind, button = _OPTIONAL_FUNCTIONS[name]
        if element == "cardfunction":
            out.append(_function(element, label, kind, button))
    return out
