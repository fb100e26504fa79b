"""The deck builder page of a game: the builder (``builder_page``), then the paste-in checker, a form the page
script (``javascripts/carddb.js``) wires to the rules engine running in a module Web Worker. Without JavaScript
the page says how to check a deck on the command line.
"""

from __future__ import annotations

from collections.abc import Sequence

from carddb.core.game.definition import GameDefinition
from carddb.site.builder_page import builder_section
from carddb.site.bundle import ENGINE_TIMEOUT_MS
from carddb.site.markup import html_text, md_text
from carddb.site.play_page import has_play_page


def checker_page(game: GameDefinition, deck_games: Sequence[GameDefinition]) -> str:
    play_page = "../play/" if has_play_page(game) else None
    games = "".join(f'<option value="{html_text(g.id)}"{" selected" if g.id == game.id else ""}>'
                    f"{html_text(g.name)}</option>" for g in deck_games)
    formats = "".join(f'<option value="{html_text(f.id)}"{" selected" if f.id == game.default_format else ""}>'
                      f"{html_text(f.label)}</option>" for f in game.formats.values())
    return "\n".join([
        "---", "hide:", "  - toc", "---", "",
        f"# {md_text(game.name)}: deck builder", "",
        "Build a deck from the cards of the gallery (each card has buttons to add it to a zone), or open a deck "
        "file. Every change is checked in your browser by the same Python code as `carddb deck check`, and the "
        "problems are shown beside the cards they name. The deck stays in this browser; a link shares it.", "",
        *builder_section(game, play_page), "",
        "## Check a deck list", "",
        "Paste a deck list or open a deck file (`.txt`, LackeyCCG `.dek`, Apprentice `.dec`), pick the format, "
        "and check it. The check runs in your browser, with the same Python code as `carddb deck check`; "
        "nothing is sent anywhere. Each problem links to the rule that sets it.", "",
        f'<div class="carddb-checker" data-deck-checker data-game="{html_text(game.id)}" '
        f'data-timeout-ms="{ENGINE_TIMEOUT_MS}" data-search-exclude>',
        '<p class="carddb-engine" data-engine role="status">The checker needs JavaScript.</p>',
        '<form class="carddb-checker-form">',
        '<div class="carddb-row">',
        f'<label>Game <select name="game">{games}</select></label>',
        f'<label>Format <select name="format">{formats}</select></label>',
        '<label>Open a deck file <input type="file" name="file" accept=".txt,.dek,.dec,text/plain,text/xml">'
        "</label>",
        "</div>",
        '<textarea name="deck" rows="14" spellcheck="false" aria-label="Deck list" '
        'placeholder="Main:&#10;4 Card Name&#10;Side:&#10;1 Another Card"></textarea>',
        '<div class="carddb-row"><button type="submit" class="md-button md-button--primary" disabled>'
        'Check deck</button><button type="button" class="md-button" data-action="to-builder" disabled>'
        'Open in the deck builder</button><span class="carddb-file" data-filename></span></div>',
        "</form>",
        '<div class="carddb-result" data-result aria-live="polite"></div>',
        "</div>", "",
        *(["At the table: damage, battles, KOs and the like are worked out on the [play helpers](play.md) page.", ""]
          if has_play_page(game) else []),
        '<noscript><p>This page needs JavaScript. On the command line: '
        f"<code>carddb deck check DECK.txt --game {html_text(game.id)}</code>.</p></noscript>", "",
    ])
