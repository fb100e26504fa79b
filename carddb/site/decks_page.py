"""The sample decks of a game: each deck's list, the checker's verdict on it, and a link that opens it in the
in-browser checker. The verdicts are computed at build time by the same function the browser runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from carddb.core.game.definition import GameDefinition
from carddb.site.markup import html_lines, html_text, html_url, md_code, md_text, rule_href, rule_target


@dataclass(frozen=True)
class SampleDeck:
    filename: str
    text: str
    asset: str  # the site path the checker page fetches it from
    result: dict[str, Any]  # what ``carddb deck check --json`` prints for it


def decks_page(game: GameDefinition, decks: Sequence[SampleDeck], page: str) -> str:
    out = [f"# {md_text(game.name)}: sample decks", "",
           f"The sample decks of `rules/{game.id}/decks/`, legal and illegal, with what the checker says about "
           "each. Open one in the checker to try changes.", ""]
    for deck in decks:
        result = deck.result
        verdict = "legal" if result.get("legal") else "not legal"
        zones = ", ".join(f"{name} {count}" for name, count in result.get("zones", {}).items())
        out += [f"## {md_text(deck.filename)}", "",
                f"**{verdict.capitalize()}**" + (f" ({md_text(zones)})." if zones else "."), ""]
        for problem in result.get("problems", []):
            target = rule_target(problem.get("rule") or "")
            link = f" [rule]({rule_href(target[0], target[1], page)})" if target else ""
            out.append(f"- {md_code(problem['code'])} {md_text(problem['severity'])}: "
                       f"{md_text(problem['message'])}{link}")
        if result.get("problems"):
            out.append("")
        out += [f'<p><a class="md-button" href="{html_url("../checker/?deck=" + quote(deck.filename))}">'
                "Open in the checker</a></p>", "",
                # A long list scrolls in its box: tabindex lets a keyboard scroll it too.
                f'<pre class="carddb-deck" tabindex="0" role="region" aria-label="{html_text(deck.filename)}">'
                f'<code>{html_lines(deck.text)}</code></pre>', ""]
    return "\n".join(out)
