"""The deck construction page of a game, generated from its definition so the site never disagrees with the
checker: zones and sizes, copy limits and where they come from, LIMITED lists, modifiers, sum caps,
compatibility, the checks with their codes and severities, the readings, and the formats.
"""

from __future__ import annotations

from collections.abc import Sequence

from carddb.core.cards.card import Card
from carddb.core.game.definition import SEVERITIES, CheckDef, GameDefinition
from carddb.site.markup import md_code, md_text, md_words, rule_href
from carddb.site.words import Vocabulary, describe_selector, join_and, join_or

#: Problems every deck game can report, whatever its definition declares.
_ALWAYS = [
    ("parse", "A line of the deck file could not be read (its line number and text are given)."),
    ("unknown-card", "No card of that name in the game; up to 3 close names are suggested."),
    ("ambiguous-card", "Several cards share that name and the line does not say which one; the choices are listed."),
    ("unknown-zone", "A zone the game does not have: a deck file's heading (its cards are not counted) or a hand-made "
                     "link's zone; the game's zones are listed."),
]


def construction_page(game: GameDefinition, cards: Sequence[Card], page: str) -> str:
    """Markdown of ``games/<id>/construction.md`` for a deck game (``page`` is its docs path, for links)."""
    words = Vocabulary(game, cards)
    link = _Linker(game, page)
    out = [f"# {md_text(game.name)}: deck construction", "",
           f"These tables are generated from the game's definition, `rules/{game.id}/game.toml`, which the deck "
           "checker reads too: what they say is what the checker enforces. Each rule links to the section of the "
           "rulebook that sets it.", ""]
    out += _formats(game)
    out += _zones(game, words, link)
    out += _copies(game, cards, words, link)
    out += _modifiers(game, cards, words)
    out += _sum_caps(game, words, link)
    out += _compatibility(game)
    out += _problems(game, words, link)
    out += readings_section(game, link)
    return "\n".join(out) + "\n"


def game_data_page(game: GameDefinition, page: str) -> str:
    """Markdown for a game that is not a deck game (ssq): its dice, turn parameters, formats and readings."""
    link = _Linker(game, page)
    out = [f"# {md_text(game.name)}: game data", "",
           f"{md_text(game.name)} is not a deck game, so there is no deck to check. These tables are generated "
           f"from `rules/{game.id}/game.toml`, the definition the turn calculator reads.", ""]
    out += _formats(game)
    if game.dice:
        out += ["## Dice", "", "| setting | value |", "|---|---|"]
        if "sides" in game.dice:
            out.append(f"| sides | {game.dice['sides']} |")
        for face, count in sorted(game.dice.get("successes", {}).items()):
            out.append(f"| a roll of {face} | {count} success{'es' if count != 1 else ''} |")
        out.append("")
    if game.turn:
        out += ["## Turn", "", "| setting | value |", "|---|---|"]
        out += [f"| {md_code(key)} | {md_text(value)} |" for key, value in game.turn.items()]
        out.append("")
    out += readings_section(game, link)
    return "\n".join(out) + "\n"


class _Linker:
    def __init__(self, game: GameDefinition, page: str) -> None:
        self.game = game
        self.page = page

    def __call__(self, anchor: str, text: str = "rule") -> str:
        if not anchor:
            return ""
        return f"[{text}]({rule_href(self.game.id, anchor, self.page)})"


def _formats(game: GameDefinition) -> list[str]:
    if not game.formats:
        return []
    what = ("A format is a set of construction rules; a house rule is a format of its own. The tables below show "
            f"the **{md_text(game.formats[game.format].label)}** format.") if game.deck_game else (
            "A format is a variant of the rules (a house rule is a format of its own); the calculator works with the "
            f"**{md_text(game.formats[game.format].label)}** format unless you pick another.")
    out = ["## Formats", "", what, "",
           "| format | name | default | description |", "|---|---|---|---|"]
    for fmt in game.formats.values():
        default = "yes" if fmt.id == game.default_format else ""
        out.append(f"| {md_code(fmt.id)} | {md_text(fmt.label)} | {default} | {md_text(fmt.description)} |")
    return [*out, ""]


def _zones(game: GameDefinition, words: Vocabulary, link: _Linker) -> list[str]:
    out = ["## Zones", "",
           f"A deck file names a zone on a line of its own ending with `:` (`Main:`); lines before any zone go to "
           f"the {md_text(words.zone_label(game.main_zone))}.", "",
           "| zone | size | takes | headers accepted | rule |", "|---|---|---|---|---|"]
    for zone in game.zones.values():
        headers = ", ".join(md_code(h) for h in dict.fromkeys([zone.label, *zone.aliases, zone.id]))
        out.append(f"| {md_words(zone.label)} | {md_words(zone.size_text())} | "
                   f"{md_words(describe_selector(zone.takes, words))} | {headers} | {link(zone.rule)} |")
    return [*out, ""]


def _copies(game: GameDefinition, cards: Sequence[Card], words: Vocabulary, link: _Linker) -> list[str]:
    rules = game.copies
    if rules is None:
        return []
    counted = "each card name, whatever its version" if rules.identity == "name" else "each card"
    zones = join_and([words.zone_label(z) for z in rules.zones])
    out = ["## Copy limits", "",
           f"Copies of {counted} are counted over the {md_text(zones)} together. When several limits apply to a "
           "card, the lowest one wins. " + link(rules.rule, "Rule."), "",
           "| source | limit | applies to | rule |", "|---|---|---|---|"]
    if rules.default is not None:
        out.append(f"| {md_words(rules.default_source)} | {rules.default} | every card | {link(rules.rule)} |")
    if rules.per_card_field:
        label = words.field_label(rules.per_card_field)
        out.append(f"| {md_words(rules.per_card_source)} | the card's {md_words(label)} | "
                   f"cards with a {md_words(label)} | {link(rules.rule)} |")
    for limit in rules.limits:
        applies = describe_selector(limit.applies, words)
        if limit.scope == "group":
            applies += " (all of them together)"
        out.append(f"| {md_words(limit.source)} | {limit.limit} | {md_words(applies)} | {link(limit.rule)} |")
    out.append("")
    for limit in rules.limits:
        listed = sorted(card.key for card in cards if limit.applies.matches(card))
        if listed:
            out += [f"### {md_text(limit.source)} cards", "",
                    f"The cards of this game's catalogue under the {md_text(limit.source)} limit of {limit.limit}:", ""]
            out += [f"- {md_text(name)}" for name in listed]
            out.append("")
    return out


def _modifiers(game: GameDefinition, cards: Sequence[Card], words: Vocabulary) -> list[str]:
    if not game.modifiers:
        return []
    out = ["## Card modifiers", "",
           "Some cards change deck building (the golden rule: card text overrides the rules). The checker "
           "applies these and names the modifier in its message.", "",
           "| modifier | read from | when the card is in | cards that carry it |", "|---|---|---|---|"]
    for mod in game.modifiers:
        carriers = []
        for card in cards:
            bonus = card.fields.get(mod.field)
            if isinstance(bonus, dict) and bonus:
                changes = ", ".join(f"{name} +{n}" for name, n in sorted(bonus.items()))
                carriers.append(f"{card.key}: {changes}")
        what = "extra copies allowed" if mod.type == "limit-bonus" else mod.type
        out.append(f"| {md_words(what)} | {md_words(words.field_label(mod.field))} | "
                   f"{md_words(join_or([words.zone_label(z) for z in mod.zones]))} | "
                   f"{md_words('; '.join(sorted(carriers)) or 'none in the catalogue')} |")
    return [*out, ""]


def _sum_caps(game: GameDefinition, words: Vocabulary, link: _Linker) -> list[str]:
    if not game.sum_caps:
        return []
    out = ["## Totals", "", "| total of | at most | over | rule |", "|---|---|---|---|"]
    for cap in game.sum_caps:
        out.append(f"| {md_words(words.field_label(cap.field))} | {cap.cap} | "
                   f"{md_words(join_and([words.zone_label(z) for z in cap.zones]))} | {link(cap.rule)} |")
    return [*out, ""]


def _compatibility(game: GameDefinition) -> list[str]:
    if not game.compatibility:
        return []
    label = game.fields[game.compatibility_field].label if game.compatibility_field else "type"
    out = ["## Compatibility", "", f"| a card whose {md_text(label)} is | fits a base whose {md_text(label)} is |",
           "|---|---|"]
    for value, fits in game.compatibility.items():
        out.append(f"| {md_words(value)} | {md_words(join_or(list(fits)))} |")
    return [*out, ""]


def _problems(game: GameDefinition, words: Vocabulary, link: _Linker) -> list[str]:
    rows: list[tuple[str, str, str, str]] = [(code, SEVERITIES[code], text, "") for code, text in _ALWAYS]
    if game.zones:
        rows.append(("zone-size", SEVERITIES["zone-size"], "A zone holds fewer or more cards than its size allows.",
                     ""))
        rows.append(("wrong-zone", SEVERITIES["wrong-zone"], "A card is in a zone that does not take it.", ""))
    if game.copies is not None:
        rows.append(("copy-limit", SEVERITIES["copy-limit"],
                     "More copies of a card than its limit; the message says where the limit comes from.",
                     game.copies.rule))
    for cap in game.sum_caps:
        rows.append(("level-cap", SEVERITIES["level-cap"],
                     f"The total {words.field_label(cap.field)} is above {cap.cap}.", cap.rule))
    for check in game.checks:
        rows.append((check.code, check.severity, check.message or describe_check(check, words), check.rule))
    rows.append(("not-owned", SEVERITIES["not-owned"],
                 "Only when checked against a collection: more copies than the player owns.", ""))
    out = ["## What the checker reports", "",
           "A deck is legal when it has no error; warnings never make a deck illegal.", "",
           "| code | severity | meaning | rule |", "|---|---|---|---|"]
    out += [f"| {md_code(code)} | {md_text(severity)} | {md_text(text)} | {link(rule)} |"
            for code, severity, text, rule in rows]
    return [*out, ""]


def describe_check(check: CheckDef, words: Vocabulary) -> str:
    """One sentence for a declared check, from its type and parameters."""
    p = check.params

    def zones(key: str) -> str:
        return join_and([words.zone_label(z) for z in p.get(key, ())])

    def sel(key: str) -> str:
        return describe_selector(p[key], words) if key in p else "cards"

    field = words.field_label(p.get("field", ""))
    texts = {
        "character-only": f"A card bearing a {field} may be in the {zones('zones')} only when the card in the "
                          f"{zones('from_zones')} bears the same {field}.",
        "presence": f"The {zones('zones')} must hold at least one of: {sel('applies')}.",
        "evolution-line": f"A card in the {zones('zones')} whose {field} names another card needs that card, and so "
                          f"on down the chain to {sel('roots')}, in the deck.",
        "mana-type": f"Each of the {sel('applies')} in the {zones('zones')} whose {field} is not "
                     f"{join_or(list(p.get('exempt', ())))} needs at least {p.get('min_count')} cards of that {field} "
                     f"in the {zones('zones')}, itself included.",
        "fusion-material": f"Each of the {sel('applies')} needs the cards its {field} names in the {zones('zones')}.",
        "site-type": f"Each of the {sel('applies')} in the {zones('zones')} must fit one of the {sel('bases')} in "
                     f"the {zones('base_zones')}.",
        "starting-component": f"At least one of the {sel('applies')} in the {zones('zones')} must fit the card in "
                              f"the {zones('base_zones')}.",
        "requires-card": f"A card whose {field} names another card needs that card in the {zones('zones')}.",
    }
    return texts.get(check.type, check.type)


def readings_section(game: GameDefinition, link: _Linker) -> list[str]:
    if not game.readings:
        return []
    out = ["## Readings", "",
           "Where a rulebook is unclear, the checker follows these readings. Each is data in the game's "
           "definition, so a playgroup can change it with a format of its own.", "",
           "| reading | what we read | rule |", "|---|---|---|"]
    out += [f"| {md_text(r.title)} | {md_text(r.text)} | {link(r.rule)} |" for r in game.readings]
    return [*out, ""]
