"""The rulebook pages: the anchors the game definitions link to, the credits, and key numbers of each game.

Anchors are computed as MkDocs computes them: the ``toc`` extension of Python-Markdown slugifies each heading
with ``markdown.extensions.toc.slugify``. A heading slug that appears twice would get a ``_1`` suffix on its
second use, so a link could silently land on the wrong section; every required anchor must appear once.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
from markdown.extensions.toc import slugify

RULES = Path(__file__).resolve().parent.parent / "rules"

REQUIRED_ANCHORS = {
    "ssbm": ["building-a-deck", "deck-limit", "character-symbols", "character-extras", "turn", "damage",
             "ko-and-recovery", "match-modes", "combo-damage", "interrupting"],
    "shmod": ["how-to-build-a-deck", "side-deck", "fusion-transformation-stack", "limited-cards", "mana",
              "fusion-and-transformation-monsters", "phases", "battling", "card-anatomy"],
    "minibattle": ["building-a-deck", "level-cap", "copies-and-legendary-pokemon", "basic-pokemon", "evolution",
                   "boosters", "battle", "conditions", "special-abilities"],
    "website": ["building-a-deck", "base-sites", "limit-one-per-deck", "site-types", "setup",
                "components-that-need-cards-in-play", "critics", "winning", "turn"],
    "ssq": ["dice", "initiative", "actions-and-rate", "attacking-and-defending", "damage", "smash-points",
            "same-tick", "charging", "recovery", "items", "fighter-stats", "move-anatomy", "death",
            "beyond-recovery", "star-finish"],
}

TITLES = {
    "ssbm": "Super Smash Bros. Melee CCG",
    "shmod": "Shmod",
    "minibattle": "Pokemon Mini-Battle Card Game",
    "website": "Website TCG",
    "ssq": "Super Smash Quest Skirmish",
}

# The original authors as each seed names them (the ssq rules page names none, so the game's authors are credited).
CREDITS = {
    "ssbm": ["PSiNess", "PiMacleoud", "Blackbounder"],
    "shmod": ["Aarikku", "Naardaas"],
    "minibattle": ["Burninating_Torchic", "PokeCommunity"],
    "website": ["Alan", "Alan's site", "version 2.2"],
    "ssq": ["original authors of Super Smash Quest"],
}

KEY_FACTS = {
    "ssbm": ["**Power Block** has a DL of **5**", "**from 60 to 80 cards**", "7 + 3D = **10D**",
             "| 31D to 50D | a 1st Recovery card, then a 2nd Recovery card |", "**up to three times**"],
    "shmod": ["**10 Life**", "**50 or more cards**", "**exactly 15 cards**", "**4 copies**", "**7 cards**",
              "**1 mana per turn**"],
    "minibattle": ["**200**", "**exactly 10 cards**", "**3 copies**", "| common | 3 |", "| uncommon | 2 |",
                   "**2 boosters a day**", "**10 boosters a week**", "takes 2 damage"],
    "website": ["**exactly 60 cards**", "**4 copies**", "**100 points**", "**top 5 cards**", "**7 cards**",
                "1 IP, 1 GP, 1 CP"],
    "ssq": ["| 10 | 2 successes |", "1 x 2 = **2** damage", "**tick 10**", "**Speed 4 and Rate 4**",
            "**1 every 5 ticks**", "**1 SP**"],
}

HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def read(game: str) -> str:
    return (RULES / game / "rulebook.md").read_text(encoding="utf-8")


def heading_slugs(text: str) -> list[str]:
    """The slug of every ATX heading outside fenced code, before MkDocs' de-duplication suffixes."""
    slugs, in_fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        match = None if in_fence else HEADING.match(line)
        if match:
            slugs.append(slugify(match.group(2), "-"))
    return slugs


def rendered_ids(text: str) -> list[str]:
    """The heading ids Python-Markdown actually renders with the extensions the site enables."""
    md = markdown.Markdown(extensions=["toc", "admonition", "attr_list", "tables"])
    md.convert(text)
    ids: list[str] = []

    def walk(tokens: list[dict]) -> None:
        for token in tokens:
            ids.append(token["id"])
            walk(token["children"])

    walk(md.toc_tokens)
    return ids


@pytest.mark.parametrize("game", sorted(REQUIRED_ANCHORS))
def test_required_anchors_appear_exactly_once(game: str) -> None:
    slugs = heading_slugs(read(game))
    counts = {anchor: slugs.count(anchor) for anchor in REQUIRED_ANCHORS[game]}
    assert counts == dict.fromkeys(REQUIRED_ANCHORS[game], 1)


@pytest.mark.parametrize("game", sorted(REQUIRED_ANCHORS))
def test_rendered_page_has_the_anchors_and_no_duplicate_headings(game: str) -> None:
    text = read(game)
    ids = rendered_ids(text)
    assert ids == heading_slugs(text)  # no heading hidden in code or an admonition, none renamed by de-duplication
    assert set(REQUIRED_ANCHORS[game]) <= set(ids)
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game", sorted(REQUIRED_ANCHORS))
def test_page_starts_with_the_game_title_and_explicit_ids_are_not_used(game: str) -> None:
    text = read(game)
    assert text.splitlines()[0] == f"# {TITLES[game]}"
    assert sum(1 for line in text.splitlines() if line.startswith("# ")) == 1
    assert "{#" not in text
    assert "<" not in re.sub(r"`[^`]*`", "", text)  # plain Markdown, no HTML


@pytest.mark.parametrize("game", sorted(REQUIRED_ANCHORS))
def test_page_credits_the_original_authors_near_the_top(game: str) -> None:
    text = read(game)
    credits_start = text.index("## Source and credits")
    assert credits_start == text.index("\n## ") + 1  # the first section after the intro
    credits = " ".join(text[credits_start:text.index("\n## ", credits_start + 1)].split())
    for name in CREDITS[game]:
        assert name in credits


@pytest.mark.parametrize("game", sorted(REQUIRED_ANCHORS))
def test_key_numbers_of_the_rules_are_stated(game: str) -> None:
    text = read(game)
    missing = [fact for fact in KEY_FACTS[game] if fact not in text]
    assert missing == []


def test_readings_of_the_game_definitions_are_stated_as_admonitions() -> None:
    readings = {game: re.findall(r'^!!! note "Reading: ([^"]+)"$', read(game), re.M) for game in REQUIRED_ANCHORS}
    assert {game: len(found) for game, found in readings.items()} == {
        "ssbm": 10, "shmod": 14, "minibattle": 5, "website": 7, "ssq": 11}


def test_ssbm_says_the_second_combo_example_does_not_add_up() -> None:
    words = " ".join(read("ssbm").split())
    assert "This example does not add up" in words
    assert "the two attacks together deal 10D + 8D = 18D" in words
    assert "total damage on that attack is 15D" in words
