"""Deck sheets: card faces laid on grids for Tabletop Simulator (``research/tts-cockatrice.md`` §1.5-1.6).

A sheet is a grid of at most 10 x 7 cells, row by row, every cell the same size, the whole image at most
4096 pixels each way (TTS's recommended maximum). A sheet holds at most 69 cards: with 70 the last slot of
a 10 x 7 grid would be taken, which TTS uses as the hidden face when ``BackIsHidden`` is off; carddb sets
it on and still leaves that slot blank, safe under either convention. More cards go on further sheets, cut
where their keys say (``split``): a card added to a set of a thousand changes one sheet, not the fifteen after it.
Each sheet's grid is the one that shows its cards largest (ties: the fewest empty cells), and a cell is never
larger than the rendered face.
"""

from __future__ import annotations

import io
import itertools
import math
import threading
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from carddb.errors import OutputError

MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_SIDE = 4096
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
#: Where more cards than a sheet holds are cut (``split``): a sheet holds at least 50 and ends at the first card
#: after that whose key is a boundary, one in 8 (about 57 cards a sheet: 99 sheets, the most a saved object names,
#: hold about 5,600 cards; more are cut every 69).
SHEET_LEAST = 50
BOUNDARY_EVERY = 8
THUMBNAIL = 256  # tts-deckconverter's saved-object thumbnail: 256 x 256, the card 234 high, centred
THUMBNAIL_CARD_HEIGHT = 234
JPEG_QUALITY = 90
WHITE = (255, 255, 255)
T = TypeVar("T")
#: Faces kept decoded and resized to a sheet cell: a card is on the sheet of every deck holding it, and one
#: game's faces fit (a 409 x 571 cell is 0.7 MB, a face of 697 x 1016 on a sheet of few cards 2.1 MB). An export with
#: more cells than this keeps its first ones for the next export (``_cell``).
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


def split(cards: Sequence[T], key: Callable[[T], str] = str, most: int | None = None) -> list[list[T]]:
    """``cards`` (one entry per distinct card, in order) in sheets of at most 69, cut where the cards say: a sheet
    ends at a card whose ``key`` is a boundary (one key in ``BOUNDARY_EVERY``) once it holds ``SHEET_LEAST`` cards,
    else at 69. A card added or removed changes its own sheet (two at times), not every sheet after it, as cutting
    every 69 cards did: the sheets after it start and end at the same cards. As many cards as one sheet holds stay
    on one sheet; when the cut sheets would be more than ``most``, they are cut every 69 cards (the fewest sheets).
    """
    if len(cards) <= CARDS_PER_SHEET:
        return [list(cards)] if cards else []
    chunks: list[list[T]] = [[]]
    for card in cards:
        chunk = chunks[-1]
        chunk.append(card)
        if len(chunk) == CARDS_PER_SHEET or (len(chunk) >= SHEET_LEAST and _boundary(key(card))):
            chunks.append([])
    chunks = [chunk for chunk in chunks if chunk]
    if most is not None and len(chunks) > most:
        return [list(cards[i:i + CARDS_PER_SHEET]) for i in range(0, len(cards), CARDS_PER_SHEET)]
    return chunks


def _boundary(key: str) -> bool:
    """Whether a sheet may end at the card of ``key``: the same answer in every run and on every machine."""
    return zlib.crc32(key.encode("utf-8")) % BOUNDARY_EVERY == 0


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


def workers() -> int:
    """How many threads draw sheets: one per core this process may run on (decoding and resizing a face release
    the GIL, so threads share the cores; measured, processes gained nothing)."""
    from carddb.workers import cores

    return cores()


def compose(grid: Grid, faces: Sequence[Path]) -> bytes:
    """The sheet as a baseline RGB JPEG: ``faces[i]`` resized into slot ``i``, empty slots white."""
    (sheet,) = compose_all([(grid, faces)])
    return sheet


def compose_all(jobs: Sequence[tuple[Grid, Sequence[Path]]], threads: int | None = None) -> list[bytes]:
    """Every sheet of ``jobs`` (``compose`` of each), drawn on one pool of ``threads`` (default: ``workers()``).

    Decoding a face and resizing it to its cell, nine tenths of a sheet's work, run in Pillow without holding the
    GIL, so threads use every core; so does the JPEG encoding (``_jpeg``). Processes measured no faster and
    took more CPU time (a cell or a sheet pickled back), so this is one thread pool, never nested. Its tasks are the
    cells and the sheets' encodings; this thread submits them, sheet after sheet, and pastes each sheet's cells once
    they are ready, so one sheet alone still uses every core and no task waits for another. A face shared by
    sheets near each other is decoded once. However many sheets there are, at most two sheets' cells and
    ``threads`` sheets waiting to be encoded are in hand (a 10 x 7 sheet of poker faces is 49 MB decoded).
    """
    from concurrent.futures import Future

    from PIL import Image

    threads = threads or workers()
    export = next(_exports)
    results: list[Future[bytes] | None] = [None] * len(jobs)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        cells: dict[tuple[Path, tuple[int, int]], Future[Any]] = {}  # of the sheets in hand
        in_hand: deque[tuple[int, list[Future[Any]]]] = deque()
        encoding: deque[Future[bytes]] = deque()

        def finish() -> None:
            index, futures = in_hand.popleft()
            grid = jobs[index][0]
            # the cells cover the sheet: each slot gets its face, or white when empty, and a sheet of 16 MB is not
            # painted white first (a tenth of a sheet's time on this thread)
            sheet = Image.new("RGB", grid.size, None)
            for slot, future in enumerate(futures):
                sheet.paste(future.result(), grid.box(slot)[:2])
            for slot in range(len(futures), grid.columns * grid.rows):
                sheet.paste(WHITE, grid.box(slot))
            still = {(path, jobs[i][0].cell) for i, _ in in_hand for path in jobs[i][1]}
            for key in [key for key in cells if key not in still]:
                del cells[key]
            while len(encoding) >= threads:  # the sheets waiting to be encoded are in hand too
                encoding.popleft().result()
            results[index] = future = pool.submit(_jpeg, sheet)
            encoding.append(future)

        for index, (grid, faces) in enumerate(jobs):
            futures = []
            for path in faces:
                key = (path, grid.cell)
                if key not in cells:
                    cells[key] = pool.submit(_cell, path, grid.cell, export)
                futures.append(cells[key])
            in_hand.append((index, futures))
            if len(in_hand) > 1:  # one sheet's cells queued behind the one being waited for keep the pool busy
                finish()
        while in_hand:
            finish()
        return [future.result() for future in results if future is not None]


#: (face, modification time, size, cell) -> the cell, and the export (``compose_all``'s call) that last used it
_cells: OrderedDict[tuple[str, int, int, tuple[int, int]], tuple[object, int]] = OrderedDict()
_cells_lock = threading.Lock()
_exports = itertools.count(1)


def _cell(path: Path, size: tuple[int, int], export: int):  # type: ignore[no-untyped-def]
    """The face at ``path`` resized to ``size``, decoded once while the file is unchanged.

    A cell is kept in place of the least recently used one of an earlier export; when every kept cell is this
    export's, it is not kept. An export reads its cells in the same order every time (``carddb site serve`` after a
    save), and with more of them than are kept, evicting the least recently used would evict each cell just before
    it is asked for again: nothing would ever be found (88 cells of Shmod's 5 changed sheets, every one decoded
    again on each save). So the first ``CELLS_KEPT`` stay, and only the rest are decoded again."""

    try:
        stat = path.stat()
    except OSError:
        return open_face(path)  # which says why it cannot be read
    key = (str(path), stat.st_mtime_ns, stat.st_size, size)
    with _cells_lock:
        if key in _cells:
            _cells.move_to_end(key)
            face, _used = _cells[key]
            _cells[key] = (face, export)
            return face
    face = _resized(path, size)
    with _cells_lock:
        if key not in _cells and len(_cells) >= CELLS_KEPT:
            earlier = next((kept for kept, (_face, used) in _cells.items() if used != export), None)
            if earlier is None:
                return face
            del _cells[earlier]
        _cells[key] = (face, export)
    return face


def _resized(path: Path, size: tuple[int, int]):  # type: ignore[no-untyped-def]
    """The face at ``path`` resized to a cell. Inside a build it is also kept, losslessly, in the build's cache
    folder: its RGB bytes deflated by libdeflate, which inflate five times quicker than a PNG of the cell decodes and
    twenty times quicker than the face decodes and resizes. So a changed card's deck sheets read the other cards'
    cells back, and the pixels are the same either way."""
    import deflate
    from PIL import Image

    from carddb.incremental import cached_file, file_digest

    found = file_digest(path)
    if found == "missing":
        return open_face(path)  # which says why it cannot be read
    made = []

    def make() -> bytes:
        made.append(_resize(open_face(path), size))
        return bytes(deflate.deflate_compress(made[0].tobytes(), 6))

    kept = cached_file(_cell_key(found, size), make, CELL_SUFFIX)
    if made:
        return made[0]
    if kept is not None:
        try:
            pixels = deflate.deflate_decompress(kept.read_bytes(), 3 * size[0] * size[1])  # exactly that many
            return Image.frombytes("RGB", size, bytes(pixels))
        except (OSError, ValueError, deflate.DeflateError):  # a damaged entry: the face is resized again
            pass
    return _resize(open_face(path), size)


def _resize(face, size: tuple[int, int]):  # type: ignore[no-untyped-def]
    from PIL import Image

    return face if face.size == size else face.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)


def back_image(path: Path, cell: tuple[int, int]) -> bytes:
    return _jpeg(_resize(open_face(path), cell))


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
    """``image`` as a JPEG. Pillow encodes into a file it is given the descriptor of without holding the GIL, and
    into memory holding it: so the sheets are encoded into an unnamed temporary file and read back, and two sheets
    encode at once on two cores (a sheet of poker faces: 0.07 s, a third of a changed card's Tabletop Simulator
    export on one core). The bytes are the same either way (``test_tts_cells``); where no temporary file can be
    written (the temporary folder full or read-only), the sheet is encoded in memory."""
    import tempfile

    def encoded_into(file: Any) -> bytes:
        image.save(file, "JPEG", quality=JPEG_QUALITY, optimize=True)
        file.seek(0)
        return bytes(file.read())

    try:
        with tempfile.TemporaryFile() as file:
            return encoded_into(file)
    except OSError:
        return encoded_into(io.BytesIO())


#: A resized cell's entry in the build's cache: its key and this suffix.
CELL_SUFFIX = ".rgb"


def _cell_key(face_digest: str, size: tuple[int, int]) -> str:
    from carddb.incremental import code_digest, digest

    return digest("tts sheet cell", code_digest(("exporters",)), face_digest, size)


def keep_cells(faces: Sequence[Path], size: tuple[int, int]) -> None:
    """The cached cells of a sheet taken from the previous export as it is stay in the build's cache (pruning
    would otherwise remove them, and the sheet's next change would resize every face on it again)."""
    from carddb.incremental import file_digest, mark_used

    digests = {file_digest(path) for path in faces}
    mark_used(_cell_key(found, size) + CELL_SUFFIX for found in digests if found != "missing")
