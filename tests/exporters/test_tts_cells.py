"""A TTS deck sheet's cells (each face resized to the sheet's grid) are kept in the build's cache folder, so a
changed card's sheets read the other cards back instead of decoding and resizing every face again. What is read
back must be exactly the cell made afresh: a sheet from an incremental build equals a clean build's."""

from __future__ import annotations

import os
import random
from pathlib import Path

import deflate
from PIL import Image, ImageDraw

from carddb.exporters.tts.sheets import _resize, _resized, open_face
from carddb.incremental import remember_in

CELL = (409, 571)


def _face(path: Path) -> Path:
    rng = random.Random(7)
    image = Image.new("RGBA", (697, 1016), (250, 240, 220, 255))
    draw = ImageDraw.Draw(image)
    for _ in range(300):  # edges and colours that a lossy cache would blur
        x, y = rng.randrange(697), rng.randrange(1016)
        draw.rectangle((x, y, x + rng.randrange(4, 60), y + rng.randrange(2, 30)),
                       fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(128, 256)))
    image.save(path)
    return path


def test_a_cell_read_back_from_the_cache_has_the_pixels_of_one_made_afresh(tmp_path: Path) -> None:
    face = _face(tmp_path / "face.png")
    fresh = _resize(open_face(face), CELL)
    cache = tmp_path / "cache"
    with remember_in(cache, prune=False):
        made = _resized(face, CELL)
        read = _resized(face, CELL)
    (entry,) = cache.iterdir()
    assert made.tobytes() == read.tobytes() == fresh.tobytes()
    assert (read.mode, read.size) == ("RGB", CELL)
    # The second was read from the entry: an entry changed behind the build's back is what it returns.
    entry.write_bytes(bytes(deflate.deflate_compress(Image.new("RGB", CELL, (1, 2, 3)).tobytes())))
    with remember_in(cache, prune=False):
        assert _resized(face, CELL).getpixel((0, 0)) == (1, 2, 3)


def test_a_damaged_or_misfit_cache_entry_is_resized_again(tmp_path: Path) -> None:
    face = _face(tmp_path / "face.png")
    fresh = _resize(open_face(face), CELL).tobytes()
    cache = tmp_path / "cache"
    with remember_in(cache, prune=False):
        _resized(face, CELL)
    (entry,) = cache.iterdir()
    entry.write_bytes(entry.read_bytes()[:200])  # truncated
    with remember_in(cache, prune=False):
        assert _resized(face, CELL).tobytes() == fresh
    entry.write_bytes(bytes(deflate.deflate_compress(Image.new("L", CELL).tobytes())))  # a third of the size
    with remember_in(cache, prune=False):
        assert _resized(face, CELL).tobytes() == fresh


def test_outside_a_build_nothing_is_cached(tmp_path: Path) -> None:
    face = _face(tmp_path / "face.png")
    assert _resized(face, CELL).tobytes() == _resize(open_face(face), CELL).tobytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["face.png"]


def test_a_sheet_has_each_face_in_its_slot_and_every_empty_slot_white(tmp_path: Path) -> None:
    """Eleven faces on a grid of twelve slots: each slot read back from the JPEG shows its face's colour, the empty
    one white (the sheet is not painted white first; each slot is filled)."""
    import io

    from carddb.exporters.tts.sheets import compose, plan_grid

    colours = [(20 * n, 200 - 15 * n, 60 + 10 * n) for n in range(11)]
    faces = []
    for number, colour in enumerate(colours):
        path = tmp_path / f"face{number}.png"
        Image.new("RGB", (120, 168), colour).save(path)
        faces.append(path)
    grid = plan_grid(len(faces), (120, 168))
    assert grid.columns * grid.rows > len(faces)
    with Image.open(io.BytesIO(compose(grid, faces))) as sheet:
        sheet = sheet.convert("RGB")
        for slot in range(grid.columns * grid.rows):
            left, top, right, bottom = grid.box(slot)
            middle = sheet.getpixel(((left + right) // 2, (top + bottom) // 2))
            wanted = colours[slot] if slot < len(colours) else (255, 255, 255)
            assert all(abs(a - b) <= 6 for a, b in zip(middle, wanted, strict=True)), (slot, middle, wanted)


def test_an_export_with_more_cells_than_are_kept_finds_its_first_ones_next_time(tmp_path: Path, monkeypatch) -> None:
    """``carddb site serve`` composes a game's changed sheets again after each save, asking for the same cells in the
    same order. With more cells than are kept, the cells kept are the first ones, found the next time; evicting the
    least recently used would have evicted each just before it was asked for (all five decoded again)."""
    from collections import OrderedDict

    from carddb.exporters.tts import sheets

    faces = []
    for number in range(5):
        path = tmp_path / f"face{number}.png"
        Image.new("RGB", (120, 168), (40 * number, 90, 200 - 30 * number)).save(path)
        faces.append(path)
    monkeypatch.setattr(sheets, "_cells", OrderedDict())
    monkeypatch.setattr(sheets, "CELLS_KEPT", 3)
    decoded: list[str] = []
    resized = sheets._resized
    monkeypatch.setattr(sheets, "_resized", lambda path, size: decoded.append(path.name) or resized(path, size))
    grid = sheets.plan_grid(len(faces), (120, 168))

    def compose() -> bytes:  # one thread: the cells asked for in the sheet's order, as the test counts them
        return sheets.compose_all([(grid, faces)], threads=1)[0]

    first = compose()
    assert decoded == [path.name for path in faces]
    decoded.clear()
    assert compose() == first
    assert decoded == ["face3.png", "face4.png"]
    # a face saved again is decoded again, and takes the place of a cell the export no longer asks for
    Image.new("RGB", (120, 168), (1, 2, 3)).save(faces[0])
    os.utime(faces[0], ns=(1, 1))
    decoded.clear()
    compose()
    assert decoded == ["face0.png", "face3.png", "face4.png"]


def test_a_sheet_encoded_through_a_file_has_the_bytes_of_one_encoded_in_memory(tmp_path: Path) -> None:
    """Sheets are encoded into a temporary file (Pillow then lets other threads run) and read back: the same JPEG,
    byte for byte, as Pillow's encoding into memory, so an earlier build's sheets and a clean build's still agree."""
    import io

    from carddb.exporters.tts.sheets import JPEG_QUALITY, _jpeg

    with Image.open(_face(tmp_path / "face.png")) as face:
        image = face.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
    assert _jpeg(image) == buffer.getvalue()
    with Image.open(io.BytesIO(_jpeg(image))) as read_back:
        assert read_back.format == "JPEG" and read_back.size == image.size


def test_a_sheet_is_encoded_in_memory_where_no_temporary_file_can_be_written(tmp_path: Path,
                                                                             monkeypatch) -> None:
    """A full or read-only temporary folder does not fail the export: the sheet is encoded in memory, alike."""
    import io
    import tempfile

    from carddb.exporters.tts.sheets import JPEG_QUALITY, _jpeg

    with Image.open(_face(tmp_path / "face.png")) as face:
        image = face.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)

    def no_room(*args: object, **options: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", no_room)
    assert _jpeg(image) == buffer.getvalue()
