"""The card gallery of a game: every card's rendered face in a wide grid, each linking to its card page, with
filters built from the game's declared fields, a search box that speaks the command line's search language
(run by the rules engine in the browser), and buttons that add a card to the deck being built.

Everything that comes from a card is HTML-escaped; the page script (``javascripts/gallery.js``) only reads the
``data-`` attributes written here and toggles ``hidden``, so no card data is ever parsed as markup. The page is
left out of the site search (its cards' own pages are in it, names and texts), and so are its controls.
"""

from __future__ import annotations

from carddb.core.cards.card import Card
from carddb.site.card_data import GameCards, type_field, values_of
from carddb.site.markup import face_box, html_lines, html_text, html_url, md_text, url_prefix
from carddb.site.search_example import example_query
from carddb.site.verbatim import verbatim

#: A field gets a filter when the cards hold between 2 and this many different values of it.
MAX_FILTER_VALUES = 30
_SEPARATOR = "\u001f"


def filter_fields(data: GameCards) -> list[str]:
    """The declared fields offered as filters: the type field first, then every choice, list, str or bool field
    whose values among the cards are few enough to pick from (and are not card names)."""
    game = data.game
    tkey = type_field(game)
    keys = [tkey] if tkey else []
    names = {c.name for c in data.cards}
    for key, fdef in game.fields.items():
        if key in keys or fdef.type not in ("choice", "list", "str", "bool"):
            continue
        values = {v for c in data.cards for v in values_of(c, key)}
        if values <= names:  # a list of card names (materials, requirements): the search box finds those
            continue
        if 2 <= len(values) <= MAX_FILTER_VALUES:
            keys.append(key)
    return [k for k in keys if {v for c in data.cards for v in values_of(c, k)}]


def gallery_page(data: GameCards, page: str) -> str:
    """Markdown (mostly raw HTML) of ``games/<id>/cards.md``."""
    game, cards = data.game, data.cards
    kinds = sorted({c.kind for c in cards}, key=lambda k: list(game.kinds).index(k) if k in game.kinds else 99)
    fields = filter_fields(data)
    out = ["---", "hide:", "  - navigation", "  - toc", "search:", "  exclude: true", "---", "",
           f"# {md_text(game.name)}: cards", "",
           f"{len(cards)} cards. Click a card for its page (every field, its sets, its legality). Faces are "
           "rendered from the catalogue by `carddb render`.", ""]
    block = [f'<div class="carddb-gallery carddb-wide" data-card-gallery data-game="{html_text(game.id)}" '
             "data-search-exclude>",
             '<form class="carddb-filter" role="search">',
             '<label>Name or text <input type="search" name="text" placeholder="name or text" autocomplete="off">'
             "</label>",
             '<label class="carddb-query">Search <input type="search" name="search-query" autocomplete="off" '
             f'spellcheck="false" placeholder="{html_text(example_query(game, cards))}" '
             'title="The search language of carddb cards search: field:value, field&lt;=N, -term, or, (...)">'
             "</label>",
             '<label>Kind <select name="kind"><option value="">all</option>'
             + "".join(f'<option value="{html_text(k)}">{html_text(game.kinds[k].label if k in game.kinds else k)}'
                       "</option>" for k in kinds) + "</select></label>"]
    for key in fields:
        fdef = game.fields[key]
        name = "type" if key == type_field(game) else f"f-{key}"
        if fdef.type == "bool":
            options = '<option value="true">yes</option><option value="false">no</option>'
        else:
            values = sorted({v for c in cards for v in values_of(c, key)}, key=str.casefold)
            options = "".join(f'<option value="{html_text(v)}">{html_text(v)}</option>' for v in values)
        block.append(f'<label>{html_text(fdef.label)} <select name="{html_text(name)}" data-field="{html_text(key)}">'
                     f'<option value="">all</option>{options}</select></label>')
    block += ['<output class="carddb-count" aria-live="polite"></output>', "</form>",
              '<p class="carddb-query-status" data-query-status aria-live="polite"></p>']
    if game.deck_game:
        block.append('<div class="carddb-deckbar" data-deck-bar aria-live="polite"></div>')
    block.append('<ul class="carddb-cards">')
    root = url_prefix(page)
    block += [_tile(data, card, fields, root) for card in cards]
    block += ["</ul>", "</div>"]
    return "\n".join([*out, *verbatim(block), ""])


def _tile(data: GameCards, card: Card, fields: list[str], root: str) -> str:
    game = data.game
    stem = data.stems[card.key]
    kind_label = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
    tkey = type_field(game)
    types = values_of(card, tkey)
    search = " ".join([card.name, card.text, card.flavor, *types]).casefold()
    attrs = [f'id="{html_text(stem)}"', f'data-key="{html_text(card.key)}"', f'data-kind="{html_text(card.kind)}"',
             f'data-types="{html_text(_SEPARATOR.join(types))}"',
             f'data-search="{html_text(" ".join(search.split()))}"']
    for key in fields:
        if key != tkey:
            value = card.fields.get(key)
            shown = ("true" if value else "false") if game.fields[key].type == "bool" else \
                _SEPARATOR.join(values_of(card, key))
            attrs.append(f'data-f-{html_text(key)}="{html_text(shown)}"')
    face = data.faces.get(card.key)
    href = f"{stem}/"
    picture = (f'<img src="{html_url(root + face)}" alt="{html_text(card.key)}" loading="lazy" '
               f'decoding="async" {face_box(*data.game.card_size_mm)}>' if face
               else '<span class="carddb-noface">no face rendered</span>')
    detail = f"{html_text(kind_label)}" + (f" · {html_text(', '.join(types))}" if types else "")
    text = f'<p class="carddb-text">{html_lines(card.text)}</p>' if card.text and not face else ""
    buttons = ""
    zones = data.zones.get(card.key, ())
    if game.deck_game and zones:
        buttons = '<div class="carddb-add" data-add-buttons data-key="' + html_text(card.key) + '">' + "".join(
            f'<button type="button" data-add="{html_text(z)}" title="Add one to the {html_text(game.zones[z].label)}">'
            f'+ {html_text(game.zones[z].label)}</button>' for z in zones) + \
            '<span class="carddb-incount" data-in-deck></span></div>'
    return (f'<li class="carddb-card" {" ".join(attrs)}><a class="carddb-face" href="{html_url(href)}">{picture}</a>'
            f'<div class="carddb-caption"><a class="carddb-name" href="{html_url(href)}">{html_text(card.key)}</a>'
            f'<span class="carddb-kind">{detail}</span>{text}</div>{buttons}</li>')
