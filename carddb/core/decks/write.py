"""Deck file writers: the deck list text format, LackeyCCG ``.dek`` and Apprentice ``.dec``. Pure stdlib.

What one writer writes, ``parse`` reads back to the same zones, counts, names and qualifiers (a round
trip). Lines of the same card in the same zone are merged. Zones are written in the game's order.

- text: ``Zone:`` headers with the zone labels, ``N Name (Qualifier)`` lines.
- LackeyCCG ``.dek``: the shape the current client writes (``<deck version="0.8">``, one ``<card>`` per
  copy, superzones named by the game's LackeyCCG zone names); a qualified card is written
  ``Name (Qualifier)``, which is how the LackeyCCG export names same-named cards apart.
- Apprentice ``.dec``: CRLF, ``//NAME:``, 8-space main lines; every other zone (side deck, ssbm character,
  website base site, shmod stack) as ``SB:`` + 2 spaces lines after a ``// ZONE: Label`` comment. Every
  ``.dec`` reader counts ``SB:`` lines outside the main deck and skips ``//`` lines, so the main deck keeps
  its count everywhere; carddb reads the comment back to put each ``SB:`` line in its zone.
- Cockatrice ``.cod``: ``cockatrice.write_cockatrice`` (main, and every other zone in the sideboard).
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

from carddb.core.cards.slugs import slugify
from carddb.core.decks.deck import Deck, DeckEntry
from carddb.core.game.definition import GameDefinition

WRITE_FORMATS = ("text", "lackey", "apprentice", "cockatrice")
SUFFIXES = {"text": ".txt", "lackey": ".dek", "apprentice": ".dec", "cockatrice": ".cod"}


def merged(deck: Deck, game: GameDefinition) -> dict[str, list[DeckEntry]]:
    """Zone -> entries with the same card merged, zones in the game's order, cards in first-seen order."""
    out: dict[str, dict[tuple[str, str], DeckEntry]] = {zone: {} for zone in game.zones}
    for entry in deck.entries:
        zone = out.setdefault(entry.zone, {})
        key = (entry.name, entry.qualifier)
        before = zone.get(key)
        zone[key] = entry if before is None else DeckEntry(
            zone=entry.zone, count=before.count + entry.count, name=entry.name, qualifier=entry.qualifier,
            line=before.line, text=before.text, set_hint=before.set_hint)
    return {zone: list(entries.values()) for zone, entries in out.items() if entries}


def write_deck(deck: Deck, game: GameDefinition, fmt: str) -> str:
    if fmt == "text":
        return write_text(deck, game)
    if fmt == "lackey":
        return write_lackey(deck, game)
    if fmt == "apprentice":
        return write_apprentice(deck, game)
    if fmt == "cockatrice":
        from carddb.core.decks.cockatrice import write_cockatrice  # cockatrice imports parse, as this module does

        return write_cockatrice(deck, game, merged(deck, game))
    raise ValueError(f"unknown deck format {fmt!r}; use one of {', '.join(WRITE_FORMATS)}")


def write_text(deck: Deck, game: GameDefinition) -> str:
    lines = [f"# {deck.name}"] if deck.name else []
    for zone, entries in merged(deck, game).items():
        if lines:
            lines.append("")
        lines.append(f"{game.zones[zone].label if zone in game.zones else zone}:")
        lines.extend(f"{e.count} {e.written}" for e in entries)
    return "\n".join(lines) + "\n"


def _lackey_zone(game: GameDefinition, zone: str) -> str:
    zone_def = game.zones.get(zone)
    names = game.lackey.get("deck_zone_names", {})
    return (zone_def.lackey_name if zone_def and zone_def.lackey_name else "") or names.get(zone) or \
        (zone_def.label if zone_def else zone)


def write_lackey(deck: Deck, game: GameDefinition, image_of: Mapping[str, str] | None = None) -> str:
    """A LackeyCCG ``.dek``; each card's ``id`` is its ImageFile (``image_of`` by written name, when the writer
    knows the plugin's; else the name's ``slugify``, which is the ImageFile of every card whose name reads
    unlike the others')."""
    images = image_of or {}
    plugin = game.lackey.get("plugin_name", game.name)
    out = ['<deck version="0.8">', "\t<meta>", f"\t\t<game>{escape(plugin)}</game>"]
    if deck.name:
        out.append(f"\t\t<title>{escape(deck.name)}</title>")
    out.append("\t</meta>")
    default_set = game.sets[0].code if game.sets else ""
    for zone, entries in merged(deck, game).items():
        out.append(f"\t<superzone name={quoteattr(_lackey_zone(game, zone))}>")
        for entry in entries:
            name = escape(entry.written)
            image = images.get(entry.written) or slugify(entry.written)
            card = (f"\t\t<card><name id={quoteattr(image)}>{name}</name>"
                    f"<set>{escape(entry.set_hint or default_set)}</set></card>")
            out.extend([card] * entry.count)
        out.append("\t</superzone>")
    out.append("</deck>")
    return "\n".join(out) + "\n"


def write_apprentice(deck: Deck, game: GameDefinition) -> str:
    zones = merged(deck, game)
    lines = [f"//NAME: {deck.name or game.name + ' deck'}"]
    lines.extend(f"        {e.count} {e.written}" for e in zones.get(game.main_zone, []))
    for zone, entries in zones.items():
        if zone == game.main_zone:
            continue
        lines.append(f"// ZONE: {game.zones[zone].label if zone in game.zones else zone}")
        lines.extend(f"SB:  {e.count} {e.written}" for e in entries)
    return "\r\n".join(lines) + "\r\n"
