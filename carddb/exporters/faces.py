"""Card face images for the exports: where ``carddb render`` puts them, brought up to date first.

The renderer writes ``<faces>/<game>/<stem>.<fmt>`` (``carddb.core.cards.slugs.card_stems``) and ``back.<fmt>``;
LackeyCCG wants small JPEGs
(its tutorial: "image files for the cards (in jpg format)"; plugins ship a few hundred pixels tall), so
faces are re-encoded here at a fixed height, keeping the card's aspect ratio.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from carddb.core.cards.card import Card
from carddb.core.cards.slugs import card_stems
from carddb.core.game.definition import GameDefinition
from carddb.errors import OutputError

FACE_SUFFIXES = (".png", ".jpg", ".jpeg")
LACKEY_HEIGHT = 560  # pixels: about 200 DPI for a 63 x 88 mm card, ~40-70 kB a face
BACK_KEY = "(back)"  # the card back among the face keys (a card key: its name, never this)


def find_face(faces_dir: Path, game_id: str, stem: str, files: set[str] | None = None) -> Path | None:
    """The face file of ``stem`` (the first of ``FACE_SUFFIXES`` there is). ``files``: the names of the files in
    the game's faces folder (``face_files``), for a caller looking for many faces."""
    folder = faces_dir / game_id
    for suffix in FACE_SUFFIXES:
        name = f"{stem}{suffix}"
        if name in files if files is not None else (folder / name).is_file():
            return folder / name
    return None


def face_files(folder: Path) -> set[str]:
    """The names of the files in ``folder``, links to files included (as ``Path.is_file`` finds them): one listing
    where asking for each face cost a system call a card in every export (20,000 for a game of 5,000 cards)."""
    try:
        with os.scandir(folder) as entries:
            return {entry.name for entry in entries if _is_file(entry)}
    except OSError:
        return set()


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def collect_faces(workspace_root: Path, game: GameDefinition, cards: Sequence[Card], faces_dir: Path,
                  notes: list[str], *, renderer: Callable[..., object] | None = None,
                  keys: dict[str, str] | None = None) -> tuple[dict[str, Path], Path]:
    """Every card's face and the back, brought up to date through ``render_faces`` first.

    The renderer redraws only what changed (a card, its template, fonts or art), so an export never ships a
    stale face. Returns ``({card.key: path}, back_path)``; raises ``OutputError`` naming the cards still
    without a face. ``cards`` are all the game's cards (face file names are unique within the game). ``keys``,
    when given, is filled with each face's digest (``{card.key: key}`` and ``BACK_KEY``): the renderer's key of
    all it was drawn from, else the file's own digest.
    """
    stems = card_stems(c.key for c in cards)
    drawn_keys: dict[str, str] = {}
    try:
        render = renderer or _default_renderer()
    except OutputError:
        if any(find_face(faces_dir, game.id, stems[c.key]) is None for c in cards):
            raise
        notes.append(f"the face renderer cannot be loaded; using the faces in {faces_dir / game.id} as they are")
    else:
        result = render(workspace_root, game, list(cards), faces_dir, fmt="png")
        drawn_keys = dict(getattr(result, "keys", None) or {})
        drawn = getattr(result, "drawn", None)
        if drawn:
            notes.append(f"rendered {len(drawn)} card faces into {faces_dir / game.id}")
    faces: dict[str, Path] = {}
    still: list[str] = []
    files = face_files(faces_dir / game.id)  # listed once the renderer is done with the folder
    for card in cards:
        path = find_face(faces_dir, game.id, stems[card.key], files)
        if path is None:
            still.append(card.key)
        else:
            faces[card.key] = path
    back = find_face(faces_dir, game.id, "back", files)
    if still or back is None:
        what = ", ".join(still[:5]) + (f" and {len(still) - 5} more" if len(still) > 5 else "")
        raise OutputError(f"no face image for {what or 'the card back'} in {faces_dir / game.id} "
                          f"after rendering; run `carddb render --game {game.id}` and look at its errors")
    if keys is not None:
        from carddb.incremental import file_digest

        for key, path in [*faces.items(), (BACK_KEY, back)]:
            keys[key] = drawn_keys.get(path.stem) or file_digest(path)
    return faces, back


def _default_renderer() -> Callable[..., object]:
    try:
        from carddb.paint.render import render_faces
    except ImportError as exc:
        raise OutputError(f"card faces are not rendered yet and the face renderer cannot be loaded ({exc}); "
                          "run `carddb render --game GAME` first") from None
    return render_faces


def jpeg_bytes(source: Path, height: int = LACKEY_HEIGHT, quality: int = 85) -> bytes:
    """``source`` as a baseline RGB JPEG ``height`` pixels tall (transparency flattened onto white)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(source) as image:
            image.load()
            rgb = flatten(image)
    except (OSError, UnidentifiedImageError) as exc:
        raise OutputError(f"{source}: not a readable image ({exc})") from None
    width = max(1, round(rgb.width * height / rgb.height))
    if rgb.height != height:
        rgb = rgb.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    buffer = io.BytesIO()
    rgb.save(buffer, "JPEG", quality=quality, optimize=True)
    return buffer.getvalue()


def flatten(image):  # type: ignore[no-untyped-def]
    from PIL import Image

    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        white = Image.new("RGB", rgba.size, "white")
        white.paste(rgba, mask=rgba.getchannel("A"))
        return white
    return image.convert("RGB")


def placeholder_jpeg(size: tuple[int, int], title: str, subtitle: str) -> bytes:
    """A plain card-sized image with a title: Lackey's ``spawned.jpg`` (tokens, and faces it cannot find)."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", size, (236, 232, 222))
    draw = ImageDraw.Draw(image)
    margin = max(4, size[0] // 20)
    draw.rectangle((margin, margin, size[0] - margin, size[1] - margin), outline=(90, 90, 90), width=3)
    font = ImageFont.load_default(size=max(12, size[0] // 14))
    small = ImageFont.load_default(size=max(10, size[0] // 20))
    for text, y, face in ((title, size[1] * 0.42, font), (subtitle, size[1] * 0.54, small)):
        box = draw.textbbox((0, 0), text, font=face)
        draw.text(((size[0] - (box[2] - box[0])) / 2, y), text, fill=(40, 40, 40), font=face)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()
