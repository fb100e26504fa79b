"""Deck sheets: card faces laid on grids for Tabletop Simulator (``research/tts-cockatrice.md`` §1.5-1.6).

A sheet is a grid of at most 10 x 7 cells, row by row, every cell the same size, the whole image at most
4096 pixels each way (TTS's recommended maximum). A sheet holds at most 69 cards: with 70 the last slot of
a 10 x 7 grid would be taken, which TTS uses as the hidden face when ``BackIsHidden`` is off; carddb sets
it on and still leaves that slot blank, safe under either convention. More cards go on further sheets.
Each sheet's grid is the one that shows its cards largest (ties: the fewest empty cells), and a cell is
never larger than the rendered face.
"""

from __future__ import annotations

import io
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from carddb.errors import OutputError

MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_SIDE = 4096
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
THUMBNAIL = 256  # tts-deckconverter's saved-object thumbnail: 256 x 256, the card 234 high, centred
THUMBNAIL_CARD_HEIGHT = 234
JPEG_QUALITY = 90
#: Faces kept decoded and resized to a sheet cell: a card is on the sheet of every deck holding it, and one
#: game's faces fit (a 409 x 571 cell is 0.7 MB, so at most about 60 MB).
CELLS_KEPT = 80


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    cell: tuple[int, int]  # pixels

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.cell[0], self.rows * self.cell[1]

    def box(self, index: int) -> tuple[int, int, int, int]:
        """The pixel box of slot ``index`` (0-based, row by row): what TTS shows for ``CardID % 100``."""
        column, row = index % self.columns, index // self.columns
        left, top = column * self.cell[0], row * self.cell[1]
        return left, top, left + self.cell[0], top + self.cell[1]


def plan_grid(count: int, face: tuple[int, int]) -> Grid:
    """The grid for ``count`` cards (1 to 69) of ``face`` pixels: the largest cells, then the fewest gaps."""
    if not 1 <= count <= CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {CARDS_PER_SHEET} cards, not {count}")
    width, height = face
    best: tuple[float, int, int, int] | None = None
    for columns in range(1, MAX_COLUMNS + 1):
        rows = math.ceil(count / columns)
        if rows > MAX_ROWS:
            continue
        scale = min(1.0, MAX_SIDE / (columns * width), MAX_SIDE / (rows * height))
        key = (-scale, columns * rows - count, columns, rows)
        if best is None or key < best:
            best = key
    assert best is not None  # 10 columns always fit 69 cards in 7 rows
    scale, columns, rows = -best[0], best[2], best[3]
    cell = (max(1, math.floor(width * scale)), max(1, math.floor(height * scale)))
    return Grid(columns, rows, cell)


def split(cards: Sequence[str]) -> list[list[str]]:
    """``cards`` (one entry per distinct card) in sheets of at most 69."""
    return [list(cards[i:i + CARDS_PER_SHEET]) for i in range(0, len(cards), CARDS_PER_SHEET)]


def open_face(path: Path):  # type: ignore[no-untyped-def]
    """A face as RGB (transparency flattened onto white); ``OutputError`` when it is not an image."""
    from PIL import Image, UnidentifiedImageError

    from carddb.exporters.faces import flatten

    try:
        with Image.open(path) as image:
            image.load()
            return flatten(image)
    except (OSError, UnidentifiedImageError) as exc:
        raise OutputError(f"{path}: not a readable image ({exc})") from None


def face_size(path: Path) -> tuple[int, int]:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            return image.size
    except (OSError, UnidentifiedImageError) as exc:
        raise OutputError(f"{path}: not a readable image ({exc})") from None


def compose(grid: Grid, faces: Sequence[Path]) -> bytes:
    """The sheet as a baseline RGB JPEG: ``faces[i]`` resized into slot ``i``, empty slots white."""
    from PIL import Image

    def cell(path: Path):  # type: ignore[no-untyped-def]
        return _cell(path, grid.cell)

    sheet = Image.new("RGB", grid.size, "white")
    # Pillow decodes and resizes without holding the GIL: a sheet of 60 faces uses every core
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for index, face in enumerate(pool.map(cell, faces)):
            sheet.paste(face, grid.box(index)[:2])
    return _jpeg(sheet)


_cells: OrderedDict[tuple[str, int, int, tuple[int, int]], object] = OrderedDict()
_cells_lock = threading.Lock()


def _cell(path: Path, size: tuple[int, int]):  # type: ignore[no-untyped-def]
    """The face at ``path`` resized to ``size``, decoded once while the file is unchanged."""
    from PIL import Image

    try:
        stat = path.stat()
    except OSError:
        return open_face(path)  # which says why it cannot be read
    key = (str(path), stat.st_mtime_ns, stat.st_size, size)
    with _cells_lock:
        if key in _cells:
            _cells.move_to_end(key)
            return _cells[key]
    face = open_face(path)
    if face.size != size:
        face = face.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
    with _cells_lock:
        _cells[key] = face
        while len(_cells) > CELLS_KEPT:
            _cells.popitem(last=False)
    return face


def back_image(path: Path, cell: tuple[int, int]) -> bytes:
    from PIL import Image

    back = open_face(path)
    if back.size != cell:
        back = back.resize(cell, Image.Resampling.LANCZOS, reducing_gap=2.0)
    return _jpeg(back)


def thumbnail(path: Path) -> bytes:
    """A 256 x 256 transparent PNG with the card 234 pixels high in the middle (the Saved Objects icon)."""
    from PIL import Image

    face = open_face(path)
    width = max(1, round(face.width * THUMBNAIL_CARD_HEIGHT / face.height))
    face = face.resize((min(width, THUMBNAIL), THUMBNAIL_CARD_HEIGHT), Image.Resampling.LANCZOS)
    image = Image.new("RGBA", (THUMBNAIL, THUMBNAIL), (0, 0, 0, 0))
    image.paste(face, ((THUMBNAIL - face.width) // 2, (THUMBNAIL - face.height) // 2))
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def _jpeg(image) -> bytes:  # type: ignore[no-untyped-def]
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return buffer.getvalue()
