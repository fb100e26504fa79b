"""Fixtures of the exporter tests: a stand-in face renderer, a catalogue of awkward cards, exports."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import Image

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import card_stems
from carddb.core.game.definition import GameDefinition
from carddb.exporters.lackey import export_lackey
from carddb.exporters.report import ExportReport

GAMES = ("minibattle", "shmod", "ssbm", "ssq", "website")
FACE_SIZE = (126, 176)  # 63 x 88 mm at 2 px/mm: the poker-size aspect ratio


def fake_render(workspace_root, game, cards, out_dir, *, dpi=300, fmt="png", progress=None):
    """What ``carddb.paint.render.render_faces`` writes, in miniature: ``<out>/<game>/<stem>.png`` + back."""
    folder = Path(out_dir) / game.id
    folder.mkdir(parents=True, exist_ok=True)
    stems = card_stems(card.key for card in cards)
    for card in cards:
        Image.new("RGB", FACE_SIZE, (200, 40, 40)).save(folder / f"{stems[card.key]}.{fmt}")
    Image.new("RGB", FACE_SIZE, (40, 40, 200)).save(folder / f"back.{fmt}")


@dataclass
class FakeCatalogue:
    """The two catalogue calls the exporters make, over a list of cards built in the test."""

    definition: GameDefinition
    card_list: list[Card] = field(default_factory=list)

    def game(self, game_id: str) -> GameDefinition:
        return self.definition

    def cards(self, game_id: str, set_code: str | None = None) -> list[Card]:
        return list(self.card_list)


@pytest.fixture(scope="session")
def faces_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("faces")


@pytest.fixture(scope="session")
def lackey_exports(tmp_path_factory, catalogue, repo_root, faces_dir) -> dict[str, ExportReport]:
    """Every bundled game exported once, with a base URL and a zip."""
    out = tmp_path_factory.mktemp("lackey")
    return {game: export_lackey(repo_root, catalogue, game, out / game, base_url=f"https://example.org/{game}/",
                                zip=True, faces_dir=faces_dir, renderer=fake_render) for game in GAMES}


def pattern_face(slug: str, size: tuple[int, int] = FACE_SIZE) -> Image.Image:
    """A face no other card shares: a colour from the slug, a white top-left corner, a black foot stripe
    (a cell cut from the wrong place, flipped or shifted no longer matches)."""
    import zlib

    from PIL import ImageDraw

    value = zlib.crc32(slug.encode())
    image = Image.new("RGB", size, (value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0] // 3, size[1] // 4), fill="white")
    draw.rectangle((0, size[1] * 7 // 8, size[0], size[1]), fill="black")
    return image


def pattern_render(workspace_root, game, cards, out_dir, *, dpi=300, fmt="png", progress=None, size=FACE_SIZE):
    """Like ``fake_render``, but every face is told apart by ``pattern_face``."""
    folder = Path(out_dir) / game.id
    folder.mkdir(parents=True, exist_ok=True)
    stems = card_stems(card.key for card in cards)
    for card in cards:
        path = folder / f"{stems[card.key]}.{fmt}"
        if not path.exists():
            pattern_face(stems[card.key], size).save(path)
    pattern_face("the back", size).save(folder / f"back.{fmt}")


@pytest.fixture
def tmp_workspace(tmp_path, repo_root, monkeypatch) -> Path:
    """A copy of the bundled games' rules whose ``output/`` is a temporary folder, its faces drawn by
    ``pattern_render``: the export commands run as a user runs them without touching the repository's
    ``output/``."""
    import shutil

    from carddb.exporters import faces

    root = tmp_path / "workspace"
    shutil.copytree(repo_root / "rules", root / "rules")
    monkeypatch.setattr(faces, "_default_renderer", lambda: pattern_render)
    return root
