"""The card gallery of a game: every card's rendered face, with a filter by kind, type and text.

Everything that comes from a card is HTML-escaped; the filter script (``javascripts/carddb.js``) only reads
the ``data-`` attributes written here and toggles ``hidden``, so no card data is ever parsed as markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from carddb.rules.cards import Card
from carddb.rules.game import GameDefinition
from carddb.site.markup import html_lines, html_text, md_text, url_prefix

#: Fields read as a card's "type" for the filter, in order of preference.
_TYPE_KEYS = ("type", "types", "site_type", "move_type")


def type_field(game: GameDefinition) -> str:
    """The field the gallery filters by as "type" (``""`` when the game has none)."""
    for key in _TYPE_KEYS:
        if key in game.fields:
            return key
    return next((key for key, f in game.fields.items() if f.type == "choice"), "")


def card_types(card: Card, key: str) -> list[str]:
    value = card.fields.get(key) if key else None
    if value is None or value == "":
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def gallery_page(game: GameDefinition, cards: Sequence[Card], faces: Mapping[str, str], page: str) -> str:
    """Markdown (mostly raw HTML) of ``games/<id>/cards.md``.

    ``faces`` maps a card's slug to the site path of its rendered face; a card without one shows as text.
    """
    root = url_prefix(page)
    tkey = type_field(game)
    kinds = sorted({c.kind for c in cards}, key=lambda k: list(game.kinds).index(k) if k in game.kinds else 99)
    types = sorted({t for c in cards for t in card_types(c, tkey)}, key=str.casefold)
    type_label = game.fields[tkey].label if tkey else "Type"
    out = [f"# {md_text(game.name)}: cards", "",
           f"{len(cards)} cards. Faces are rendered from the catalogue by `carddb render`; type in the box to "
           "search names and card text.", "",
           '<div class="carddb-gallery" data-card-gallery>',
           '<form class="carddb-filter" role="search">',
           '<label>Search <input type="search" name="text" placeholder="name or text" autocomplete="off"></label>',
           '<label>Kind <select name="kind"><option value="">all</option>'
           + "".join(f'<option value="{html_text(k)}">{html_text(game.kinds[k].label if k in game.kinds else k)}'
                     "</option>" for k in kinds) + "</select></label>"]
    if types:
        out.append(f'<label>{html_text(type_label)} <select name="type"><option value="">all</option>'
                   + "".join(f'<option value="{html_text(t)}">{html_text(t)}</option>' for t in types)
                   + "</select></label>")
    out += ['<output class="carddb-count" aria-live="polite"></output>', "</form>", '<ul class="carddb-cards">']
    for card in cards:
        out.append(_tile(game, card, tkey, faces.get(card.slug), root))
    out += ["</ul>", "</div>", ""]
    return "\n".join(out)


def _tile(game: GameDefinition, card: Card, tkey: str, face: str | None, root: str) -> str:
    kind_label = game.kinds[card.kind].label if card.kind in game.kinds else card.kind
    types = card_types(card, tkey)
    search = " ".join([card.name, card.text, card.flavor, *types]).casefold()
    attrs = (f'id="{html_text(card.slug)}" data-kind="{html_text(card.kind)}" '
             f'data-types="{html_text(chr(31).join(types))}" data-search="{html_text(" ".join(search.split()))}"')
    picture = (f'<img src="{html_text(root + face)}" alt="{html_text(card.key)}" loading="lazy" decoding="async">'
               if face else '<span class="carddb-noface">no face rendered</span>')
    detail = f"{html_text(kind_label)}" + (f" · {html_text(', '.join(types))}" if types else "")
    text = f'<p class="carddb-text">{html_lines(card.text)}</p>' if card.text else ""
    return (f'<li class="carddb-card" {attrs}>{picture}<div class="carddb-caption">'
            f'<strong class="carddb-name">{html_text(card.key)}</strong><span class="carddb-kind">{detail}</span>'
            f"{text}</div></li>")
