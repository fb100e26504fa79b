"""Finding a card's art file and reading its size, refusing what cannot or should not be drawn.

An art path is relative to the game's folder (``rules/<game>/``) or the workspace root, and must stay
inside the workspace. A missing, corrupt or huge file is an ``ArtProblem``: the engine then draws the
generated placeholder and reports why, so one bad file never stops a render.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from PIL import Image

MAX_FILE_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000
_TOO_MANY_PIXELS = f"is too big (more than {MAX_PIXELS // 1_000_000} million pixels)"


class ArtProblem(Exception):
    """Why an art file cannot be drawn, worded to follow the file name."""


def resolve_art(root: Path, game_id: str, art: str) -> tuple[Path, tuple[int, int]]:
    root = root.resolve()
    candidates = [root / "rules" / game_id / art, root / art]
    path = next((p.resolve() for p in candidates if p.is_file()), None)
    if path is None:
        raise ArtProblem("was not found")
    if not path.is_relative_to(root):
        raise ArtProblem("is outside the workspace")
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ArtProblem(f"is too big ({size / 1e6:.0f} MB; the limit is {MAX_FILE_BYTES // 1024 // 1024} MB)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise ArtProblem(_TOO_MANY_PIXELS)
                image.verify()
    except ArtProblem:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtProblem(_TOO_MANY_PIXELS) from None
    except (OSError, SyntaxError, ValueError):
        raise ArtProblem("is not a readable image") from None
    if width < 1 or height < 1:
        raise ArtProblem("is an empty image")
    return path, (width, height)
