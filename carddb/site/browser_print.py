"""Printing the deck builder's deck in the browser: the entry point the site's Pyodide worker calls once the
printing engine (``print_bundle``) is unpacked. It is ``carddb print DECKFILE`` itself: the deck is written as a
deck list by the command line's writer, then ``print_deck`` lays out the faces (``carddb.layout``), draws them
as vectors with ReportLab (``carddb.paint``), writes the PDF and checks its geometry (``sheet_check``) before
keeping it. Strings in, a JSON string out; the PDF is left at the path given, for the worker to read.
"""

from __future__ import annotations

import json
from typing import Any

from carddb.errors import CarddbError


def print_deck_json(game_toml: str, cards_json: str, entries_json: str, options_json: str, *,
                    workspace_root: str, out: str, name: str = "") -> str:
    """``{"summary", "pages", "cards", "backs", "bytes", "not_printed", "warnings"}`` or ``{"error"}``."""
    from carddb.core.browser import builder_deck
    from carddb.core.decks.write import write_text
    from carddb.paint.print_job import print_deck
    from carddb.paint.print_options import from_request

    try:
        game, index, deck = builder_deck(game_toml, cards_json, entries_json, name)
        options: dict[str, Any] = json.loads(options_json)
        chosen = from_request(options)  # what the panel leaves empty is carddb print's own default
        result = print_deck(workspace_root, game, list(index.cards), write_text(deck, game), out, chosen,
                            filename=f"{name or game.id + '-deck'}.txt")
    except CarddbError as exc:
        return json.dumps({"error": str(exc)}, ensure_ascii=False)
    except (ValueError, KeyError, TypeError) as exc:
        return json.dumps({"error": f"the deck could not be printed ({exc})"}, ensure_ascii=False)
    report = result.report
    shown = f"{name or game.id + '-deck'}.pdf"  # the name the page downloads it as, not the worker's path
    return json.dumps({"summary": result.summary().replace(out, shown), "pages": report.pages, "cards": report.cards,
                       "backs": report.backs, "bytes": report.bytes, "not_printed": result.not_printed,
                       "warnings": result.warnings}, ensure_ascii=False)
