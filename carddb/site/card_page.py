"""One page per card, at ``games/<game>/cards/<stem>/``: the face, every field, the sets and printings, the
legality under each format (the checker's own facts: the copy limit and where it comes from, the zones that
take the card) with the rules linked, and buttons that add it to the deck being built (``javascripts/gallery.js``).
"""

from __future__ import annotations

from carddb.core.cards.card import Card
from carddb.site.card_data import GameCards
from carddb.site.markup import (
    face_box,
    html_lines,
    html_text,
    html_url,
    md_code,
    md_text,
    relative_path,
    rule_href,
    rule_target,
    url_prefix,
)


def card_page(data: GameCards, card: Card, previous: Card | None, following: Card | None) -> str:
    game = data.game
    page = data.page(card)
    root = url_prefix(page)
    face = data.faces.get(card.key)
    kind = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
    picture = (f'<img src="{html_url(root + face)}" alt="{html_text(card.key)}: the card face" '
               f'{face_box(*game.card_size_mm)}>'
               if face else '<span class="carddb-noface">no face rendered</span>')
    out = ["---", "hide:", "  - toc", "---", "", f"# {md_text(card.key)}", "",
           f'<div class="carddb-cardpage" data-card-page data-game="{html_text(game.id)}" '
           f'data-key="{html_text(card.key)}" markdown>',
           f'<div class="carddb-cardpage-face">{picture}</div>', "",
           '<div class="carddb-cardpage-info" markdown>', "",
           f"**{md_text(kind)}**" + (f" · {md_text(game.name)}"), ""]
    if card.text:
        out += [f'<div class="carddb-cardtext">{html_lines(card.text)}</div>', ""]
    if card.flavor:
        out += [f'<div class="carddb-flavor">{html_lines(card.flavor)}</div>', ""]
    out += _add_buttons(data, card)
    out += _fields(data, card)
    out += _printings(data, card)
    out += _legality(data, card, page)
    out += ["</div>", "</div>", ""]
    links = []
    if previous is not None:
        links.append(f"[← {md_text(previous.key)}]({relative_path(page, data.page(previous))})")
    links.append(f"[all {md_text(game.name)} cards]({relative_path(page, f'games/{game.id}/cards.md')})")
    if following is not None:
        links.append(f"[{md_text(following.key)} →]({relative_path(page, data.page(following))})")
    out += ['<nav class="carddb-pager" markdown>', "", " · ".join(links), "", "</nav>", ""]
    return "\n".join(out)


def _add_buttons(data: GameCards, card: Card) -> list[str]:
    zones = data.zones.get(card.key, ())
    if not data.game.deck_game or not zones:
        return []
    buttons = "".join(
        f'<span class="carddb-zonebtn"><button type="button" class="md-button" data-add="{html_text(z)}">'
        f"+ {html_text(data.game.zones[z].label)}</button>"
        f'<button type="button" class="md-button carddb-minus" data-remove="{html_text(z)}" '
        f'aria-label="Remove one from the {html_text(data.game.zones[z].label)}">−</button>'
        f'<span class="carddb-incount" data-in-zone="{html_text(z)}"></span></span>' for z in zones)
    return [f'<div class="carddb-addto" data-add-buttons data-key="{html_text(card.key)}" data-search-exclude>'
            f'<span>Your deck:</span> {buttons}'
            '<span class="carddb-deckstatus" data-deck-status aria-live="polite"></span></div>', ""]


def _fields(data: GameCards, card: Card) -> list[str]:
    game = data.game
    rows = []
    keys = list(game.kinds[card.kind].fields) if card.kind in game.kinds else []
    keys += [k for k in card.fields if k not in keys]
    for key in keys:
        if key not in card.fields:
            continue
        label = game.fields[key].label if key in game.fields else key
        value = card.fields[key]
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, list):
            shown = ", ".join(str(v) for v in value)
        elif isinstance(value, dict):
            shown = ", ".join(f"{name} +{n}" for name, n in value.items())
        else:
            shown = str(value)
        sample = " (sample value)" if key in card.sample or "*" in card.sample else ""
        rows.append(f"| {md_text(label)} | {md_text(shown) or '—'}{sample} |")
    if not rows:
        return []
    return ["## Fields", "", "| field | value |", "|---|---|", *rows, ""]


def _printings(data: GameCards, card: Card) -> list[str]:
    if not card.printings:
        return []
    names = {s.code: s.name for s in data.game.sets}
    rows = [f"| {md_text(names.get(p.set, p.set))} ({md_code(p.set)}) | {md_text(p.number) or '—'} | "
            f"{md_text(p.rarity) or '—'} | {md_text(p.art) or '—'} |" for p in card.printings]
    return ["## Sets and printings", "", "| set | number | rarity | art |", "|---|---|---|---|", *rows, ""]


def _legality(data: GameCards, card: Card, page: str) -> list[str]:
    game = data.game
    if not game.deck_game:
        return []
    construction = relative_path(page, f"games/{game.id}/construction.md")
    out = ["## Legality", "",
           f"What the deck checker allows, from the game's definition (see [deck construction]({construction})).", "",
           "| format | copies in a deck | the limit comes from | goes in | rule |", "|---|---|---|---|---|"]
    for legal in data.legality[card.key]:
        copies = "no limit" if legal.limit is None else str(legal.limit)
        extra = [*legal.groups, *legal.bonuses]
        if extra:
            copies += "; " + "; ".join(extra)
        target = rule_target(legal.rule)
        link = f"[rule]({rule_href(target[0], target[1], page)})" if target else ""
        zones = " or ".join(legal.zones) or "no zone (it cannot be in a deck)"
        out.append(f"| {md_text(legal.label or 'all')} | {md_text(copies)} | {md_text(legal.source or '—')} | "
                   f"{md_text(zones)} | {link} |")
    return [*out, ""]
