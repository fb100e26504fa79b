"""The studio's designer gallery: every card of a game as its face on the site, each with what the layout report
of the last build says of it (text shrunk, text cut, in the safe zone, low contrast), so a designer filters the
faces by a problem and fixes them one by one (``docs/studio.md``)."""

from __future__ import annotations

from typing import Any

from carddb.catalogue.studio_edits import Studio
from carddb.core.cards.slugs import card_stems
from carddb.incremental import Manifest
from carddb.paint.render import MANIFEST, face_path

#: The rules a face can break, as the gallery's filter names them (``carddb.layout.ops.Problem``).
RULES = {"shrunk": "text shrunk to fit", "overflow": "text cut", "too-small": "letters too small",
         "safe-zone": "in the safe zone", "contrast": "low contrast", "repeat": "text printed twice"}


def gallery_cards(studio: Studio, game_id: str) -> dict[str, Any]:
    """The game's cards in file order: key, kind, card file, page and face on the site, and the problems of its
    face as the last build drew it."""
    found = studio.game_cards(game_id)
    stems = card_stems(card.key for card, _ in found.cards)
    faces = studio.workspace.output_dir / "faces"
    report = Manifest.read(face_path(faces, game_id, None).parent / MANIFEST).parts
    cards = []
    for card, origin in found.cards:
        stem = stems[card.key]
        entry = report.get(stem, {})
        problems = [{"rule": "shrunk", "message": f"{box}: text shrunk from {wanted:g} pt to {size:g} pt"}
                    for box, size, wanted, overflow in entry.get("fits", []) if not overflow]
        problems += [{"rule": rule, "message": message} for _box, rule, message in entry.get("problems", [])]
        cards.append({"key": card.key, "kind": card.kind, "file": origin,
                      "page": f"/games/{game_id}/cards/{stem}/", "face": f"/assets/faces/{game_id}/{stem}.png",
                      "problems": problems})
    return {"game": game_id, "name": found.game.name, "rules": RULES, "cards": cards}
