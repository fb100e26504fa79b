"""The deck builder of a game: the deck being built (kept in the browser's storage) as faces grouped by zone and
kind, with counts, charts and every problem beside the card it names; shared as a link, opened from a deck file
or pasted list, downloaded as a deck list, LackeyCCG ``.dek`` or Apprentice ``.dec``, and printed to a proxy
PDF, all in the browser (``javascripts/builder.js``, the rules engine in a Web Worker). The paste-in checker
follows it on the same page (``checker_page``).
"""

from __future__ import annotations

from carddb.core.game.definition import GameDefinition
from carddb.layout.impose import CARD_SIZES, PAPER_SIZES
from carddb.paint.print_options import DEFAULTS
from carddb.site.markup import face_pixels, html_text, html_url

#: The proxy layouts ``carddb print --layout`` offers, in words.
PRINT_LAYOUTS = (("fronts", "fronts only"), ("duplex-long", "fronts and backs, long-edge duplex"),
                 ("duplex-short", "fronts and backs, short-edge duplex"), ("fold", "fold and glue"),
                 ("single", "one card a page (print shop)"))


def _options(items: list[tuple[str, str]], selected: str = "") -> str:
    return "".join(f'<option value="{html_text(v)}"{" selected" if v == selected else ""}>{html_text(label)}</option>'
                   for v, label in items)


def builder_section(game: GameDefinition, play_page: str | None = None) -> list[str]:
    """The builder's HTML (a raw block of the checker page); ``play_page`` links the game's Play page if any."""
    formats = _options([(f.id, f.label) for f in game.formats.values()], game.default_format)
    # The panel starts at carddb print's own defaults (an empty bleed is its automatic bleed), so that a deck
    # printed here with the panel untouched is the PDF `carddb print DECK` writes.
    papers = _options([(name, name.upper() if len(name) == 2 else name.capitalize()) for name in PAPER_SIZES],
                      DEFAULTS.paper.lower())
    cards = _options([("", "the game's own")] + [(name, name) for name in CARD_SIZES], DEFAULTS.card or "")
    layouts = _options(list(PRINT_LAYOUTS), DEFAULTS.layout)
    bleed = "" if DEFAULTS.bleed is None else f"{DEFAULTS.bleed:g}"
    marks = " checked" if DEFAULTS.marks else ""
    face_width, face_height = face_pixels(*game.card_size_mm)  # each face's box is reserved before it loads
    play = f' <a class="md-button" href="{html_url(play_page)}">Play</a>' if play_page else ""
    return [
        f'<div class="carddb-builder carddb-wide" data-deck-builder data-game="{html_text(game.id)}" '
        f'data-search-exclude data-face-width="{face_width}" data-face-height="{face_height}">',
        '<p class="carddb-engine" data-builder-engine role="status">The deck builder needs JavaScript.</p>',
        '<div class="carddb-row carddb-toolbar">',
        f'<label>Format <select name="deck-format">{formats}</select></label>',
        '<button type="button" class="md-button" data-action="share">Copy a link to this deck</button>',
        '<label>Download <select name="download"><option value="">…</option>'
        '<option value="text">deck list (.txt)</option><option value="lackey">LackeyCCG (.dek)</option>'
        '<option value="apprentice">Apprentice (.dec)</option></select></label>',
        '<label class="carddb-open">Open a deck file <input type="file" name="deck-file" '
        'accept=".txt,.dek,.dec,text/plain,text/xml"></label>',
        '<button type="button" class="md-button" data-action="clear">Empty the deck</button>', play,
        "</div>",
        '<p class="carddb-note" data-builder-note aria-live="polite"></p>',
        '<div class="carddb-builder-verdict" data-builder-result aria-live="polite"></div>',
        '<div class="carddb-charts" data-charts></div>',
        '<div class="carddb-deckview" data-deck-view><p>The deck is empty. Add cards from the '
        f'<a href="../cards/">{html_text(game.name)} cards</a>, or open or paste a deck.</p></div>',
        '<details class="carddb-print" data-print><summary>Print this deck</summary>',
        "<p>Makes the deck's proxy sheets as a PDF in your browser, with the same layout engine and painter as "
        "<code>carddb print</code>; nothing is sent anywhere. The first print loads the printing engine (a few "
        "megabytes).</p>",
        '<div class="carddb-row">',
        f'<label>Paper <select name="paper">{papers}</select></label>',
        f'<label>Card size <select name="card">{cards}</select></label>',
        f'<label>Layout <select name="layout">{layouts}</select></label>',
        f'<label>Bleed (mm) <input type="number" name="bleed" min="0" max="10" step="0.25" value="{bleed}" '
        'placeholder="automatic"></label>',
        f'<label>Gutter (mm) <input type="number" name="gutter" min="0" max="20" step="0.5" '
        f'value="{DEFAULTS.gutter:g}"></label>',
        f'<label><input type="checkbox" name="marks"{marks}> crop marks</label>',
        "</div>",
        '<div class="carddb-row"><button type="button" class="md-button md-button--primary" data-action="print">'
        'Print this deck</button><span class="carddb-progress" data-print-status aria-live="polite"></span></div>',
        '<div data-print-result></div>',
        "</details>",
        *playtest_section(game),
        "</div>",
    ]


def playtest_section(game: GameDefinition) -> list[str]:
    """The playtest table (``javascripts/playtest.js``), for a game whose ``[playtest]`` says how it starts."""
    if game.playtest is None:
        return []
    anchor = f"#{game.playtest.rule}" if game.playtest.rule else ""
    return [
        '<details class="carddb-playtest" data-playtest><summary>Playtest this deck</summary>',
        "<p>Shuffle and draw the opening hand as the "
        f'<a href="{html_url("../rulebook/" + anchor)}">rulebook</a> starts a game, draw the next card, and read the '
        "exact odds of a card or a kind (the same figures as <code>carddb deck odds</code>).</p>",
        '<p class="carddb-note" data-playtest-dealt></p>',
        '<div class="carddb-row"><button type="button" class="md-button md-button--primary" data-action="deal">'
        "Shuffle and draw a hand</button>"
        '<button type="button" class="md-button" data-action="draw" disabled>Draw a card</button>'
        '<span data-playtest-status role="status"></span></div>',
        '<ul class="carddb-hand carddb-setup" data-playtest-setup aria-label="Put aside by the setup" hidden></ul>',
        '<ul class="carddb-hand" data-playtest-hand aria-label="Hand"></ul>',
        '<div class="carddb-row">',
        '<label>Odds of <select name="odds-target"><option value="">each card</option></select></label>',
        '<label>By turn <input type="number" name="by-turn" min="0" max="200" step="1" value="3"></label>',
        '<label><input type="checkbox" name="second"> going second</label>',
        "</div>",
        '<div class="carddb-odds-result" data-playtest-odds aria-live="polite"></div>',
        "</details>",
    ]
