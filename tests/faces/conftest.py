"""Helpers for the card face tests: games, templates, cards and a scratch workspace with its own templates."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from carddb.core.cards.card import Card, Printing
from carddb.core.game.definition import GameDefinition, load_game
from carddb.layout import TemplateSet, load_templates

REPO = Path(__file__).resolve().parents[2]


def game(game_id: str) -> GameDefinition:
    return load_game(REPO / "rules" / game_id)


def templates(game_id: str) -> TemplateSet:
    return load_templates(REPO, game(game_id))


def monster(name: str = "Blaze Drake", type_: str = "FIRE", **fields: object) -> Card:
    values = {"type": type_, "atk": 5, "def": 3, "level": 4, "categories": ["Dragon"]} | fields
    return Card("shmod", name, "monster", text="Destroy 1 spell on the field.", fields=values,
                printings=[Printing("base", "012", "rare")])


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A workspace with the real shmod definition and templates, free to be changed by the test."""
    (tmp_path / "rules").mkdir()
    shutil.copytree(REPO / "rules" / "shmod", tmp_path / "rules" / "shmod",
                    ignore=shutil.ignore_patterns("cards", "decks"))
    (tmp_path / "templates").mkdir()
    shutil.copy(REPO / "templates" / "icons.toml", tmp_path / "templates" / "icons.toml")
    shutil.copytree(REPO / "templates" / "shmod", tmp_path / "templates" / "shmod")
    return tmp_path


def write_template(root: Path, name: str, text: str) -> Path:
    path = root / "templates" / "shmod" / name
    path.write_text(text, encoding="utf-8")
    return path
